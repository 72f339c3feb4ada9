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
/// For function templates, a header defines a macro `M(PREFIX, T, Space)` that declares each of
/// its function templates for one type and space, each declaration preceded by PREFIX; the
/// header declares them with DISTLOPS_EXTERN_FUNCTIONS(M) and its source instantiates them with
/// DISTLOPS_INSTANTIATE_FUNCTIONS(M), so that the signatures are written once:
///
///     #define DISTLOPS_DETAIL_DIAGONAL(PREFIX, T, S) PREFIX template LocalOperator<T, S>
///         Diagonal<T, S>(std::span<const T>, const Shape&, int);  // on one line
///     DISTLOPS_EXTERN_FUNCTIONS(DISTLOPS_DETAIL_DIAGONAL)       // in diagonal.hpp
///     DISTLOPS_INSTANTIATE_FUNCTIONS(DISTLOPS_DETAIL_DIAGONAL)  // in diagonal.cpp
///
/// Internal templates of the sources define a macro `M(T, Space)` and expand it with
/// DISTLOPS_FOR_EACH_SCALAR_AND_SPACE(M), or DISTLOPS_FOR_EACH_SCALAR_IN(M, Space) where one
/// file serves one space.

#include <complex>

#include "distlops/config.hpp"
#include "distlops/core/memory_space.hpp"

#if DISTLOPS_WITH_CUDA
#define DISTLOPS_DETAIL_IF_CUDA(...) __VA_ARGS__
#else
#define DISTLOPS_DETAIL_IF_CUDA(...)
#endif

#define DISTLOPS_DETAIL_EACH_SCALAR(MACRO, ARG, SPACE) \
  MACRO(ARG, float, SPACE)                             \
  MACRO(ARG, double, SPACE)                            \
  MACRO(ARG, std::complex<float>, SPACE) MACRO(ARG, std::complex<double>, SPACE)
#define DISTLOPS_DETAIL_EACH(MACRO, ARG)                    \
  DISTLOPS_DETAIL_EACH_SCALAR(MACRO, ARG, ::distlops::Host) \
  DISTLOPS_DETAIL_IF_CUDA(DISTLOPS_DETAIL_EACH_SCALAR(MACRO, ARG, ::distlops::Cuda))
#define DISTLOPS_DETAIL_CALL(MACRO, T, SPACE) MACRO(T, SPACE)
#define DISTLOPS_DETAIL_EXTERN_CLASS(TEMPLATE, T, SPACE) extern template class TEMPLATE<T, SPACE>;
#define DISTLOPS_DETAIL_CLASS(TEMPLATE, T, SPACE) template class TEMPLATE<T, SPACE>;
#define DISTLOPS_DETAIL_EXTERN_CALL(MACRO, T, SPACE) MACRO(extern, T, SPACE)
#define DISTLOPS_DETAIL_INSTANTIATE_CALL(MACRO, T, SPACE) MACRO(, T, SPACE)

/// MACRO(T) for each scalar type.
#define DISTLOPS_FOR_EACH_SCALAR(MACRO) \
  MACRO(float) MACRO(double) MACRO(std::complex<float>) MACRO(std::complex<double>)

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

/// `extern template class TEMPLATE<T, Space>;` for each scalar type and space (headers).
#define DISTLOPS_EXTERN_TEMPLATE_CLASS(TEMPLATE) \
  DISTLOPS_DETAIL_EACH(DISTLOPS_DETAIL_EXTERN_CLASS, TEMPLATE)

/// `template class TEMPLATE<T, Space>;` for each scalar type and space (the library's sources).
#define DISTLOPS_INSTANTIATE_TEMPLATE_CLASS(TEMPLATE) \
  DISTLOPS_DETAIL_EACH(DISTLOPS_DETAIL_CLASS, TEMPLATE)

/// The same for one space, where one source file serves one space.
#define DISTLOPS_INSTANTIATE_TEMPLATE_CLASS_IN(TEMPLATE, SPACE) \
  DISTLOPS_DETAIL_EACH_SCALAR(DISTLOPS_DETAIL_CLASS, TEMPLATE, SPACE)

/// MACRO(extern, T, Space) for each scalar type and space: the header's declarations of the
/// function templates its MACRO lists (see above).
#define DISTLOPS_EXTERN_FUNCTIONS(MACRO) DISTLOPS_DETAIL_EACH(DISTLOPS_DETAIL_EXTERN_CALL, MACRO)

/// MACRO(, T, Space) for each scalar type and space: their instantiation in the source.
#define DISTLOPS_INSTANTIATE_FUNCTIONS(MACRO) \
  DISTLOPS_DETAIL_EACH(DISTLOPS_DETAIL_INSTANTIATE_CALL, MACRO)

/// MACRO(, T, SPACE) for each scalar type: the instantiation in a file that serves one space (a
/// kernel's host or device definition).
#define DISTLOPS_INSTANTIATE_FUNCTIONS_IN(MACRO, SPACE) \
  DISTLOPS_DETAIL_EACH_SCALAR(DISTLOPS_DETAIL_INSTANTIATE_CALL, MACRO, SPACE)
