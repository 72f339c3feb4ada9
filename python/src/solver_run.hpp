// SPDX-License-Identifier: BSD-3-Clause
// Copyright (c) 2026 The distlops authors
#pragma once
/// \file solver_run.hpp
/// What every bound solver (solvers.cpp, proximal.cpp) takes beyond its own parameters: the
/// iteration count, the tolerance, the progress table and the Python callback, copied into the
/// library's SolverOptions.

#include <nanobind/nanobind.h>

#include <string>
#include <utility>
#include <vector>

#include "distlops/core/error.hpp"
#include "distlops/solvers/common.hpp"

namespace distlops::python {

namespace nb = nanobind;

/// How the Python callback is called each iteration.
enum class CallbackForm {
  /// callback(iteration, x, residual, cost): the package's PyLops-MPI solvers adapt it.
  full,
  /// callback(x): PyProximal's form.
  model_only
};

/// The arguments every solver shares. Python objects are borrowed handles: the solvers run
/// without the GIL, where no reference count may change, and the caller's arguments outlive
/// the solve.
struct SolverRun {
  int niter;
  double tol;
  bool show;
  std::vector<int> itershow;  // first, last, every
  nb::handle callback;
};

/// Copies `run` into the library's options (InvalidArgument unless itershow holds three counts).
template <class Domain, class Options>
void apply_run(Options& options, const SolverRun& run, CallbackForm form) {
  options.niter = run.niter;
  options.tol = run.tol;
  options.progress.show = run.show;
  if (run.itershow.size() != 3) {
    throw InvalidArgument("itershow must hold three counts (first, last, every), got " +
                          std::to_string(run.itershow.size()));
  }
  options.progress.first = run.itershow[0];
  options.progress.last = run.itershow[1];
  options.progress.every = run.itershow[2];
  if (run.callback.is_valid() && !run.callback.is_none()) {
    // The callback sees the current model as a borrowed array, valid during the call only.
    options.callback = [f = run.callback, form](int iteration, const Domain& x, double residual,
                                                double cost) {
      nb::gil_scoped_acquire gil;
      nb::object model = nb::cast(const_cast<Domain*>(&x), nb::rv_policy::reference);
      nb::object verdict =
          form == CallbackForm::full ? f(iteration, model, residual, cost) : f(model);
      return nb::cast<bool>(verdict) ? CallbackAction::stop : CallbackAction::proceed;
    };
  }
}

}  // namespace distlops::python
