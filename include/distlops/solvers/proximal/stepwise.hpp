// SPDX-License-Identifier: BSD-3-Clause
// Copyright (c) 2026 The distlops authors
#pragma once
/// \file stepwise.hpp
/// What the proximal solvers share: their result and the step-wise skeleton (PyLops' class
/// solvers: setup, step, finalize), which keeps the state of a run between steps so that it
/// can be inspected (iterate, histories, step sizes) or changed by the caller between them:
///
///     ProximalGradient<V> solver(f, g, options);
///     solver.setup(x0);                     // validates, allocates, the initial cost
///     while (!solver.finished()) {
///       solver.step();                      // one iteration
///       inspect(solver.x(), solver.costs().back());
///     }
///     ProximalResult<V> result = solver.finalize();
///
/// `solve(x0)` does exactly that; the function forms (proximal_gradient, admm, ...) call it.
/// Every member is collective over the vectors' communicator.
///
/// Histories follow common.hpp (entry k for the iterate after k iterations, entry 0 for x0):
/// costs[k] is the solver's objective at x_k and residual_norms[k] = ||x_k - x_{k-1}||, the
/// change of the model (NaN for entry 0, which has no predecessor).

#include <cmath>
#include <limits>
#include <optional>

#include "distlops/solvers/common.hpp"

namespace distlops {

/// What the proximal solvers return: the common result (costs the objective, residual_norms the
/// model change ||x_k - x_{k-1}||) and the final step size.
template <class Domain>
struct ProximalResult : SolverResult<Domain> {
  /// The primal step size at the end of the run (after backtracking, for ProximalGradient).
  double tau = 0.0;
};

namespace detail {

/// The relative change of the objective PyProximal compares with tol: |1 - J_k / J_{k-1}|.
inline bool objective_settled(double cost, double previous, double tol) {
  return tol > 0 && std::isfinite(previous) && std::abs(1.0 - cost / previous) < tol;
}

}  // namespace detail
}  // namespace distlops
