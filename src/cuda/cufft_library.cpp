// SPDX-License-Identifier: BSD-3-Clause
// Copyright (c) 2026 The distlops authors
// cuFFT loaded on first use (detail/cufft_library.hpp). The build passes the SONAME and the path
// of the libcufft it found (DISTLOPS_CUFFT_SONAME, DISTLOPS_CUFFT_PATH).
#include "distlops/core/detail/cufft_library.hpp"

#include "distlops/core/detail/dynamic_library.hpp"

#if !defined(DISTLOPS_CUFFT_SONAME) || !defined(DISTLOPS_CUFFT_PATH)
#error "cufft_library.cpp needs DISTLOPS_CUFFT_SONAME and DISTLOPS_CUFFT_PATH from the build"
#endif

#define DISTLOPS_RESOLVE(member, declared) DISTLOPS_RESOLVE_FUNCTION(cufft, member, declared)

namespace distlops::cuda {

namespace {

CufftLibrary load_cufft() {
  const DynamicLibrary cufft("cuFFT", {DISTLOPS_CUFFT_SONAME, DISTLOPS_CUFFT_PATH});
  CufftLibrary library{};
  DISTLOPS_RESOLVE(library.create, cufftCreate);
  DISTLOPS_RESOLVE(library.destroy, cufftDestroy);
  DISTLOPS_RESOLVE(library.set_stream, cufftSetStream);
  DISTLOPS_RESOLVE(library.set_auto_allocation, cufftSetAutoAllocation);
  DISTLOPS_RESOLVE(library.set_work_area, cufftSetWorkArea);
  DISTLOPS_RESOLVE(library.make_plan_many64, cufftMakePlanMany64);
  DISTLOPS_RESOLVE(library.exec_c2c, cufftExecC2C);
  DISTLOPS_RESOLVE(library.exec_z2z, cufftExecZ2Z);
  DISTLOPS_RESOLVE(library.exec_r2c, cufftExecR2C);
  DISTLOPS_RESOLVE(library.exec_d2z, cufftExecD2Z);
  DISTLOPS_RESOLVE(library.exec_c2r, cufftExecC2R);
  DISTLOPS_RESOLVE(library.exec_z2d, cufftExecZ2D);
  return library;
}

}  // namespace

const CufftLibrary& cufft_library() {
  // As cublas_library(): once, thread-safely; a failed load is tried again by the next call.
  static const CufftLibrary library = load_cufft();
  return library;
}

}  // namespace distlops::cuda
