// SPDX-License-Identifier: BSD-3-Clause
// Copyright (c) 2026 The distlops authors
// MatrixMult against the Kronecker product A (x) I (the matrix acting on the first axis of the
// model, each column of the other axes at once), with and without PyLops' otherdims, from
// span and Eigen inputs, in every memory space; values computed by PyLops 2.8; argument errors.
#include <cstdlib>
#include <limits>

#include "dense_algebra.hpp"
#include "distlops/core/blas_threads.hpp"
#include "distlops/operators/dense/matrix_mult.hpp"
#include "local_operator_checks.hpp"
#include "spaces.hpp"

using namespace distlops;
using namespace distlops::testing;

DISTLOPS_SPACE_TEMPLATE_TEST_CASE("MatrixMult applies A along the first axis",
                                  "[local][matrix_mult]", DISTLOPS_SCALAR_TYPES) {
  using T = TestType;
  struct Case {
    Index rows, cols;
    Shape otherdims;
  };
  const std::vector<Case> cases = {{3, 4, {}},     {4, 3, {}},    {1, 1, {}},  {5, 2, {3}},
                                   {2, 3, {2, 2}}, {4, 1, {1}},   {0, 3, {}},  {3, 0, {2}},
                                   {6, 5, {4, 3}}, {40, 30, {7}}, {2, 2, {0}}, {40, 30, {}}};
  std::uint64_t key = 1;
  for (const Case& c : cases) {
    INFO(c.rows << " x " << c.cols << " otherdims " << to_string(c.otherdims));
    const DenseMatrix<T> a = random_matrix<T>(c.rows, c.cols, key++);
    const EigenRowMajorMatrix<T> row_major = a;
    const auto op = local::MatrixMult<T, Space>(
        c.rows, c.cols, std::span<const T>(row_major.data(), std::size_t(row_major.size())),
        c.otherdims);
    Shape domain{c.cols}, range{c.rows};
    domain.insert(domain.end(), c.otherdims.begin(), c.otherdims.end());
    range.insert(range.end(), c.otherdims.begin(), c.otherdims.end());
    const DenseMatrix<T> reference = along_axis(a, 1, element_count(c.otherdims));
    check_local_operator(op, reference, domain, range);
    // From an Eigen matrix in column-major order: the same operator.
    check_matrix(assemble(local::MatrixMult<T, Space>(a, c.otherdims)), reference,
                 10 * space_tolerance<T, Space>(), "MatrixMult from Eigen");
  }
}

TEMPLATE_TEST_CASE("MatrixMult gives PyLops' values", "[local][matrix_mult][pylops]",
                   DISTLOPS_SCALAR_TYPES) {
  using T = TestType;
  const double rtol = 10 * tolerance<T>();
  // import numpy as np, pylops
  // A = np.array([[1., 2., -1.], [0.5, -3., 4.]]); M = pylops.MatrixMult(A, otherdims=(4,))
  // M @ (np.arange(12.) - 5), M.H @ (np.arange(8.) - 2)
  const std::vector<T> a = {T(1), T(2), T(-1), T(0.5), T(-3), T(4)};
  const auto m = local::MatrixMult<T>(2, 3, a, {4});
  check_values(m.apply(array_of<T>({3, 4}, arange(12, -5))),
               std::vector<double>{-10.0, -8.0, -6.0, -4.0, 12.5, 14.0, 15.5, 17.0}, rtol);
  check_values(
      m.apply_adjoint(array_of<T>({2, 4}, arange(8, -2))),
      std::vector<double>{-1.0, 0.5, 2.0, 3.5, -10.0, -11.0, -12.0, -13.0, 10.0, 13.0, 16.0, 19.0},
      rtol);
}

TEMPLATE_TEST_CASE("MatrixMult gives PyLops' complex values", "[local][matrix_mult][pylops]",
                   std::complex<float>, std::complex<double>) {
  using T = TestType;
  using C = std::complex<double>;
  const double rtol = 10 * tolerance<T>();
  // Ac = A + 1j * np.array([[0.5, -1., 2.], [1., 0., -2.]])
  // Mc = pylops.MatrixMult(Ac, otherdims=(2, 2), dtype="complex128")
  // xc = (np.arange(12.) - 5) + 1j * (np.arange(12.) % 3); yc = (np.arange(8.) - 2) - 0.5j *
  // np.arange(8.); Mc @ xc, Mc.H @ yc
  const std::vector<T> a = {T(1, 0.5), T(2, -1), T(-1, 2), T(0.5, 1), T(-3, 0), T(4, -2)};
  const auto m = local::MatrixMult<T>(2, 3, a, {2, 2});
  std::vector<C> x(12), y(8);
  for (std::size_t i = 0; i < x.size(); ++i)
    x[i] = C(double(i) - 5, double(i % 3));
  for (std::size_t i = 0; i < y.size(); ++i)
    y[i] = C(double(i) - 2, -0.5 * double(i));
  check_values(m.apply(array_of<T>({3, 2, 2}, x)),
               std::vector<C>{{-13.0, 4.5},
                              {-6.5, 11.0},
                              {-9.0, 8.5},
                              {-7.0, 9.0},
                              {16.5, -6.0},
                              {13.0, -17.5},
                              {15.5, -8.0},
                              {21.0, -9.0}},
               rtol);
  check_values(m.apply_adjoint(array_of<T>({2, 2, 2}, y)),
               std::vector<C>{{-3.0, -2.0},
                              {-2.25, -4.25},
                              {-1.5, -6.5},
                              {-0.75, -8.75},
                              {-10.0, 4.0},
                              {-10.5, 5.5},
                              {-11.0, 7.0},
                              {-11.5, 8.5},
                              {14.0, -0.0},
                              {17.0, -1.5},
                              {20.0, -3.0},
                              {23.0, -4.5}},
               rtol);
}

