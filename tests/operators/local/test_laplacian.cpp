// SPDX-License-Identifier: BSD-3-Clause
// Copyright (c) 2026 The distlops authors
// Laplacian against the weighted sum of second-difference matrices written from PyLops'
// slicing formulas (derivative_reference.hpp), one per axis, on 1-d to 3-d arrays with every
// kind and edge flag; values computed by PyLops 2.8; large arrays; errors.
#include "derivative_reference.hpp"
#include "distlops/operators/local/laplacian.hpp"
#include "spaces.hpp"

using namespace distlops;
using namespace distlops::testing;

namespace {

// sum_k weights[k] D2(axes[k]) as reference terms.
std::vector<AxisTerm<double>> laplacian_terms(const Shape& shape,
                                              const local::LaplacianOptions& options) {
  std::vector<AxisTerm<double>> terms;
  for (std::size_t k = 0; k < options.axes.size(); ++k) {
    const int axis = options.axes[k] < 0 ? options.axes[k] + int(shape.size()) : options.axes[k];
    terms.push_back({axis, second_derivative_rows(shape[std::size_t(axis)], options.sampling[k],
                                                  options.kind, options.edge, options.weights[k])});
  }
  return terms;
}

}  // namespace

DISTLOPS_SPACE_TEMPLATE_TEST_CASE("Laplacian is the weighted sum of PyLops' second differences",
                                  "[local][laplacian]", DISTLOPS_SCALAR_TYPES) {
  using T = TestType;
  struct Case {
    Shape shape;
    std::vector<int> axes;
    std::vector<double> weights;
    std::vector<double> sampling;
  };
  const std::vector<Case> cases = {
      {{4, 5}, {-2, -1}, {1, 1}, {1, 1}},  // PyLops' defaults
      {{5, 4}, {0, 1}, {2.0, -0.5}, {0.5, 2.0}},
      {{3, 6}, {1, 0}, {1.5, 1.0}, {1.0, 0.25}},
      {{3, 4, 5}, {0, 1, 2}, {1, 2, 3}, {1.0, 0.5, 2.0}},
      {{3, 4, 5}, {2, 0}, {-1, 1}, {1, 1}},  // skipping the middle axis
      {{3, 4, 5}, {1}, {2}, {0.5}},          // one axis
      {{6}, {0}, {1}, {1}},                  // a 1-d array
      {{4, 3}, {1, 1}, {1, 0.5}, {1, 2}},    // an axis twice: the terms add up
      {{3, 1, 4}, {0, 2}, {1, 1}, {1, 1}},
  };
  for (const Case& c : cases) {
    for (DerivativeKind kind :
         {DerivativeKind::forward, DerivativeKind::centered, DerivativeKind::backward}) {
      for (bool edge : {false, true}) {
        const local::LaplacianOptions options{c.axes, c.weights, c.sampling, edge, kind};
        INFO("shape " << to_string(c.shape) << " kind " << int(kind) << " edge " << edge);
        const auto op = local::Laplacian<T, Space>(c.shape, options);
        check_local_operator(op, dense_of_terms<T>(laplacian_terms(c.shape, options), c.shape),
                             c.shape, c.shape);
      }
    }
  }
}

