// SPDX-License-Identifier: BSD-3-Clause
// Copyright (c) 2026 The distlops authors
#pragma once
/// \file stepwise_solver.hpp
/// `StepwiseSolver<Solver>`: the skeleton every step-wise solver shares (CRTP, so no virtual
/// call): `solve(inputs...)` is setup(inputs...), step() until finished(), finalize(), and the
/// solver is not copyable (it holds the state of a run). The solver defines setup, step,
/// finished and finalize; the function forms call solve.

namespace distlops::detail {

template <class Solver>
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

 protected:
  StepwiseSolver() = default;
  ~StepwiseSolver() = default;
  StepwiseSolver(const StepwiseSolver&) = delete;
  StepwiseSolver& operator=(const StepwiseSolver&) = delete;
};

}  // namespace distlops::detail
