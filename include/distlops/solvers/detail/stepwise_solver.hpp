// SPDX-License-Identifier: BSD-3-Clause
// Copyright (c) 2026 The distlops authors
#pragma once
/// \file stepwise_solver.hpp
/// `StepwiseSolver<Solver, Domain>`: what every step-wise solver shares (CRTP, so no virtual
/// call): `solve(inputs...)` is setup(inputs...), step() until finished(), finalize(); the state
/// every run has (its driver, the iterate, the iteration count and the stop reason) and the
/// accessors to it; and the solver is not copyable (it holds the state of a run). The solver
/// defines setup, step and finalize; the function forms call solve.

#include <optional>
#include <string>
#include <vector>

#include "distlops/core/error.hpp"
#include "distlops/solvers/common.hpp"
#include "distlops/solvers/detail/driver.hpp"

namespace distlops::detail {

template <class Solver, class Domain>
class StepwiseSolver {
 public:
  /// Runs the whole solve: the same iterates as stepping by hand. Collective.
  template <class... Inputs>
  auto solve(const Inputs&... inputs) {
    Solver& solver = static_cast<Solver&>(*this);
    solver.setup(inputs...);
    while (!solver.finished())
      solver.step();
    return solver.finalize();
  }

  /// Whether the run has stopped (niter reached or a stop reason found), or not started.
  bool finished() const { return !x_ || !run_ || reason_.has_value() || k_ >= run_->niter(); }
  /// Iterations done so far (including those of a resumed checkpoint).
  int iteration() const { return k_; }
  /// The current iterate x_k (after setup(), before finalize()).
  const Domain& x() const { return *x_; }
  /// The stop reason found so far (none while the run goes on or when it only reached niter).
  std::optional<StopReason> reason() const { return reason_; }
  /// The history of the solver's residual norm, one entry per iterate (entry 0: x0; the
  /// solver's header says which norm).
  const std::vector<double>& residual_norms() const { return run_->history(0); }
  /// The history of the solver's cost, one entry per iterate (entry 0: x0).
  const std::vector<double>& costs() const { return run_->history(1); }

 protected:
  StepwiseSolver() = default;
  ~StepwiseSolver() = default;
  StepwiseSolver(const StepwiseSolver&) = delete;
  StepwiseSolver& operator=(const StepwiseSolver&) = delete;

  /// InvalidArgument unless a run is set up and unfinished (what step() needs).
  void require_running(const char* solver) const {
    if (finished()) {
      throw InvalidArgument(std::string(solver) + ": step() needs setup() and an unfinished run");
    }
  }

  std::optional<SolverDriver<Domain>> run_;
  std::optional<Domain> x_;
  int k_ = 0;
  std::optional<StopReason> reason_;
};

}  // namespace distlops::detail
