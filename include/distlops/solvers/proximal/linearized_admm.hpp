// SPDX-License-Identifier: BSD-3-Clause
// Copyright (c) 2026 The distlops authors
#pragma once
/// \file linearized_admm.hpp
/// Linearised ADMM (PyProximal's LinearizedADMM) for
///
///     min_x f(x) + g(A x)
///
/// with f and g convex with proxes and A a linear operator; the coupling term of ADMM is
/// linearised, so no linear system is solved. From x_0 = x0, z_0 = z0 (A x0 when absent) and
/// u_0 = 0 (PyProximal's start, so that both give the same iterates):
///
///     x_{k+1} = prox_{mu f}(x_k - mu / tau A^H (A x_k - z_k + u_k))
///     z_{k+1} = prox_{tau g}(A x_{k+1} + u_k)
///     u_{k+1} = u_k + A x_{k+1} - z_{k+1}
///
/// Convergence needs 0 < mu <= tau / ||A||^2; setup() estimates ||A||^2 by power iteration
/// and raises InvalidArgument when mu ||A||^2 > tau (`check_steps = false` skips it; the
/// estimate is from below). Without mu, mu = 0.95 tau / ||A||^2. Per iteration one apply of A
/// and one of A^H; the objective J = f(x) + g(A x) and ||x_{k+1} - x_k|| are reductions.
/// Stopping rules and histories as in proximal_gradient.hpp.
///
/// With z0, PyProximal linearises the first x-update at z0 in place of A x0 (its first step
/// reads A x_0 - z_0 + u_0 = 0); the library linearises at A x0 as in every later step, so the
/// first iterates differ from PyProximal's unless z0 = A x0.

#include <array>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "distlops/operators/linear_operator.hpp"
#include "distlops/solvers/common.hpp"
#include "distlops/solvers/detail/driver.hpp"
#include "distlops/solvers/detail/stepwise_solver.hpp"
#include "distlops/solvers/detail/vectors.hpp"
#include "distlops/solvers/power_iteration.hpp"
#include "distlops/solvers/proximal/prox_operator.hpp"
#include "distlops/solvers/proximal/stepwise.hpp"

namespace distlops {

/// Options of linearized_admm: the common ones (tol compared with the objective's relative
/// change) and the steps.
template <class Domain>
struct LinearizedAdmmOptions : SolverOptions<Domain> {
  /// Step of g (positive).
  double tau = 1.0;
  /// Step of f (positive); absent: 0.95 tau / ||A||^2.
  std::optional<double> mu = std::nullopt;
  /// Whether setup() checks mu ||A||^2 <= tau (InvalidArgument on every rank otherwise).
  bool check_steps = true;
  /// Options of the power iteration that estimates ||A||^2.
  PowerIterationOptions eigs = {};
};

/// Linearized ADMM in step-wise form (stepwise.hpp); linearized_admm() is
/// `LinearizedAdmm(f, g, a, options).solve(x0)`. Domain is x's type, Aux z's (A's range). Not
/// copyable: it holds the run's state.
template <class Domain, class Aux>
class LinearizedAdmm : public detail::StepwiseSolver<LinearizedAdmm<Domain, Aux>, Domain> {
 public:
  // The step-wise base's accessors: finished(), iteration(), x(), reason(); residual_norms()
  // holds the history of ||x_k - x_{k-1}|| (entry 0 NaN); costs() the history of the objective
  // f(x_k) + g(A x_k).

  /// The scalar type of the model.
  using T = typename Domain::value_type;

  /// Keeps shared copies of f and g, the operator A and a copy of the options; checks nothing
  /// until setup().
  LinearizedAdmm(const ProxOperator<Domain>& f, const ProxOperator<Aux>& g,
                 const BasicLinearOperator<Domain, Aux>& a,
                 const LinearizedAdmmOptions<Domain>& options = {})
      : f_(f.clone()), g_(g.clone()), a_(a), options_(options) {}

  /// Validates the options and operators (InvalidArgument or ShapeMismatch on every rank),
  /// estimates the operator norm when needed, allocates the work vectors, sets x = x0 (or loads
  /// the checkpoint) and records the initial objective. Collective.
  void setup(const Domain& x0) { initialise(x0, nullptr); }
  /// The same from z = z0 (of A's range layout, ShapeMismatch on every rank otherwise); the
  /// objective of the histories is still that of x0, f(x0) + g(A x0).
  void setup(const Domain& x0, const Aux& z0) { initialise(x0, &z0); }
  /// One iteration (InvalidArgument when not set up or finished). Collective.
  void step();
  /// The result (moves the iterate out; the solver is spent afterwards). Collective.
  ProximalResult<Domain> finalize();

