// SPDX-License-Identifier: BSD-3-Clause
// Copyright (c) 2026 The distlops authors
#pragma once
// Turns cuFFT return codes into distlops::DeviceError naming the call (cuda_check.hpp does the
// same for the CUDA runtime, cublas_library.hpp for cuBLAS).
#include <cufft.h>

#include <string>

#include "distlops/core/error.hpp"

namespace distlops::cuda {

inline std::string cufft_result_name(cufftResult code) {
  switch (code) {
    case CUFFT_SUCCESS:
      return "CUFFT_SUCCESS";
    case CUFFT_INVALID_PLAN:
      return "CUFFT_INVALID_PLAN";
    case CUFFT_ALLOC_FAILED:
      return "CUFFT_ALLOC_FAILED";
    case CUFFT_INVALID_TYPE:
      return "CUFFT_INVALID_TYPE";
    case CUFFT_INVALID_VALUE:
      return "CUFFT_INVALID_VALUE";
    case CUFFT_INTERNAL_ERROR:
      return "CUFFT_INTERNAL_ERROR";
    case CUFFT_EXEC_FAILED:
      return "CUFFT_EXEC_FAILED";
    case CUFFT_SETUP_FAILED:
      return "CUFFT_SETUP_FAILED";
    case CUFFT_INVALID_SIZE:
      return "CUFFT_INVALID_SIZE";
    case CUFFT_UNALIGNED_DATA:
      return "CUFFT_UNALIGNED_DATA";
    case CUFFT_INVALID_DEVICE:
      return "CUFFT_INVALID_DEVICE";
    case CUFFT_NO_WORKSPACE:
      return "CUFFT_NO_WORKSPACE";
    case CUFFT_NOT_IMPLEMENTED:
      return "CUFFT_NOT_IMPLEMENTED";
    case CUFFT_NOT_SUPPORTED:
      return "CUFFT_NOT_SUPPORTED";
    default:
      // Codes added by later cuFFT versions.
      return "cufftResult " + std::to_string(static_cast<int>(code));
  }
}

inline void check_cufft(cufftResult code, const char* call) {
  if (code == CUFFT_SUCCESS) return;
  throw DeviceError(std::string(call) + " failed: " + cufft_result_name(code));
}

}  // namespace distlops::cuda
