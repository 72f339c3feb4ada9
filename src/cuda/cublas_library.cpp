// SPDX-License-Identifier: BSD-3-Clause
// Copyright (c) 2026 The distlops authors
// cuBLAS loaded on first use (detail/cublas_library.hpp). The build passes the SONAME and the
// path of the libcublas it found (DISTLOPS_CUBLAS_SONAME, DISTLOPS_CUBLAS_PATH).
#include "distlops/core/detail/cublas_library.hpp"

#include "distlops/core/detail/dynamic_library.hpp"

#if !defined(DISTLOPS_CUBLAS_SONAME) || !defined(DISTLOPS_CUBLAS_PATH)
#error "cublas_library.cpp needs DISTLOPS_CUBLAS_SONAME and DISTLOPS_CUBLAS_PATH from the build"
#endif

#define DISTLOPS_RESOLVE(member, declared) DISTLOPS_RESOLVE_FUNCTION(cublas, member, declared)

namespace distlops::cuda {

namespace {

CublasLibrary load_cublas() {
  const DynamicLibrary cublas("cuBLAS", {DISTLOPS_CUBLAS_SONAME, DISTLOPS_CUBLAS_PATH});
  CublasLibrary library{};
  DISTLOPS_RESOLVE(library.create, cublasCreate);
  DISTLOPS_RESOLVE(library.destroy, cublasDestroy);
  DISTLOPS_RESOLVE(library.set_stream, cublasSetStream);
  DISTLOPS_RESOLVE(library.set_pointer_mode, cublasSetPointerMode);
  DISTLOPS_RESOLVE(library.get_status_name, cublasGetStatusName);
  DISTLOPS_RESOLVE(library.get_status_string, cublasGetStatusString);
  DISTLOPS_RESOLVE(library.sgemv, cublasSgemv);
  DISTLOPS_RESOLVE(library.dgemv, cublasDgemv);
  DISTLOPS_RESOLVE(library.cgemv, cublasCgemv);
  DISTLOPS_RESOLVE(library.zgemv, cublasZgemv);
  DISTLOPS_RESOLVE(library.sgemm, cublasSgemm);
  DISTLOPS_RESOLVE(library.dgemm, cublasDgemm);
  DISTLOPS_RESOLVE(library.cgemm, cublasCgemm);
  DISTLOPS_RESOLVE(library.zgemm, cublasZgemm);
  DISTLOPS_RESOLVE(library.sgemv_strided_batched, cublasSgemvStridedBatched);
  DISTLOPS_RESOLVE(library.dgemv_strided_batched, cublasDgemvStridedBatched);
  DISTLOPS_RESOLVE(library.cgemv_strided_batched, cublasCgemvStridedBatched);
  DISTLOPS_RESOLVE(library.zgemv_strided_batched, cublasZgemvStridedBatched);
  DISTLOPS_RESOLVE(library.sgemm_strided_batched, cublasSgemmStridedBatched);
  DISTLOPS_RESOLVE(library.dgemm_strided_batched, cublasDgemmStridedBatched);
  DISTLOPS_RESOLVE(library.cgemm_strided_batched, cublasCgemmStridedBatched);
  DISTLOPS_RESOLVE(library.zgemm_strided_batched, cublasZgemmStridedBatched);
  return library;
}

}  // namespace

const CublasLibrary& cublas_library() {
  // Initialised once, under the lock of a function-local static; an exception leaves it
  // uninitialised, so the next call tries again.
  static const CublasLibrary library = load_cublas();
  return library;
}

}  // namespace distlops::cuda
