#pragma once
/// \file transpose.hpp
/// `local::Transpose`: permutation of the axes of an N-d array (C order), PyLops'
/// `Transpose(dims, axes)` and NumPy's `x.transpose(axes)`: the range has the shape
/// (dims[axes[0]], ..., dims[axes[N-1]]) and y[i_0, ..., i_{N-1}] = x[j] with
/// j[axes[k]] = i_k. The adjoint applies the inverse permutation.
///
/// The output is written row by row (axpby kernels) when its last axis is also the input's,
/// and otherwise in tiles spanning its last axis and the axis that is contiguous in the input.
/// On the device (Cuda) the first case is one gather kernel over the output, the second one
/// kernel of 32 x 32 tiles staged in shared memory.
/// Errors: InvalidArgument when `axes` is not a permutation of the axes (negative entries count
/// from the end) or for a bad shape.

#include <vector>

#include "distlops/core/instantiate.hpp"
#include "distlops/operators/local/accumulating_operator.hpp"

namespace distlops::local {

template <Scalar T, MemorySpace Space = Host>
class TransposeAxesOperator final : public AccumulatingOperator<T, Space> {
 public:
  using Vector = typename AccumulatingOperator<T, Space>::Vector;

  TransposeAxesOperator(const Shape& dims, const std::vector<int>& axes);

  void forward_add(T alpha, const Vector& x, T beta, Vector& y) const override;
  void adjoint_add(T alpha, const Vector& y, T beta, Vector& x) const override;

 private:
  /// One direction: the output shape, for each output axis the input stride and the output
  /// stride, and the output axis (other than the last) read with the smallest input stride.
  struct Permutation {
    Shape shape;
    Shape input_strides;
    Shape output_strides;
    std::size_t contiguous_axis;
  };
  static Permutation make_permutation(const Shape& shape, const Shape& input_strides);
  void apply(const Permutation& permutation, T alpha, const T* in, T beta, T* out) const;

  Permutation forward_;
  Permutation adjoint_;
};

/// x.transpose(axes) for arrays of shape `dims`.
template <Scalar T, MemorySpace Space = Host>
LocalOperator<T, Space> Transpose(const Shape& dims, const std::vector<int>& axes) {
  return LocalOperator<T, Space>::template make<TransposeAxesOperator<T, Space>>(dims, axes);
}

DISTLOPS_EXTERN_TEMPLATE_CLASS(TransposeAxesOperator)

}  // namespace distlops::local
