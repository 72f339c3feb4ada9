// gemm_strided_batched (batched_blas.hpp). cuBLAS is column-major: a row-major r x c slice is a
// column-major c x r one, so the products are computed transposed: Y = A X is
// Y^T = X^T A^T, and Y = A^H X is Y^T = X^T conj(A), with conj(A) = (A^T)^H.
#include "batched_blas.hpp"

#include <algorithm>
#include <complex>
#include <limits>
#include <string>

#include "../../src/cuda/cuda_check.hpp"
#include "distlops/core/cuda_context.hpp"
#include "distlops/core/kernels.hpp"

namespace distlops::device_ops {

namespace {

int blas_int(Index value, const char* what) {
  if (value > Index(std::numeric_limits<int>::max())) {
    throw InvalidArgument(std::string("batched gemm: ") + what + " " + std::to_string(value) +
                          " exceeds cuBLAS' 32-bit sizes");
  }
  return static_cast<int>(std::max<Index>(value, 1));
}

// cublas<t>gemmStridedBatched with op(A) = N and op(B) = opb, for the four scalar types.
cublasStatus_t batched_call(cublasHandle_t h, cublasOperation_t opb, int m, int n, int k,
                            const float* alpha, const float* a, int lda, long long stride_a,
                            const float* b, int ldb, long long stride_b, const float* beta,
                            float* c, int ldc, long long stride_c, int batch) {
  return cublasSgemmStridedBatched(h, CUBLAS_OP_N, opb, m, n, k, alpha, a, lda, stride_a, b, ldb,
                                   stride_b, beta, c, ldc, stride_c, batch);
}
cublasStatus_t batched_call(cublasHandle_t h, cublasOperation_t opb, int m, int n, int k,
                            const double* alpha, const double* a, int lda, long long stride_a,
                            const double* b, int ldb, long long stride_b, const double* beta,
                            double* c, int ldc, long long stride_c, int batch) {
  return cublasDgemmStridedBatched(h, CUBLAS_OP_N, opb, m, n, k, alpha, a, lda, stride_a, b, ldb,
                                   stride_b, beta, c, ldc, stride_c, batch);
}
cublasStatus_t batched_call(cublasHandle_t h, cublasOperation_t opb, int m, int n, int k,
                            const std::complex<float>* alpha, const std::complex<float>* a, int lda,
                            long long stride_a, const std::complex<float>* b, int ldb,
                            long long stride_b, const std::complex<float>* beta,
                            std::complex<float>* c, int ldc, long long stride_c, int batch) {
  return cublasCgemmStridedBatched(
      h, CUBLAS_OP_N, opb, m, n, k, reinterpret_cast<const cuComplex*>(alpha),
      reinterpret_cast<const cuComplex*>(a), lda, stride_a, reinterpret_cast<const cuComplex*>(b),
      ldb, stride_b, reinterpret_cast<const cuComplex*>(beta), reinterpret_cast<cuComplex*>(c), ldc,
      stride_c, batch);
}
cublasStatus_t batched_call(cublasHandle_t h, cublasOperation_t opb, int m, int n, int k,
                            const std::complex<double>* alpha, const std::complex<double>* a,
                            int lda, long long stride_a, const std::complex<double>* b, int ldb,
                            long long stride_b, const std::complex<double>* beta,
                            std::complex<double>* c, int ldc, long long stride_c, int batch) {
  return cublasZgemmStridedBatched(h, CUBLAS_OP_N, opb, m, n, k,
                                   reinterpret_cast<const cuDoubleComplex*>(alpha),
                                   reinterpret_cast<const cuDoubleComplex*>(a), lda, stride_a,
                                   reinterpret_cast<const cuDoubleComplex*>(b), ldb, stride_b,
                                   reinterpret_cast<const cuDoubleComplex*>(beta),
                                   reinterpret_cast<cuDoubleComplex*>(c), ldc, stride_c, batch);
}

}  // namespace

template <Scalar T>
void gemm_strided_batched(Cuda, bool adjoint, Index batch, Index rows, Index cols, const T* a,
                          Index k, T alpha, const T* in, T beta, T* out) {
  const Index out_rows = adjoint ? cols : rows;
  const Index in_rows = adjoint ? rows : cols;
  if (batch == 0 || out_rows == 0 || k == 0) return;
  if (in_rows == 0) {
    // Empty products: out = beta * out (not read when beta == 0).
    const Index n = batch * out_rows * k;
    if (beta == T(0)) {
      kernels::fill(Cuda{}, n, T(0), out);
    } else {
      kernels::scale(Cuda{}, n, beta, out);
    }
    return;
  }
  cublasHandle_t handle = cuda::Context::get().blas();
  cuda::check_cublas(cublasSetPointerMode(handle, CUBLAS_POINTER_MODE_HOST),
                     "cublasSetPointerMode (batched gemm)");
  const int m_rows = blas_int(rows, "rows");
  const int m_cols = blas_int(cols, "cols");
  const int kk = blas_int(k, "columns of the operand");
  const int count = blas_int(batch, "batch");
  const long long stride_a = static_cast<long long>(rows) * cols;
  const long long stride_in = static_cast<long long>(in_rows) * k;
  const long long stride_out = static_cast<long long>(out_rows) * k;
  if (!adjoint) {
    // Y_i^T (k x rows) = X_i^T (k x cols) * A_i^T (cols x rows).
    cuda::check_cublas(
        batched_call(handle, CUBLAS_OP_N, kk, m_rows, m_cols, &alpha, in, kk, stride_in, a, m_cols,
                     stride_a, &beta, out, kk, stride_out, count),
        "cublas<t>gemmStridedBatched");
  } else {
    // Y_i^T (k x cols) = X_i^T (k x rows) * conj(A_i) (rows x cols).
    cuda::check_cublas(
        batched_call(handle, CUBLAS_OP_C, kk, m_cols, m_rows, &alpha, in, kk, stride_in, a, m_cols,
                     stride_a, &beta, out, kk, stride_out, count),
        "cublas<t>gemmStridedBatched (adjoint)");
  }
}

template void gemm_strided_batched<float>(Cuda, bool, Index, Index, Index, const float*, Index,
                                          float, const float*, float, float*);
template void gemm_strided_batched<double>(Cuda, bool, Index, Index, Index, const double*, Index,
                                           double, const double*, double, double*);
template void gemm_strided_batched<std::complex<float>>(Cuda, bool, Index, Index, Index,
                                                        const std::complex<float>*, Index,
                                                        std::complex<float>,
                                                        const std::complex<float>*,
                                                        std::complex<float>, std::complex<float>*);
template void gemm_strided_batched<std::complex<double>>(
    Cuda, bool, Index, Index, Index, const std::complex<double>*, Index, std::complex<double>,
    const std::complex<double>*, std::complex<double>, std::complex<double>*);

}  // namespace distlops::device_ops
