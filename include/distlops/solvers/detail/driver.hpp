// SPDX-License-Identifier: BSD-3-Clause
// Copyright (c) 2026 The distlops authors
#pragma once
/// \file driver.hpp
/// `SolverDriver`: what a solver run needs besides its recurrence, shared by every solver:
/// collective validation of the options, the histories, the callback (agreed over the ranks),
/// the progress table, checkpoints, timing and the assembly of the result.

#include <chrono>
#include <cmath>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "distlops/core/collective_check.hpp"
#include "distlops/operators/linear_operator.hpp"
#include "distlops/solvers/common.hpp"
#include "distlops/solvers/detail/checkpoint.hpp"
#include "distlops/solvers/detail/progress.hpp"
#include "distlops/solvers/detail/vectors.hpp"

namespace distlops::detail {

/// The rank that names a solver's checkpoint file: the rank in the vectors' communicator, or
/// in MPI_COMM_WORLD for local arrays (whose communicator is MPI_COMM_SELF on every process).
template <class V>
int checkpoint_rank(const V& v) {
  if constexpr (std::is_same_v<V, LocalArray<typename V::value_type, typename V::space_type>>) {
    return Communicator::world().rank();
  } else {
    return solver_communicator(v).rank();
  }
}

/// The data and the optional initial guess of a solver, seen with the operator's layouts
/// (directly or as views; ShapeMismatch on every rank otherwise).
template <class Domain, class Range>
class SolverInputs {
 public:
  SolverInputs(const BasicLinearOperator<Domain, Range>& op, const Range& y, const Domain* x0,
               const std::string& solver)
      : op_(op), data_(y, op.range(), solver, "", "y") {
    if (x0) initial_.emplace(*x0, op.domain(), solver, "", "x0");
  }
  const Range& y() const { return data_.get_const(); }
  bool has_x0() const { return initial_.has_value(); }
  /// x = x0 (zeros when absent) and r = y - A x (a copy of y, without an apply, from zeros).
  void start(Domain& x, Range& r) const {
    if (initial_) {
      x.copy_from(initial_->get_const());
      op_.apply(x, r);
      r.axpby(typename Domain::value_type(1), y(), typename Domain::value_type(-1));
    } else {
      x.set_zero();
      r.copy_from(y());
    }
  }

 private:
  const BasicLinearOperator<Domain, Range>& op_;
  LayoutAdapter<Range> data_;
  std::optional<LayoutAdapter<Domain>> initial_;
};

template <class Domain>
class SolverDriver {
 public:
  using T = typename Domain::value_type;

  /// Collective over `comm`. Validates the common options and runs `check` (the solver's own
  /// validation) on every rank, and verifies that the options and `parameters` (the solver's
  /// fixed parameters, also identifying its checkpoints) agree on every rank; any failure
  /// raises the same exception on every rank.
  template <class Check>
  SolverDriver(std::string name, const SolverOptions<Domain>& options, Communicator comm,
               int file_rank, const Fingerprint& parameters, std::size_t extra_histories,
               Check&& check)
      : SolverDriver(std::move(name), options, std::move(comm), file_rank, parameters, nullptr,
                     extra_histories, std::forward<Check>(check)) {}
  /// The same, agreeing also on `operands`, a fingerprint of what the solver is given besides
  /// its options that must be equal on every rank (the proximal operators' parameters), which
  /// is not part of the checkpoints' identity.
  template <class Check>
  SolverDriver(std::string name, const SolverOptions<Domain>& options, Communicator comm,
               int file_rank, const Fingerprint& parameters, const Fingerprint& operands,
               std::size_t extra_histories, Check&& check)
      : SolverDriver(std::move(name), options, std::move(comm), file_rank, parameters, &operands,
                     extra_histories, std::forward<Check>(check)) {}

 private:
  // The constructors' work; `operands` may be null.
  template <class Check>
  SolverDriver(std::string name, const SolverOptions<Domain>& options, Communicator comm,
               int file_rank, const Fingerprint& parameters, const Fingerprint* operands,
               std::size_t extra_histories, Check&& check)
      : name_(std::move(name)),
        options_(options),
        comm_(std::move(comm)),
        file_rank_(file_rank),
        parameters_(parameters.value()),
        table_(options.progress, comm_.rank() == 0, options.niter),
        start_(std::chrono::steady_clock::now()) {
    Fingerprint all = parameters;
    all.add(options.niter).add(options.tol).add(static_cast<bool>(options.callback));
    all.add(options.progress.show).add(options.progress.first);
    all.add(options.progress.last).add(options.progress.every);
    all.add(std::string_view(options.checkpoint.directory));
    all.add(options.checkpoint.every).add(options.checkpoint.resume);
    all.add(options.checkpoint.format);
    if (operands) all.add(operands->value());
    const char* subject = operands ? ": the set of options or its proximal operators' parameters"
                                   : ": the set of options";
    collective_check(comm_, all, name_ + subject, [&] {
      validate_common();
      check();
    });
    histories_.resize(2 + extra_histories);
    for (std::vector<double>& history : histories_)
      history.reserve(static_cast<std::size_t>(options.niter) + 1);
  }

 public:
  const std::string& name() const { return name_; }
  int niter() const { return options_.niter; }
  double tol() const { return options_.tol; }
  const Communicator& communicator() const { return comm_; }
  bool resuming() const { return options_.checkpoint.resume; }

  /// Appends one entry to every history: residual norm, cost, then the solver's extras.
  void record(std::initializer_list<double> values) {
    std::size_t i = 0;
    for (double value : values)
      histories_[i++].push_back(value);
  }
  const std::vector<double>& history(std::size_t i) const { return histories_[i]; }

