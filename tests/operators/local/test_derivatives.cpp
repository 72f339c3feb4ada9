// SPDX-License-Identifier: BSD-3-Clause
// Copyright (c) 2026 The distlops authors
// FirstDerivative and SecondDerivative against matrices written row by row from PyLops'
// slicing formulas (pylops/basicoperators/firstderivative.py and secondderivative.py: the
// inner rows first, then the edge rows overwriting them), along every axis of 1-d to 3-d
// arrays, for every kind, edge flag, order and two samplings; values computed by PyLops 2.8;
// arrays large enough for the blocked loops; argument errors.
#include "derivative_reference.hpp"
#include "distlops/operators/local/first_derivative.hpp"
#include "distlops/operators/local/second_derivative.hpp"
#include "spaces.hpp"

using namespace distlops;
using namespace distlops::testing;

namespace {

const std::vector<Shape> test_shapes = {{7}, {6}, {1}, {2}, {3}, {4, 5}, {5, 1}, {2, 9}, {3, 4, 5}};

const DerivativeKind kinds[] = {DerivativeKind::forward, DerivativeKind::centered,
                                DerivativeKind::backward};

std::string describe(const Shape& shape, int axis, DerivativeKind kind, bool edge, int order,
                     double h) {
  const char* names[] = {"forward", "centered", "backward"};
  return "shape " + to_string(shape) + " axis " + std::to_string(axis) + " kind " +
         names[static_cast<int>(kind)] + " edge " + std::to_string(edge) + " order " +
         std::to_string(order) + " sampling " + std::to_string(h);
}

}  // namespace

DISTLOPS_SPACE_TEMPLATE_TEST_CASE("FirstDerivative is PyLops' finite difference along any axis",
                                  "[local][derivative]", DISTLOPS_SCALAR_TYPES) {
  using T = TestType;
  for_each_axis(test_shapes, [](const Shape& shape, int axis, int normalised, Index n) {
    for (DerivativeKind kind : kinds) {
      for (bool edge : {false, true}) {
        for (int order : {3, 5}) {
          for (double h : {1.0, 0.5}) {
            INFO(describe(shape, axis, kind, edge, order, h));
            const local::FirstDerivativeOptions options{axis, h, kind, edge, order};
            if (kind == DerivativeKind::centered && edge && n < (order == 3 ? 2 : 3)) {
              CHECK_THROWS_AS((local::FirstDerivative<T, Space>(shape, options)), InvalidArgument);
              continue;
            }
            const std::vector<AxisTerm<double>> terms = {
                {normalised, first_derivative_rows(n, h, kind, edge, order)}};
            check_local_operator(local::FirstDerivative<T, Space>(shape, options),
                                 dense_of_terms<T>(terms, shape), shape, shape);
          }
        }
      }
    }
  });
}

DISTLOPS_SPACE_TEMPLATE_TEST_CASE("SecondDerivative is PyLops' second difference along any axis",
                                  "[local][derivative]", DISTLOPS_SCALAR_TYPES) {
  using T = TestType;
  for_each_axis(test_shapes, [](const Shape& shape, int axis, int normalised, Index n) {
    for (DerivativeKind kind : kinds) {
      for (bool edge : {false, true}) {
        for (double h : {1.0, 0.5}) {
          INFO(describe(shape, axis, kind, edge, 3, h));
          const local::SecondDerivativeOptions options{axis, h, kind, edge};
          if (kind == DerivativeKind::centered && edge && n < 3) {
            CHECK_THROWS_AS((local::SecondDerivative<T, Space>(shape, options)), InvalidArgument);
            continue;
          }
          const std::vector<AxisTerm<double>> terms = {
              {normalised, second_derivative_rows(n, h, kind, edge)}};
          check_local_operator(local::SecondDerivative<T, Space>(shape, options),
                               dense_of_terms<T>(terms, shape), shape, shape);
        }
      }
    }
  });
}