TEMPLATE_TEST_CASE("Laplacian gives PyLops' values", "[local][laplacian][pylops]",
                   DISTLOPS_SCALAR_TYPES) {
  using T = TestType;
  const double rtol = 10 * tolerance<T>();
  // import numpy as np, pylops
  // i = np.arange(20); x = ((3 * i * i + 5 * i) % 11 - 5.0).reshape(4, 5)
  const LocalArray<T> x = pylops_grid<T>();
  // pylops.Laplacian((4, 5), axes=(0, 1), weights=(2.0, -1.0), sampling=(0.5, 2.0),
  //                  edge=True) @ x.ravel()
  check_values(
      local::Laplacian<T>(
          {4, 5}, {.axes = {0, 1}, .weights = {2.0, -1.0}, .sampling = {0.5, 2.0}, .edge = true})
          .apply(x),
      std::vector<double>{60.0,    -28.0,  -36.25, 60.0,    60.0,  57.25,  -30.75,
                          -30.75,  54.5,   54.5,   -124.25, 51.75, -28.0,  51.75,
                          -124.25, -121.5, 54.5,   -30.75,  57.25, -118.75},
      rtol);
  // pylops.Laplacian((4, 5), axes=(1, 0), weights=(1.0, 3.0), kind="forward") @ x.ravel()
  // (PyLops 2.8 applies `kind` to every axis)
  check_values(local::Laplacian<T>(
                   {4, 5}, {.axes = {1, 0}, .weights = {1.0, 3.0}, .kind = DerivativeKind::forward})
                   .apply(x),
               std::vector<double>{5,  5,   -28, 21, 21, -50, 16, -6, 21, -45,
                                   17, -16, 17,  0,  0,  6,   -5, -5, 0,  0},
               rtol);
}

DISTLOPS_SPACE_TEMPLATE_TEST_CASE("Laplacian of large arrays crosses the loops' blocks",
                                  "[local][laplacian]", DISTLOPS_SCALAR_TYPES) {
  using T = TestType;
  const std::vector<std::pair<Shape, local::LaplacianOptions>> cases = {
      {{300, 40}, {.axes = {0, 1}, .weights = {1, 2}, .sampling = {1, 0.5}, .edge = true}},
      {{5, 600, 10}, {.axes = {0, 1}, .weights = {1, 1}, .sampling = {1, 1}}},
      {{9, 2, 800}, {.axes = {2, 0}, .weights = {-1, 1}, .sampling = {2, 1}, .edge = true}},
      // Planes of 10,800 points: the host walks the interior in tiles of rows (two or three for
      // 8- and 16-byte types, stencil_tile_rows), the rows beside a tile in the next one.
      {{6, 90, 120}, {.axes = {0, 1, 2}, .weights = {1, -2, 0.5}, .sampling = {1, 0.5, 2}}},
  };
  for (const auto& [shape, options] : cases) {
    INFO("shape " << to_string(shape));
    check_large_operator(local::Laplacian<T, Space>(shape, options),
                         laplacian_terms(shape, options));
  }
}

TEMPLATE_TEST_CASE("Laplacian rejects bad arguments", "[local][laplacian][errors]",
                   DISTLOPS_SCALAR_TYPES) {
  using T = TestType;
  CHECK_THROWS_AS(local::Laplacian<T>({4}, {}), InvalidArgument);  // axis -2 of a 1-d array
  CHECK_THROWS_AS(local::Laplacian<T>({4, 5}, {.axes = {0, 1}, .weights = {1}}), InvalidArgument);
  CHECK_THROWS_AS(local::Laplacian<T>({4, 5}, {.axes = {0, 1}, .sampling = {1}}), InvalidArgument);
  CHECK_THROWS_AS(local::Laplacian<T>({4, 5}, {.axes = {}, .weights = {}, .sampling = {}}),
                  InvalidArgument);
  CHECK_THROWS_AS(local::Laplacian<T>({4, 5}, {.axes = {0, 2}}), InvalidArgument);
  CHECK_THROWS_AS(local::Laplacian<T>({4, 5}, {.sampling = {1, 0}}), InvalidArgument);
  CHECK_THROWS_AS(local::Laplacian<T>({4, 2}, {.edge = true}), InvalidArgument);
  try {
    (void)local::Laplacian<T>({4, 5}, {.axes = {0, 1}, .weights = {1, 1, 1}});
    FAIL("no exception");
  } catch (const InvalidArgument& error) {
    CHECK(std::string(error.what()) ==
          "Laplacian: axes, weights and sampling must be non-empty and of the same length, got "
          "2, 3 and 2");
  }
}
