// SPDX-License-Identifier: BSD-3-Clause
// Copyright (c) 2026 The distlops authors
// Local operators in the operator algebra, through the umbrella header: the example of
// docs/operators.md (D^H D + 0.1 L) and a chain of shape-changing operators, against products
// and sums of their dense matrices.
#include "dense_algebra.hpp"
#include "distlops/operators/local.hpp"
#include "local_operator_checks.hpp"

using namespace distlops;
using namespace distlops::testing;

TEMPLATE_TEST_CASE("local operators compose like their matrices", "[local][algebra]",
                   DISTLOPS_SCALAR_TYPES) {
  using T = TestType;
  const Index nx = 6, ny = 5;
  // The example of docs/operators.md.
  const auto D = local::FirstDerivative<T>({nx, ny}, {.axis = 0, .sampling = 0.5, .edge = true});
  const auto L =
      local::Laplacian<T>({nx, ny}, {.axes = {0, 1}, .weights = {1, 1}, .sampling = {0.5, 2.0}});
  const auto A = D.adjoint() * D + T(0.1) * L;
  const DenseMatrix<T> d = assemble(D), l = assemble(L);
  check_local_operator(A, DenseMatrix<T>(product(adjoint_of(d), d) + T(0.1) * l), {nx, ny},
                       {nx, ny});

  // Pad, then transpose, then sample rows and weight them: shapes change at every step.
  const auto P = local::Pad<T>({3, 4}, {{1, 0}, {0, 2}});                        // (3, 4) -> (4, 6)
  const auto R = local::Transpose<T>({4, 6}, {1, 0});                            // -> (6, 4)
  const auto S = local::Restriction<T>({6, 4}, std::vector<Index>{5, 0, 5}, 0);  // -> (3, 4)
  const std::vector<T> w = random_values<T>(4, 1);
  const auto W = local::Diagonal<T>(w, {3, 4}, 1);
  const auto chain = W * S * R * P;
  check_local_operator(
      chain, product(product(product(assemble(W), assemble(S)), assemble(R)), assemble(P)), {3, 4},
      {3, 4});
  CHECK(chain.name() == "(((Diagonal * Restriction) * Transpose) * Pad)");
}
