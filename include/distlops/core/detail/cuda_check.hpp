// SPDX-License-Identifier: BSD-3-Clause
// Copyright (c) 2026 The distlops authors
#pragma once
// Turns CUDA runtime return codes into distlops::DeviceError naming the call (cuBLAS' are
// turned by cublas_library.hpp, cuFFT's by cufft_check.hpp).
#include <cuda_runtime_api.h>

#include <string>

#include "distlops/core/error.hpp"

namespace distlops::cuda {

inline void check_cuda(cudaError_t code, const char* call) {
  if (code == cudaSuccess) return;
  throw DeviceError(std::string(call) + " failed: " + cudaGetErrorName(code) + ": " +
                    cudaGetErrorString(code));
}

/// Checks a kernel launch (launch errors such as an invalid configuration; errors during the
/// kernel's execution surface at the next synchronising call).
inline void check_launch(const char* kernel) {
  check_cuda(cudaGetLastError(), kernel);
}

}  // namespace distlops::cuda
