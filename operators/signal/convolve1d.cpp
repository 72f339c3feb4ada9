// SPDX-License-Identifier: BSD-3-Clause
// Copyright (c) 2026 The distlops authors
// Convolve1D by the direct method (convolve1d_kernels.hpp).
#include "distlops/operators/signal/convolve1d.hpp"

#include <algorithm>

#include "../support.hpp"
#include "../two_way_operator.hpp"
#include "convolve1d_kernels.hpp"
#include "distlops/core/instantiate.hpp"

namespace distlops::local {

namespace {

// The direction: whether the adjoint (the correlation with conj(h)).
template <Scalar T, MemorySpace Space>
class Convolve1DOperator final : public detail::TwoWayOperator<T, Space, bool> {
 public:
  Convolve1DOperator(const Shape& dims, std::span<const T> filter, Index offset, int axis);

 private:
  void apply(const bool& adjoint, T alpha, const T* in, T beta, T* out) const override;

  Buffer<T, Space> filters_;  // h then conj(h) (for the adjoint), in the space
  Index taps_ = 0;
  Index offset_ = 0;
  Index outer_ = 1;          // product of the extents before the axis
  Index length_ = 0;         // n, the model's extent along the axis
  Index output_length_ = 0;  // max(n, nh), the data's extent along the axis
  Index inner_ = 1;          // product of the extents after the axis
};

}  // namespace

template <Scalar T, MemorySpace Space>
Convolve1DOperator<T, Space>::Convolve1DOperator(const Shape& dims, std::span<const T> filter,
                                                 Index offset, int axis)
    : detail::TwoWayOperator<T, Space, bool>(
          dims,
          detail::with_axis_extent(dims, axis,
                                   [&](Index n) { return std::max(n, Index(filter.size())); }),
          "Convolve1D"),
      taps_(static_cast<Index>(filter.size())),
      offset_(offset) {
  const std::string& op = this->name();
  const detail::AxisSplit split = detail::checked_split(op, dims, axis);
  outer_ = split.outer;
  length_ = split.length;
  inner_ = split.inner;
  const Index taps = taps_;
  if (taps == 0) throw InvalidArgument(op + ": the filter is empty");
  output_length_ = std::max(length_, taps);
  // The centre lies in the shorter of the filter and the signal (PyLops' rule).
  const bool long_filter = taps > length_;
  const Index limit = long_filter ? length_ : taps;
  if (offset < 0 || offset >= limit) {
    throw InvalidArgument(op + ": offset " + std::to_string(offset) + " is outside [0, " +
                          std::to_string(limit) + ") (" +
                          (long_filter
                               ? "the extent of axis " + std::to_string(split.axis) + " of dims " +
                                     to_string(dims) + ", shorter than the filter"
                               : "the number of filter taps") +
                          ")");
  }
  // h then conj(h), in the space of the data.
  std::vector<T> both(filter.begin(), filter.end());
  for (const T& value : filter)
    both.push_back(conjugate(value));
  filters_ = detail::copy_to_space<T, Space>(both);
  this->adjoint_ = true;
}

// Both directions read input row r + shift(k) into output row r with the weight of tap k:
// forward shift(k) = offset - k with h[k], adjoint shift(k) = k - offset with conj(h[k]).
template <Scalar T, MemorySpace Space>
void Convolve1DOperator<T, Space>::apply(const bool& adjoint, T alpha, const T* in, T beta,
                                         T* out) const {
  const Index out_rows = adjoint ? length_ : output_length_;
  const Index in_rows = adjoint ? output_length_ : length_;
  kernels::convolve1d(Space{}, adjoint, outer_, in_rows, out_rows, inner_, taps_, offset_,
                      filters_.data() + (adjoint ? taps_ : 0), alpha, in, beta, out);
}

template <Scalar T, MemorySpace Space>
LocalOperator<T, Space> Convolve1D(const Shape& dims, std::span<const T> filter, Index offset,
                                   int axis) {
  return LocalOperator<T, Space>::template make<Convolve1DOperator<T, Space>>(dims, filter, offset,
                                                                              axis);
}

DISTLOPS_FOR_EACH_SCALAR_AND_SPACE_ARG(DISTLOPS_DETAIL_CONVOLVE1D, )

}  // namespace distlops::local
