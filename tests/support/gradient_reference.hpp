// SPDX-License-Identifier: BSD-3-Clause
// Copyright (c) 2026 The distlops authors
#pragma once
// The dense matrix of PyLops' centered gradient (order 3, no edge) of a 2-d array in C order,
// built from its 1-d stencil by Kronecker products: the serial reference of Gradient in the
// tests of the stacks and of the solvers on regularised problems.
#include "dense_reference.hpp"

namespace distlops::testing {

/// PyLops' centered first derivative (order 3, no edge) along a line of n samples.
template <class T>
DenseMatrix<T> centered_derivative(Index n) {
  DenseMatrix<T> d = DenseMatrix<T>::Zero(n, n);
  for (Index i = 1; i + 1 < n; ++i) {
    d(i, i - 1) = T(-0.5);
    d(i, i + 1) = T(0.5);
  }
  return d;
}

/// The Kronecker product a (x) b.
template <class T>
DenseMatrix<T> kronecker(const DenseMatrix<T>& a, const DenseMatrix<T>& b) {
  DenseMatrix<T> result(a.rows() * b.rows(), a.cols() * b.cols());
  for (Index i = 0; i < a.rows(); ++i) {
    for (Index j = 0; j < a.cols(); ++j)
      result.block(i * b.rows(), j * b.cols(), b.rows(), b.cols()) = a(i, j) * b;
  }
  return result;
}

/// The gradient of a rows x cols array: [D (x) I; I (x) D].
template <class T>
DenseMatrix<T> centered_gradient(Index rows, Index cols) {
  DenseMatrix<T> g(2 * rows * cols, rows * cols);
  g << kronecker<T>(centered_derivative<T>(rows), DenseMatrix<T>::Identity(cols, cols)),
      kronecker<T>(DenseMatrix<T>::Identity(rows, rows), centered_derivative<T>(cols));
  return g;
}

}  // namespace distlops::testing