  /// The splitting variable z_k ~ A x_k.
  const Aux& z() const { return *z_; }
  /// The scaled dual variable.
  const Aux& u() const { return *u_; }
  /// The step of f in use (given, or 0.95 tau / ||A||^2).
  double mu() const { return mu_; }

 private:
  using Base = detail::StepwiseSolver<LinearizedAdmm<Domain, Aux>, Domain>;
  using Base::k_;
  using Base::reason_;
  using Base::run_;
  using Base::x_;

  void initialise(const Domain& x0, const Aux* z0);
  std::vector<double> row() const { return {update_, cost_}; }

  std::shared_ptr<const ProxOperator<Domain>> f_;
  std::shared_ptr<const ProxOperator<Aux>> g_;
  BasicLinearOperator<Domain, Aux> a_;
  LinearizedAdmmOptions<Domain> options_;
  std::optional<Domain> xold_, w_;
  std::optional<Aux> ax_, z_, u_, r_;
  double mu_ = 0, cost_ = 0, update_ = std::numeric_limits<double>::quiet_NaN();
};

template <class Domain, class Aux>
void LinearizedAdmm<Domain, Aux>::initialise(const Domain& x0, const Aux* z0) {
  const LinearizedAdmmOptions<Domain>& o = options_;
  Fingerprint parameters;
  parameters.add(o.tau).add(o.mu.has_value()).add(o.mu.value_or(0.0));
  run_.reset();
  Fingerprint operands;
  f_->fingerprint(operands);
  g_->fingerprint(operands);
  run_.emplace("linearized_admm", options_, detail::solver_communicator(x0),
               detail::checkpoint_rank(x0), parameters, operands, 0, [&] {
                 auto fail = [](const std::string& what) {
                   throw InvalidArgument("linearized_admm: " + what);
                 };
                 auto positive = [](double v) { return v > 0 && std::isfinite(v); };
                 if (!positive(o.tau)) fail("tau must be positive and finite");
                 if (o.mu && !positive(*o.mu)) fail("mu must be positive and finite");
                 if (a_.empty()) fail("the operator A is empty");
                 f_->check(a_.domain());
                 g_->check(a_.range());
               });
  const LayoutAdapter<Domain> start(x0, a_.domain(), "linearized_admm", "", "x0");
  std::optional<LayoutAdapter<Aux>> first_z;
  if (z0) first_z.emplace(*z0, a_.range(), "linearized_admm", "", "z0");
  double norm_squared = 0;
  if (o.check_steps || !o.mu) {
    norm_squared = static_cast<double>(std::real(power_iteration_normal(a_, o.eigs).eigenvalue));
    if (!(norm_squared > 0) || !std::isfinite(norm_squared)) {
      throw InvalidArgument("linearized_admm: the estimate of ||A||^2 is " +
                            detail::format_parameter(norm_squared) + "; pass mu");
    }
  }
  mu_ = o.mu.value_or(0.95 * o.tau / norm_squared);
  if (o.check_steps && mu_ * norm_squared > o.tau) {
    throw InvalidArgument(
        "linearized_admm: mu ||A||^2 = " + detail::format_parameter(mu_ * norm_squared) +
        " exceeds tau = " + detail::format_parameter(o.tau) + ": the iteration may diverge");
  }
  for (auto* v : {&x_, &xold_, &w_})
    v->emplace(a_.domain());
  for (auto* v : {&ax_, &z_, &u_, &r_})
    v->emplace(a_.range());
  reason_.reset();
  update_ = std::numeric_limits<double>::quiet_NaN();
  const std::array<double*, 2> scalars{&cost_, &update_};
  if (run_->resuming()) {
    k_ = run_->resume(scalars, *x_, *z_, *u_);
    a_.apply(*x_, *ax_);
  } else {
    k_ = 0;
    x_->copy_from(start.get_const());
    u_->set_zero();
    a_.apply(*x_, *ax_);
    z_->copy_from(first_z ? first_z->get_const() : *ax_);
    cost_ = f_->value(*x_) + g_->value(*ax_);
    run_->record({update_, cost_});
  }
  run_->header(a_.rows(), a_.cols(),
               {{"f", f_->name()},
                {"g", g_->name()},
                {"A", a_.name()},
                {"tau", detail::format_parameter(o.tau)},
                {"mu", detail::format_parameter(mu_)}},
               {"xupdate", "cost"});
  run_->row(k_, *x_, [&] { return row(); });
  if (!std::isfinite(cost_)) reason_ = StopReason::non_finite;
}

template <class Domain, class Aux>
void LinearizedAdmm<Domain, Aux>::step() {
  this->require_running("linearized_admm");
  // The operands are the solver's own vectors, of the layouts agreed on in setup() (where
  // the objective at x0 ran every operand pair through the collective checks).
  const AgreedOperands agreed;
  const double tau = options_.tau;
  std::swap(*x_, *xold_);
  // x = prox_{mu f}(x_old - mu / tau A^H (A x_old - z + u)).
  r_->axpbypcz(T(1), *ax_, T(-1), *z_, T(0));
  r_->axpy(T(1), *u_);
  a_.apply_adjoint(*r_, *w_);
  w_->axpby(T(1), *xold_, detail::scalar<T>(-mu_ / tau));
  f_->prox(*w_, mu_, *x_);
  // z = prox_{tau g}(A x + u); u = u + A x - z.
  a_.apply(*x_, *ax_);
  r_->axpbypcz(T(1), *ax_, T(1), *u_, T(0));
  g_->prox(*r_, tau, *z_);
  u_->axpbypcz(T(1), *ax_, T(-1), *z_, T(1));
  w_->axpbypcz(T(1), *x_, T(-1), *xold_, T(0));
  const double update = std::sqrt(detail::squared_norm(*w_));
  const double cost = f_->value(*x_) + g_->value(*ax_);
  const double previous = cost_;
  ++k_;
  update_ = update;
  cost_ = cost;
  run_->record({update_, cost_});
  if (!detail::all_finite(update, cost)) {
    reason_ = StopReason::non_finite;
  } else if (detail::objective_settled(cost, previous, run_->tol())) {
    reason_ = StopReason::tolerance;
  } else {
    const std::array<double*, 2> scalars{&cost_, &update_};
    run_->checkpoint(k_, scalars, *x_, *z_, *u_);
  }
  run_->row(k_, *x_, [&] { return row(); });
  if (run_->callback_stops(k_, *x_, update_, cost_) && !reason_) reason_ = StopReason::callback;
}

template <class Domain, class Aux>
ProximalResult<Domain> LinearizedAdmm<Domain, Aux>::finalize() {
  if (!x_) throw InvalidArgument("linearized_admm: finalize() needs setup()");
  ProximalResult<Domain> result{
      run_->finish(std::move(*x_), k_, reason_.value_or(StopReason::max_iterations),
                   [&] { return row(); }, {{"mu", detail::format_parameter(mu_)}}),
      mu_};
  x_.reset();
  return result;
}

/// Solves min f(x) + g(A x) by linearised ADMM from x0. Collective. The result's tau is mu.
template <class Domain, class Aux>
ProximalResult<Domain> linearized_admm(const ProxOperator<Domain>& f, const ProxOperator<Aux>& g,
                                       const BasicLinearOperator<Domain, Aux>& a, const Domain& x0,
                                       const LinearizedAdmmOptions<Domain>& options = {}) {
  return LinearizedAdmm<Domain, Aux>(f, g, a, options).solve(x0);
}

/// The same from x0 and z0 (LinearizedAdmm::setup(x0, z0)). Collective.
template <class Domain, class Aux>
ProximalResult<Domain> linearized_admm(const ProxOperator<Domain>& f, const ProxOperator<Aux>& g,
                                       const BasicLinearOperator<Domain, Aux>& a, const Domain& x0,
                                       const Aux& z0,
                                       const LinearizedAdmmOptions<Domain>& options = {}) {
  return LinearizedAdmm<Domain, Aux>(f, g, a, options).solve(x0, z0);
}

/// \cond
#define DISTLOPS_DETAIL_EXTERN_LINEARIZED_ADMM(T, Space)                                        \
  extern template class LinearizedAdmm<DistributedArray<T, Space>, DistributedArray<T, Space>>; \
  extern template class LinearizedAdmm<DistributedArray<T, Space>,                              \
                                       StackedDistributedArray<T, Space>>;                      \
  extern template class LinearizedAdmm<StackedDistributedArray<T, Space>,                       \
                                       StackedDistributedArray<T, Space>>;                      \
  extern template class LinearizedAdmm<StackedDistributedArray<T, Space>,                       \
                                       DistributedArray<T, Space>>;
DISTLOPS_FOR_EACH_SCALAR_AND_SPACE(DISTLOPS_DETAIL_EXTERN_LINEARIZED_ADMM)
#undef DISTLOPS_DETAIL_EXTERN_LINEARIZED_ADMM
/// \endcond

}  // namespace distlops
