// SPDX-License-Identifier: BSD-3-Clause
// Copyright (c) 2026 The distlops authors
#pragma once
/// \file cgls.hpp
/// CGLS: conjugate gradients on the normal equations of the damped least-squares problem
///
///     min_x ||y - A x||^2 + damp^2 ||x||^2,   i.e.  (A^H A + damp^2 I) x = A^H y
///
/// for any operator A (PyLops' cgls). Recurrence, with damp^2 wherever the damping enters:
///
///     x_0 = x0 (zeros when absent),  s_0 = y - A x_0,  r_0 = A^H s_0 - damp^2 x_0
///     c_0 = r_0,  q_0 = A c_0
///     a_k     = ||r_k||^2 / (||q_k||^2 + damp^2 ||c_k||^2)
///     x_{k+1} = x_k + a_k c_k,   s_{k+1} = s_k - a_k q_k,   r_{k+1} = A^H s_{k+1} - damp^2 x_{k+1}
///     b_k     = ||r_{k+1}||^2 / ||r_k||^2,   c_{k+1} = r_{k+1} + b_k c_k,   q_{k+1} = A c_{k+1}
///
/// PyLops uses damp instead of damp^2 in r_0 (and in its initial r2norm), so its iterates
/// differ from these when both x0 != 0 and damp != 0; they are equal (to rounding) otherwise.
///
/// Histories: residual_norms[k] = ||r_k||, the norm of the normal-equations residual
/// A^H (y - A x_k) - damp^2 x_k, which is what `tol` is compared with (PyLops compares tol
/// with ||r_k||^2); costs[k] = ||s_k|| = ||y - A x_k|| (PyLops' cost).
/// The result's r1norm is ||y - A x|| and r2norm is sqrt(r1norm^2 + damp^2 ||x||^2) (PyLops
/// returns ||r||^2 of the normal equations as r1norm, unlike its own documentation).
///
/// Per iteration: one apply of A and one of A^H; reductions: 3 (||A c||^2, ||r||^2 and
/// ||y - A x|| for the cost history), 4 with damp > 0 (||c||^2), in 2 batches
/// (scalar_slots.hpp): ||A c||^2 (and ||c||^2), whose step a_k is computed where the vectors
/// live, then ||r||^2 and ||s||^2. That is 2 collectives per iteration (MPI allreduces on the
/// host, NCCL allreduces on the device) and one read-back of the scalars to the host, after
/// the second batch; nothing else waits for the device. Work vectors: x, r, c in the domain,
/// s, q in the range, allocated once before the loop.
///
/// Breakdowns: ||A c||^2 + damp^2 ||c||^2 == 0 (zero_curvature) and NaN/Inf (non_finite); the
/// step of a breakdown is 0, so x is the iterate before it.

#include <array>
#include <optional>

#include "distlops/core/instantiate.hpp"
#include "distlops/operators/linear_operator.hpp"
#include "distlops/solvers/common.hpp"
#include "distlops/solvers/detail/driver.hpp"
#include "distlops/solvers/detail/scalar_slots.hpp"
#include "distlops/solvers/detail/stepwise_solver.hpp"

namespace distlops {

/// Options of cgls: the common ones (niter 10, tol 0 compared with the normal-equations residual
/// norm) and the damping.
template <class Domain>
struct CglsOptions : SolverOptions<Domain> {
  /// Damping: the problem is min ||y - A x||^2 + damp^2 ||x||^2 (damp >= 0).
  double damp = 0.0;
};

/// What cgls returns: the common result (residual_norms ||r_k||, costs ||y - A x_k||) and the
/// final norms.
template <class Domain>
struct CglsResult : SolverResult<Domain> {
  /// ||y - A x|| of the final x.
  double r1norm = 0.0;
  /// sqrt(r1norm^2 + damp^2 ||x||^2).
  double r2norm = 0.0;
};

namespace detail {

/// The options checks shared by the damped least-squares solvers.
inline void check_damp(const char* solver, double damp) {
  if (!(damp >= 0) || !std::isfinite(damp)) {
    throw InvalidArgument(std::string(solver) + ": damp must be finite and non-negative, got " +
                          std::to_string(damp));
  }
}

}  // namespace detail

/// CGLS in step-wise form (PyLops' class solvers): setup, step until finished, finalize, the
/// state readable between steps (docs/solvers.md). `cgls()` is `Cgls(op, options).solve(y)`.
/// y (and x0) must stay alive until finalize(). Not copyable: it holds the run's state.
template <class Domain, class Range>
class Cgls : public detail::StepwiseSolver<Cgls<Domain, Range>, Domain> {
 public:
  // The step-wise base's accessors: finished(), iteration(), x(), reason(); residual_norms()
  // holds the history of ||r_k||, one entry per iterate (entry 0: x0); costs() the history of ||y -
  // A x_k||, one entry per iterate.

