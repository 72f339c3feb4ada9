// SPDX-License-Identifier: BSD-3-Clause
// Copyright (c) 2026 The distlops authors
// Diagonal against the diagonal matrix of the broadcast weights, built index by index, along
// every axis of 1-d to 3-d arrays and element-wise, in every memory space; values computed by
// PyLops 2.8; errors.
#include "distlops/operators/local/diagonal.hpp"
#include "local_operator_checks.hpp"
#include "spaces.hpp"

using namespace distlops;
using namespace distlops::testing;

namespace {

// diag(w[index along axis]) over all elements of `dims` (axis -1: element-wise weights).
template <class T>
DenseMatrix<T> diagonal_matrix(const std::vector<T>& w, const Shape& dims, int axis) {
  const Index n = element_count(dims);
  DenseMatrix<T> d = DenseMatrix<T>::Zero(n, n);
  for (Index p = 0; p < n; ++p) {
    const Index which = axis < 0 ? p : unravel(p, dims)[std::size_t(axis)];
    d(p, p) = w[std::size_t(which)];
  }
  return d;
}

}  // namespace

DISTLOPS_SPACE_TEMPLATE_TEST_CASE("Diagonal multiplies by weights broadcast along an axis",
                                  "[local][diagonal]", DISTLOPS_SCALAR_TYPES) {
  using T = TestType;
  const std::vector<Shape> shapes = {{5}, {4, 3}, {1, 6}, {6, 1}, {2, 3, 4}, {3, 1, 2}};
  std::uint64_t key = 1;
  for (const Shape& dims : shapes) {
    const int ndim = int(dims.size());
    for (int axis = -ndim; axis < ndim; ++axis) {
      const int normalised = axis < 0 ? axis + ndim : axis;
      INFO("dims " << to_string(dims) << " axis " << axis);
      const std::vector<T> w = random_values<T>(dims[std::size_t(normalised)], key++);
      check_local_operator(local::Diagonal<T, Space>(w, dims, axis),
                           diagonal_matrix(w, dims, normalised), dims, dims);
    }
    // As many weights as elements: element by element (PyLops' N-d diag).
    const std::vector<T> full = random_values<T>(element_count(dims), key++);
    INFO("element-wise on " << to_string(dims));
    check_local_operator(local::Diagonal<T, Space>(full, dims), diagonal_matrix(full, dims, -1),
                         dims, dims);
  }
  // Without dims: a vector of the weights' length.
  const std::vector<T> w = random_values<T>(7, key++);
  check_local_operator(local::Diagonal<T, Space>(w), diagonal_matrix(w, {7}, 0), {7}, {7});
}

TEMPLATE_TEST_CASE("Diagonal gives PyLops' values", "[local][diagonal][pylops]",
                   DISTLOPS_SCALAR_TYPES) {
  using T = TestType;
  const double rtol = 10 * tolerance<T>();
  // import numpy as np, pylops
  // x = np.arange(12.).reshape(4, 3) - 5
  // pylops.Diagonal(np.array([2., -1., 0.5]), dims=(4, 3), axis=1) @ x.ravel()
  // pylops.Diagonal(np.array([1., 2., 3., -1.]), dims=(4, 3), axis=0) @ x.ravel()
  const LocalArray<T> input = array_of<T>({4, 3}, arange(12, -5));
  check_values(
      local::Diagonal<T>(std::vector<T>{T(2), T(-1), T(0.5)}, {4, 3}, 1).apply(input),
      std::vector<double>{-10.0, 4.0, -1.5, -4.0, 1.0, 0.0, 2.0, -2.0, 1.5, 8.0, -5.0, 3.0}, rtol);
  check_values(
      local::Diagonal<T>(std::vector<T>{T(1), T(2), T(3), T(-1)}, {4, 3}, 0).apply(input),
      std::vector<double>{-5.0, -4.0, -3.0, -4.0, -2.0, 0.0, 3.0, 6.0, 9.0, -4.0, -5.0, -6.0},
      rtol);
}

TEMPLATE_TEST_CASE("Diagonal gives PyLops' complex values", "[local][diagonal][pylops]",
                   std::complex<float>, std::complex<double>) {
  using T = TestType;
  using C = std::complex<double>;
  const double rtol = 10 * tolerance<T>();
  // dc = np.array([1 + 1j, 2 - 1j, -0.5j]); xc = np.arange(6.) - 2 + 1j
  // D = pylops.Diagonal(dc, dims=(2, 3), axis=-1, dtype="complex128"); D @ xc, D.H @ xc
  const auto d = local::Diagonal<T>(std::vector<T>{T(1, 1), T(2, -1), T(0, -0.5)}, {2, 3});
  std::vector<C> x(6);
  for (std::size_t i = 0; i < x.size(); ++i)
    x[i] = C(double(i) - 2, 1);
  const LocalArray<T> input = array_of<T>({2, 3}, x);
  check_values(
      d.apply(input),
      std::vector<C>{{-3.0, -1.0}, {-1.0, 3.0}, {0.5, -0.0}, {0.0, 2.0}, {5.0, 0.0}, {0.5, -1.5}},
      rtol);
  check_values(
      d.apply_adjoint(input),
      std::vector<C>{{-1.0, 3.0}, {-3.0, 1.0}, {-0.5, 0.0}, {2.0, 0.0}, {3.0, 4.0}, {-0.5, 1.5}},
      rtol);
}

TEMPLATE_TEST_CASE("Diagonal rejects bad arguments", "[local][diagonal][errors]",
                   DISTLOPS_SCALAR_TYPES) {
  using T = TestType;
  const std::vector<T> three(3, T(1));
  CHECK_THROWS_AS(local::Diagonal<T>(three, {4, 4}, 0), ShapeMismatch);
  CHECK_THROWS_AS(local::Diagonal<T>(three, {4, 3}, 0), ShapeMismatch);
  CHECK_THROWS_AS(local::Diagonal<T>(three, {4, 3}, 2), InvalidArgument);
  CHECK_THROWS_AS(local::Diagonal<T>(three, {3, -1}, 0), InvalidArgument);
  // Extents whose product passes 2^63 - 1 (also with a zero extent): a clear error.
  CHECK_THROWS_AS(local::Diagonal<T>(three, {3, Index(1) << 62, 4}, 0), InvalidArgument);
  CHECK_THROWS_AS(local::Diagonal<T>(three, {3, Index(1) << 62, 4, 0}, 0), InvalidArgument);
  try {
    (void)local::Diagonal<T>(three, {4, 5}, -1);
    FAIL("no exception");
  } catch (const ShapeMismatch& error) {
    CHECK(std::string(error.what()) ==
          "Diagonal: 3 weights fit neither dims[1] = 5 nor the 20 elements of dims (4, 5)");
  }
}
