// SPDX-License-Identifier: BSD-3-Clause
// Copyright (c) 2026 The distlops authors
#pragma once
// Products, adjoints and norms of the tests' dense reference matrices and vectors, compiled once
// for the four scalar types in dense_algebra.cpp (the test support library). Written inline, every
// Eigen product or adjoint expression makes each test program instantiate Eigen's product kernels
// and evaluators for it again, for each scalar type: 30-50 % of the compile time of the heaviest
// test programs (one core, GCC 12, -O0: test_linear_operator.cpp 42.0 s -> 13.6 s,
// test_proximal_solvers.cpp 41.2 s -> 9.7 s, test_reshape.cpp 18.4 s -> 4.8 s).
#include "dense_reference.hpp"

namespace distlops::testing {

/// A^H, A^T and conj(A).
template <class T>
DenseMatrix<T> adjoint_of(const DenseMatrix<T>& a);
template <class T>
DenseMatrix<T> transpose_of(const DenseMatrix<T>& a);
template <class T>
DenseMatrix<T> conjugate_of(const DenseMatrix<T>& a);

/// The n x n identity.
template <class T>
DenseMatrix<T> identity_matrix(Index n);

/// A B and A x.
template <class T>
DenseMatrix<T> product(const DenseMatrix<T>& a, const DenseMatrix<T>& b);
template <class T>
DenseVector<T> product(const DenseMatrix<T>& a, const DenseVector<T>& x);

/// A^H y.
template <class T>
DenseVector<T> adjoint_product(const DenseMatrix<T>& a, const DenseVector<T>& y);

/// ||x||_2 and ||a - b||_2.
template <class T>
double norm_of(const DenseVector<T>& x);
template <class T>
double distance(const DenseVector<T>& a, const DenseVector<T>& b);

}  // namespace distlops::testing
