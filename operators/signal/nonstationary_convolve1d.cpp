// SPDX-License-Identifier: BSD-3-Clause
// Copyright (c) 2026 The distlops authors
// NonStationaryConvolve1D: filters interpolated once per sample, then one kernel call per apply
// (nonstationary_convolve1d_kernels.hpp).
#include "distlops/operators/signal/nonstationary_convolve1d.hpp"

#include <cmath>

#include "../support.hpp"
#include "distlops/core/instantiate.hpp"
#include "nonstationary_convolve1d_kernels.hpp"

namespace distlops {

namespace {

Shape window_shape(Shape shape, int axis, Index window_length) {
  shape[static_cast<std::size_t>(axis)] = window_length;
  return shape;
}

int checked_axis(const Shape& shape, int axis) {
  const int ndim = static_cast<int>(shape.size());
  if (ndim == 0 || axis < -ndim || axis >= ndim) {
    throw InvalidArgument("NonStationaryConvolve1D: axis " + std::to_string(axis) +
                          " is out of range for an array of shape " + to_string(shape));
  }
  return axis < 0 ? axis + ndim : axis;
}

}  // namespace

template <Scalar T, MemorySpace Space>
NonStationaryConvolve1DOperator<T, Space>::NonStationaryConvolve1DOperator(
    Shape input_shape, int axis, const std::vector<std::vector<T>>& filters,
    const std::vector<Index>& positions, Index window_start, Index window_length, Index origin)
    : LinearOperatorBase<Local>(
          input_shape, window_shape(input_shape, checked_axis(input_shape, axis), window_length),
          "NonStationaryConvolve1D"),
      axis_(checked_axis(input_shape, axis)),
      window_start_(window_start) {
  if (filters.empty()) throw InvalidArgument("NonStationaryConvolve1D: no filters");
  const Index taps = static_cast<Index>(filters[0].size());
  if (taps % 2 == 0) {
    throw InvalidArgument("NonStationaryConvolve1D: filters must have an odd length, got " +
                          std::to_string(taps));
  }
  for (const auto& filter : filters) {
    if (static_cast<Index>(filter.size()) != taps) {
      throw InvalidArgument("NonStationaryConvolve1D: filters of different lengths (" +
                            std::to_string(filter.size()) + " and " + std::to_string(taps) + ")");
    }
  }
  if (positions.size() != filters.size()) {
    throw InvalidArgument("NonStationaryConvolve1D: " + std::to_string(positions.size()) +
                          " positions for " + std::to_string(filters.size()) + " filters");
  }
  const Index first = positions.front();
  const Index step = positions.size() > 1 ? positions[1] - positions[0] : 1;
  for (std::size_t i = 1; i < positions.size(); ++i) {
    if (positions[i] - positions[i - 1] != step || step <= 0) {
      throw InvalidArgument(
          "NonStationaryConvolve1D: the filter positions must be increasing and regularly "
          "sampled");
    }
  }
  half_ = taps / 2;
  outer_ = 1;
  inner_ = 1;
  for (int k = 0; k < axis_; ++k)
    outer_ *= input_shape[k];
  for (int k = axis_ + 1; k < static_cast<int>(input_shape.size()); ++k)
    inner_ *= input_shape[k];
  length_ = input_shape[static_cast<std::size_t>(axis_)];
  if (window_start < 0 || window_length < 0 || window_start + window_length > length_) {
    throw InvalidArgument("NonStationaryConvolve1D: the output window exceeds the input");
  }
  // Every sample's filter, interpolated once at its global position.
  const Index count = static_cast<Index>(filters.size());
  std::vector<T> interpolated(static_cast<std::size_t>(length_ * taps));
  for (Index i = 0; i < length_; ++i) {
    const double where = double(origin + i - first) / double(step);
    const Index closest = static_cast<Index>(std::floor(where));
    T* filter = interpolated.data() + i * taps;
    for (Index t = 0; t < taps; ++t) {
      if (closest < 0) {
        filter[t] = filters[0][t];
      } else if (closest >= count - 1) {
        filter[t] = filters[count - 1][t];
      } else {
        using R = real_type_t<T>;
        const R weight = static_cast<R>(where - double(closest));
        filter[t] = (R(1) - weight) * filters[closest][t] + weight * filters[closest + 1][t];
      }
    }
  }
  filters_ = detail::copy_to_space<T, Space>(interpolated);
}

template <Scalar T, MemorySpace Space>
void NonStationaryConvolve1DOperator<T, Space>::forward(const Local& x, Local& y) const {
  const Index window = this->range()[static_cast<std::size_t>(axis_)];
  kernels::nonstationary_convolve1d(Space{}, false, outer_, length_, inner_, window_start_, window,
                                    half_, filters_.data(), x.data(), y.data());
}

template <Scalar T, MemorySpace Space>
void NonStationaryConvolve1DOperator<T, Space>::adjoint(const Local& y, Local& x) const {
  const Index window = this->range()[static_cast<std::size_t>(axis_)];
  kernels::nonstationary_convolve1d(Space{}, true, outer_, length_, inner_, window_start_, window,
                                    half_, filters_.data(), y.data(), x.data());
}

DISTLOPS_INSTANTIATE_TEMPLATE_CLASS(NonStationaryConvolve1DOperator)

}  // namespace distlops