  /// Loads the checkpoint into the scalars and vectors (and the histories) and returns its
  /// iteration. Collective.
  template <class... Vectors>
  int resume(std::span<double* const> scalars, Vectors&... vectors) {
    const std::vector<std::vector<double>*> histories = history_pointers();
    resumed_from_ = load_checkpoint(options_.checkpoint, comm_, file_rank_, identity(),
                                    SolverStateView{scalars, histories}, vectors...);
    return resumed_from_;
  }

  /// Saves the state when iteration k is a checkpoint iteration. Collective.
  template <class... Vectors>
  void checkpoint(int iteration, std::span<double* const> scalars, Vectors&... vectors) {
    const int every = options_.checkpoint.every;
    if (every <= 0 || iteration % every != 0) return;
    const std::vector<std::vector<double>*> histories = history_pointers();
    save_checkpoint(options_.checkpoint, comm_, file_rank_, identity(), iteration,
                    SolverStateView{scalars, histories}, vectors...);
  }

  /// Prints the header of the progress table (rank 0, when the table is on).
  void header(Index rows, Index cols, std::vector<NamedValue> parameters,
              const std::vector<std::string>& columns) {
    if (!table_.active()) return;
    parameters.push_back({"tol", format_parameter(options_.tol)});
    parameters.push_back({"niter", std::to_string(options_.niter)});
    table_.header(name_, rows, cols, comm_.size(), parameters, columns);
  }
  /// Whether the progress table prints the row of iteration k (on any rank alike).
  bool shows_row(int iteration) const { return table_.shows(iteration); }
  /// Whether a callback is set.
  bool has_callback() const { return static_cast<bool>(options_.callback); }
  /// Prints the row of iteration k when it is shown. `values()` (called on every rank, so it
  /// may reduce) gives the row's numbers.
  template <class Values>
  void row(int iteration, const Domain& x, Values&& values) {
    if (table_.shows(iteration)) print_row(iteration, x, values());
  }

  /// Calls the callback; true when it asked to stop on any rank. One allreduce (only when a
  /// callback is set); an exception in the callback on any rank is raised on every rank.
  bool callback_stops(int iteration, const Domain& x, double residual_norm, double cost) {
    if (!options_.callback) return false;
    std::exception_ptr failure;
    int verdict = 0;
    try {
      verdict = options_.callback(iteration, x, residual_norm, cost) == CallbackAction::stop;
    } catch (...) {
      failure = std::current_exception();
      verdict = 2;
    }
    verdict = comm_.allreduce(verdict, ReduceOp::max);
    if (verdict == 2) {
      collective_check(comm_, [&] {
        if (failure) std::rethrow_exception(failure);
      });
    }
    return verdict == 1;
  }

  /// The result of the run; prints the last row (if not shown yet) and the footer.
  template <class Values>
  SolverResult<Domain> finish(Domain&& x, int iterations, StopReason reason, Values&& last_row,
                              const std::vector<NamedValue>& results = {}) {
    if (table_.active() && !table_.printed(iterations)) print_row(iterations, x, last_row());
    const double seconds = elapsed();
    table_.footer(reason, iterations, seconds, results);
    SolverResult<Domain> result{
        std::move(x), iterations,   reason, std::move(histories_[0]), std::move(histories_[1]),
        seconds,      resumed_from_};
    return result;
  }
  /// The extra histories (moved out; call after finish).
  std::vector<double> take_history(std::size_t i) { return std::move(histories_[i]); }

 private:
  void validate_common() const {
    auto fail = [&](const std::string& what) { throw InvalidArgument(name_ + ": " + what); };
    if (options_.niter < 0)
      fail("niter must be non-negative, got " + std::to_string(options_.niter));
    if (!(options_.tol >= 0) || !std::isfinite(options_.tol)) {
      fail("tol must be finite and non-negative, got " + std::to_string(options_.tol));
    }
    const ProgressOptions& progress = options_.progress;
    if (progress.first < 0 || progress.last < 0 || progress.every < 1) {
      fail("progress rows: first and last must be non-negative and every positive");
    }
    const CheckpointOptions& checkpoint = options_.checkpoint;
    if (checkpoint.every < 0) {
      fail("checkpoint.every must be non-negative, got " + std::to_string(checkpoint.every));
    }
    if ((checkpoint.every > 0 || checkpoint.resume) && checkpoint.directory.empty()) {
      fail("checkpoints need a directory (checkpoint.directory is empty)");
    }
    if (checkpoint.format == CheckpointFormat::hdf5 && !hdf5_checkpoints_available()) {
      fail("checkpoint.format is hdf5, but this distlops was built without HDF5");
    }
  }
  CheckpointIdentity identity() const {
    return {name_, scalar_name<T>(), parameters_, file_rank_, comm_.size()};
  }
  std::vector<std::vector<double>*> history_pointers() {
    std::vector<std::vector<double>*> pointers;
    for (std::vector<double>& history : histories_)
      pointers.push_back(&history);
    return pointers;
  }
  double elapsed() const {
    return std::chrono::duration<double>(std::chrono::steady_clock::now() - start_).count();
  }
  void print_row(int iteration, const Domain& x, const std::vector<double>& values) {
    std::string first = "-";
    if (comm_.rank() == 0) {
      if (const std::optional<T> value = first_element(x)) {
        first = format_element(static_cast<double>(std::real(*value)),
                               static_cast<double>(std::imag(*value)), is_complex_v<T>);
      }
    }
    table_.row(iteration, first, values, elapsed());
  }

  std::string name_;
  const SolverOptions<Domain>& options_;
  Communicator comm_;
  int file_rank_;
  std::uint64_t parameters_;
  ProgressTable table_;
  std::chrono::steady_clock::time_point start_;
  std::vector<std::vector<double>> histories_;
  int resumed_from_ = 0;
};

}  // namespace distlops::detail
