// SPDX-License-Identifier: BSD-3-Clause
// Copyright (c) 2026 The distlops authors
// The dense products on the host: CBLAS GEMV/GEMM (OpenBLAS) on row-major data in the caller's
// memory, instantiated here once for every operator that multiplies matrices (MatrixMult local
// and distributed, BlockDiag/VStack/HStack of them, Fredholm1, MDC, SUMMA). Eigen's products
// lost to OpenBLAS on the adjoint (a transposed GEMV, hstack-cgls) and never use more than
// SSE2 in a build without -march; OpenBLAS picks its kernels for the CPU at run time.
#include <cblas.h>

#include <algorithm>
#include <climits>
#include <complex>
#include <cstdlib>
#include <string>
#include <type_traits>

#include "../dense/matrix_mult_kernels.hpp"
#include "distlops/core/blas_threads.hpp"
#include "distlops/core/detail/instruction_set.hpp"
#include "distlops/core/error.hpp"
#include "distlops/core/instantiate.hpp"

namespace distlops {

namespace {

// One BLAS thread per rank unless asked: ranks already occupy the cores, and OpenBLAS's
// default (a thread per core in every rank) oversubscribes them. DISTLOPS_BLAS_THREADS sets the
// count; OPENBLAS_NUM_THREADS, when set and DISTLOPS_BLAS_THREADS is not, is left to OpenBLAS.
int configured_threads() {
  if (const char* value = std::getenv("DISTLOPS_BLAS_THREADS")) {
    char* end = nullptr;
    const long threads = std::strtol(value, &end, 10);
    if (end == value || *end != '\0' || threads < 1 || threads > 1024) {
      throw InvalidArgument(std::string("DISTLOPS_BLAS_THREADS must be a positive integer, got '") +
                            value + "'");
    }
    return static_cast<int>(threads);
  }
  if (std::getenv("OPENBLAS_NUM_THREADS")) return 0;  // OpenBLAS read it at load time
  return 1;
}

void configure_threads_once() {
  static const bool configured = [] {
    const int threads = configured_threads();
    if (threads > 0) openblas_set_num_threads(threads);
    return true;
  }();
  (void)configured;
}

}  // namespace

int blas_threads() {
  configure_threads_once();
  return openblas_get_num_threads();
}

void set_blas_threads(int threads) {
  if (threads < 1) {
    throw InvalidArgument("set_blas_threads: the count must be positive, got " +
                          std::to_string(threads));
  }
  configure_threads_once();
  openblas_set_num_threads(threads);
}

namespace kernels {

namespace {

// CBLAS indexes with int (OpenBLAS built without 64-bit integers, as Debian's is).
int blas_index(Index value, const char* what) {
  if (value > INT_MAX) {
    throw InvalidArgument(std::string("dense product: ") + what + " " + std::to_string(value) +
                          " exceeds the BLAS's 32-bit index");
  }
  return static_cast<int>(value);
}

CBLAS_TRANSPOSE transpose(bool adjoint) {
  return adjoint ? CblasConjTrans : CblasNoTrans;
}

// The four CBLAS type prefixes behind one name; complex scalars go by pointer.
void gemv(bool adjoint, int m, int n, float alpha, const float* a, int lda, const float* x,
          float beta, float* y) {
  cblas_sgemv(CblasRowMajor, transpose(adjoint), m, n, alpha, a, lda, x, 1, beta, y, 1);
}
void gemv(bool adjoint, int m, int n, double alpha, const double* a, int lda, const double* x,
          double beta, double* y) {
  cblas_dgemv(CblasRowMajor, transpose(adjoint), m, n, alpha, a, lda, x, 1, beta, y, 1);
}
void gemv(bool adjoint, int m, int n, std::complex<float> alpha, const std::complex<float>* a,
          int lda, const std::complex<float>* x, std::complex<float> beta, std::complex<float>* y) {
  cblas_cgemv(CblasRowMajor, transpose(adjoint), m, n, &alpha, a, lda, x, 1, &beta, y, 1);
}
void gemv(bool adjoint, int m, int n, std::complex<double> alpha, const std::complex<double>* a,
          int lda, const std::complex<double>* x, std::complex<double> beta,
          std::complex<double>* y) {
  cblas_zgemv(CblasRowMajor, transpose(adjoint), m, n, &alpha, a, lda, x, 1, &beta, y, 1);
}

void gemm(bool adjoint, int m, int n, int k, float alpha, const float* a, int lda, const float* b,
          int ldb, float beta, float* c, int ldc) {
  cblas_sgemm(CblasRowMajor, transpose(adjoint), CblasNoTrans, m, n, k, alpha, a, lda, b, ldb, beta,
              c, ldc);
}
void gemm(bool adjoint, int m, int n, int k, double alpha, const double* a, int lda,
          const double* b, int ldb, double beta, double* c, int ldc) {
  cblas_dgemm(CblasRowMajor, transpose(adjoint), CblasNoTrans, m, n, k, alpha, a, lda, b, ldb, beta,
              c, ldc);
}
void gemm(bool adjoint, int m, int n, int k, std::complex<float> alpha,
          const std::complex<float>* a, int lda, const std::complex<float>* b, int ldb,
          std::complex<float> beta, std::complex<float>* c, int ldc) {
  cblas_cgemm(CblasRowMajor, transpose(adjoint), CblasNoTrans, m, n, k, &alpha, a, lda, b, ldb,
              &beta, c, ldc);
}
void gemm(bool adjoint, int m, int n, int k, std::complex<double> alpha,
          const std::complex<double>* a, int lda, const std::complex<double>* b, int ldb,
          std::complex<double> beta, std::complex<double>* c, int ldc) {
  cblas_zgemm(CblasRowMajor, transpose(adjoint), CblasNoTrans, m, n, k, &alpha, a, lda, b, ldb,
              &beta, c, ldc);
}

// Matrices up to this many elements times one vector go through plain loops: for them the
// BLAS call's own work (argument checks, dispatch, scaling y first) costs more than the
// product (a 10 x 10 gemv: about 500 instructions in OpenBLAS, under 100 in the loops).
constexpr Index small_matrix_elements = 1024;

template <class T>
T conjugated(const T& value) {
  if constexpr (std::is_same_v<T, std::complex<float>> || std::is_same_v<T, std::complex<double>>)
    return std::conj(value);
  else
    return value;
}

// out = alpha A in + beta out (or A^H), A rows x cols row-major, out already zero when beta
// == 0 (and then not scaled).
template <class T>
[[gnu::always_inline]] inline void small_gemv(bool adjoint, Index rows, Index cols,
                                              const T* __restrict a, T alpha,
                                              const T* __restrict in, T beta, T* __restrict out) {
  if (!adjoint) {
    for (Index i = 0; i < rows; ++i) {
      const T* row = a + i * cols;
      // Four partial sums: the loop vectorises without reassociating a single sum.
      T partial[4] = {T(0), T(0), T(0), T(0)};
      Index j = 0;
      for (; j + 4 <= cols; j += 4) {
        for (int l = 0; l < 4; ++l)
          partial[l] += row[j + l] * in[j + l];
      }
      for (; j < cols; ++j)
        partial[0] += row[j] * in[j];
      const T sum = (partial[0] + partial[1]) + (partial[2] + partial[3]);
      out[i] = beta == T(0) ? alpha * sum : alpha * sum + beta * out[i];
    }
    return;
  }
  if (beta != T(0) && beta != T(1)) {
    for (Index j = 0; j < cols; ++j)
      out[j] *= beta;
  }
  for (Index i = 0; i < rows; ++i) {
    const T* row = a + i * cols;
    const T scaled = alpha * in[i];
    for (Index j = 0; j < cols; ++j)
      out[j] += conjugated(row[j]) * scaled;
  }
}

template <class T>
void small_gemv_portable(bool adjoint, Index rows, Index cols, const T* a, T alpha, const T* in,
                         T beta, T* out) {
  small_gemv(adjoint, rows, cols, a, alpha, in, beta, out);
}
#if DISTLOPS_HAVE_X86_TARGETS
template <class T>
DISTLOPS_TARGET_AVX2 void small_gemv_avx2(bool adjoint, Index rows, Index cols, const T* a, T alpha,
                                          const T* in, T beta, T* out) {
  small_gemv(adjoint, rows, cols, a, alpha, in, beta, out);
}
#endif

// The loops at the processor's instruction set (AVX2 at most: the rows are short).
template <class T>
void small_gemv_here(bool adjoint, Index rows, Index cols, const T* a, T alpha, const T* in, T beta,
                     T* out) {
#if DISTLOPS_HAVE_X86_TARGETS
  if (host_instruction_set() != InstructionSet::portable)
    return small_gemv_avx2(adjoint, rows, cols, a, alpha, in, beta, out);
#endif
  small_gemv_portable(adjoint, rows, cols, a, alpha, in, beta, out);
}

}  // namespace

template <Scalar T>
void gemm(Host, bool adjoint, Index rows, Index cols, const T* a, Index k, T alpha, const T* in,
          T beta, T* out) {
  configure_threads_once();
  const Index out_rows = adjoint ? cols : rows;
  const Index inner = adjoint ? rows : cols;
  if (out_rows == 0 || k == 0) return;
  // "out not read when beta == 0": BLAS kernels may scale by zero (NaN * 0 stays NaN).
  if (beta == T(0)) std::fill(out, out + out_rows * k, T(0));
  if (inner == 0) {
    if (beta != T(0) && beta != T(1))
      std::transform(out, out + out_rows * k, out, [&](T v) { return beta * v; });
    return;
  }
  if (k == 1 && rows * cols <= small_matrix_elements) {
    small_gemv_here(adjoint, rows, cols, a, alpha, in, beta, out);
    return;
  }
  const int lda = blas_index(std::max<Index>(1, cols), "matrix width");
  const int m = blas_index(rows, "matrix height"), n = blas_index(cols, "matrix width");
  if (k == 1) {
    gemv(adjoint, m, n, alpha, a, lda, in, beta, out);
    return;
  }
  const int columns = blas_index(k, "number of right-hand sides");
  gemm(adjoint, blas_index(out_rows, "output height"), columns, blas_index(inner, "inner size"),
       alpha, a, lda, in, columns, beta, out, columns);
}

template <Scalar T>
void gemm_strided_batched(Host, const char*, bool adjoint, Index batch, Index rows, Index cols,
                          const T* a, Index a_stride, Index k, T alpha, const T* in,
                          Index in_stride, T beta, T* out, Index out_stride) {
  for (Index b = 0; b < batch; ++b) {
    gemm(Host{}, adjoint, rows, cols, a + b * a_stride, k, alpha, in + b * in_stride, beta,
         out + b * out_stride);
  }
}

DISTLOPS_FOR_EACH_SCALAR_IN_ARG(DISTLOPS_DETAIL_MATRIX_MULT_KERNELS, , ::distlops::Host)

}  // namespace kernels

}  // namespace distlops
