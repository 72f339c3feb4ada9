// SPDX-License-Identifier: BSD-3-Clause
// Copyright (c) 2026 The distlops authors
#pragma once
/// \file common.hpp
/// What every solver shares: why it stopped, its options (iterations, tolerance, callback,
/// progress table, checkpoints) and its result (solution, iterations, stop reason, histories).
///
/// Histories have one entry per iterate: entry 0 belongs to the initial guess, entry k to the
/// iterate after k iterations, so a run of n iterations leaves n + 1 entries. ISTA and FISTA
/// follow PyLops' sparsity solvers instead: one entry per iteration (n entries), the initial
/// guess's values in their result's initial_* fields (ista.hpp). What the residual norm and the
/// cost measure differs per solver and is documented with each solver (and in
/// docs/solvers.md).

#include <functional>
#include <iosfwd>
#include <string>
#include <vector>

namespace distlops {

/// Why a solver stopped. The reason is the same on every rank: every decision is taken from
/// values that reductions return equal on every rank.
enum class StopReason {
  /// `niter` iterations were done.
  max_iterations,
  /// The residual norm reached `tol` (CG, CGLS, LSQR) or the change of the model did
  /// (ISTA, FISTA).
  tolerance,
  /// ISTA/FISTA: the cost fell below `rtol` times the initial cost.
  cost_to_initial,
  /// ISTA/FISTA: the cost fell below `rtol1` times ||y||^2 / 2, the cost of the zero model.
  cost_to_data,
  /// LSQR: y - A x is small enough for atol and btol (PyLops' istop 1, or 4 at machine
  /// precision).
  residual_small,
  /// LSQR: x solves the least-squares problem well enough for atol (istop 2, or 5).
  normal_residual_small,
  /// LSQR: the estimated condition number exceeded conlim (istop 3, or 6).
  condition_limit,
  /// Breakdown: a search direction p with p^H A p == 0 (CG on a singular operator; CGLS with
  /// ||A p||^2 + damp^2 ||p||^2 == 0).
  zero_curvature,
  /// Breakdown: p^H A p < 0 (CG on an indefinite operator).
  negative_curvature,
  /// Breakdown: r^H M r <= 0 in preconditioned CG (the preconditioner is not positive
  /// definite).
  indefinite_preconditioner,
  /// Breakdown: a scalar of the recurrence (a reduction or a step length) is NaN or infinite,
  /// for instance because the data hold a NaN.
  non_finite,
  /// The callback asked to stop.
  callback,
};

/// A short English description ("maximum number of iterations reached", ...).
const char* to_string(StopReason reason);
/// True for the breakdown reasons (zero or negative curvature, indefinite preconditioner,
/// non-finite scalar).
bool is_breakdown(StopReason reason);

/// What a callback returns.
enum class CallbackAction {
  /// Go on with the run.
  proceed,
  /// End the run with StopReason::callback.
  stop
};

/// Called after every iteration with the iteration count, the current model and the newest
/// entries of the residual-norm and cost histories. Returning CallbackAction::stop ends the
/// run with StopReason::callback (unless the solver stopped for another reason at that same
/// iteration). The verdicts of all ranks are combined (stop when any rank says stop) with one
/// small allreduce per iteration, paid only when a callback is set.
template <class Domain>
using SolverCallback = std::function<CallbackAction(int iteration, const Domain& x,
                                                    double residual_norm, double cost)>;

/// The progress table printed by rank 0 in the style of PyLops' show=True: a header (solver,
/// operator size, parameters), a row per shown iteration (iteration, x[0], the solver's norms,
/// elapsed seconds) and a footer (stop reason, iterations, total time).
struct ProgressOptions {
  /// Print the table (PyLops' show=True); off by default.
  bool show = false;
  /// Where rank 0 prints; std::cout when null.
  std::ostream* stream = nullptr;
  /// Number of first iterations shown. Rows are printed for the first `first` iterations, the
  /// last `last` ones and every `every`-th in between (PyLops' itershow); the initial row and
  /// the final one always.
  int first = 10;
  /// Number of final iterations shown.
  int last = 10;
  /// Every `every`-th iteration in between is shown.
  int every = 10;
};

/// The files of a checkpoint.
enum class CheckpointFormat {
  /// One binary file per rank: resumes at the same rank count only, bit for bit; in every
  /// build.
  binary,
  /// One parallel HDF5 file holding each vector as a global dataset (Fletcher32-checked
  /// chunks): resumes at any rank count. Needs a build with HDF5 (DISTLOPS_WITH_HDF5).
  hdf5,
};

/// Saving the complete solver state and resuming from it (docs/solvers.md, "Checkpoints").
/// A save is committed in two phases: the new files are written and flushed first, then the
/// manifest `<directory>/checkpoint.current` that names them is replaced atomically, and only
/// then are the previous files removed. A failure raises IoError on every rank and a killed
/// job leaves a checkpoint that resumes, the previous or the new one.
struct CheckpointOptions {
  /// Directory of the checkpoint files (created when missing). Empty: no checkpoints.
  std::string directory;
  /// Save after every `every`-th iteration (0: never).
  int every = 0;
  /// Start from the checkpoint in `directory` instead of x0: the run continues with the saved
  /// iteration count, vectors, scalars and histories until `niter` in total. A checkpoint of
  /// another solver, other parameters, other sizes, another rank count or scalar type, or a
  /// corrupt file raises an error on every rank. The operator and the data must be those of
  /// the run that wrote it. The format is the manifest's; `format` matters for saves only.
  bool resume = false;
  /// The format of the files saved.
  CheckpointFormat format = CheckpointFormat::binary;
};

/// Options of every solver.
template <class Domain>
struct SolverOptions {
  /// Maximum number of iterations (>= 0).
  int niter = 10;
  /// Stopping tolerance (>= 0); what it is compared with is documented per solver. Unlike
  /// PyLops' CG and CGLS, which compare tol with the squared residual norm, distlops compares
  /// it with the norm itself.
  double tol = 0.0;
  /// Called after every iteration (none by default).
  SolverCallback<Domain> callback = {};
  /// The progress table (off by default).
  ProgressOptions progress = {};
  /// Checkpoints (off by default).
  CheckpointOptions checkpoint = {};
};

/// What every solver returns.
template <class Domain>
struct SolverResult {
  /// The final iterate (the last finite one when the run stopped for a breakdown).
  Domain x;
  /// Number of iterations done, counting those of the run that wrote a resumed checkpoint.
  int iterations = 0;
  /// Why the run stopped (is_breakdown() tells the breakdowns apart).
  StopReason reason = StopReason::max_iterations;
  /// residual_norms[k]: the norm of the residual of the k-th iterate (per solver; ISTA and
  /// FISTA: of the (k + 1)-th, see above).
  std::vector<double> residual_norms;
  /// costs[k]: the cost of the k-th iterate (per solver; ISTA and FISTA: of the (k + 1)-th).
  std::vector<double> costs;
  /// Wall-clock seconds of this call.
  double seconds = 0.0;
  /// The iteration of the checkpoint this run resumed from (0 when it did not resume).
  int resumed_from = 0;
};

}  // namespace distlops
