// SPDX-License-Identifier: BSD-3-Clause
// Copyright (c) 2026 The distlops authors
// Transpose against the permutation matrix built index by index, for every permutation of
// the axes of 2-d and 3-d arrays and some of 4-d ones, and element by element on arrays large
// enough for the tiles and with more axes than one device launch takes, in every memory space;
// values computed by PyLops 2.8; errors.
#include <algorithm>

#include "distlops/operators/local/transpose.hpp"
#include "local_operator_checks.hpp"
#include "spaces.hpp"

using namespace distlops;
using namespace distlops::testing;

namespace {

// y[i] = x[j] with j[axes[k]] = i[k].
template <class T>
DenseMatrix<T> transpose_matrix(const Shape& dims, const std::vector<int>& axes) {
  Shape data(dims.size());
  for (std::size_t k = 0; k < dims.size(); ++k)
    data[k] = dims[std::size_t(axes[k])];
  DenseMatrix<T> m = DenseMatrix<T>::Zero(element_count(data), element_count(dims));
  for (Index r = 0; r < element_count(data); ++r) {
    const Shape i = unravel(r, data);
    Shape j(dims.size());
    for (std::size_t k = 0; k < dims.size(); ++k)
      j[std::size_t(axes[k])] = i[k];
    m(r, ravel(j, dims)) = T(1);
  }
  return m;
}

}  // namespace

DISTLOPS_SPACE_TEMPLATE_TEST_CASE("Transpose permutes the axes", "[local][transpose]",
                                  DISTLOPS_SCALAR_TYPES) {
  using T = TestType;
  for (const Shape& dims :
       {Shape{6}, Shape{3, 4}, Shape{1, 5}, Shape{2, 3, 4}, Shape{3, 1, 2}, Shape{2, 3, 1, 2}}) {
    std::vector<int> axes(dims.size());
    for (std::size_t k = 0; k < axes.size(); ++k)
      axes[k] = int(k);
    do {
      INFO("dims " << to_string(dims) << " axes " << Catch::Detail::stringify(axes));
      Shape data(dims.size());
      for (std::size_t k = 0; k < dims.size(); ++k)
        data[k] = dims[std::size_t(axes[k])];
      check_local_operator(local::Transpose<T, Space>(dims, axes), transpose_matrix<T>(dims, axes),
                           dims, data);
    } while (std::next_permutation(axes.begin(), axes.end()));
  }
  // Negative axes count from the end.
  check_local_operator(local::Transpose<T, Space>({2, 3, 4}, {-1, 0, -2}),
                       transpose_matrix<T>({2, 3, 4}, {2, 0, 1}), {2, 3, 4}, {4, 2, 3});
}

DISTLOPS_SPACE_TEMPLATE_TEST_CASE("Transpose of large arrays crosses the tiles",
                                  "[local][transpose]", DISTLOPS_SCALAR_TYPES) {
  using T = TestType;
  const std::vector<std::pair<Shape, std::vector<int>>> cases = {
      {{70, 45}, {1, 0}},
      {{37, 45}, {1, 0}},  // tiles with partial edges
      {{3, 40, 50}, {2, 0, 1}},
      {{40, 3, 33}, {2, 1, 0}},
      {{5, 6, 7, 8}, {3, 1, 2, 0}},
      {{2, 3, 40, 33}, {3, 1, 0, -2}},
      // Ten axes: the tiles loop over other axes on the host, and so do the gathers.
      {{2, 3, 2, 2, 3, 2, 1, 2, 2, 3}, {9, 8, 7, 6, 5, 4, 3, 2, 1, 0}},
      {{2, 3, 2, 2, 3, 2, 1, 2, 2, 3}, {1, 0, 3, 2, 5, 4, 7, 6, 8, 9}}};
  for (const auto& [dims, given_axes] : cases) {
    INFO("dims " << to_string(dims) << " axes " << Catch::Detail::stringify(given_axes));
    std::vector<int> axes = given_axes;
    for (int& axis : axes)
      axis = axis < 0 ? axis + int(dims.size()) : axis;
    const auto op = local::Transpose<T, Space>(dims, given_axes);
    LocalArray<T, Space> x(dims), y(op.range());
    fill_random(x, 1);
    fill_random(y, 2);
    const std::vector<T> xv = values_of(x), yv = values_of(y);
    // y[i] = x[j] with j[axes[k]] = i[k], element by element; the adjoint puts y back.
    std::vector<T> forward(std::size_t(y.size())), adjoint(std::size_t(x.size()));
    for (Index r = 0; r < y.size(); ++r) {
      const Shape i = unravel(r, op.range());
      Shape j(dims.size());
      for (std::size_t k = 0; k < dims.size(); ++k)
        j[std::size_t(axes[k])] = i[k];
      forward[std::size_t(r)] = xv[std::size_t(ravel(j, dims))];
      adjoint[std::size_t(ravel(j, dims))] = yv[std::size_t(r)];
    }
    CHECK(values_of(op.apply(x)) == forward);
    CHECK(values_of(op.apply_adjoint(y)) == adjoint);
    CHECK(dottest(op, 3, space_dottest_tolerance<T, Space>()).passed);
  }
}

TEMPLATE_TEST_CASE("Transpose gives PyLops' values", "[local][transpose][pylops]",
                   DISTLOPS_SCALAR_TYPES) {
  using T = TestType;
  const double rtol = 10 * tolerance<T>();
  // import numpy as np, pylops
  // T = pylops.Transpose((2, 3, 4), axes=(2, 0, 1)); x = np.arange(24.); T @ x, T.H @ x
  const auto op = local::Transpose<T>({2, 3, 4}, {2, 0, 1});
  CHECK(op.range() == Shape{4, 2, 3});
  const std::vector<double> x = arange(24);
  check_values(op.apply(array_of<T>({2, 3, 4}, x)),
               std::vector<double>{0, 4, 8,  12, 16, 20, 1, 5, 9,  13, 17, 21,
                                   2, 6, 10, 14, 18, 22, 3, 7, 11, 15, 19, 23},
               rtol);
  check_values(op.apply_adjoint(array_of<T>({4, 2, 3}, x)),
               std::vector<double>{0, 6, 12, 18, 1, 7,  13, 19, 2, 8,  14, 20,
                                   3, 9, 15, 21, 4, 10, 16, 22, 5, 11, 17, 23},
               rtol);
}

TEMPLATE_TEST_CASE("Transpose rejects bad arguments", "[local][transpose][errors]",
                   DISTLOPS_SCALAR_TYPES) {
  using T = TestType;
  CHECK_THROWS_AS(local::Transpose<T>({2, 3}, {0, 0}), InvalidArgument);
  CHECK_THROWS_AS(local::Transpose<T>({2, 3}, {0}), InvalidArgument);
  CHECK_THROWS_AS(local::Transpose<T>({2, 3}, {0, 2}), InvalidArgument);
  CHECK_THROWS_AS(local::Transpose<T>({2, 3}, {1, -2, 0}), InvalidArgument);
  CHECK_THROWS_AS(local::Transpose<T>({}, {}), InvalidArgument);
  try {
    (void)local::Transpose<T>({2, 3, 4}, {1, -2, 0});
    FAIL("no exception");
  } catch (const InvalidArgument& error) {
    CHECK(std::string(error.what()) == "Transpose: axis 1 appears twice in axes");
  }
}
