// SPDX-License-Identifier: BSD-3-Clause
// Copyright (c) 2026 The distlops authors
#pragma once
/// \file convolvend.hpp
/// `local::ConvolveND` and `local::Convolve2D`: convolution of an N-d array (C order) with a
/// compact N-d filter along some of its axes, PyLops' `ConvolveND(dims, h, offset, axes)` and
/// `Convolve2D(dims, h, offset, axes)` with method "direct". Filter axis i acts along array
/// axis axes[i]; with o the offsets (the filter's centre, one per filter axis), the forward is
///     y[p] = sum_k h[k] x[p + o - k]      (on the convolved axes; p unchanged elsewhere),
/// with x zero outside the array, and the data have the model's shape (NumPy's mode "same").
/// The adjoint is the correlation with conj(h):
///     x[q] = sum_k conj(h[k]) y[q - o + k].
///
/// Direct method: prod(filter shape) operations per output point. On the host each tap adds a
/// shifted input row to the output row, which stays in cache (vectorised along the last axis);
/// on the device one thread computes one output point.
///
/// Differences from PyLops: `axes` need not increase (PyLops reshapes h to the array's axes,
/// which transposes nothing, so a decreasing `axes` there mixes the filter's axes); every offset
/// must lie in [0, filter extent) (PyLops accepts others and pads h); only the direct method
/// (PyLops' default is "fft"; both give the same result). Errors: InvalidArgument for a filter
/// of the wrong size or with an empty axis, offsets or axes of the wrong number, an offset out
/// of range, an axis out of range or repeated, more than 8 axes, or a bad shape.

#include <array>
#include <span>
#include <vector>

#include "distlops/core/instantiate.hpp"
#include "distlops/operators/linear_operator.hpp"

namespace distlops::local {

/// Convolution of arrays of shape `dims` with the filter `filter` of shape `filter_shape` (C
/// order) along `axes` (one per filter axis, negative counting from the end; empty: the last
/// filter_shape.size() axes), centred at `offset` (one per filter axis; empty: zeros).
template <Scalar T, MemorySpace Space = Host>
LocalOperator<T, Space> ConvolveND(const Shape& dims, std::span<const T> filter,
                                   const Shape& filter_shape, const std::vector<Index>& offset = {},
                                   const std::vector<int>& axes = {});

/// ConvolveND with a 2-d filter (PyLops' Convolve2D: default axes (-2, -1), offset (0, 0)).
template <Scalar T, MemorySpace Space = Host>
LocalOperator<T, Space> Convolve2D(const Shape& dims, std::span<const T> filter,
                                   const Shape& filter_shape, std::array<Index, 2> offset = {0, 0},
                                   std::array<int, 2> axes = {-2, -1});

/// \cond
#define DISTLOPS_DETAIL_EXTERN_CONVOLVEND(T, S)                                                 \
  extern template LocalOperator<T, S> ConvolveND<T, S>(const Shape&, std::span<const T>,        \
                                                       const Shape&, const std::vector<Index>&, \
                                                       const std::vector<int>&);                \
  extern template LocalOperator<T, S> Convolve2D<T, S>(                                         \
      const Shape&, std::span<const T>, const Shape&, std::array<Index, 2>, std::array<int, 2>);
DISTLOPS_FOR_EACH_SCALAR_AND_SPACE(DISTLOPS_DETAIL_EXTERN_CONVOLVEND)
#undef DISTLOPS_DETAIL_EXTERN_CONVOLVEND
/// \endcond

}  // namespace distlops::local
