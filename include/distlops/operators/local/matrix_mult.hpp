// SPDX-License-Identifier: BSD-3-Clause
// Copyright (c) 2026 The distlops authors
#pragma once
/// \file matrix_mult.hpp
/// `local::MatrixMult`: a dense matrix A (rows x cols), PyLops' `MatrixMult(A, otherdims)`.
///
/// Without `otherdims` the domain has shape (cols) and the range (rows): y = A x. With
/// `otherdims` = (d1, ..., dk) the model is an array of shape (cols, d1, ..., dk) seen as a
/// (cols, d1 * ... * dk) C-order matrix X, and y = A X has shape (rows, d1, ..., dk): A acts
/// on the first axis, on every column of the other axes at once. The adjoint is A^H. The
/// matrix is stored row-major and products are OpenBLAS' GEMV (no otherdims) or GEMM on the
/// caller's memory (cuBLAS on Cuda); forward_add and adjoint_add accumulate y = alpha A x + beta y
/// without temporaries.
///
/// Errors: ShapeMismatch when the values do not fill rows x cols; InvalidArgument for negative
/// sizes or otherdims.

#include <span>

#include "distlops/core/eigen.hpp"
#include "distlops/core/instantiate.hpp"
#include "distlops/operators/local/accumulating_operator.hpp"

namespace distlops::local {

/// A x for a matrix given row-major by `values` (rows * cols elements).
template <Scalar T, MemorySpace Space = Host>
LocalOperator<T, Space> MatrixMult(Index rows, Index cols, std::span<const T> values,
                                   const Shape& otherdims = {});

/// A x for an Eigen matrix (any storage order; it is copied).
template <Scalar T, MemorySpace Space = Host>
LocalOperator<T, Space> MatrixMult(const Eigen::Ref<const EigenRowMajorMatrix<T>>& matrix,
                                   const Shape& otherdims = {});

/// \cond
#define DISTLOPS_EXTERN_MATRIX_MULT(T, S)                                                \
  extern template LocalOperator<T, S> MatrixMult<T, S>(Index, Index, std::span<const T>, \
                                                       const Shape&);                    \
  extern template LocalOperator<T, S> MatrixMult<T, S>(                                  \
      const Eigen::Ref<const EigenRowMajorMatrix<T>>&, const Shape&);
DISTLOPS_FOR_EACH_SCALAR_AND_SPACE(DISTLOPS_EXTERN_MATRIX_MULT)
#undef DISTLOPS_EXTERN_MATRIX_MULT
/// \endcond

}  // namespace distlops::local
