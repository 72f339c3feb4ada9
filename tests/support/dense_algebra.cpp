// SPDX-License-Identifier: BSD-3-Clause
// Copyright (c) 2026 The distlops authors
// The dense algebra of dense_algebra.hpp for the four scalar types of the tests.
#include "dense_algebra.hpp"

namespace distlops::testing {

template <class T>
DenseMatrix<T> adjoint_of(const DenseMatrix<T>& a) {
  return a.adjoint();
}

template <class T>
DenseMatrix<T> transpose_of(const DenseMatrix<T>& a) {
  return a.transpose();
}

template <class T>
DenseMatrix<T> conjugate_of(const DenseMatrix<T>& a) {
  return a.conjugate();
}

template <class T>
DenseMatrix<T> identity_matrix(Index n) {
  return DenseMatrix<T>::Identity(n, n);
}

template <class T>
DenseMatrix<T> product(const DenseMatrix<T>& a, const DenseMatrix<T>& b) {
  return a * b;
}

template <class T>
DenseVector<T> product(const DenseMatrix<T>& a, const DenseVector<T>& x) {
  return a * x;
}

template <class T>
DenseVector<T> adjoint_product(const DenseMatrix<T>& a, const DenseVector<T>& y) {
  return a.adjoint() * y;
}

template <class T>
double norm_of(const DenseVector<T>& x) {
  return static_cast<double>(x.norm());
}

template <class T>
double distance(const DenseVector<T>& a, const DenseVector<T>& b) {
  return static_cast<double>((a - b).norm());
}

#define DISTLOPS_DETAIL_DENSE_ALGEBRA(T)                                                    \
  template DenseMatrix<T> adjoint_of<T>(const DenseMatrix<T>&);                             \
  template DenseMatrix<T> transpose_of<T>(const DenseMatrix<T>&);                           \
  template DenseMatrix<T> conjugate_of<T>(const DenseMatrix<T>&);                           \
  template DenseMatrix<T> identity_matrix<T>(Index);                                        \
  template DenseMatrix<T> product<T>(const DenseMatrix<T>&, const DenseMatrix<T>&);         \
  template DenseVector<T> product<T>(const DenseMatrix<T>&, const DenseVector<T>&);         \
  template DenseVector<T> adjoint_product<T>(const DenseMatrix<T>&, const DenseVector<T>&); \
  template double norm_of<T>(const DenseVector<T>&);                                        \
  template double distance<T>(const DenseVector<T>&, const DenseVector<T>&);
DISTLOPS_FOR_EACH_SCALAR(DISTLOPS_DETAIL_DENSE_ALGEBRA)

}  // namespace distlops::testing
