// SPDX-License-Identifier: BSD-3-Clause
// Copyright (c) 2026 The distlops authors
// FunctionOperator built from user callables: a running sum (forward) and its adjoint, the
// reverse running sum, on N-d shapes, against the lower-triangular matrix of ones; in every
// memory space, callables that enqueue work of their space (another operator, scaled); the dot
// test catches an inconsistent pair; errors.
#include "dense_algebra.hpp"
#include "distlops/operators/local/function_operator.hpp"
#include "distlops/operators/local/restriction.hpp"
#include "local_operator_checks.hpp"
#include "spaces.hpp"

using namespace distlops;
using namespace distlops::testing;

namespace {

// y[i] = sum_{j <= i} x[j] on the flattened arrays, and x[j] = sum_{i >= j} y[i]; the data has
// `data_size` elements, the model `model_size` (the running sum is truncated or continued).
template <class T>
std::pair<typename local::CallableOperator<T>::Function,
          typename local::CallableOperator<T>::Function>
running_sums() {
  auto forward = [](const LocalArray<T>& x, LocalArray<T>& y) {
    T sum(0);
    for (Index i = 0; i < y.size(); ++i) {
      if (i < x.size()) sum += x.data()[i];
      y.data()[i] = sum;
    }
  };
  auto adjoint = [](const LocalArray<T>& y, LocalArray<T>& x) {
    T sum(0);
    for (Index i = y.size(); i-- > 0;) {
      sum += y.data()[i];
      if (i < x.size()) x.data()[i] = sum;
    }
    for (Index i = y.size(); i < x.size(); ++i)
      x.data()[i] = T(0);
  };
  return {forward, adjoint};
}

template <class T>
DenseMatrix<T> running_sum_matrix(Index rows, Index cols) {
  DenseMatrix<T> m = DenseMatrix<T>::Zero(rows, cols);
  for (Index i = 0; i < rows; ++i) {
    for (Index j = 0; j <= i && j < cols; ++j)
      m(i, j) = T(1);
  }
  return m;
}

}  // namespace

TEMPLATE_TEST_CASE("FunctionOperator wraps a forward and an adjoint", "[local][function]",
                   DISTLOPS_SCALAR_TYPES) {
  using T = TestType;
  const auto [forward, adjoint] = running_sums<T>();
  const std::vector<std::pair<Shape, Shape>> cases = {
      {{5}, {5}}, {{2, 3}, {6}}, {{4}, {2, 3}}, {{3}, {7}}, {{2, 2, 2}, {3}}};
  for (const auto& [model, data] : cases) {
    INFO("model " << to_string(model) << " data " << to_string(data));
    const auto op = local::FunctionOperator<T>(forward, adjoint, model, data, "RunningSum");
    CHECK(op.name() == "RunningSum");
    check_local_operator(op, running_sum_matrix<T>(element_count(data), element_count(model)),
                         model, data);
  }
  const auto square = local::FunctionOperator<T>(forward, adjoint, {4});
  check_local_operator(square, running_sum_matrix<T>(4, 4), {4}, {4});
  // The operator composes like any other.
  check_matrix(assemble(square.adjoint() * square),
               product(adjoint_of(running_sum_matrix<T>(4, 4)), running_sum_matrix<T>(4, 4)),
               10 * tolerance<T>(), "A^H A");
}

DISTLOPS_SPACE_TEMPLATE_TEST_CASE("FunctionOperator runs callables on arrays of its space",
                                  "[local][function]", DISTLOPS_SCALAR_TYPES) {
  using T = TestType;
  // s R with R the rows {2, 0, 2} of a (3, 4) array: the callables apply R, then scale.
  const std::vector<Index> rows = {2, 0, 2};
  const auto restriction = local::Restriction<T, Space>({3, 4}, rows, 0);
  const T s = random_scalar<T>(31);
  const auto op = local::FunctionOperator<T, Space>(
      [restriction, s](const LocalArray<T, Space>& x, LocalArray<T, Space>& y) {
        restriction.apply(x, y);
        y.scale(s);
      },
      [restriction, s](const LocalArray<T, Space>& y, LocalArray<T, Space>& x) {
        restriction.apply_adjoint(y, x);
        x.scale(conjugate(s));
      },
      {3, 4}, {3, 4}, "ScaledRows");
  DenseMatrix<T> reference = DenseMatrix<T>::Zero(12, 12);
  for (Index i = 0; i < 3; ++i) {
    for (Index j = 0; j < 4; ++j)
      reference(i * 4 + j, rows[std::size_t(i)] * 4 + j) = s;
  }
  check_local_operator(op, reference, {3, 4}, {3, 4});
}

TEMPLATE_TEST_CASE(
    "FunctionOperator: the dot test catches a wrong adjoint and empty callables "
    "are refused",
    "[local][function][errors]", DISTLOPS_SCALAR_TYPES) {
  using T = TestType;
  const auto [forward, adjoint] = running_sums<T>();
  // The running sum's own forward as its adjoint: not the transpose.
  const auto wrong = local::FunctionOperator<T>(forward, forward, {6});
  CHECK_FALSE(dottest(wrong, 1, dottest_tolerance<T>(), 0.0, false).passed);
  CHECK_THROWS_AS(local::FunctionOperator<T>(forward, nullptr, {6}), InvalidArgument);
  CHECK_THROWS_AS(local::FunctionOperator<T>(nullptr, adjoint, {6}), InvalidArgument);
  CHECK_THROWS_AS(local::FunctionOperator<T>(forward, adjoint, {-6}), InvalidArgument);
  try {
    (void)local::FunctionOperator<T>(forward, nullptr, {6}, {6}, "F");
    FAIL("no exception");
  } catch (const InvalidArgument& error) {
    CHECK(std::string(error.what()) ==
          "F: both the forward and the adjoint function are required (got an empty adjoint "
          "function)");
  }
}
