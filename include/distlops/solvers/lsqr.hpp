// SPDX-License-Identifier: BSD-3-Clause
// Copyright (c) 2026 The distlops authors
#pragma once
/// \file lsqr.hpp
/// LSQR (Paige and Saunders, 1982) for min ||y - A x||^2 + damp^2 ||x||^2, with PyLops' (and
/// SciPy's) recurrence and stopping tests:
///
///     beta_1 u_1 = y - A x_0,   alfa_1 v_1 = A^H u_1,   w_1 = v_1
///     beta_{k+1} u_{k+1} = A v_k - alfa_k u_k,   alfa_{k+1} v_{k+1} = A^H u_{k+1} - beta_{k+1} v_k
///     two plane rotations (the first eliminating damp) give rho, phi, theta, and
///     x_{k} = x_{k-1} + (phi / rho) w_k,   w_{k+1} = v_{k+1} - (theta / rho) w_k
///
/// with the estimates of ||A|| (anorm), cond(A) (acond), ||x - x0|| (xnorm),
/// ||[y - A x; damp (x - x0)]|| (rnorm) and ||A^H (y - A x) - damp^2 (x - x0)|| (arnorm) of the
/// same recurrences. From an initial guess x0 the damping acts on the correction x - x0, as in
/// PyLops and SciPy: LSQR then minimises ||y - A x||^2 + damp^2 ||x - x0||^2 (CGLS damps x
/// itself; both agree from x0 = 0).
///
/// Stopping: atol, btol and conlim as PyLops (istop 1 to 6), and `tol`, compared with arnorm,
/// the estimated norm of the normal-equations residual (StopReason::tolerance; checked after
/// PyLops' tests). A zero arnorm at the start (x0 already solves the normal equations) stops
/// at iteration 0 with StopReason::tolerance.
///
/// Histories: residual_norms[k] = arnorm of iterate k; costs[k] = r1norm of iterate k, the
/// estimate of ||y - A x_k|| = sqrt(|rnorm^2 - damp^2 xnorm^2|) (PyLops' cost). The result's
/// r1norm is this estimate, always non-negative (PyLops and SciPy negate it when
/// rnorm^2 - damp^2 xnorm^2 < 0, and PyLops documents it as a squared norm although it is
/// not); r2norm is rnorm. The variance estimate of PyLops (calc_var) is not computed.
///
/// Per iteration: one apply of A and one of A^H (accumulating: A v - alfa u is a single fused
/// apply; A^H u - beta v scales v by -beta first, with beta where the vectors live);
/// reductions: 3 (||u||, ||v|| and ||w|| for the condition estimate) in 2 batches
/// (scalar_slots.hpp): ||u||^2 and ||w||^2, then ||v||^2. The scalar recurrence (rotations,
/// estimates, stopping tests; lsqr_recurrence.hpp) runs where the vectors live, so an
/// iteration is 2 collectives and one read-back of the scalars to the host, at its end.
/// Work vectors: x, v, w in the domain, u in the range.

#include <array>
#include <optional>

#include "distlops/core/instantiate.hpp"
#include "distlops/operators/linear_operator.hpp"
#include "distlops/solvers/cgls.hpp"
#include "distlops/solvers/common.hpp"
#include "distlops/solvers/detail/driver.hpp"
#include "distlops/solvers/detail/lsqr_recurrence.hpp"
#include "distlops/solvers/detail/scalar_slots.hpp"
#include "distlops/solvers/detail/stepwise_solver.hpp"

