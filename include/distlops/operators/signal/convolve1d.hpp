// SPDX-License-Identifier: BSD-3-Clause
// Copyright (c) 2026 The distlops authors
#pragma once
/// \file convolve1d.hpp
/// `local::Convolve1D`: convolution with a 1-d filter h (nh taps) along one axis of an N-d
/// array (C order), PyLops' `Convolve1D(dims, h, offset, axis)`. With n = dims[axis], the
/// forward is
///     y[i] = sum_k h[k] x[i + offset - k],   0 <= i < max(n, nh),
/// with x zero outside [0, n): `offset` is the index of the filter's centre, the tap that
/// multiplies x[i] in y[i]. The adjoint is the correlation with conj(h):
///     x[j] = sum_k conj(h[k]) y[j - offset + k].
/// As in PyLops, a filter no longer than the axis keeps its length (range shape `dims`, with
/// 0 <= offset < nh), and a longer filter gives nh output samples along the axis (range shape
/// `dims` with dims[axis] = nh, 0 <= offset < n); the other axes are unchanged.
///
/// The direct method is used: O(nh) operations per output sample, in fused passes over
/// cache-sized blocks of the output (five taps a pass). For filters of hundreds of taps on long
/// axes an FFT method is cheaper. On the device (Cuda) one kernel computes every output sample
/// in one thread, summing the same taps (in another order: results agree to rounding).
///
/// Differences from PyLops: the adjoint of a complex filter uses conj(h) (PyLops correlates
/// with h itself, which is the transpose, not the adjoint); a negative offset is rejected; the
/// range of a long filter on an N-d array keeps the other axes (PyLops reports h's shape).
/// Errors: InvalidArgument for an empty filter, an offset out of range, an axis out of range
/// or a bad shape.

#include <span>
#include <vector>

#include "distlops/core/buffer.hpp"
#include "distlops/core/instantiate.hpp"
#include "distlops/operators/local/accumulating_operator.hpp"

namespace distlops::local {

/// Convolution of arrays of shape `dims` with `filter` along `axis` (negative axes count from
/// the end), centred at tap `offset`.
template <Scalar T, MemorySpace Space = Host>
LocalOperator<T, Space> Convolve1D(const Shape& dims, std::span<const T> filter, Index offset = 0,
                                   int axis = -1);

/// \cond
#define DISTLOPS_DETAIL_CONVOLVE1D(PREFIX, T, S)                                                \
  PREFIX template LocalOperator<T, S> Convolve1D<T, S>(const Shape&, std::span<const T>, Index, \
                                                       int);
DISTLOPS_FOR_EACH_SCALAR_AND_SPACE_ARG(DISTLOPS_DETAIL_CONVOLVE1D, extern)
/// \endcond

}  // namespace distlops::local
