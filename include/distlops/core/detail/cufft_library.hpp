// SPDX-License-Identifier: BSD-3-Clause
// Copyright (c) 2026 The distlops authors
#pragma once
// cuFFT, loaded on its first use instead of linked (as cuBLAS, cublas_library.hpp): only a
// process that plans a device FFT loads and initialises libcufft. cufft.h supplies the types
// and the declarations the function pointers are typed with; no cuFFT symbol is needed at link
// time.
#include <cufft.h>

namespace distlops::cuda {

/// The cuFFT functions distlops calls, resolved from libcufft, each typed as cufft.h declares it.
struct CufftLibrary {
  decltype(&cufftCreate) create;
  decltype(&cufftDestroy) destroy;
  decltype(&cufftSetStream) set_stream;
  decltype(&cufftSetAutoAllocation) set_auto_allocation;
  decltype(&cufftSetWorkArea) set_work_area;
  decltype(&cufftMakePlanMany64) make_plan_many64;
  decltype(&cufftExecC2C) exec_c2c;
  decltype(&cufftExecZ2Z) exec_z2z;
  decltype(&cufftExecR2C) exec_r2c;
  decltype(&cufftExecD2Z) exec_d2z;
  decltype(&cufftExecC2R) exec_c2r;
  decltype(&cufftExecZ2D) exec_z2d;
};

/// cuFFT, loaded by the first call (thread-safe) from the SONAME of the library the build found,
/// else from that library's path. Throws DeviceError with the dynamic loader's message when it
/// cannot be loaded or lacks one of the functions; the next call tries again.
const CufftLibrary& cufft_library();

}  // namespace distlops::cuda
