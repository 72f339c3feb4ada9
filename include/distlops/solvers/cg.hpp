// SPDX-License-Identifier: BSD-3-Clause
// Copyright (c) 2026 The distlops authors
#pragma once
/// \file cg.hpp
/// Conjugate gradients for A x = y with A Hermitian positive definite (PyLops' cg), optionally
/// preconditioned by a user operator M ~ A^{-1}.
///
/// Recurrence (PyLops' CG when M is absent, i.e. M = I; with tol = 0 the iterates equal
/// PyLops' to rounding):
///
///     x_0 = x0 (zeros when absent),  r_0 = y - A x_0,  z_0 = M r_0,  c_0 = z_0
///     a_k     = (r_k^H z_k) / (c_k^H A c_k)
///     x_{k+1} = x_k + a_k c_k,        r_{k+1} = r_k - a_k A c_k,     z_{k+1} = M r_{k+1}
///     b_k     = (r_{k+1}^H z_{k+1}) / (r_k^H z_k),   c_{k+1} = z_{k+1} + b_k c_k
///
/// Histories: residual_norms[k] = ||r_k|| (the recursively updated residual), which is what
/// `tol` is compared with (stop when ||r_k|| <= tol; PyLops compares tol with ||r_k||^2);
/// costs[k] = sqrt(r_k^H z_k), which is ||r_k|| again without preconditioner (PyLops' cost).
///
/// Per iteration: one apply of A (and one of M); reductions: 2 without preconditioner
/// (c^H A c and r^H r), 3 with (c^H A c, r^H r, r^H z), in 2 batches (scalar_slots.hpp):
/// c^H A c, whose step a_k is computed where the vectors live, then r^H r (and r^H z). That is
/// 2 collectives per iteration and one read-back of the scalars to the host, after the second
/// batch; nothing else waits for the device. c^H A c is formed by the apply itself where the
/// operator has a fused kernel (ScalarSlots::add_apply_real_vdot, LinearOperatorBase::
/// forward_vdot: the stencil operators on the host, so the Laplacian and the derivatives), which
/// then reads c once instead of twice; its terms are summed line by line instead of in
/// vdot's order, so iterates differ from those of apply + vdot in the last bits only. Without
/// preconditioner the updates of x and r and r^H r are one pass
/// (ScalarSlots::add_axpy_pair_squared_norm). Words per unknown moved per iteration without
/// preconditioner: 11 with a fused apply (apply 2, that pass 6, c 3), 13 otherwise (c^H A c 2
/// more).
/// Work vectors: x, r, c, A c (and z), allocated once before the loop.
///
/// Breakdowns: c^H A c == 0 (zero_curvature), c^H A c < 0 (negative_curvature),
/// r^H z <= 0 (indefinite_preconditioner) and NaN/Inf (non_finite) stop the run with that
/// reason on every rank; x is then the last finite iterate (the step of a curvature breakdown
/// is 0). PyLops takes |c^H A c| instead
/// and iterates on.

#include <array>
#include <optional>

#include "distlops/core/instantiate.hpp"
#include "distlops/operators/linear_operator.hpp"
#include "distlops/solvers/common.hpp"
#include "distlops/solvers/detail/driver.hpp"
#include "distlops/solvers/detail/scalar_slots.hpp"
#include "distlops/solvers/detail/stepwise_solver.hpp"

namespace distlops {

/// Options of cg: the common ones (niter 10, tol 0 compared with ||r_k||) and the preconditioner.
template <class V>
struct CgOptions : SolverOptions<V> {
  /// M ~ A^{-1} (Hermitian positive definite, mapping A's domain onto itself), applied once
  /// per iteration. An empty handle (the default) runs plain CG.
  BasicLinearOperator<V, V> preconditioner = {};
};

/// What cg returns: the common result (residual_norms ||r_k||, costs sqrt(r_k^H z_k)).
template <class V>
using CgResult = SolverResult<V>;

/// CG in step-wise form (PyLops' class solvers): setup, step until finished, finalize, the state
/// readable between steps (docs/solvers.md). `cg()` is `Cg(op, options).solve(y, x0)`. y (and
/// x0) must stay alive until finalize(). Not copyable: it holds the run's state.
template <class V>
class Cg : public detail::StepwiseSolver<Cg<V>, V> {
 public:
  // The step-wise base's accessors: finished(), iteration(), x(), reason(); residual_norms()
  // holds the history of ||r_k||, one entry per iterate (entry 0: x0); costs() the history of
  // sqrt(r_k^H z_k), one entry per iterate.

  /// The scalar type of the vectors.
  using T = typename V::value_type;