namespace distlops {

/// Options of lsqr: the common ones (niter 10, tol 0 compared with arnorm), the damping and
/// PyLops' atol, btol and conlim.
template <class Domain>
struct LsqrOptions : SolverOptions<Domain> {
  /// Damping (>= 0).
  double damp = 0.0;
  /// Relative tolerance on A and on the normal-equations residual (PyLops' default; test1's
  /// and test2's atol). 0 disables the corresponding terms.
  double atol = 1e-8;
  /// Relative tolerance on y (PyLops' default; test1's btol).
  double btol = 1e-8;
  /// Stop when the condition estimate exceeds conlim (0 disables the test).
  double conlim = 1e8;
};

/// What lsqr returns: the common result (residual_norms arnorm, costs r1norm) and LSQR's final
/// estimates.
template <class Domain>
struct LsqrResult : SolverResult<Domain> {
  /// PyLops' istop code of the stop reason: 1 to 6 for its tests, 7 for the iteration limit,
  /// 0 for the others (tolerance, breakdown, callback).
  int istop = 0;
  /// The estimate of ||y - A x||, non-negative.
  double r1norm = 0.0;
  /// rnorm, the estimate of ||[y - A x; damp (x - x0)]||.
  double r2norm = 0.0;
  /// The estimate of the Frobenius norm of [A; damp I].
  double anorm = 0.0;
  /// The estimate of the condition number of [A; damp I].
  double acond = 0.0;
  /// The estimate of ||A^H (y - A x) - damp^2 (x - x0)||.
  double arnorm = 0.0;
  /// The estimate of ||x - x0||.
  double xnorm = 0.0;
};

namespace detail {

inline StopReason lsqr_reason(int istop) {
  switch (istop) {
    case 1:
    case 4:
      return StopReason::residual_small;
    case 2:
    case 5:
      return StopReason::normal_residual_small;
    default:
      return StopReason::condition_limit;
  }
}

}  // namespace detail

/// LSQR in step-wise form (PyLops' class solvers): setup, step until finished, finalize, the
/// state readable between steps (docs/solvers.md). `lsqr()` is `Lsqr(op, options).solve(y)`.
/// y (and x0) must stay alive until finalize(). Not copyable: it holds the run's state.
template <class Domain, class Range>
class Lsqr : public detail::StepwiseSolver<Lsqr<Domain, Range>, Domain> {
 public:
  // The step-wise base's accessors: finished(), iteration(), x(), reason(); residual_norms()
  // holds arnorm (the estimate of ||A^H r_k||) of every iterate so far; costs() r1norm (the
  // estimate of ||y - A x_k||, PyLops' cost) of every iterate so far.

  /// The scalar type of the domain.
  using T = typename Domain::value_type;
  /// The memory space the solver runs in.
  using Space = typename Domain::space_type;

  /// Keeps a reference to op (it must outlive the solver) and a copy of the options.
  explicit Lsqr(const BasicLinearOperator<Domain, Range>& op,
                const LsqrOptions<Domain>& options = {})
      : op_(op), options_(options) {}

  /// Validates the options and layouts (on every rank alike), allocates the work vectors and
  /// starts from x0 (zeros when null) or the checkpoint: beta u = y - A x0, alfa v = A^H u.
  /// Collective.
  void setup(const Range& y, const Domain* x0 = nullptr) {
    using namespace detail;
    const LsqrOptions<Domain>& options = options_;
    inputs_.reset();
    inputs_.emplace(op_, y, x0, "lsqr");
    const double damp = options.damp;
    const double dampsq = damp * damp;
    const double ctol = options.conlim > 0 ? 1.0 / options.conlim : 0.0;

    x_.emplace(op_.domain());
    v_.emplace(op_.domain());
    w_.emplace(op_.domain());
    u_.emplace(op_.range());
    Fingerprint parameters;
    parameters.add(damp).add(options.atol).add(options.btol).add(options.conlim);
    run_.reset();
    run_.emplace("lsqr", options, solver_communicator(*x_), checkpoint_rank(*x_), parameters, 0,
                 [&] {
                   check_damp("lsqr", damp);
                   if (!(options.atol >= 0) || !(options.btol >= 0) || !(options.conlim >= 0)) {
                     throw InvalidArgument("lsqr: atol, btol and conlim must be non-negative");
                   }
                 });
    // From here on the operands are the solver's own vectors, of the layouts agreed above.
    const AgreedOperands agreed;
    reason_.reset();

    // The slots hold the recurrence's scalars (LsqrSlots); their host copy is sc().
    slots_.emplace(lsqr_slot_count);
    host_slots_ = reinterpret_cast<LsqrSlots*>(slots_->host_data());
    device_slots_ = reinterpret_cast<const LsqrSlots*>(slots_->data());
    LsqrScalars& sc = scalars_on_host();
    sc = LsqrScalars{};
    parameters_ = LsqrParameters{damp, dampsq, options.atol, options.btol, ctol};
    k_ = 0;
    if (run_->resuming()) {
      k_ = run_->resume(sc.fields(), *x_, *v_, *w_, *u_);
    } else {
      inputs_->start(*x_, *u_);
      sc.beta = static_cast<double>(u_->norm());
      if (sc.beta > 0) {
        u_->scale(scalar<T>(1.0 / sc.beta));
        op_.apply_adjoint(*u_, *v_);
        sc.alfa = static_cast<double>(v_->norm());
        if (sc.alfa > 0) v_->scale(scalar<T>(1.0 / sc.alfa));
      } else {
        v_->copy_from(*x_);
      }
      w_->copy_from(*v_);
      sc.arnorm = sc.arnorm0 = sc.alfa * sc.beta;
      sc.rhobar = sc.alfa;
      sc.phibar = sc.bnorm = sc.rnorm = sc.r1norm = sc.beta;
      run_->record({sc.arnorm, sc.r1norm});
    }
    slots_->upload();

    run_->header(op_.rows(), op_.cols(),
                 {{"damp", format_parameter(damp)},
                  {"atol", format_parameter(options.atol)},
                  {"btol", format_parameter(options.btol)},
                  {"conlim", format_parameter(options.conlim)}},
                 {"r1norm", "r2norm", "Compatible", "LS", "Norm A", "Cond A"});
    run_->row(k_, *x_, [&] { return row(); });
    reason_ = stop_test();
  }

