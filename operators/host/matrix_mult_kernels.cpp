// SPDX-License-Identifier: BSD-3-Clause
// Copyright (c) 2026 The distlops authors
// The dense products on the host: Eigen GEMV/GEMM on row-major maps of the caller's memory,
// instantiated here once for every operator that multiplies matrices.
#include "../dense/matrix_mult_kernels.hpp"

#include "distlops/core/eigen.hpp"
#include "distlops/core/instantiate.hpp"

namespace distlops::kernels {

namespace {

template <class T>
using ConstMatrixMap = Eigen::Map<const EigenRowMajorMatrix<T>>;
template <class T>
using MatrixMap = Eigen::Map<EigenRowMajorMatrix<T>>;

}  // namespace

// Eigen evaluates the scaled product straight into `out`.
template <Scalar T>
void gemm(Host, bool adjoint, Index rows, Index cols, const T* a, Index k, T alpha, const T* in,
          T beta, T* out) {
  const ConstMatrixMap<T> matrix(a, rows, cols);
  const Index out_rows = adjoint ? cols : rows;
  const Index in_rows = adjoint ? rows : cols;
  const ConstMatrixMap<T> x(in, in_rows, k);
  MatrixMap<T> y(out, out_rows, k);
  if (beta == T(0)) {
    if (adjoint) {
      y.noalias() = alpha * matrix.adjoint() * x;
    } else {
      y.noalias() = alpha * matrix * x;
    }
    return;
  }
  if (beta != T(1)) y *= beta;
  if (adjoint) {
    y.noalias() += alpha * matrix.adjoint() * x;
  } else {
    y.noalias() += alpha * matrix * x;
  }
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

#define DISTLOPS_INSTANTIATE_MATRIX_MULT_KERNELS(T)                                             \
  template void gemm<T>(Host, bool, Index, Index, const T*, Index, T, const T*, T, T*);         \
  template void gemm_strided_batched<T>(Host, const char*, bool, Index, Index, Index, const T*, \
                                        Index, Index, T, const T*, Index, T, T*, Index);
DISTLOPS_FOR_EACH_SCALAR(DISTLOPS_INSTANTIATE_MATRIX_MULT_KERNELS)
#undef DISTLOPS_INSTANTIATE_MATRIX_MULT_KERNELS

}  // namespace distlops::kernels
