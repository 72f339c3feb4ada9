// SPDX-License-Identifier: BSD-3-Clause
// Copyright (c) 2026 The distlops authors
// Diagonal: rows of the (outer, length, inner) view scaled by one weight each, or element-wise
// products when the weights run along the innermost axis.
#include "distlops/operators/local/diagonal.hpp"

#include "../support.hpp"
#include "../two_way_operator.hpp"
#include "diagonal_kernels.hpp"
#include "distlops/core/instantiate.hpp"

namespace distlops::local {

namespace {

// The direction: the weights in Space, d or conj(d).
template <Scalar T, MemorySpace Space>
class DiagonalOperator final : public detail::TwoWayOperator<T, Space, Buffer<T, Space>> {
 public:
  /// `diag` in host memory; `dims` empty means (diag.size()); `axis` counts from the end when
  /// negative.
  DiagonalOperator(std::span<const T> diag, const Shape& dims, int axis)
      : detail::TwoWayOperator<T, Space, Buffer<T, Space>>(
            dims.empty() ? Shape{Index(diag.size())} : dims,
            dims.empty() ? Shape{Index(diag.size())} : dims, "Diagonal") {
    const Shape& shape = this->domain();
    const detail::AxisSplit split = detail::checked_split(this->name(), shape, axis);
    const auto count = static_cast<Index>(diag.size());
    if (count == split.length) {
      outer_ = split.outer;
      inner_ = split.inner;
    } else if (count != element_count(shape)) {
      throw ShapeMismatch("Diagonal: " + std::to_string(count) + " weights fit neither dims[" +
                          std::to_string(split.axis) + "] = " + std::to_string(split.length) +
                          " nor the " + std::to_string(element_count(shape)) +
                          " elements of dims " + to_string(shape));
    }
    length_ = count;
    std::vector<T> conjugated(diag.begin(), diag.end());
    for (T& value : conjugated)
      value = conjugate(value);
    this->forward_ = detail::copy_to_space<T, Space>(diag);
    this->adjoint_ = detail::copy_to_space<T, Space>(std::span<const T>(conjugated));
  }

 private:
  void apply(const Buffer<T, Space>& weights, T alpha, const T* in, T beta, T* out) const override {
    kernels::diagonal(Space{}, outer_, length_, inner_, alpha, weights.data(), in, beta, out);
  }

  Index outer_ = 1;   // product of the extents before the broadcast axis
  Index length_ = 0;  // number of weights
  Index inner_ = 1;   // product of the extents after it
};

}  // namespace

template <Scalar T, MemorySpace Space>
LocalOperator<T, Space> Diagonal(std::span<const T> diag, const Shape& dims, int axis) {
  return LocalOperator<T, Space>::template make<DiagonalOperator<T, Space>>(diag, dims, axis);
}

DISTLOPS_FOR_EACH_SCALAR_AND_SPACE_ARG(DISTLOPS_DETAIL_DIAGONAL, )

}  // namespace distlops::local