TEMPLATE_TEST_CASE("derivatives give PyLops' values", "[local][derivative][pylops]",
                   DISTLOPS_SCALAR_TYPES) {
  using T = TestType;
  const double rtol = 10 * tolerance<T>();
  // import numpy as np, pylops
  // i = np.arange(20); x = ((3 * i * i + 5 * i) % 11 - 5.0).reshape(4, 5)
  const LocalArray<T> x = pylops_grid<T>();
  // pylops.FirstDerivative((4, 5), axis=1, sampling=0.5, kind=kind, edge=True) @ x.ravel()
  const std::vector<std::pair<DerivativeKind, std::vector<double>>> first = {
      {DerivativeKind::forward,
       {16, -16, 18, -14, 0, 10, 0, -10, 2, 0, -18, 16, -16, 18, 0, -2, 10, 0, -10, 0}},
      {DerivativeKind::centered,
       {16, 0, 1, 2, -14, 10, 5, -5, -4, 2, -18, -1, 0, 1, 18, -2, 4, 5, -5, -10}},
      {DerivativeKind::backward,
       {0, 16, -16, 18, -14, 0, 10, 0, -10, 2, 0, -18, 16, -16, 18, 0, -2, 10, 0, -10}}};
  for (const auto& [kind, expected] : first) {
    check_values(
        local::FirstDerivative<T>({4, 5}, {.axis = 1, .sampling = 0.5, .kind = kind, .edge = true})
            .apply(x),
        expected, rtol);
  }
  // D = pylops.FirstDerivative((4, 5), axis=0, sampling=2.0, kind="centered", edge=True,
  //                            order=5); D @ x.ravel(), D.H @ x.ravel()
  const auto d5 =
      local::FirstDerivative<T>({4, 5}, {.axis = 0, .sampling = 2.0, .edge = true, .order = 5});
  check_values(d5.apply(x),
               std::vector<double>{0.5,  -1.0,  3.0, -4.0, 0.0,   2.25, -2.0, 2.0,  -2.25, 1.75,
                                   0.25, -1.25, 0.0, 1.25, -0.25, -3.5, 0.5,  -1.0, 3.0,   -4.0},
               rtol);
  check_values(d5.apply_adjoint(x),
               std::vector<double>{3.5, -1.75, 2.25,  -1.0, 2.25, -3.5, 2.75,  -3.25, 3.25,  -2.5,
                                   0.5, 2.25,  -0.25, -1.5, 1.25, -0.5, -3.25, 1.25,  -0.75, -1.0},
               rtol);
  // pylops.FirstDerivative(7, kind="centered", order=5) @ [1, -2, 4, 0.5, 3, -1, 2]
  check_values(local::FirstDerivative<T>({7}, {.order = 5})
                   .apply(array_of<T>({7}, std::vector<double>{1, -2, 4, 0.5, 3, -1, 2})),
               std::vector<double>{0.0, 0.0, 1.4999999999999998, -0.7499999999999997,
                                   -0.8333333333333333, 0.0, 0.0},
               rtol);
  // pylops.SecondDerivative((4, 5), axis=0, sampling=0.5, kind=kind, edge=True) @ x.ravel()
  const std::vector<std::pair<DerivativeKind, std::vector<double>>> second = {
      {DerivativeKind::forward,
       {28, -16, -16, 28, 28, -60, 28, -16, 28, -60, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0}},
      {DerivativeKind::centered,
       {28, -16, -16, 28, 28, 28, -16, -16, 28, 28, -60, 28, -16, 28, -60, -60, 28, -16, 28, -60}},
      {DerivativeKind::backward,
       {0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 28, -16, -16, 28, 28, -60, 28, -16, 28, -60}}};
  for (const auto& [kind, expected] : second) {
    check_values(
        local::SecondDerivative<T>({4, 5}, {.axis = 0, .sampling = 0.5, .kind = kind, .edge = true})
            .apply(x),
        expected, rtol);
  }
}

DISTLOPS_SPACE_TEMPLATE_TEST_CASE("derivatives of large arrays cross the loops' blocks",
                                  "[local][derivative]", DISTLOPS_SCALAR_TYPES) {
  using T = TestType;
  // Segments longer than a block (4096 elements) along the first and the last axis, rows of
  // one element, and a 3-d array with the derivative in the middle.
  const std::vector<std::pair<Shape, int>> cases = {
      {{600, 10}, 0}, {{3, 5000}, 0}, {{2, 9000}, 1}, {{5000}, 0}, {{7, 300, 3}, 1}};
  for (const auto& [shape, axis] : cases) {
    const Index n = shape[static_cast<std::size_t>(axis)];
    for (DerivativeKind kind : kinds) {
      INFO("shape " << to_string(shape) << " axis " << axis << " kind " << int(kind));
      check_large_operator(
          local::FirstDerivative<T, Space>(
              shape, {.axis = axis, .sampling = 0.25, .kind = kind, .edge = true, .order = 5}),
          std::vector<AxisTerm<double>>{{axis, first_derivative_rows(n, 0.25, kind, true, 5)}});
      check_large_operator(
          local::SecondDerivative<T, Space>(shape, {.axis = axis, .kind = kind, .edge = true}),
          std::vector<AxisTerm<double>>{{axis, second_derivative_rows(n, 1.0, kind, true)}});
    }
  }
}

TEMPLATE_TEST_CASE("derivatives reject bad arguments", "[local][derivative][errors]",
                   DISTLOPS_SCALAR_TYPES) {
  using T = TestType;
  CHECK_THROWS_AS(local::FirstDerivative<T>({4, 5}, {.axis = 2}), InvalidArgument);
  CHECK_THROWS_AS(local::FirstDerivative<T>({4, 5}, {.axis = -3}), InvalidArgument);
  CHECK_THROWS_AS(local::FirstDerivative<T>({4, 5}, {.order = 4}), InvalidArgument);
  CHECK_THROWS_AS(local::FirstDerivative<T>({4, 5}, {.sampling = 0.0}), InvalidArgument);
  CHECK_THROWS_AS(local::FirstDerivative<T>({4, 5}, {.sampling = std::nan("")}), InvalidArgument);
  CHECK_THROWS_AS(local::FirstDerivative<T>({}, {}), InvalidArgument);
  CHECK_THROWS_AS(local::FirstDerivative<T>({4, -1}, {}), InvalidArgument);
  CHECK_THROWS_AS(local::SecondDerivative<T>({4, 5}, {.axis = 5}), InvalidArgument);
  CHECK_THROWS_AS(local::SecondDerivative<T>({4, 5}, {.sampling = 0.0}), InvalidArgument);
  try {
    (void)local::SecondDerivative<T>({4, 2}, {.edge = true});
    FAIL("no exception");
  } catch (const InvalidArgument& error) {
    CHECK(std::string(error.what()) ==
          "SecondDerivative: edge = true needs at least 3 samples along axis 1, got 2 (shape "
          "(4, 2))");
  }
  // Inputs of the wrong size are refused by the operator handle.
  const auto op = local::FirstDerivative<T>({4, 5});
  CHECK_THROWS_AS(op.apply(LocalArray<T>(Shape{19})), ShapeMismatch);
  // A flat input of the right size is accepted as a view.
  CHECK(op.apply(LocalArray<T>(Shape{20}, T(1))).shape() == Shape{4, 5});
}