  /// The scalar type of the model.
  using T = typename Domain::value_type;

  /// Keeps the operator and a copy of the options; checks nothing until setup().
  explicit Cgls(const BasicLinearOperator<Domain, Range>& op,
                const CglsOptions<Domain>& options = {})
      : op_(op), options_(options) {}

  /// Validates the options and layouts (on every rank alike), allocates the work vectors and
  /// starts from x0 (zeros when null) or the checkpoint. Collective.
  void setup(const Range& y, const Domain* x0 = nullptr) {
    using namespace detail;
    const CglsOptions<Domain>& options = options_;
    inputs_.reset();
    inputs_.emplace(op_, y, x0, "cgls");
    const double damp = options.damp;
    damp2_ = damp * damp;

    x_.emplace(op_.domain());
    r_.emplace(op_.domain());
    c_.emplace(op_.domain());
    s_.emplace(op_.range());
    q_.emplace(op_.range());
    Fingerprint parameters;
    parameters.add(damp);
    run_.reset();
    run_.emplace("cgls", options, solver_communicator(*x_), checkpoint_rank(*x_), parameters, 0,
                 [&] { check_damp("cgls", damp); });
    // From here on the operands are the solver's own vectors, of the layouts agreed above.
    const AgreedOperands agreed;
    slots_.emplace(slot_count);
    reason_.reset();

    const std::array<double*, 2> scalars{&kold_, &snorm_};
    k_ = 0;
    if (run_->resuming()) {
      k_ = run_->resume(scalars, *x_, *r_, *c_, *s_, *q_);
    } else {
      inputs_->start(*x_, *s_);
      op_.apply_adjoint(*s_, *r_);
      if (inputs_->has_x0() && damp2_ != 0) r_->axpy(scalar<T>(-damp2_), *x_);
      c_->copy_from(*r_);
      op_.apply(*c_, *q_);
      reduce_r_and_s();
      kold_ = (*slots_)[r_squared];
      snorm_ = std::sqrt((*slots_)[s_squared]);
      run_->record({std::sqrt(kold_), snorm_});
    }
    run_->header(op_.rows(), op_.cols(), {{"damp", format_parameter(damp)}},
                 {"r1norm", "r2norm", "normres"});
    run_->row(k_, *x_, [&] { return row(); });
    reason_ = stop_test();
  }

  /// One iteration (InvalidArgument when not set up or finished). Collective.
  void step() {
    using namespace detail;
    this->require_running("cgls");
    const AgreedOperands agreed;  // the operands are the vectors agreed on in setup()
    ScalarSlots<typename Domain::space_type>& slots = *slots_;
    // a = ||r||^2 / curvature where the vectors live (0 at a breakdown: x, s stay as they are).
    slots.begin(q_squared, 2);
    slots.add_squared_norm(q_squared, *q_);
    if (damp2_ != 0) slots.add_squared_norm(c_squared, *c_);
    slots.combine();
    slots.step_length(step_slot, kold_, q_squared, damp2_ != 0 ? c_squared : -1, damp2_);
    axpy_by_slot(*x_, slots.device(step_slot), 1.0, *c_);
    axpy_by_slot(*s_, slots.device(step_slot), -1.0, *q_);
    op_.apply_adjoint(*s_, *r_);
    if (damp2_ != 0) r_->axpy(scalar<T>(-damp2_), *x_);
    reduce_r_and_s();
    double curvature = slots[q_squared];
    if (damp2_ != 0) curvature += damp2_ * slots[c_squared];
    if (!std::isfinite(curvature)) {
      reason_ = StopReason::non_finite;
      return;
    }
    if (curvature <= 0) {
      reason_ = StopReason::zero_curvature;
      return;
    }
    const double knew = slots[r_squared];
    snorm_ = std::sqrt(slots[s_squared]);
    ++k_;
    const double kprevious = kold_;
    kold_ = knew;
    run_->record({std::sqrt(kold_), snorm_});
    reason_ = stop_test();
    if (!reason_) {
      c_->axpby(T(1), *r_, scalar<T>(kold_ / kprevious));
      op_.apply(*c_, *q_);
      const std::array<double*, 2> scalars{&kold_, &snorm_};
      run_->checkpoint(k_, scalars, *x_, *r_, *c_, *s_, *q_);
    }
    run_->row(k_, *x_, [&] { return row(); });
    if (run_->callback_stops(k_, *x_, std::sqrt(kold_), snorm_) && !reason_) {
      reason_ = StopReason::callback;
    }
  }