  /// Keeps the operator and a copy of the options; checks nothing until setup().
  explicit Cg(const BasicLinearOperator<V, V>& op, const CgOptions<V>& options = {})
      : op_(op), options_(options) {}

  /// Validates the operators, options and layouts (on every rank alike), allocates the work
  /// vectors and starts from x0 (zeros when null) or the checkpoint. Collective.
  void setup(const V& y, const V* x0 = nullptr) {
    using namespace detail;
    using traits = vector_traits<V>;
    const BasicLinearOperator<V, V>& op = op_;
    const CgOptions<V>& options = options_;
    const BasicLinearOperator<V, V>& m = options.preconditioner;
    preconditioned_ = !m.empty();
    if (!(op.domain() == op.range())) {
      throw ShapeMismatch("cg: the operator must map a space onto itself; " + op.name() + " maps " +
                          traits::describe(op.domain()) + " to " + traits::describe(op.range()));
    }
    if (preconditioned_ && (!(m.domain() == op.domain()) || !(m.range() == op.domain()))) {
      throw ShapeMismatch("cg: the preconditioner " + m.name() + " must map " +
                          traits::describe(op.domain()) + " onto itself, it maps " +
                          traits::describe(m.domain()) + " to " + traits::describe(m.range()));
    }
    inputs_.reset();
    inputs_.emplace(op, y, x0, "cg");
    const V& b = inputs_->y();

    Fingerprint parameters;
    parameters.add(preconditioned_);
    run_.reset();
    run_.emplace("cg", options, solver_communicator(b), checkpoint_rank(b), parameters, 0, [] {});
    // From here on the operands are the solver's own vectors, of the layouts agreed above.
    const AgreedOperands agreed;

    x_.emplace(op.domain());
    r_.emplace(op.domain());
    c_.emplace(op.domain());
    q_.emplace(op.domain());
    z_.reset();
    if (preconditioned_) z_.emplace(op.domain());
    slots_.emplace(slot_count);

    rr_ = rz_ = 0;
    const std::array<double*, 2> scalars{&rr_, &rz_};
    k_ = 0;
    if (run_->resuming()) {
      k_ = run_->resume(scalars, *x_, *r_, *c_);
    } else {
      inputs_->start(*x_, *r_);
      if (preconditioned_) m.apply(*r_, *z_);
      reduce_r_and_z();
      rr_ = (*slots_)[r_squared];
      rz_ = preconditioned_ ? (*slots_)[rz_slot] : rr_;
      c_->copy_from(preconditioned_ ? *z_ : *r_);
      run_->record({std::sqrt(rr_), std::sqrt(rz_)});
    }
    run_->header(op.rows(), op.cols(), {{"preconditioner", preconditioned_ ? m.name() : "none"}},
                 {"r2norm", "Mnorm"});
    run_->row(k_, *x_, [&] { return row(); });
    reason_ = stop_test();
  }

  /// One iteration (InvalidArgument when not set up or finished). Collective.
  void step() {
    using namespace detail;
    this->require_running("cg");
    const AgreedOperands agreed;  // the operands are the vectors agreed on in setup()
    const BasicLinearOperator<V, V>& m = options_.preconditioner;
    ScalarSlots<typename V::space_type>& slots = *slots_;
    // q = A c and c^H A c in the operator's pass where it can (the stencil operators on the
    // host); a = r^H z / c^H A c where the vectors live (0 at a breakdown: x, r stay as they are).
    slots.begin(curvature_slot, 1);
    slots.add_apply_real_vdot(curvature_slot, op_, *c_, *q_);
    slots.combine();
    slots.step_length(step_slot, rz_, curvature_slot);
    if (preconditioned_) {
      axpy_by_slot(*x_, slots.device(step_slot), 1.0, *c_);
      axpy_by_slot(*r_, slots.device(step_slot), -1.0, *q_);
      m.apply(*r_, *z_);
      reduce_r_and_z();
    } else {
      // x, r and r^H r in one pass: c, q, x, r read once, x and r written once.
      slots.begin(r_squared, 1);
      slots.add_axpy_pair_squared_norm(r_squared, step_slot, *x_, 1.0, *c_, *r_, -1.0, *q_);
      slots.combine();
      slots.read_back();
    }
    const double curvature = slots[curvature_slot];
    if (!std::isfinite(curvature)) {
      reason_ = StopReason::non_finite;
      return;
    }
    if (curvature <= 0) {
      reason_ = curvature == 0 ? StopReason::zero_curvature : StopReason::negative_curvature;
      return;
    }
    rr_ = slots[r_squared];
    const double rz_next = preconditioned_ ? slots[rz_slot] : rr_;
    ++k_;
    const double rz_previous = rz_;
    rz_ = rz_next;
    run_->record({std::sqrt(rr_), std::sqrt(std::abs(rz_))});
    reason_ = stop_test();
    if (!reason_) {
      c_->axpby(T(1), preconditioned_ ? *z_ : *r_, scalar<T>(rz_ / rz_previous));
      const std::array<double*, 2> scalars{&rr_, &rz_};
      run_->checkpoint(k_, scalars, *x_, *r_, *c_);
    }
    run_->row(k_, *x_, [&] { return row(); });
    if (run_->callback_stops(k_, *x_, std::sqrt(rr_), std::sqrt(std::abs(rz_))) && !reason_) {
      reason_ = StopReason::callback;
    }
  }

