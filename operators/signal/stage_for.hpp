// SPDX-License-Identifier: BSD-3-Clause
// Copyright (c) 2026 The distlops authors
#pragma once
// The FFT stage of a memory space: FftStage (FFTW) for Host, CufftStage (cuFFT) for Cuda.
#include "distlops/config.hpp"
#include "../host/fftw_stage.hpp"
#if DISTLOPS_WITH_CUDA
#include "../cuda/cufft_stage.hpp"
#endif

namespace distlops::detail {

template <MemorySpace Space, class R>
struct StageOf {
  using type = FftStage<R>;
};
#if DISTLOPS_WITH_CUDA
template <class R>
struct StageOf<Cuda, R> {
  using type = CufftStage<R>;
};
#endif

/// The stage of Space for scalars of type T (real or complex).
template <MemorySpace Space, class T>
using StageFor = typename StageOf<Space, real_type_t<T>>::type;

}  // namespace distlops::detail
