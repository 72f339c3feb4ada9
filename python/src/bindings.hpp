// SPDX-License-Identifier: BSD-3-Clause
// Copyright (c) 2026 The distlops authors
#pragma once
/// \file bindings.hpp
/// What the binding translation units share: the scalar types and their NumPy names, the
/// conversions between mpi4py handles and Communicator, and one registration function per TU.
/// The library's templates are instantiated in libdistlops (their headers declare them
/// extern), so the bindings only name them. Types of both memory spaces are bound by the same
/// templates: the Cuda space's names end in "_cuda" (builds of the library with the CUDA
/// backend, DISTLOPS_WITH_CUDA).

#include <nanobind/nanobind.h>

#include <complex>
#include <concepts>
#include <cstdint>
#include <string>

#include "distlops/core/communicator.hpp"
#include "distlops/core/instantiate.hpp"
#include "distlops/core/memory_space.hpp"
#include "distlops/core/types.hpp"

namespace distlops::python {

namespace nb = nanobind;

/// The suffix of the Python class names of each scalar type, NumPy's dtype name.
template <class T>
constexpr const char* dtype_name() {
  return scalar_name<T>();
}

/// Calls f.template operator()<T>() for each scalar type of the library (instantiate.hpp).
template <class F>
void for_each_scalar(F&& f) {
#define DISTLOPS_PYTHON_CALL_FOR(T) f.template operator()<T>();
  DISTLOPS_FOR_EACH_SCALAR(DISTLOPS_PYTHON_CALL_FOR)
#undef DISTLOPS_PYTHON_CALL_FOR
}

/// The suffix of the Python names of a memory space's classes and functions: none for Host (the
/// NumPy engine), "_cuda" for Cuda (the CuPy engine).
template <MemorySpace Space>
constexpr const char* space_suffix() {
  return std::same_as<Space, Cuda> ? "_cuda" : "";
}

/// Calls f.template operator()<Space>() for each memory space of the build (instantiate.hpp).
template <class F>
void for_each_space(F&& f) {
#define DISTLOPS_PYTHON_CALL_IN(Space) f.template operator()<Space>();
  DISTLOPS_FOR_EACH_SPACE(DISTLOPS_PYTHON_CALL_IN)
#undef DISTLOPS_PYTHON_CALL_IN
}

/// The communicator behind an mpi4py handle (`comm.handle`): borrowed, never freed here.
/// MPI_Comm is a pointer in Open MPI and an int in MPICH; mpi4py gives either as an integer,
/// which the C-style cast converts in both cases.
inline Communicator communicator_from_handle(std::uintptr_t handle) {
  return Communicator((MPI_Comm)handle);  // NOLINT(cppcoreguidelines-pro-type-cstyle-cast)
}
inline std::uintptr_t handle_of(const Communicator& comm) {
  return (std::uintptr_t)comm.native();  // NOLINT(cppcoreguidelines-pro-type-cstyle-cast)
}

/// `base`_`dtype`, then the space's suffix: DistributedArray_float64, LinearOperator_float32_cuda.
std::string class_name(const char* base, const char* dtype, const char* space = "");

void bind_core(nb::module_& m);
void bind_arrays(nb::module_& m);
/// One per group of operators (python/src/<group>.cpp, include/distlops/operators/<group>/);
/// bind_operators: the handles, their algebra and the operators at the top of the folder.
void bind_operators(nb::module_& m);
void bind_local(nb::module_& m);
void bind_dense(nb::module_& m);
void bind_derivative(nb::module_& m);
void bind_signal(nb::module_& m);
void bind_stack(nb::module_& m);
void bind_waveeq(nb::module_& m);
void bind_solvers(nb::module_& m);
void bind_proximal(nb::module_& m);

}  // namespace distlops::python
