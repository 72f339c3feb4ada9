// SPDX-License-Identifier: BSD-3-Clause
// Copyright (c) 2026 The distlops authors
// Pad against the matrix placing each model element at its padded position, built index by
// index, on 1-d to 9-d arrays in every memory space; values computed by PyLops 2.8; errors.
#include "distlops/operators/local/pad.hpp"
#include "local_operator_checks.hpp"
#include "spaces.hpp"

using namespace distlops;
using namespace distlops::testing;

namespace {

template <class T>
DenseMatrix<T> pad_matrix(const Shape& dims, const std::vector<local::PadWidth>& pad) {
  Shape padded = dims;
  for (std::size_t k = 0; k < dims.size(); ++k)
    padded[k] += pad[k].before + pad[k].after;
  DenseMatrix<T> m = DenseMatrix<T>::Zero(element_count(padded), element_count(dims));
  for (Index c = 0; c < element_count(dims); ++c) {
    Shape index = unravel(c, dims);
    for (std::size_t k = 0; k < dims.size(); ++k)
      index[k] += pad[k].before;
    m(ravel(index, padded), c) = T(1);
  }
  return m;
}

}  // namespace

DISTLOPS_SPACE_TEMPLATE_TEST_CASE("Pad places the model inside zeros", "[local][pad]",
                                  DISTLOPS_SCALAR_TYPES) {
  using T = TestType;
  const std::vector<std::pair<Shape, std::vector<local::PadWidth>>> cases = {
      {{9}, {{4, 0}}},
      // More axes than one device launch takes.
      {{2, 1, 2, 1, 2, 1, 1, 1, 1},
       {{1, 0}, {0, 1}, {1, 0}, {0, 1}, {1, 0}, {0, 1}, {1, 0}, {0, 1}, {1, 0}}},
      {{5}, {{2, 3}}},
      {{5}, {{0, 0}}},
      {{4}, {{0, 2}}},
      {{3, 4}, {{1, 0}, {0, 2}}},
      {{2, 3}, {{0, 0}, {1, 1}}},
      {{2, 3}, {{2, 1}, {0, 0}}},
      {{2, 3, 2}, {{1, 1}, {0, 2}, {3, 0}}},
      {{2, 3, 2}, {{0, 1}, {0, 0}, {0, 0}}},
      {{0, 3}, {{1, 1}, {1, 1}}},
  };
  for (const auto& [dims, pad] : cases) {
    INFO("dims " << to_string(dims));
    const DenseMatrix<T> reference = pad_matrix<T>(dims, pad);
    Shape padded = dims;
    for (std::size_t k = 0; k < dims.size(); ++k)
      padded[k] += pad[k].before + pad[k].after;
    check_local_operator(local::Pad<T, Space>(dims, pad), reference, dims, padded);
  }
}

TEMPLATE_TEST_CASE("Pad gives PyLops' values", "[local][pad][pylops]", DISTLOPS_SCALAR_TYPES) {
  using T = TestType;
  const double rtol = 10 * tolerance<T>();
  // import numpy as np, pylops
  // P = pylops.Pad((2, 3), ((1, 0), (2, 1))); P @ np.arange(1., 7.), P.H @ np.arange(1., 19.)
  const auto p = local::Pad<T>({2, 3}, {{1, 0}, {2, 1}});
  CHECK(p.range() == Shape{3, 6});
  check_values(p.apply(array_of<T>({2, 3}, std::vector<double>{1, 2, 3, 4, 5, 6})),
               std::vector<double>{0, 0, 0, 0, 0, 0, 0, 0, 1, 2, 3, 0, 0, 0, 4, 5, 6, 0}, rtol);
  check_values(p.apply_adjoint(array_of<T>({3, 6}, arange(18, 1))),
               std::vector<double>{9, 10, 11, 15, 16, 17}, rtol);
}

TEMPLATE_TEST_CASE("Pad rejects bad arguments", "[local][pad][errors]", DISTLOPS_SCALAR_TYPES) {
  using T = TestType;
  CHECK_THROWS_AS(local::Pad<T>({3}, {{-1, 0}}), InvalidArgument);
  CHECK_THROWS_AS(local::Pad<T>({3, 2}, {{1, 1}}), ShapeMismatch);
  CHECK_THROWS_AS(local::Pad<T>({3}, {{1, 1}, {1, 1}}), ShapeMismatch);
  CHECK_THROWS_AS(local::Pad<T>({}, {}), InvalidArgument);
  try {
    (void)local::Pad<T>({3, 2}, {{0, 0}, {2, -1}});
    FAIL("no exception");
  } catch (const InvalidArgument& error) {
    CHECK(std::string(error.what()) == "Pad: padding must be non-negative, got (2, -1) for axis 1");
  }
}
