#pragma once
// The CUDA kernels of the operators (builds with the CUDA backend only; not part of the
// installed API). Each function is the Cuda-space counterpart of a host loop in the operator's
// .cpp file; the per-point formulas are the shared ones of pointwise.hpp. All of them enqueue on
// the library's stream and return without waiting. Pointers are device memory unless said
// otherwise.

#include "distlops/core/memory_space.hpp"
#include "distlops/core/types.hpp"

namespace distlops::device_ops {

/// Arrays seen as (outer, length, inner) around an axis, weights w along that axis:
/// out[o, l, i] = alpha * (w[l] * in[o, l, i]) + beta * out[o, l, i] (out not read when
/// beta == 0).
template <Scalar T>
void diagonal(Cuda, Index outer, Index length, Index inner, T alpha, const T* w, const T* in,
              T beta, T* out);

/// Restriction along the middle axis of (outer, length, inner) arrays:
/// out[o, i, k] = alpha * in[o, index[i], k] + beta * out[o, i, k] for i < count.
template <Scalar T>
void gather_rows(Cuda, Index outer, Index length, Index inner, Index count, const Index* index,
                 T alpha, const T* in, T beta, T* out);
/// Its adjoint: out[o, j, k] = alpha * sum_{s in [first[j], first[j+1])} in[o, sources[s], k]
/// + beta * out[o, j, k] for j < length.
template <Scalar T>
void scatter_rows(Cuda, Index outer, Index length, Index inner, Index count, const Index* first,
                  const Index* sources, T alpha, const T* in, T beta, T* out);

/// out (m x k) = alpha * op(A) * in + beta * out with A row-major rows x cols and op(A) = A or
/// A^H, through cuBLAS (gemv when k == 1). Every cuBLAS status is checked.
template <Scalar T>
void gemm(Cuda, bool adjoint, Index rows, Index cols, const T* a, Index k, T alpha, const T* in,
          T beta, T* out);

/// `batch` products at once, out_b = alpha * op(A_b) * in_b + beta * out_b for b < batch, each
/// as in gemm: A_b (row-major rows x cols) at a + b * a_stride (a_stride 0: one A for every
/// product), in_b at in + b * in_stride, out_b (op(A) rows x k) at out + b * out_stride. One
/// cublas<t>gemmStridedBatched, or cublas<t>gemvStridedBatched when k == 1 (except for the
/// adjoint of complex types, which gemv cannot form from the row-major data). `caller` names
/// the operator in errors. Every cuBLAS status is checked.
template <Scalar T>
void gemm_strided_batched(Cuda, const char* caller, bool adjoint, Index batch, Index rows,
                          Index cols, const T* a, Index a_stride, Index k, T alpha, const T* in,
                          Index in_stride, T beta, T* out, Index out_stride);

}  // namespace distlops::device_ops
