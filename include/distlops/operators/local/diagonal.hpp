#pragma once
/// \file diagonal.hpp
/// `local::Diagonal`: element-wise multiplication by a vector of weights d, PyLops'
/// `Diagonal(diag, dims, axis)`. The adjoint multiplies by conj(d).
///
/// Shapes: without `dims` the operator acts on vectors of d's length. With `dims` and `axis`,
/// arrays of shape `dims` are multiplied by d broadcast along `axis` (d has dims[axis]
/// values: y[..., i, ...] = d[i] x[..., i, ...]); a d with as many values as the whole array
/// multiplies element by element (PyLops' N-d `diag`, whose shape gives `dims`). Domain and
/// range have the shape `dims`.
///
/// Errors: ShapeMismatch when d fits neither dims[axis] nor the whole array; InvalidArgument
/// for an axis out of range or a bad shape.

#include <span>
#include <vector>

#include "distlops/core/instantiate.hpp"
#include "distlops/operators/local/accumulating_operator.hpp"

namespace distlops::local {

template <Scalar T, MemorySpace Space = Host>
class DiagonalOperator final : public AccumulatingOperator<T, Space> {
 public:
  using Vector = typename AccumulatingOperator<T, Space>::Vector;

  /// `diag` in host memory; `dims` empty means (diag.size()); `axis` counts from the end when
  /// negative.
  DiagonalOperator(std::span<const T> diag, Shape dims, int axis);

  void forward_add(T alpha, const Vector& x, T beta, Vector& y) const override;
  void adjoint_add(T alpha, const Vector& y, T beta, Vector& x) const override;

 private:
  Vector diag_;  // d and conj(d) in Space
  Vector conj_diag_;
  Index outer_ = 1;   // product of the extents before the broadcast axis
  Index length_ = 0;  // number of weights
  Index inner_ = 1;   // product of the extents after it
};

/// Multiplication by `diag`, broadcast along `axis` of arrays of shape `dims` (see above).
template <Scalar T, MemorySpace Space = Host>
LocalOperator<T, Space> Diagonal(std::span<const T> diag, const Shape& dims = {}, int axis = -1);

#define DISTLOPS_EXTERN_DIAGONAL(T, S)          \
  extern template class DiagonalOperator<T, S>; \
  extern template LocalOperator<T, S> Diagonal<T, S>(std::span<const T>, const Shape&, int);
DISTLOPS_FOR_EACH_SCALAR_AND_SPACE(DISTLOPS_EXTERN_DIAGONAL)
#undef DISTLOPS_EXTERN_DIAGONAL

}  // namespace distlops::local