  /// One iteration (InvalidArgument when not set up or finished). Collective.
  void step() {
    using namespace detail;
    this->require_running("lsqr");
    const AgreedOperands agreed;  // the operands are the vectors agreed on in setup()
    ScalarSlots<Space>& slots = *slots_;
    const LsqrScalars& sc = scalars_on_host();
    // Bidiagonalisation: beta u = A v - alfa u, alfa v = A^H u - beta v, with beta and alfa
    // where the vectors live (alfa of the previous iteration is known on the host).
    op_.apply_add(T(1), *v_, scalar<T>(-sc.alfa), *u_);
    slots.begin(lsqr_slot_u_squared, 2);
    slots.add_squared_norm(lsqr_slot_u_squared, *u_);
    slots.add_squared_norm(lsqr_slot_w_squared, *w_);
    slots.combine();
    slots.lsqr_after_u(parameters_.dampsq);
    scale_by_slot(*u_, slot(&LsqrSlots::u_scale), 1.0);
    scale_by_slot(*v_, slot(&LsqrSlots::v_scale), 1.0);
    op_.apply_adjoint_add(T(1), *u_, T(1), *v_);
    slots.begin(lsqr_slot_v_squared, 1);
    slots.add_squared_norm(lsqr_slot_v_squared, *v_);
    slots.combine();
    // Rotations, estimates and stopping tests; then x += t1 w, w = v + t2 w (x and w unchanged
    // when a scalar is not finite).
    slots.lsqr_after_v(parameters_);
    scale_by_slot(*v_, slot(&LsqrSlots::v_normalise), 1.0);
    axpy_by_slot(*x_, slot(&LsqrSlots::x_step), 1.0, *w_);
    axpby_by_slot(*w_, slot(&LsqrSlots::w_v), *v_, slot(&LsqrSlots::w_w));
    slots.read_back();
    if (host_slots().finite == 0) {
      reason_ = StopReason::non_finite;
      return;
    }
    ++k_;
    run_->record({sc.arnorm, sc.r1norm});
    reason_ = stop_test();
    if (!reason_) run_->checkpoint(k_, scalars_on_host().fields(), *x_, *v_, *w_, *u_);
    run_->row(k_, *x_, [&] { return row(); });
    if (run_->callback_stops(k_, *x_, sc.arnorm, sc.r1norm) && !reason_) {
      reason_ = StopReason::callback;
    }
  }

  /// The result (moves the iterate out; the solver is spent afterwards). Collective.
  LsqrResult<Domain> finalize() {
    using namespace detail;
    if (!x_) throw InvalidArgument("lsqr: finalize() needs setup()");
    const LsqrScalars& sc = scalars_on_host();
    const StopReason final_reason = reason_.value_or(StopReason::max_iterations);
    int stop_code = sc.istop > 0 ? static_cast<int>(sc.istop) : 0;
    if (final_reason == StopReason::max_iterations) stop_code = 7;
    LsqrResult<Domain> result{run_->finish(std::move(*x_), k_, final_reason, [&] { return row(); },
                                           {{"istop", std::to_string(stop_code)},
                                            {"r1norm", format_parameter(sc.r1norm)},
                                            {"r2norm", format_parameter(sc.rnorm)},
                                            {"anorm", format_parameter(sc.anorm)},
                                            {"acond", format_parameter(sc.acond)},
                                            {"arnorm", format_parameter(sc.arnorm)},
                                            {"xnorm", format_parameter(sc.xnorm)}}),
                              stop_code,
                              sc.r1norm,
                              sc.rnorm,
                              sc.anorm,
                              sc.acond,
                              sc.arnorm,
                              sc.xnorm};
    x_.reset();
    return result;
  }