  /// The result (moves the iterate out; the solver is spent afterwards). Collective.
  CgResult<V> finalize() {
    if (!x_) throw InvalidArgument("cg: finalize() needs setup()");
    CgResult<V> result = run_->finish(
        std::move(*x_), k_, reason_.value_or(StopReason::max_iterations), [&] { return row(); });
    x_.reset();
    return result;
  }

  /// The residual r_k = y - A x_k (recursively updated).
  const V& residual() const { return *r_; }
  /// The search direction c_k.
  const V& direction() const { return *c_; }

 private:
  using Base = detail::StepwiseSolver<Cg<V>, V>;
  using Base::k_;
  using Base::reason_;
  using Base::run_;
  using Base::x_;

  // Slots: c^H A c, the step a, r^H r, r^H z.
  enum { curvature_slot, step_slot, r_squared, rz_slot, slot_count };

  void reduce_r_and_z() {
    detail::ScalarSlots<typename V::space_type>& slots = *slots_;
    slots.begin(r_squared, 2);
    slots.add_squared_norm(r_squared, *r_);
    if (preconditioned_) slots.add_real_vdot(rz_slot, *r_, *z_);
    slots.combine();
    slots.read_back();
  }
  // The stop tests of an iterate: NaN/Inf, the tolerance, then a usable r^H z.
  std::optional<StopReason> stop_test() const {
    if (!detail::all_finite(rr_, rz_)) return StopReason::non_finite;
    if (std::sqrt(rr_) <= run_->tol()) return StopReason::tolerance;
    if (!(rz_ > 0)) return StopReason::indefinite_preconditioner;
    return std::nullopt;
  }
  std::vector<double> row() const { return {std::sqrt(rr_), std::sqrt(rz_)}; }

  BasicLinearOperator<V, V> op_;
  CgOptions<V> options_;
  bool preconditioned_ = false;
  std::optional<detail::SolverInputs<V, V>> inputs_;
  std::optional<detail::ScalarSlots<typename V::space_type>> slots_;
  std::optional<V> r_, c_, q_, z_;
  double rr_ = 0;  // r^H r
  double rz_ = 0;  // r^H z (r^H r without preconditioner)
};

/// Solves A x = y by (preconditioned) conjugate gradients from x0 = 0. A must map its domain
/// onto itself (square) and be Hermitian positive definite; y has A's range layout (or a
/// view-compatible one). Collective over the vectors' communicator.
template <class V>
CgResult<V> cg(const BasicLinearOperator<V, V>& op, const V& y, const CgOptions<V>& options = {}) {
  return Cg<V>(op, options).solve(y);
}
/// As above, starting from x0 (A's domain layout).
template <class V>
CgResult<V> cg(const BasicLinearOperator<V, V>& op, const V& y, const V& x0,
               const CgOptions<V>& options = {}) {
  return Cg<V>(op, options).solve(y, &x0);
}

/// \cond
/// The cases compiled in the library (solvers/cg.cpp): distributed and stacked arrays of every
/// scalar type and memory space, and local arrays of the host (other cases compile where used).
#define DISTLOPS_DETAIL_CG_ARRAYS(prefix, T, Space)     \
  prefix template class Cg<DistributedArray<T, Space>>; \
  prefix template class Cg<StackedDistributedArray<T, Space>>;
#define DISTLOPS_DETAIL_CG_LOCAL(prefix, T, Space) prefix template class Cg<LocalArray<T, Space>>;
#define DISTLOPS_DETAIL_CG_CASES(prefix)                                    \
  DISTLOPS_FOR_EACH_SCALAR_AND_SPACE_ARG(DISTLOPS_DETAIL_CG_ARRAYS, prefix) \
  DISTLOPS_FOR_EACH_SCALAR_IN_ARG(DISTLOPS_DETAIL_CG_LOCAL, prefix, ::distlops::Host)
DISTLOPS_DETAIL_CG_CASES(extern)
/// \endcond

}  // namespace distlops