TEMPLATE_TEST_CASE("MatrixMult rejects bad arguments", "[local][matrix_mult][errors]",
                   DISTLOPS_SCALAR_TYPES) {
  using T = TestType;
  const std::vector<T> six(6, T(1));
  CHECK_THROWS_AS(local::MatrixMult<T>(2, 2, six), ShapeMismatch);
  CHECK_THROWS_AS(local::MatrixMult<T>(-2, -3, six), InvalidArgument);
  CHECK_THROWS_AS(local::MatrixMult<T>(2, 3, six, {-1}), InvalidArgument);
  // Extents whose product passes 2^63 - 1: a clear error, not an overflowing product.
  const Index huge = Index(1) << 62;
  CHECK_THROWS_AS(local::MatrixMult<T>(2, 3, six, {huge, 4}), InvalidArgument);
  CHECK_THROWS_AS(local::MatrixMult<T>(huge, 4, six), InvalidArgument);
  try {
    (void)local::MatrixMult<T>(4, 2, six);
    FAIL("no exception");
  } catch (const ShapeMismatch& error) {
    CHECK(std::string(error.what()) == "MatrixMult: a 4 x 2 matrix needs 8 values, got 6");
  }
  const auto op = local::MatrixMult<T>(2, 3, six, {2});
  CHECK_THROWS_AS(op.apply(LocalArray<T>(Shape{3, 3})), ShapeMismatch);
  CHECK(op.apply(LocalArray<T>(Shape{6}, T(1))).shape() == Shape{2, 2});
}

// The host products run on OpenBLAS, whose kernels may scale the output by beta = 0 (NaN * 0
// stays NaN): apply must overwrite whatever the output held, and apply_add with beta = 0 too.
TEMPLATE_TEST_CASE("MatrixMult overwrites an output that holds NaN", "[local][matrix_mult]",
                   DISTLOPS_SCALAR_TYPES) {
  using T = TestType;
  const T nan(std::numeric_limits<real_type_t<T>>::quiet_NaN());
  for (const Shape& otherdims : {Shape{}, Shape{3}}) {
    const DenseMatrix<T> a = random_matrix<T>(5, 4, 11);
    const EigenRowMajorMatrix<T> row_major = a;
    const auto op = local::MatrixMult<T>(
        5, 4, std::span<const T>(row_major.data(), std::size_t(row_major.size())), otherdims);
    const Index k = element_count(otherdims);
    const DenseMatrix<T> reference = along_axis(a, 1, k);
    Shape domain{4}, range{5};
    domain.insert(domain.end(), otherdims.begin(), otherdims.end());
    range.insert(range.end(), otherdims.begin(), otherdims.end());
    LocalArray<T> x(domain, T(1)), y(range, nan), z(domain, nan);
    op.apply(x, y);
    op.apply_adjoint(y, z);
    const DenseVector<T> ones = DenseVector<T>::Ones(4 * k);
    const DenseVector<T> expected_y = product(reference, ones);
    const DenseVector<T> expected_z = adjoint_product(reference, expected_y);
    for (Index i = 0; i < 5 * k; ++i)
      CHECK(std::abs(y.data()[i] - expected_y(i)) <= 10 * tolerance<T>() * expected_y.norm());
    for (Index i = 0; i < 4 * k; ++i)
      CHECK(std::abs(z.data()[i] - expected_z(i)) <= 10 * tolerance<T>() * expected_z.norm());
    LocalArray<T> w(range, nan);
    op.apply_add(T(2), x, T(0), w);
    for (Index i = 0; i < 5 * k; ++i)
      CHECK(std::abs(w.data()[i] - T(2) * expected_y(i)) <=
            20 * tolerance<T>() * expected_y.norm());
  }
}

TEST_CASE("The BLAS runs one thread per rank unless asked", "[local][matrix_mult][blas]") {
  if (!std::getenv("DISTLOPS_BLAS_THREADS") && !std::getenv("OPENBLAS_NUM_THREADS")) {
    CHECK(blas_threads() == 1);
  }
  const int before = blas_threads();
  set_blas_threads(2);
  CHECK(blas_threads() == 2);
  set_blas_threads(before);
  CHECK(blas_threads() == before);
  CHECK_THROWS_AS(set_blas_threads(0), InvalidArgument);
  try {
    set_blas_threads(-3);
    FAIL("no exception");
  } catch (const InvalidArgument& error) {
    CHECK(std::string(error.what()) == "set_blas_threads: the count must be positive, got -3");
  }
}
