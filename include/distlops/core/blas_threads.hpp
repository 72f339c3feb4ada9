// SPDX-License-Identifier: BSD-3-Clause
// Copyright (c) 2026 The distlops authors
#pragma once
/// \file blas_threads.hpp
/// The threads of the BLAS (OpenBLAS) behind the host's dense products (MatrixMult,
/// BlockDiag/VStack/HStack of them, Fredholm1, MDC, SUMMA).
///
/// distlops runs one BLAS thread per rank unless asked: MPI ranks already occupy the cores,
/// and OpenBLAS's own default (one thread per core, in every rank) oversubscribes them. The
/// count comes from, in order: set_blas_threads(); the environment variable
/// DISTLOPS_BLAS_THREADS (a positive integer, read at the first dense product);
/// OPENBLAS_NUM_THREADS when DISTLOPS_BLAS_THREADS is not set (left to OpenBLAS); else 1.

namespace distlops {

/// The number of threads the BLAS uses for this process's dense products.
int blas_threads();

/// Sets the number of BLAS threads of this process (threads >= 1; InvalidArgument otherwise).
/// A per-process setting: call it on every rank that should change.
void set_blas_threads(int threads);

}  // namespace distlops
