#pragma once
// Turns CUDA runtime return codes into distlops::DeviceError naming the call.
#include <cuda_runtime.h>

#include <string>

#include "distlops/core/error.hpp"

namespace distlops::cuda {

inline void check_cuda(cudaError_t code, const char* call) {
  if (code == cudaSuccess) return;
  throw DeviceError(std::string(call) + " failed: " + cudaGetErrorName(code) + ": " +
                    cudaGetErrorString(code));
}

}  // namespace distlops::cuda