  /// The Lanczos vectors of the bidiagonalisation (unit norm unless the run broke down) and
  /// the search direction w.
  const Range& u() const { return *u_; }
  /// The domain-side Lanczos vector.
  const Domain& v() const { return *v_; }
  /// The search direction.
  const Domain& w() const { return *w_; }
  /// The recurrence's scalars and estimates of the current iterate (lsqr_recurrence.hpp):
  /// alfa, beta, anorm, acond, rnorm, r1norm, arnorm, xnorm, istop, ...
  const detail::LsqrScalars& scalars() const { return scalars_on_host(); }
  /// PyLops' istop of the run so far (7 once it ran out of iterations, as in the result).
  int istop() const {
    const detail::LsqrScalars& sc = scalars_on_host();
    int code = sc.istop > 0 ? static_cast<int>(sc.istop) : 0;
    if (this->finished() && !reason_) code = 7;
    return code;
  }

 private:
  using Base = detail::StepwiseSolver<Lsqr<Domain, Range>, Domain>;
  using Base::k_;
  using Base::reason_;
  using Base::run_;
  using Base::x_;

  detail::LsqrSlots& host_slots() const { return *host_slots_; }
  detail::LsqrScalars& scalars_on_host() const { return host_slots_->sc; }
  // The slot memory of a field of LsqrSlots.
  const double* slot(double detail::LsqrSlots::*field) const { return &(device_slots_->*field); }
  std::vector<double> row() const {
    const detail::LsqrScalars& sc = scalars_on_host();
    return {sc.r1norm, sc.rnorm, sc.test1, sc.test2, sc.anorm, sc.acond};
  }
  std::optional<StopReason> stop_test() const {
    const detail::LsqrScalars& sc = scalars_on_host();
    if (sc.istop > 0) return detail::lsqr_reason(static_cast<int>(sc.istop));
    if (!detail::all_finite(sc.arnorm, sc.r1norm)) return StopReason::non_finite;
    if (sc.arnorm <= run_->tol()) return StopReason::tolerance;
    return std::nullopt;
  }

  BasicLinearOperator<Domain, Range> op_;
  LsqrOptions<Domain> options_;
  std::optional<detail::SolverInputs<Domain, Range>> inputs_;
  std::optional<detail::ScalarSlots<Space>> slots_;
  detail::LsqrSlots* host_slots_ = nullptr;          // slots_'s host copy
  const detail::LsqrSlots* device_slots_ = nullptr;  // slots_ where the vectors live
  std::optional<Domain> v_, w_;
  std::optional<Range> u_;
  detail::LsqrParameters parameters_{};
};

/// Solves min ||y - A x||^2 + damp^2 ||x||^2 by LSQR from x0 = 0. Collective.
template <class Domain, class Range>
LsqrResult<Domain> lsqr(const BasicLinearOperator<Domain, Range>& op, const Range& y,
                        const LsqrOptions<Domain>& options = {}) {
  return Lsqr<Domain, Range>(op, options).solve(y);
}
/// As above, starting from x0 (A's domain layout).
template <class Domain, class Range>
LsqrResult<Domain> lsqr(const BasicLinearOperator<Domain, Range>& op, const Range& y,
                        const Domain& x0, const LsqrOptions<Domain>& options = {}) {
  return Lsqr<Domain, Range>(op, options).solve(y, &x0);
}

/// \cond
/// The cases compiled in the library (solvers/lsqr.cpp): operators between distributed and stacked
/// arrays (the mixed ones of StackedVStack and StackedHStack included) of every scalar type and
/// memory space, and local arrays of the host (other cases compile where used).
#define DISTLOPS_DETAIL_LSQR_ARRAYS(prefix, T, Space)                                        \
  prefix template class Lsqr<DistributedArray<T, Space>, DistributedArray<T, Space>>;        \
  prefix template class Lsqr<StackedDistributedArray<T, Space>,                              \
                             StackedDistributedArray<T, Space>>;                             \
  prefix template class Lsqr<DistributedArray<T, Space>, StackedDistributedArray<T, Space>>; \
  prefix template class Lsqr<StackedDistributedArray<T, Space>, DistributedArray<T, Space>>;
#define DISTLOPS_DETAIL_LSQR_LOCAL(prefix, T, Space) \
  prefix template class Lsqr<LocalArray<T, Space>, LocalArray<T, Space>>;
#define DISTLOPS_DETAIL_LSQR_CASES(prefix)                                    \
  DISTLOPS_FOR_EACH_SCALAR_AND_SPACE_ARG(DISTLOPS_DETAIL_LSQR_ARRAYS, prefix) \
  DISTLOPS_FOR_EACH_SCALAR_IN_ARG(DISTLOPS_DETAIL_LSQR_LOCAL, prefix, ::distlops::Host)
DISTLOPS_DETAIL_LSQR_CASES(extern)
/// \endcond

}  // namespace distlops
