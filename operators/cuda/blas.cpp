// MatrixMult's products on the device through cuBLAS. cuBLAS is column-major: a row-major
// r x c array is a column-major c x r array, so the row-major products are computed
// transposed: Y = A X is Y^T = X^T A^T, and Y = A^H X is Y^T = X^T conj(A).
#include <algorithm>
#include <complex>
#include <limits>
#include <string>

#include "../../src/cuda/cuda_check.hpp"
#include "device_kernels.hpp"
#include "distlops/core/cuda_context.hpp"
#include "distlops/core/kernels.hpp"

namespace distlops::device_ops {

namespace {

int blas_int(Index value, const char* what) {
  if (value > Index(std::numeric_limits<int>::max())) {
    throw InvalidArgument(std::string("MatrixMult: ") + what + " " + std::to_string(value) +
                          " exceeds cuBLAS' 32-bit sizes");
  }
  return static_cast<int>(std::max<Index>(value, 1));
}

cublasStatus_t gemv_call(cublasHandle_t h, cublasOperation_t op, int m, int n, const float* alpha,
                         const float* a, int lda, const float* x, const float* beta, float* y) {
  return cublasSgemv(h, op, m, n, alpha, a, lda, x, 1, beta, y, 1);
}
cublasStatus_t gemv_call(cublasHandle_t h, cublasOperation_t op, int m, int n, const double* alpha,
                         const double* a, int lda, const double* x, const double* beta, double* y) {
  return cublasDgemv(h, op, m, n, alpha, a, lda, x, 1, beta, y, 1);
}
cublasStatus_t gemv_call(cublasHandle_t h, cublasOperation_t op, int m, int n,
                         const std::complex<float>* alpha, const std::complex<float>* a, int lda,
                         const std::complex<float>* x, const std::complex<float>* beta,
                         std::complex<float>* y) {
  return cublasCgemv(h, op, m, n, reinterpret_cast<const cuComplex*>(alpha),
                     reinterpret_cast<const cuComplex*>(a), lda,
                     reinterpret_cast<const cuComplex*>(x), 1,
                     reinterpret_cast<const cuComplex*>(beta), reinterpret_cast<cuComplex*>(y), 1);
}
cublasStatus_t gemv_call(cublasHandle_t h, cublasOperation_t op, int m, int n,
                         const std::complex<double>* alpha, const std::complex<double>* a, int lda,
                         const std::complex<double>* x, const std::complex<double>* beta,
                         std::complex<double>* y) {
  return cublasZgemv(
      h, op, m, n, reinterpret_cast<const cuDoubleComplex*>(alpha),
      reinterpret_cast<const cuDoubleComplex*>(a), lda, reinterpret_cast<const cuDoubleComplex*>(x),
      1, reinterpret_cast<const cuDoubleComplex*>(beta), reinterpret_cast<cuDoubleComplex*>(y), 1);
}

cublasStatus_t gemm_call(cublasHandle_t h, cublasOperation_t opb, int m, int n, int k,
                         const float* alpha, const float* a, int lda, const float* b, int ldb,
                         const float* beta, float* c, int ldc) {
  return cublasSgemm(h, CUBLAS_OP_N, opb, m, n, k, alpha, a, lda, b, ldb, beta, c, ldc);
}
cublasStatus_t gemm_call(cublasHandle_t h, cublasOperation_t opb, int m, int n, int k,
                         const double* alpha, const double* a, int lda, const double* b, int ldb,
                         const double* beta, double* c, int ldc) {
  return cublasDgemm(h, CUBLAS_OP_N, opb, m, n, k, alpha, a, lda, b, ldb, beta, c, ldc);
}
cublasStatus_t gemm_call(cublasHandle_t h, cublasOperation_t opb, int m, int n, int k,
                         const std::complex<float>* alpha, const std::complex<float>* a, int lda,
                         const std::complex<float>* b, int ldb, const std::complex<float>* beta,
                         std::complex<float>* c, int ldc) {
  return cublasCgemm(
      h, CUBLAS_OP_N, opb, m, n, k, reinterpret_cast<const cuComplex*>(alpha),
      reinterpret_cast<const cuComplex*>(a), lda, reinterpret_cast<const cuComplex*>(b), ldb,
      reinterpret_cast<const cuComplex*>(beta), reinterpret_cast<cuComplex*>(c), ldc);
}
cublasStatus_t gemm_call(cublasHandle_t h, cublasOperation_t opb, int m, int n, int k,
                         const std::complex<double>* alpha, const std::complex<double>* a, int lda,
                         const std::complex<double>* b, int ldb, const std::complex<double>* beta,
                         std::complex<double>* c, int ldc) {
  return cublasZgemm(h, CUBLAS_OP_N, opb, m, n, k, reinterpret_cast<const cuDoubleComplex*>(alpha),
                     reinterpret_cast<const cuDoubleComplex*>(a), lda,
                     reinterpret_cast<const cuDoubleComplex*>(b), ldb,
                     reinterpret_cast<const cuDoubleComplex*>(beta),
                     reinterpret_cast<cuDoubleComplex*>(c), ldc);
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
  cuda::check_cublas(cublasSetPointerMode(handle, CUBLAS_POINTER_MODE_HOST),
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

template void gemm<float>(Cuda, bool, Index, Index, const float*, Index, float, const float*, float,
                          float*);
template void gemm<double>(Cuda, bool, Index, Index, const double*, Index, double, const double*,
                           double, double*);
template void gemm<std::complex<float>>(Cuda, bool, Index, Index, const std::complex<float>*, Index,
                                        std::complex<float>, const std::complex<float>*,
                                        std::complex<float>, std::complex<float>*);
template void gemm<std::complex<double>>(Cuda, bool, Index, Index, const std::complex<double>*,
                                         Index, std::complex<double>, const std::complex<double>*,
                                         std::complex<double>, std::complex<double>*);

}  // namespace distlops::device_ops
