// SPDX-License-Identifier: BSD-3-Clause
// Copyright (c) 2026 The distlops authors
// Identity (square and PyLops' N x M with zero padding or truncation), Zero and Scaling
// against matrices built index by index, in every memory space; values computed by PyLops 2.8;
// errors.
#include "distlops/operators/local/identity.hpp"
#include "distlops/operators/local/scaling.hpp"
#include "distlops/operators/local/zero.hpp"
#include "local_operator_checks.hpp"
#include "spaces.hpp"

using namespace distlops;
using namespace distlops::testing;

namespace {

// y[i] = x[i] wherever the multi-index i exists in both shapes, 0 elsewhere.
template <class T>
DenseMatrix<T> identity_matrix(const Shape& data, const Shape& model) {
  const Index rows = element_count(data), cols = element_count(model);
  DenseMatrix<T> m = DenseMatrix<T>::Zero(rows, cols);
  for (Index r = 0; r < rows; ++r) {
    const Shape index = unravel(r, data);
    bool inside = true;
    for (std::size_t k = 0; k < index.size(); ++k)
      inside = inside && index[k] < model[k];
    if (inside) m(r, ravel(index, model)) = T(1);
  }
  return m;
}

}  // namespace

DISTLOPS_SPACE_TEMPLATE_TEST_CASE("Identity copies, pads or truncates like PyLops",
                                  "[local][identity]", DISTLOPS_SCALAR_TYPES) {
  using T = TestType;
  const std::vector<std::pair<Shape, Shape>> cases = {{{5}, {5}},
                                                      {{4}, {6}},
                                                      {{8}, {6}},
                                                      {{3, 4}, {3, 4}},
                                                      {{3, 4}, {2, 3}},
                                                      {{2, 3}, {3, 4}},
                                                      {{3, 4}, {3, 2}},
                                                      {{2, 4, 3}, {2, 4, 5}},
                                                      {{4, 2, 3}, {1, 2, 3}},
                                                      {{0}, {3}},
                                                      {{3}, {0}},
                                                      {{2, 1, 2}, {2, 1, 2}},
                                                      {{6, 9}, {4, 7}}};
  for (const auto& [data, model] : cases) {
    INFO("N " << to_string(data) << " M " << to_string(model));
    check_local_operator(local::Identity<T, Space>(data, model), identity_matrix<T>(data, model),
                         model, data);
  }
  check_local_operator(local::Identity<T, Space>({3, 2}), identity_matrix<T>({3, 2}, {3, 2}),
                       {3, 2}, {3, 2});
}

TEMPLATE_TEST_CASE("Identity, Zero and Scaling give PyLops' values", "[local][identity][pylops]",
                   DISTLOPS_SCALAR_TYPES) {
  using T = TestType;
  const double rtol = 10 * tolerance<T>();
  // import numpy as np, pylops
  // x = np.arange(1., 7.)
  const std::vector<double> x = arange(6, 1);
  // pylops.Identity(4, 6) @ x, pylops.Identity(4, 6).H @ x[:4]
  check_values(local::Identity<T>({4}, {6}).apply(array_of<T>({6}, x)),
               std::vector<double>{1, 2, 3, 4}, rtol);
  check_values(
      local::Identity<T>({4}, {6}).apply_adjoint(array_of<T>({4}, std::vector<double>{1, 2, 3, 4})),
      std::vector<double>{1, 2, 3, 4, 0, 0}, rtol);
  // pylops.Identity(8, 6) @ x, pylops.Identity(8, 6).H @ np.arange(1., 9.)
  check_values(local::Identity<T>({8}, {6}).apply(array_of<T>({6}, x)),
               std::vector<double>{1, 2, 3, 4, 5, 6, 0, 0}, rtol);
  check_values(local::Identity<T>({8}, {6}).apply_adjoint(array_of<T>({8}, arange(8, 1))),
               std::vector<double>{1, 2, 3, 4, 5, 6}, rtol);
  // I = pylops.Identity((3, 4), (2, 3)); I @ x, I.H @ np.arange(1., 13.)
  const auto nd = local::Identity<T>({3, 4}, {2, 3});
  check_values(nd.apply(array_of<T>({2, 3}, x)),
               std::vector<double>{1, 2, 3, 0, 4, 5, 6, 0, 0, 0, 0, 0}, rtol);
  check_values(nd.apply_adjoint(array_of<T>({3, 4}, arange(12, 1))),
               std::vector<double>{1, 2, 3, 5, 6, 7}, rtol);
  // pylops.Zero(3, 2) @ np.ones(2)
  check_values(local::Zero<T>({3}, {2}).apply(LocalArray<T>(Shape{2}, T(1))),
               std::vector<double>{0, 0, 0}, rtol);
  // (2.5 * pylops.Identity(3)) @ np.array([1., -2., 4.])
  check_values(
      local::Scaling<T>({3}, T(2.5)).apply(array_of<T>({3}, std::vector<double>{1, -2, 4})),
      std::vector<double>{2.5, -5, 10}, rtol);
}

DISTLOPS_SPACE_TEMPLATE_TEST_CASE("Zero and Scaling", "[local][identity]", DISTLOPS_SCALAR_TYPES) {
  using T = TestType;
  const std::vector<std::pair<Shape, Shape>> shapes = {
      {{4}, {4}}, {{3}, {5}}, {{2, 3}, {4}}, {{0}, {2}}};
  for (const auto& [data, model] : shapes) {
    INFO("N " << to_string(data) << " M " << to_string(model));
    check_local_operator(
        local::Zero<T, Space>(data, model),
        DenseMatrix<T>(DenseMatrix<T>::Zero(element_count(data), element_count(model))), model,
        data);
  }
  check_local_operator(local::Zero<T, Space>({2, 2}), DenseMatrix<T>(DenseMatrix<T>::Zero(4, 4)),
                       {2, 2}, {2, 2});
  const T s = random_scalar<T>(3);
  for (const Shape& shape : {Shape{5}, Shape{2, 3, 2}, Shape{0}}) {
    INFO("shape " << to_string(shape));
    const Index n = element_count(shape);
    const auto op = local::Scaling<T, Space>(shape, s);
    check_local_operator(op, DenseMatrix<T>(s * DenseMatrix<T>::Identity(n, n)), shape, shape);
  }
}

TEMPLATE_TEST_CASE("Identity, Zero and Scaling reject bad arguments", "[local][identity][errors]",
                   DISTLOPS_SCALAR_TYPES) {
  using T = TestType;
  CHECK_THROWS_AS(local::Identity<T>({3, 4}, {4, 3}), InvalidArgument);
  CHECK_THROWS_AS(local::Identity<T>({3, 4}, {3}), InvalidArgument);
  CHECK_THROWS_AS(local::Identity<T>({-1}, {3}), InvalidArgument);
  CHECK_THROWS_AS(local::Identity<T>({}, {}), InvalidArgument);
  CHECK_THROWS_AS(local::Zero<T>({3}, {-2}), InvalidArgument);
  CHECK_THROWS_AS(local::Scaling<T>({}, T(1)), InvalidArgument);
  try {
    (void)local::Identity<T>({3, 4}, {4, 3});
    FAIL("no exception");
  } catch (const InvalidArgument& error) {
    CHECK(std::string(error.what()) ==
          "Identity: N (3, 4) and M (4, 3) differ with some axes larger in N and others in M");
  }
}
