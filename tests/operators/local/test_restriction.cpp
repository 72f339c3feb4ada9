// SPDX-License-Identifier: BSD-3-Clause
// Copyright (c) 2026 The distlops authors
// Restriction against the sampling matrix built index by index (one 1 per data sample), with
// sorted, unsorted and repeated indices along every axis of 1-d to 3-d arrays, in every memory
// space; values computed by PyLops 2.8 (whose adjoint adds repeated samples); errors.
#include "distlops/operators/local/restriction.hpp"
#include "local_operator_checks.hpp"
#include "spaces.hpp"

using namespace distlops;
using namespace distlops::testing;

namespace {

template <class T>
DenseMatrix<T> restriction_matrix(const Shape& dims, const std::vector<Index>& iava, int axis) {
  Shape data = dims;
  data[std::size_t(axis)] = Index(iava.size());
  DenseMatrix<T> m = DenseMatrix<T>::Zero(element_count(data), element_count(dims));
  for (Index r = 0; r < element_count(data); ++r) {
    Shape index = unravel(r, data);
    index[std::size_t(axis)] = iava[std::size_t(index[std::size_t(axis)])];
    m(r, ravel(index, dims)) = T(1);
  }
  return m;
}

}  // namespace

DISTLOPS_SPACE_TEMPLATE_TEST_CASE("Restriction samples along any axis", "[local][restriction]",
                                  DISTLOPS_SCALAR_TYPES) {
  using T = TestType;
  const std::vector<Shape> shapes = {{7}, {5, 4}, {4, 1}, {3, 4, 5}};
  for (const Shape& dims : shapes) {
    const int ndim = int(dims.size());
    for (int axis = -1; axis < ndim; ++axis) {
      const int normalised = axis < 0 ? axis + ndim : axis;
      const Index n = dims[std::size_t(normalised)];
      const std::vector<std::vector<Index>> index_sets = {
          {0},               // one sample
          {n - 1, 0},        // unsorted
          {0, n - 1, 0, 0},  // repeated: the adjoint adds them up
          {},                // none
          [&] {              // all, reversed
            std::vector<Index> all;
            for (Index i = n; i-- > 0;)
              all.push_back(i);
            return all;
          }()};
      for (const std::vector<Index>& iava : index_sets) {
        INFO("dims " << to_string(dims) << " axis " << axis << " iava "
                     << Catch::Detail::stringify(iava));
        Shape data = dims;
        data[std::size_t(normalised)] = Index(iava.size());
        check_local_operator(local::Restriction<T, Space>(dims, iava, axis),
                             restriction_matrix<T>(dims, iava, normalised), dims, data);
      }
    }
  }
}

TEMPLATE_TEST_CASE("Restriction gives PyLops' values", "[local][restriction][pylops]",
                   DISTLOPS_SCALAR_TYPES) {
  using T = TestType;
  const double rtol = 10 * tolerance<T>();
  // import numpy as np, pylops
  // x = np.arange(12.).reshape(3, 4) + 1
  const LocalArray<T> input = array_of<T>({3, 4}, arange(12, 1));
  // R = pylops.Restriction((3, 4), [3, 0, 3], axis=1); R @ x.ravel(), R.H @ (np.arange(9.) + 1)
  const auto r1 = local::Restriction<T>({3, 4}, std::vector<Index>{3, 0, 3}, 1);
  check_values(r1.apply(input), std::vector<double>{4, 1, 4, 8, 5, 8, 12, 9, 12}, rtol);
  check_values(r1.apply_adjoint(array_of<T>({3, 3}, arange(9, 1))),
               std::vector<double>{2, 0, 0, 4, 5, 0, 0, 10, 8, 0, 0, 16}, rtol);
  // R0 = pylops.Restriction((3, 4), [2, 2, 0, 2], axis=0); R0 @ x.ravel(),
  // R0.H @ (np.arange(16.) + 1)
  const auto r0 = local::Restriction<T>({3, 4}, std::vector<Index>{2, 2, 0, 2}, 0);
  check_values(r0.apply(input),
               std::vector<double>{9, 10, 11, 12, 9, 10, 11, 12, 1, 2, 3, 4, 9, 10, 11, 12}, rtol);
  check_values(r0.apply_adjoint(array_of<T>({4, 4}, arange(16, 1))),
               std::vector<double>{9, 10, 11, 12, 0, 0, 0, 0, 19, 22, 25, 28}, rtol);
}

TEMPLATE_TEST_CASE("Restriction rejects bad arguments", "[local][restriction][errors]",
                   DISTLOPS_SCALAR_TYPES) {
  using T = TestType;
  CHECK_THROWS_AS(local::Restriction<T>({5}, std::vector<Index>{5}), InvalidArgument);
  CHECK_THROWS_AS(local::Restriction<T>({5}, std::vector<Index>{-1}), InvalidArgument);
  CHECK_THROWS_AS(local::Restriction<T>({5, 2}, std::vector<Index>{0}, 2), InvalidArgument);
  CHECK_THROWS_AS(local::Restriction<T>({5, -2}, std::vector<Index>{0}, 0), InvalidArgument);
  try {
    (void)local::Restriction<T>({5, 3}, std::vector<Index>{0, 3}, -1);
    FAIL("no exception");
  } catch (const InvalidArgument& error) {
    CHECK(std::string(error.what()) ==
          "Restriction: iava[1] = 3 is outside [0, 3) (axis 1 of dims (5, 3))");
  }
}