  /// The result (moves the iterate out; the solver is spent afterwards). Collective.
  CglsResult<Domain> finalize() {
    using namespace detail;
    if (!x_) throw InvalidArgument("cgls: finalize() needs setup()");
    const double final_r2norm = r2norm();
    CglsResult<Domain> result{
        run_->finish(
            std::move(*x_), k_, reason_.value_or(StopReason::max_iterations), [&] { return row(); },
            {{"r1norm", format_parameter(snorm_)}, {"r2norm", format_parameter(final_r2norm)}}),
        snorm_, final_r2norm};
    x_.reset();
    return result;
  }

  /// The data residual s_k = y - A x_k.
  const Range& residual() const { return *s_; }
  /// The normal-equations residual r_k = A^H (y - A x_k) - damp^2 x_k.
  const Domain& normal_residual() const { return *r_; }

 private:
  using Base = detail::StepwiseSolver<Cgls<Domain, Range>, Domain>;
  using Base::k_;
  using Base::reason_;
  using Base::run_;
  using Base::x_;

  // Slots: ||q||^2, ||c||^2, the step a, ||r||^2, ||s||^2.
  enum { q_squared, c_squared, step_slot, r_squared, s_squared, slot_count };

  void reduce_r_and_s() {
    detail::ScalarSlots<typename Domain::space_type>& slots = *slots_;
    slots.begin(r_squared, 2);
    slots.add_squared_norm(r_squared, *r_);
    slots.add_squared_norm(s_squared, *s_);
    slots.combine();
    slots.read_back();
  }
  double r2norm() const {
    return damp2_ == 0 ? snorm_ : std::sqrt(snorm_ * snorm_ + damp2_ * detail::squared_norm(*x_));
  }
  std::vector<double> row() const { return {snorm_, r2norm(), std::sqrt(kold_)}; }
  std::optional<StopReason> stop_test() const {
    if (!detail::all_finite(kold_, snorm_)) return StopReason::non_finite;
    if (std::sqrt(kold_) <= run_->tol()) return StopReason::tolerance;
    return std::nullopt;
  }

  BasicLinearOperator<Domain, Range> op_;
  CglsOptions<Domain> options_;
  std::optional<detail::SolverInputs<Domain, Range>> inputs_;
  std::optional<detail::ScalarSlots<typename Domain::space_type>> slots_;
  std::optional<Domain> r_, c_;
  std::optional<Range> s_, q_;
  double damp2_ = 0;
  double kold_ = 0;   // ||r||^2
  double snorm_ = 0;  // ||s||
};

/// Solves min ||y - A x||^2 + damp^2 ||x||^2 by CGLS from x0 = 0. y has A's range layout (or a
/// view-compatible one). Collective over the vectors' communicator.
template <class Domain, class Range>
CglsResult<Domain> cgls(const BasicLinearOperator<Domain, Range>& op, const Range& y,
                        const CglsOptions<Domain>& options = {}) {
  return Cgls<Domain, Range>(op, options).solve(y);
}
/// As above, starting from x0 (A's domain layout).
template <class Domain, class Range>
CglsResult<Domain> cgls(const BasicLinearOperator<Domain, Range>& op, const Range& y,
                        const Domain& x0, const CglsOptions<Domain>& options = {}) {
  return Cgls<Domain, Range>(op, options).solve(y, &x0);
}

/// \cond
/// The cases compiled in the library (solvers/cgls.cpp): operators between distributed and stacked
/// arrays (the mixed ones of StackedVStack and StackedHStack included) of every scalar type and
/// memory space, and local arrays of the host (other cases compile where used).
#define DISTLOPS_DETAIL_CGLS_ARRAYS(prefix, T, Space)                                        \
  prefix template class Cgls<DistributedArray<T, Space>, DistributedArray<T, Space>>;        \
  prefix template class Cgls<StackedDistributedArray<T, Space>,                              \
                             StackedDistributedArray<T, Space>>;                             \
  prefix template class Cgls<DistributedArray<T, Space>, StackedDistributedArray<T, Space>>; \
  prefix template class Cgls<StackedDistributedArray<T, Space>, DistributedArray<T, Space>>;
#define DISTLOPS_DETAIL_CGLS_LOCAL(prefix, T, Space) \
  prefix template class Cgls<LocalArray<T, Space>, LocalArray<T, Space>>;
#define DISTLOPS_DETAIL_CGLS_CASES(prefix)                                    \
  DISTLOPS_FOR_EACH_SCALAR_AND_SPACE_ARG(DISTLOPS_DETAIL_CGLS_ARRAYS, prefix) \
  DISTLOPS_FOR_EACH_SCALAR_IN_ARG(DISTLOPS_DETAIL_CGLS_LOCAL, prefix, ::distlops::Host)
DISTLOPS_DETAIL_CGLS_CASES(extern)
/// \endcond

}  // namespace distlops
