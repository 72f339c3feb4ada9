// SPDX-License-Identifier: BSD-3-Clause
// Copyright (c) 2026 The distlops authors
#pragma once
// The dense products of MatrixMult (local and distributed), Fredholm1 and MDC, one definition per
// memory space: OpenBLAS's CBLAS on the host (operators/host/matrix_mult_kernels.cpp), cuBLAS on
// the device (operators/cuda/matrix_mult_kernels.cpp). Matrices are row-major; pointers are memory
// of the space. The Cuda functions enqueue on the library's stream and return without waiting.
#include "distlops/core/instantiate.hpp"
#include "distlops/core/memory_space.hpp"
#include "distlops/core/types.hpp"

namespace distlops::kernels {

/// out (m x k) = alpha * op(A) * in + beta * out with A row-major rows x cols and op(A) = A or
/// A^H (out not read when beta == 0). A matrix-vector product when k == 1.
template <Scalar T>
void gemm(Host, bool adjoint, Index rows, Index cols, const T* a, Index k, T alpha, const T* in,
          T beta, T* out);
template <Scalar T>
void gemm(Cuda, bool adjoint, Index rows, Index cols, const T* a, Index k, T alpha, const T* in,
          T beta, T* out);

/// `batch` products at once, out_b = alpha * op(A_b) * in_b + beta * out_b for b < batch, each
/// as in gemm: A_b (row-major rows x cols) at a + b * a_stride (a_stride 0: one A for every
/// product), in_b at in + b * in_stride, out_b (op(A) rows x k) at out + b * out_stride.
/// `caller` names the operator in errors. On the device one cublas<t>gemmStridedBatched (or
/// gemvStridedBatched when k == 1, except for the adjoint of complex types, which gemv cannot
/// form from row-major data), every cuBLAS status checked.
template <Scalar T>
void gemm_strided_batched(Host, const char* caller, bool adjoint, Index batch, Index rows,
                          Index cols, const T* a, Index a_stride, Index k, T alpha, const T* in,
                          Index in_stride, T beta, T* out, Index out_stride);
template <Scalar T>
void gemm_strided_batched(Cuda, const char* caller, bool adjoint, Index batch, Index rows,
                          Index cols, const T* a, Index a_stride, Index k, T alpha, const T* in,
                          Index in_stride, T beta, T* out, Index out_stride);

// The instantiations of both definitions (instantiate.hpp).
#define DISTLOPS_DETAIL_MATRIX_MULT_KERNELS(PREFIX, T, S)                                         \
  PREFIX template void gemm<T>(S, bool, Index, Index, const T*, Index, T, const T*, T, T*);       \
  PREFIX template void gemm_strided_batched<T>(S, const char*, bool, Index, Index, Index,         \
                                               const T*, Index, Index, T, const T*, Index, T, T*, \
                                               Index);

}  // namespace distlops::kernels
