// SPDX-License-Identifier: BSD-3-Clause
// Copyright (c) 2026 The distlops authors
#pragma once
// A shared library opened at run time (dlopen) rather than linked: the CUDA backend loads
// cuBLAS and cuFFT this way on their first use, so that processes that never call them do not
// pay for loading and initialising them at start-up (cublas_library.hpp, cufft_library.hpp).
#include <initializer_list>
#include <string>

namespace distlops::cuda {

/// A shared library opened with dlopen and never closed: the functions resolved from it stay
/// valid until the process exits.
class DynamicLibrary {
 public:
  /// Opens the first of `candidates` the dynamic loader can load: a bare name (a SONAME such as
  /// "libcublas.so.13") is searched in the loader's paths, a path is taken as it is. `what`
  /// names the library in errors. Throws DeviceError naming `what`, every candidate tried and
  /// the loader's message for each when none can be loaded.
  DynamicLibrary(std::string what, std::initializer_list<const char*> candidates);

  /// The library's name in errors (the `what` it was opened with).
  const std::string& what() const { return what_; }
  /// The candidate that was loaded.
  const std::string& loaded_from() const { return loaded_from_; }

  /// The address of the exported symbol `name`. Throws DeviceError naming the library and the
  /// symbol when the library does not export it.
  void* symbol(const char* name) const;

  /// The function `name` as a pointer of type `Function` (the type of the declared function,
  /// so that the compiler checks every call through it).
  template <class Function>
  Function function(const char* name) const {
    return reinterpret_cast<Function>(symbol(name));
  }

 private:
  std::string what_;
  std::string loaded_from_;
  void* handle_ = nullptr;
};

}  // namespace distlops::cuda

/// `member = library.function<type of declared>(exported name of declared)`, for the function
/// tables of the loaded libraries. The name is taken after the library headers' macros are
/// expanded (cublas_v2.h declares cublasSgemm as a macro for cublasSgemm_v2, the exported
/// symbol), so the argument goes through one more macro before it is turned into a string.
#define DISTLOPS_RESOLVE_FUNCTION(library, member, declared) \
  ((member) = (library).function<decltype(&declared)>(DISTLOPS_DETAIL_EXPORTED_NAME(declared)))
#define DISTLOPS_DETAIL_EXPORTED_NAME(declared) DISTLOPS_DETAIL_EXPORTED_NAME_TEXT(declared)
#define DISTLOPS_DETAIL_EXPORTED_NAME_TEXT(declared) #declared
