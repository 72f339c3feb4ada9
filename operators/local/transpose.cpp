// SPDX-License-Identifier: BSD-3-Clause
// Copyright (c) 2026 The distlops authors
// Transpose: a gather of the output, by rows or by tiles (transpose_kernels.hpp), with the
// input strides permuted.
#include "distlops/operators/local/transpose.hpp"

#include <algorithm>

#include "../box_kernels.hpp"
#include "../support.hpp"
#include "../two_way_operator.hpp"
#include "distlops/core/instantiate.hpp"
#include "transpose_kernels.hpp"

namespace distlops::local {

namespace {

// One direction: the output shape, for each output axis the input stride and the output
// stride, and the output axis (other than the last) read with the smallest input stride.
struct TransposePermutation {
  Shape shape;
  Shape input_strides;
  Shape output_strides;
  std::size_t contiguous_axis = 0;
};

template <Scalar T, MemorySpace Space>
class TransposeAxesOperator final : public detail::TwoWayOperator<T, Space, TransposePermutation> {
 public:
  TransposeAxesOperator(const Shape& dims, const std::vector<int>& axes);

 private:
  static TransposePermutation make_permutation(const Shape& shape, const Shape& input_strides);
  void apply(const TransposePermutation& permutation, T alpha, const T* in, T beta,
             T* out) const override;
};

// The axes normalised and checked to be a permutation of [0, ndim).
std::vector<int> permutation_of(const std::string& op, const Shape& dims,
                                const std::vector<int>& axes) {
  const int ndim = static_cast<int>(dims.size());
  if (static_cast<int>(axes.size()) != ndim) {
    throw InvalidArgument(op + ": axes must list each of the " + std::to_string(ndim) +
                          " axes of dims " + to_string(dims) + " once, got " +
                          std::to_string(axes.size()) + " entries");
  }
  std::vector<int> normalised(axes.size());
  std::vector<bool> seen(axes.size(), false);
  for (std::size_t k = 0; k < axes.size(); ++k) {
    normalised[k] = detail::normalise_axis(op, axes[k], ndim);
    if (seen[static_cast<std::size_t>(normalised[k])]) {
      throw InvalidArgument(op + ": axis " + std::to_string(normalised[k]) +
                            " appears twice in axes");
    }
    seen[static_cast<std::size_t>(normalised[k])] = true;
  }
  return normalised;
}

// The shape after the permutation (axis k of the result is axis `order[k]` of `shape`).
Shape permuted(const Shape& shape, const std::vector<int>& order) {
  Shape result(order.size());
  for (std::size_t k = 0; k < order.size(); ++k)
    result[k] = shape[static_cast<std::size_t>(order[k])];
  return result;
}

Shape permuted_shape(const Shape& dims, const std::vector<int>& axes) {
  if (axes.size() != dims.size()) return dims;  // rejected by the constructor
  for (int axis : axes) {
    if (axis < -int(dims.size()) || axis >= int(dims.size())) return dims;
  }
  std::vector<int> order(axes);
  for (int& axis : order)
    axis = axis < 0 ? axis + int(dims.size()) : axis;
  return permuted(dims, order);
}

}  // namespace

template <Scalar T, MemorySpace Space>
TransposeAxesOperator<T, Space>::TransposeAxesOperator(const Shape& dims,
                                                       const std::vector<int>& axes)
    : detail::TwoWayOperator<T, Space, TransposePermutation>(dims, permuted_shape(dims, axes),
                                                             "Transpose") {
  detail::check_shape(this->name(), "dims", dims);
  const std::vector<int> order = permutation_of(this->name(), dims, axes);
  std::vector<int> inverse(order.size());
  for (std::size_t k = 0; k < order.size(); ++k)
    inverse[static_cast<std::size_t>(order[k])] = static_cast<int>(k);
  const Shape range = permuted(dims, order);
  this->forward_ = make_permutation(range, permuted(detail::strides_of(dims), order));
  this->adjoint_ = make_permutation(dims, permuted(detail::strides_of(range), inverse));
}

template <Scalar T, MemorySpace Space>
TransposePermutation TransposeAxesOperator<T, Space>::make_permutation(const Shape& shape,
                                                                       const Shape& input_strides) {
  TransposePermutation result{shape, input_strides, detail::strides_of(shape), 0};
  // The output axis (other than the last) read with the smallest input stride.
  for (std::size_t k = 1; k + 1 < shape.size(); ++k) {
    if (input_strides[k] < input_strides[result.contiguous_axis]) result.contiguous_axis = k;
  }
  return result;
}

// When the last output axis is also contiguous in the input, the output is a box read by rows.
// Otherwise it is written in tiles spanning its last axis and the axis that is contiguous in the
// input, so that both arrays are read and written by whole cache lines.
template <Scalar T, MemorySpace Space>
void TransposeAxesOperator<T, Space>::apply(const TransposePermutation& permutation, T alpha,
                                            const T* in, T beta, T* out) const {
  const Shape& shape = permutation.shape;
  const Shape& in_strides = permutation.input_strides;
  if (in_strides.back() == 1) {
    const kernels::BoxAxpby box{shape, permutation.output_strides, in_strides,
                                Shape(shape.size(), 0), shape};
    kernels::box_axpby(Space{}, box, alpha, in, beta, out);
  } else {
    kernels::transpose_tiles(Space{}, shape, in_strides, permutation.contiguous_axis, alpha, in,
                             beta, out);
  }
}

template <Scalar T, MemorySpace Space>
LocalOperator<T, Space> Transpose(const Shape& dims, const std::vector<int>& axes) {
  return LocalOperator<T, Space>::template make<TransposeAxesOperator<T, Space>>(dims, axes);
}

DISTLOPS_FOR_EACH_SCALAR_AND_SPACE_ARG(DISTLOPS_DETAIL_TRANSPOSE, )

}  // namespace distlops::local
