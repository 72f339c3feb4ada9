// SPDX-License-Identifier: BSD-3-Clause
// Copyright (c) 2026 The distlops authors
#pragma once
/// \file instantiate.hpp
/// The one family of macros that lists what the library is compiled for: the four scalar types
/// (float, double, std::complex<float>, std::complex<double>) in every memory space of the build
/// (Host, and Cuda with the CUDA backend). Headers declare their templates `extern` with it and
/// the library's sources instantiate them with it, so that a user's build compiles none of
/// them and no source lists types or spaces by hand:
///
///     DISTLOPS_EXTERN_TEMPLATE_CLASS(HaloOperator)       // in halo.hpp
///     DISTLOPS_INSTANTIATE_TEMPLATE_CLASS(HaloOperator)  // in halo.cpp
///
/// Function templates, and templates over vector types (the solvers), list their cases once in a
/// macro `M(prefix, T, Space)` that the header expands with `extern` and the source with
/// nothing, so that each signature is written once:
///
///     DISTLOPS_FOR_EACH_SCALAR_AND_SPACE_ARG(DISTLOPS_DETAIL_DIAGONAL, extern)  // diagonal.hpp
///     DISTLOPS_FOR_EACH_SCALAR_AND_SPACE_ARG(DISTLOPS_DETAIL_DIAGONAL, )        // diagonal.cpp
///
/// (a kernel's header lists them for the files that define it in one space each:
/// DISTLOPS_FOR_EACH_SCALAR_IN_ARG(M, , Space)). Internal templates of a source define a macro
/// `M(T, Space)` for one instantiation and expand it with DISTLOPS_FOR_EACH_SCALAR_AND_SPACE(M),
/// or DISTLOPS_FOR_EACH_SCALAR_IN(M, Space) where one file serves one space. The scalar types are
/// listed in one place, DISTLOPS_DETAIL_EACH_SCALAR; every other macro (and the Python
/// bindings) goes through it.

#include <complex>

#include "distlops/config.hpp"
#include "distlops/core/memory_space.hpp"

#if DISTLOPS_WITH_CUDA
#define DISTLOPS_DETAIL_IF_CUDA(...) __VA_ARGS__
#else
#define DISTLOPS_DETAIL_IF_CUDA(...)
#endif

// The one list of the scalar types: MACRO(ARG, T, SPACE) for each.
#define DISTLOPS_DETAIL_EACH_SCALAR(MACRO, ARG, SPACE) \
  MACRO(ARG, float, SPACE)                             \
  MACRO(ARG, double, SPACE)                            \
  MACRO(ARG, std::complex<float>, SPACE) MACRO(ARG, std::complex<double>, SPACE)
#define DISTLOPS_DETAIL_EACH(MACRO, ARG)                    \
  DISTLOPS_DETAIL_EACH_SCALAR(MACRO, ARG, ::distlops::Host) \
  DISTLOPS_DETAIL_IF_CUDA(DISTLOPS_DETAIL_EACH_SCALAR(MACRO, ARG, ::distlops::Cuda))
#define DISTLOPS_DETAIL_CALL(MACRO, T, SPACE) MACRO(T, SPACE)
#define DISTLOPS_DETAIL_CALL_TYPE(MACRO, T, SPACE) MACRO(T)
#define DISTLOPS_DETAIL_EXTERN_CLASS(TEMPLATE, T, SPACE) extern template class TEMPLATE<T, SPACE>;
#define DISTLOPS_DETAIL_CLASS(TEMPLATE, T, SPACE) template class TEMPLATE<T, SPACE>;

/// MACRO(T) for each scalar type.
#define DISTLOPS_FOR_EACH_SCALAR(MACRO) \
  DISTLOPS_DETAIL_EACH_SCALAR(DISTLOPS_DETAIL_CALL_TYPE, MACRO, )

/// MACRO(R) for each real type (templates of a precision: FFT stages, their weights).
#define DISTLOPS_FOR_EACH_REAL(MACRO) MACRO(float) MACRO(double)

/// MACRO(Space) for each memory space of the build (for templates instantiated for some types).
#define DISTLOPS_FOR_EACH_SPACE(MACRO) \
  MACRO(::distlops::Host) DISTLOPS_DETAIL_IF_CUDA(MACRO(::distlops::Cuda))

/// MACRO(T, Space) for each scalar type in `SPACE`.
#define DISTLOPS_FOR_EACH_SCALAR_IN(MACRO, SPACE) \
  DISTLOPS_DETAIL_EACH_SCALAR(DISTLOPS_DETAIL_CALL, MACRO, SPACE)

/// MACRO(T, Space) for each scalar type in each memory space of the build.
#define DISTLOPS_FOR_EACH_SCALAR_AND_SPACE(MACRO) DISTLOPS_DETAIL_EACH(DISTLOPS_DETAIL_CALL, MACRO)

/// MACRO(ARG, T, Space) for each scalar type and space of the build: a list of cases written
/// once for the header (ARG `extern`) and the source that instantiates them (ARG empty).
#define DISTLOPS_FOR_EACH_SCALAR_AND_SPACE_ARG(MACRO, ARG) DISTLOPS_DETAIL_EACH(MACRO, ARG)

/// MACRO(ARG, T, Space) for each scalar type in `SPACE`.
#define DISTLOPS_FOR_EACH_SCALAR_IN_ARG(MACRO, ARG, SPACE) \
  DISTLOPS_DETAIL_EACH_SCALAR(MACRO, ARG, SPACE)

/// `extern template class TEMPLATE<T, Space>;` for each scalar type and space (headers).
#define DISTLOPS_EXTERN_TEMPLATE_CLASS(TEMPLATE) \
  DISTLOPS_DETAIL_EACH(DISTLOPS_DETAIL_EXTERN_CLASS, TEMPLATE)

/// `template class TEMPLATE<T, Space>;` for each scalar type and space (the library's sources).
#define DISTLOPS_INSTANTIATE_TEMPLATE_CLASS(TEMPLATE) \
  DISTLOPS_DETAIL_EACH(DISTLOPS_DETAIL_CLASS, TEMPLATE)

/// The same for one space, where one source file serves one space.
#define DISTLOPS_INSTANTIATE_TEMPLATE_CLASS_IN(TEMPLATE, SPACE) \
  DISTLOPS_DETAIL_EACH_SCALAR(DISTLOPS_DETAIL_CLASS, TEMPLATE, SPACE)
