// SPDX-License-Identifier: BSD-3-Clause
// Copyright (c) 2026 The distlops authors
#pragma once
// The kernel of NonStationaryConvolve1D, one definition per memory space (operators/host/ and
// operators/cuda/nonstationary_convolve1d_kernels.*). Pointers are memory of the space.
#include "distlops/core/instantiate.hpp"
#include "distlops/core/memory_space.hpp"
#include "distlops/core/types.hpp"

namespace distlops::kernels {

/// The input as (outer, length, inner), the output as (outer, window, inner) with output j at
/// input coordinate window_start + j, `filters` the length interpolated filters of 2 half + 1
/// taps. Forward: out = the window's outputs; adjoint: out = the gathered inputs (with
/// conjugated weights). Both overwrite out; the samples that meet and the weights' places are
/// those of signal/nonstationary_taps.hpp.
template <Scalar T>
void nonstationary_convolve1d(Host, bool adjoint, Index outer, Index length, Index inner,
                              Index window_start, Index window, Index half, const T* filters,
                              const T* in, T* out);
template <Scalar T>
void nonstationary_convolve1d(Cuda, bool adjoint, Index outer, Index length, Index inner,
                              Index window_start, Index window, Index half, const T* filters,
                              const T* in, T* out);

// The instantiations of both definitions (instantiate.hpp).
#define DISTLOPS_DETAIL_NONSTATIONARY_KERNELS(PREFIX, T, S)                                    \
  PREFIX template void nonstationary_convolve1d<T>(S, bool, Index, Index, Index, Index, Index, \
                                                   Index, const T*, const T*, T*);

}  // namespace distlops::kernels
