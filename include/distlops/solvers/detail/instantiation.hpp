// SPDX-License-Identifier: BSD-3-Clause
// Copyright (c) 2026 The distlops authors
#pragma once
/// \file instantiation.hpp
/// The cases for which the library compiles the solver templates once (solvers/*.cpp),
/// declared extern in the solver headers so that users' builds do not compile them again.
/// M(prefix, V) or M(prefix, Domain, Range) is expanded for every case; `prefix` is `extern`
/// in the headers and empty in the library.

#include <complex>

#include "distlops/config.hpp"
#include "distlops/core/instantiate.hpp"

#include "distlops/core/distributed_array.hpp"
#include "distlops/core/local_array.hpp"
#include "distlops/core/stacked_distributed_array.hpp"

/// Vector types of the solvers on square operators: distributed, stacked and local arrays.
#define DISTLOPS_SOLVER_VECTORS_OF(M, prefix, T) \
  M(prefix, DistributedArray<T>)                 \
  M(prefix, StackedDistributedArray<T>)          \
  M(prefix, LocalArray<T>)
#define DISTLOPS_SOLVER_VECTORS(M, prefix)                   \
  DISTLOPS_SOLVER_VECTORS_OF(M, prefix, float)               \
  DISTLOPS_SOLVER_VECTORS_OF(M, prefix, double)              \
  DISTLOPS_SOLVER_VECTORS_OF(M, prefix, std::complex<float>) \
  DISTLOPS_SOLVER_VECTORS_OF(M, prefix, std::complex<double>)

/// (Domain, Range) pairs of the least-squares and sparsity solvers: the square cases and the
/// mixed ones of StackedVStack (distributed to stacked) and StackedHStack (stacked to
/// distributed).
#define DISTLOPS_SOLVER_PAIRS_OF(M, prefix, T)                      \
  M(prefix, DistributedArray<T>, DistributedArray<T>)               \
  M(prefix, StackedDistributedArray<T>, StackedDistributedArray<T>) \
  M(prefix, DistributedArray<T>, StackedDistributedArray<T>)        \
  M(prefix, StackedDistributedArray<T>, DistributedArray<T>)        \
  M(prefix, LocalArray<T>, LocalArray<T>)
#define DISTLOPS_SOLVER_PAIRS(M, prefix)                   \
  DISTLOPS_SOLVER_PAIRS_OF(M, prefix, float)               \
  DISTLOPS_SOLVER_PAIRS_OF(M, prefix, double)              \
  DISTLOPS_SOLVER_PAIRS_OF(M, prefix, std::complex<float>) \
  DISTLOPS_SOLVER_PAIRS_OF(M, prefix, std::complex<double>)

/// The Cuda-space cases compiled once in the library (builds with the CUDA backend): the
/// distributed and stacked vectors of cg and power iteration, and the pairs of the
/// least-squares and sparsity solvers among them, the mixed ones of StackedVStack and
/// StackedHStack included (the regularised problems of the examples). Local arrays of the Cuda
/// space work as well; they are compiled where they are used.
namespace distlops::detail {
// One-parameter names of the Cuda vector types, for the macro arguments.
template <class T>
using CudaArray = DistributedArray<T, Cuda>;
template <class T>
using CudaStackedArray = StackedDistributedArray<T, Cuda>;
}  // namespace distlops::detail
#define DISTLOPS_SOLVER_CUDA_VECTORS_OF(M, prefix, T) \
  M(prefix, detail::CudaArray<T>)                     \
  M(prefix, detail::CudaStackedArray<T>)
#define DISTLOPS_SOLVER_CUDA_PAIRS_OF(M, prefix, T)                   \
  M(prefix, detail::CudaArray<T>, detail::CudaArray<T>)               \
  M(prefix, detail::CudaStackedArray<T>, detail::CudaStackedArray<T>) \
  M(prefix, detail::CudaArray<T>, detail::CudaStackedArray<T>)        \
  M(prefix, detail::CudaStackedArray<T>, detail::CudaArray<T>)
#define DISTLOPS_SOLVER_CUDA_VECTORS(M, prefix)                                              \
  DISTLOPS_DETAIL_IF_CUDA(                                                                   \
      DISTLOPS_SOLVER_CUDA_VECTORS_OF(M, prefix, float) DISTLOPS_SOLVER_CUDA_VECTORS_OF(     \
          M, prefix, double) DISTLOPS_SOLVER_CUDA_VECTORS_OF(M, prefix, std::complex<float>) \
          DISTLOPS_SOLVER_CUDA_VECTORS_OF(M, prefix, std::complex<double>))
#define DISTLOPS_SOLVER_CUDA_PAIRS(M, prefix)                                               \
  DISTLOPS_DETAIL_IF_CUDA(DISTLOPS_SOLVER_CUDA_PAIRS_OF(                                    \
      M, prefix, float) DISTLOPS_SOLVER_CUDA_PAIRS_OF(M, prefix, double)                    \
                              DISTLOPS_SOLVER_CUDA_PAIRS_OF(M, prefix, std::complex<float>) \
                                  DISTLOPS_SOLVER_CUDA_PAIRS_OF(M, prefix, std::complex<double>))
