// SPDX-License-Identifier: BSD-3-Clause
// Copyright (c) 2026 The distlops authors
#pragma once
// cuBLAS, loaded on its first use instead of linked. Linked, libcublas (and the 540 MB
// libcublasLt it needs) is loaded and initialised at the start of every process that loads
// libdistlops, though most never call it; loaded here, only a process that runs a cuBLAS
// product pays for it. cublas_v2.h supplies the types and the declarations the function
// pointers are typed with; no cuBLAS symbol is needed at link time.
#include <cublas_v2.h>

#include <string>

#include "distlops/core/error.hpp"

namespace distlops::cuda {

/// The cuBLAS functions distlops calls, resolved from libcublas. Each pointer has the type of
/// the function cublas_v2.h declares (the `_v2` ones where it maps a name to them).
struct CublasLibrary {
  decltype(&cublasCreate) create;
  decltype(&cublasDestroy) destroy;
  decltype(&cublasSetStream) set_stream;
  decltype(&cublasSetPointerMode) set_pointer_mode;
  decltype(&cublasGetStatusName) get_status_name;
  decltype(&cublasGetStatusString) get_status_string;
  decltype(&cublasSgemv) sgemv;
  decltype(&cublasDgemv) dgemv;
  decltype(&cublasCgemv) cgemv;
  decltype(&cublasZgemv) zgemv;
  decltype(&cublasSgemm) sgemm;
  decltype(&cublasDgemm) dgemm;
  decltype(&cublasCgemm) cgemm;
  decltype(&cublasZgemm) zgemm;
  decltype(&cublasSgemvStridedBatched) sgemv_strided_batched;
  decltype(&cublasDgemvStridedBatched) dgemv_strided_batched;
  decltype(&cublasCgemvStridedBatched) cgemv_strided_batched;
  decltype(&cublasZgemvStridedBatched) zgemv_strided_batched;
  decltype(&cublasSgemmStridedBatched) sgemm_strided_batched;
  decltype(&cublasDgemmStridedBatched) dgemm_strided_batched;
  decltype(&cublasCgemmStridedBatched) cgemm_strided_batched;
  decltype(&cublasZgemmStridedBatched) zgemm_strided_batched;
};

/// cuBLAS, loaded by the first call (thread-safe) from the SONAME of the library the build
/// found, else from that library's path. Throws DeviceError with the dynamic loader's message
/// when it cannot be loaded or lacks one of the functions; the next call tries again.
const CublasLibrary& cublas_library();

/// Turns a cuBLAS status into a DeviceError naming the call.
inline void check_cublas(cublasStatus_t code, const char* call) {
  if (code == CUBLAS_STATUS_SUCCESS) return;
  const CublasLibrary& cublas = cublas_library();
  throw DeviceError(std::string(call) + " failed: " + cublas.get_status_name(code) + ": " +
                    cublas.get_status_string(code));
}

}  // namespace distlops::cuda
