// SPDX-License-Identifier: BSD-3-Clause
// Copyright (c) 2026 The distlops authors
// The dense products on the device through cuBLAS (local and distributed MatrixMult, MDC,
// Fredholm1). cuBLAS is column-major: a row-major r x c array is a column-major c x r array, so
// the row-major products are computed transposed: Y = A X is Y^T = X^T A^T, and Y = A^H X is
// Y^T = X^T conj(A).
#include <algorithm>
#include <complex>
#include <limits>
#include <string>

#include "../dense/matrix_mult_kernels.hpp"
#include "distlops/core/cuda_context.hpp"
#include "distlops/core/detail/cublas_library.hpp"
#include "distlops/core/instantiate.hpp"
#include "distlops/core/kernels.hpp"

namespace distlops::kernels {

namespace {

int blas_int(Index value, const char* what, const char* caller = "MatrixMult") {
  if (value > Index(std::numeric_limits<int>::max())) {
    throw InvalidArgument(std::string(caller) + ": " + what + " " + std::to_string(value) +
                          " exceeds cuBLAS' 32-bit sizes");
  }
  return static_cast<int>(std::max<Index>(value, 1));
}

cublasStatus_t gemv_call(cublasHandle_t h, cublasOperation_t op, int m, int n, const float* alpha,
                         const float* a, int lda, const float* x, const float* beta, float* y) {
  return cuda::cublas_library().sgemv(h, op, m, n, alpha, a, lda, x, 1, beta, y, 1);
}
cublasStatus_t gemv_call(cublasHandle_t h, cublasOperation_t op, int m, int n, const double* alpha,
                         const double* a, int lda, const double* x, const double* beta, double* y) {
  return cuda::cublas_library().dgemv(h, op, m, n, alpha, a, lda, x, 1, beta, y, 1);
}
cublasStatus_t gemv_call(cublasHandle_t h, cublasOperation_t op, int m, int n,
                         const std::complex<float>* alpha, const std::complex<float>* a, int lda,
                         const std::complex<float>* x, const std::complex<float>* beta,
                         std::complex<float>* y) {
  return cuda::cublas_library().cgemv(
      h, op, m, n, reinterpret_cast<const cuComplex*>(alpha), reinterpret_cast<const cuComplex*>(a),
      lda, reinterpret_cast<const cuComplex*>(x), 1, reinterpret_cast<const cuComplex*>(beta),
      reinterpret_cast<cuComplex*>(y), 1);
}
cublasStatus_t gemv_call(cublasHandle_t h, cublasOperation_t op, int m, int n,
                         const std::complex<double>* alpha, const std::complex<double>* a, int lda,
                         const std::complex<double>* x, const std::complex<double>* beta,
                         std::complex<double>* y) {
  return cuda::cublas_library().zgemv(
      h, op, m, n, reinterpret_cast<const cuDoubleComplex*>(alpha),
      reinterpret_cast<const cuDoubleComplex*>(a), lda, reinterpret_cast<const cuDoubleComplex*>(x),
      1, reinterpret_cast<const cuDoubleComplex*>(beta), reinterpret_cast<cuDoubleComplex*>(y), 1);
}

cublasStatus_t gemm_call(cublasHandle_t h, cublasOperation_t opb, int m, int n, int k,
                         const float* alpha, const float* a, int lda, const float* b, int ldb,
                         const float* beta, float* c, int ldc) {
  return cuda::cublas_library().sgemm(h, CUBLAS_OP_N, opb, m, n, k, alpha, a, lda, b, ldb, beta, c,
                                      ldc);
}
cublasStatus_t gemm_call(cublasHandle_t h, cublasOperation_t opb, int m, int n, int k,
                         const double* alpha, const double* a, int lda, const double* b, int ldb,
                         const double* beta, double* c, int ldc) {
  return cuda::cublas_library().dgemm(h, CUBLAS_OP_N, opb, m, n, k, alpha, a, lda, b, ldb, beta, c,
                                      ldc);
}
cublasStatus_t gemm_call(cublasHandle_t h, cublasOperation_t opb, int m, int n, int k,
                         const std::complex<float>* alpha, const std::complex<float>* a, int lda,
                         const std::complex<float>* b, int ldb, const std::complex<float>* beta,
                         std::complex<float>* c, int ldc) {
  return cuda::cublas_library().cgemm(
      h, CUBLAS_OP_N, opb, m, n, k, reinterpret_cast<const cuComplex*>(alpha),
      reinterpret_cast<const cuComplex*>(a), lda, reinterpret_cast<const cuComplex*>(b), ldb,
      reinterpret_cast<const cuComplex*>(beta), reinterpret_cast<cuComplex*>(c), ldc);
}
cublasStatus_t gemm_call(cublasHandle_t h, cublasOperation_t opb, int m, int n, int k,
                         const std::complex<double>* alpha, const std::complex<double>* a, int lda,
                         const std::complex<double>* b, int ldb, const std::complex<double>* beta,
                         std::complex<double>* c, int ldc) {
  return cuda::cublas_library().zgemm(
      h, CUBLAS_OP_N, opb, m, n, k, reinterpret_cast<const cuDoubleComplex*>(alpha),
      reinterpret_cast<const cuDoubleComplex*>(a), lda, reinterpret_cast<const cuDoubleComplex*>(b),
      ldb, reinterpret_cast<const cuDoubleComplex*>(beta), reinterpret_cast<cuDoubleComplex*>(c),
      ldc);
}

using Stride = long long;  // NOLINT(google-runtime-int): cuBLAS' stride type

cublasStatus_t gemv_batched_call(cublasHandle_t h, cublasOperation_t op, int m, int n,
                                 const float* alpha, const float* a, int lda, Stride sa,
                                 const float* x, Stride sx, const float* beta, float* y, Stride sy,
                                 int batch) {
  return cuda::cublas_library().sgemv_strided_batched(h, op, m, n, alpha, a, lda, sa, x, 1, sx,
                                                      beta, y, 1, sy, batch);
}
cublasStatus_t gemv_batched_call(cublasHandle_t h, cublasOperation_t op, int m, int n,
                                 const double* alpha, const double* a, int lda, Stride sa,
                                 const double* x, Stride sx, const double* beta, double* y,
                                 Stride sy, int batch) {
  return cuda::cublas_library().dgemv_strided_batched(h, op, m, n, alpha, a, lda, sa, x, 1, sx,
                                                      beta, y, 1, sy, batch);
}
cublasStatus_t gemv_batched_call(cublasHandle_t h, cublasOperation_t op, int m, int n,
                                 const std::complex<float>* alpha, const std::complex<float>* a,
                                 int lda, Stride sa, const std::complex<float>* x, Stride sx,
                                 const std::complex<float>* beta, std::complex<float>* y, Stride sy,
                                 int batch) {
  return cuda::cublas_library().cgemv_strided_batched(
      h, op, m, n, reinterpret_cast<const cuComplex*>(alpha), reinterpret_cast<const cuComplex*>(a),
      lda, sa, reinterpret_cast<const cuComplex*>(x), 1, sx,
      reinterpret_cast<const cuComplex*>(beta), reinterpret_cast<cuComplex*>(y), 1, sy, batch);
}
cublasStatus_t gemv_batched_call(cublasHandle_t h, cublasOperation_t op, int m, int n,
                                 const std::complex<double>* alpha, const std::complex<double>* a,
                                 int lda, Stride sa, const std::complex<double>* x, Stride sx,
                                 const std::complex<double>* beta, std::complex<double>* y,
                                 Stride sy, int batch) {
  return cuda::cublas_library().zgemv_strided_batched(
      h, op, m, n, reinterpret_cast<const cuDoubleComplex*>(alpha),
      reinterpret_cast<const cuDoubleComplex*>(a), lda, sa,
      reinterpret_cast<const cuDoubleComplex*>(x), 1, sx,
      reinterpret_cast<const cuDoubleComplex*>(beta), reinterpret_cast<cuDoubleComplex*>(y), 1, sy,
      batch);
}

cublasStatus_t gemm_batched_call(cublasHandle_t h, cublasOperation_t opb, int m, int n, int k,
                                 const float* alpha, const float* a, int lda, Stride sa,
                                 const float* b, int ldb, Stride sb, const float* beta, float* c,
                                 int ldc, Stride sc, int batch) {
  return cuda::cublas_library().sgemm_strided_batched(h, CUBLAS_OP_N, opb, m, n, k, alpha, a, lda,
                                                      sa, b, ldb, sb, beta, c, ldc, sc, batch);
}
cublasStatus_t gemm_batched_call(cublasHandle_t h, cublasOperation_t opb, int m, int n, int k,
                                 const double* alpha, const double* a, int lda, Stride sa,
                                 const double* b, int ldb, Stride sb, const double* beta, double* c,
                                 int ldc, Stride sc, int batch) {
  return cuda::cublas_library().dgemm_strided_batched(h, CUBLAS_OP_N, opb, m, n, k, alpha, a, lda,
                                                      sa, b, ldb, sb, beta, c, ldc, sc, batch);
}
cublasStatus_t gemm_batched_call(cublasHandle_t h, cublasOperation_t opb, int m, int n, int k,
                                 const std::complex<float>* alpha, const std::complex<float>* a,
                                 int lda, Stride sa, const std::complex<float>* b, int ldb,
                                 Stride sb, const std::complex<float>* beta, std::complex<float>* c,
                                 int ldc, Stride sc, int batch) {
  return cuda::cublas_library().cgemm_strided_batched(
      h, CUBLAS_OP_N, opb, m, n, k, reinterpret_cast<const cuComplex*>(alpha),
      reinterpret_cast<const cuComplex*>(a), lda, sa, reinterpret_cast<const cuComplex*>(b), ldb,
      sb, reinterpret_cast<const cuComplex*>(beta), reinterpret_cast<cuComplex*>(c), ldc, sc,
      batch);
}
cublasStatus_t gemm_batched_call(cublasHandle_t h, cublasOperation_t opb, int m, int n, int k,
                                 const std::complex<double>* alpha, const std::complex<double>* a,
                                 int lda, Stride sa, const std::complex<double>* b, int ldb,
                                 Stride sb, const std::complex<double>* beta,
                                 std::complex<double>* c, int ldc, Stride sc, int batch) {
  return cuda::cublas_library().zgemm_strided_batched(
      h, CUBLAS_OP_N, opb, m, n, k, reinterpret_cast<const cuDoubleComplex*>(alpha),
      reinterpret_cast<const cuDoubleComplex*>(a), lda, sa,
      reinterpret_cast<const cuDoubleComplex*>(b), ldb, sb,
      reinterpret_cast<const cuDoubleComplex*>(beta), reinterpret_cast<cuDoubleComplex*>(c), ldc,
      sc, batch);
}

}  // namespace

template <Scalar T>
void gemm(Cuda, bool adjoint, Index rows, Index cols, const T* a, Index k, T alpha, const T* in,
          T beta, T* out) {
  const Index out_rows = adjoint ? cols : rows;
  const Index in_rows = adjoint ? rows : cols;
  if (out_rows == 0 || k == 0) return;
  if (in_rows == 0) {
    // An empty product: out = beta * out (not read when beta == 0).
    if (beta == T(0)) {
      kernels::fill(Cuda{}, out_rows * k, T(0), out);
    } else {
      kernels::scale(Cuda{}, out_rows * k, beta, out);
    }
    return;
  }
  cublasHandle_t handle = cuda::Context::get().blas();
  cuda::check_cublas(cuda::cublas_library().set_pointer_mode(handle, CUBLAS_POINTER_MODE_HOST),
                     "cublasSetPointerMode (MatrixMult)");
  // A as a column-major cols x rows matrix (leading dimension cols).
  const int m_rows = blas_int(rows, "rows");
  const int m_cols = blas_int(cols, "cols");
  if (k == 1 && (!adjoint || !is_complex_v<T>)) {
    // y = A x is y = (A^T)^T x; for real types A^T x is (A^T) x.
    cuda::check_cublas(
        gemv_call(handle, adjoint ? CUBLAS_OP_N : CUBLAS_OP_T, m_cols, m_rows, &alpha, a, m_cols,
                  in, &beta, out),
        adjoint ? "cublas<t>gemv (MatrixMult adjoint)" : "cublas<t>gemv (MatrixMult)");
    return;
  }
  const int kk = blas_int(k, "columns of the operand");
  if (!adjoint) {
    // Y^T (k x rows) = X^T (k x cols) * A^T (cols x rows).
    cuda::check_cublas(gemm_call(handle, CUBLAS_OP_N, kk, m_rows, m_cols, &alpha, in, kk, a, m_cols,
                                 &beta, out, kk),
                       "cublas<t>gemm (MatrixMult)");
  } else {
    // Y^T (k x cols) = X^T (k x rows) * conj(A) (rows x cols), conj(A) = (A^T)^H.
    cuda::check_cublas(gemm_call(handle, CUBLAS_OP_C, kk, m_cols, m_rows, &alpha, in, kk, a, m_cols,
                                 &beta, out, kk),
                       "cublas<t>gemm (MatrixMult adjoint)");
  }
}

template <Scalar T>
void gemm_strided_batched(Cuda, const char* caller, bool adjoint, Index batch, Index rows,
                          Index cols, const T* a, Index a_stride, Index k, T alpha, const T* in,
                          Index in_stride, T beta, T* out, Index out_stride) {
  const Index out_rows = adjoint ? cols : rows;
  const Index in_rows = adjoint ? rows : cols;
  if (batch <= 0 || out_rows == 0 || k == 0) return;
  if (in_rows == 0) {
    // Empty products: out_b = beta * out_b (not read when beta == 0), one launch when the
    // outputs are contiguous.
    const Index block = out_rows * k;
    const bool contiguous = out_stride == block;
    for (Index b = 0; b < (contiguous ? 1 : batch); ++b) {
      const Index n = contiguous ? batch * block : block;
      if (beta == T(0)) {
        kernels::fill(Cuda{}, n, T(0), out + b * out_stride);
      } else {
        kernels::scale(Cuda{}, n, beta, out + b * out_stride);
      }
    }
    return;
  }
  const std::string name(caller);
  cublasHandle_t handle = cuda::Context::get().blas();
  cuda::check_cublas(cuda::cublas_library().set_pointer_mode(handle, CUBLAS_POINTER_MODE_HOST),
                     ("cublasSetPointerMode (" + name + ")").c_str());
  const int count = blas_int(batch, "batch count", caller);
  const int m_rows = blas_int(rows, "rows", caller);
  const int m_cols = blas_int(cols, "cols", caller);
  const auto sa = static_cast<Stride>(a_stride);
  const auto si = static_cast<Stride>(in_stride);
  const auto so = static_cast<Stride>(out_stride);
  if (k == 1 && (!adjoint || !is_complex_v<T>)) {
    // A as a column-major cols x rows matrix M: A x = M^T x, and A^T x = M x for real types.
    cuda::check_cublas(
        gemv_batched_call(handle, adjoint ? CUBLAS_OP_N : CUBLAS_OP_T, m_cols, m_rows, &alpha, a,
                          m_cols, sa, in, si, &beta, out, so, count),
        ("cublas<t>gemvStridedBatched (" + name + ")").c_str());
    return;
  }
  const int kk = blas_int(k, "columns of the operand", caller);
  // Forward: Y^T (k x rows) = X^T (k x cols) A^T; adjoint: Y^T (k x cols) = X^T (k x rows)
  // conj(A), conj(A) being the conjugate transpose of the column-major view of A.
  cuda::check_cublas(gemm_batched_call(handle, adjoint ? CUBLAS_OP_C : CUBLAS_OP_N, kk,
                                       adjoint ? m_cols : m_rows, adjoint ? m_rows : m_cols, &alpha,
                                       in, kk, si, a, m_cols, sa, &beta, out, kk, so, count),
                     ("cublas<t>gemmStridedBatched (" + name + ")").c_str());
}

DISTLOPS_FOR_EACH_SCALAR_IN_ARG(DISTLOPS_DETAIL_MATRIX_MULT_KERNELS, , ::distlops::Cuda)
#undef DISTLOPS_INSTANTIATE_MATRIX_MULT_KERNELS

}  // namespace distlops::kernels
