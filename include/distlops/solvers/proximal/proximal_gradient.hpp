// SPDX-License-Identifier: BSD-3-Clause
// Copyright (c) 2026 The distlops authors
#pragma once
/// \file proximal_gradient.hpp
/// The proximal gradient method (PyProximal's and PyLops-MPI's ProximalGradient) for
///
///     min_x f(x) + epsg g(x)
///
/// with f convex and differentiable (ProxOperator::gradient, e.g. L2) and g convex with a
/// prox. From x_0 = y_0 = x0 and t_0 = 1:
///
///     x_{k+1} = prox_{epsg tau g}(y_k - tau grad f(y_k))                        (eta = 1)
///     x_{k+1} = x_k + eta (prox_{epsg tau g}(x_k - tau grad f(x_k)) - x_k)       (eta < 1)
///     y_{k+1} = x_{k+1} + omega_k (x_{k+1} - x_k)
///
/// with omega_k = 0 (no acceleration), k / (k + 3) (Vandenberghe's) or (t_k - 1) / t_{k+1},
/// t_{k+1} = (1 + sqrt(1 + 4 t_k^2)) / 2 (FISTA). The step tau must lie in (0, 1 / L], L the
/// Lipschitz constant of grad f. Without `tau`, PyProximal's backtracking chooses it: from
/// tau0 (then from the previous step), tau is multiplied by beta until
///
///     f(z) <= f(y) + Re<grad f(y), z - y> + ||z - y||^2 / (2 tau),   z = prox(y - tau grad f(y))
///
/// or niterback trials were made (each costs an evaluation of f and a prox).
///
/// Stopping: niter; tol > 0: |1 - J(x_k) / J(x_{k-1})| < tol with J = f + epsg g
/// (PyProximal's rule) -> StopReason::tolerance; a non-finite objective or model change ->
/// StopReason::non_finite (x is the previous iterate); the callback. Histories: stepwise.hpp.
/// Per iteration: one gradient of f, one prox of g, the values f(x), g(x) and ||x - x_old||
/// (reductions), plus those of the backtracking trials.

#include <array>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "distlops/solvers/common.hpp"
#include "distlops/solvers/detail/driver.hpp"
#include "distlops/solvers/detail/stepwise_solver.hpp"
#include "distlops/solvers/detail/vectors.hpp"
#include "distlops/solvers/proximal/prox_operator.hpp"
#include "distlops/solvers/proximal/stepwise.hpp"

namespace distlops {

/// The extrapolation of the proximal gradient method,
/// y_{k+1} = x_{k+1} + omega_k (x_{k+1} - x_k).
enum class Acceleration {
  /// omega_k = 0.
  none,
  /// omega_k = k / (k + 3) (Vandenberghe).
  vandenberghe,
  /// omega_k = (t_k - 1) / t_{k+1}, t_{k+1} = (1 + sqrt(1 + 4 t_k^2)) / 2 (Beck and Teboulle).
  fista
};

/// "none", "vandenberghe" or "fista".
const char* to_string(Acceleration acceleration);

/// Options of proximal_gradient: the common ones (tol compared with the objective's relative
/// change) and the step, weight, relaxation and acceleration.
template <class Domain>
struct ProximalGradientOptions : SolverOptions<Domain> {
  /// Fixed step size in (0, 1 / L]; absent: backtracking from tau0.
  std::optional<double> tau = std::nullopt;
  /// First step of the backtracking (> 0).
  double tau0 = 1.0;
  /// Reduction factor of the backtracking step, in (0, 1).
  double beta = 0.5;
  /// Most backtracking trials per iteration (>= 1).
  int niterback = 100;
  /// Weight of g (>= 0).
  double epsg = 1.0;
  /// Relaxation in (0, 1].
  double eta = 1.0;
  /// The extrapolation (none by default).
  Acceleration acceleration = Acceleration::none;
};

/// The step-wise form (stepwise.hpp). Not copyable: it holds the run's state.
template <class Domain>
class ProximalGradient : public detail::StepwiseSolver<ProximalGradient<Domain>, Domain> {
 public:
  // The step-wise base's accessors: finished(), iteration(), x(), reason(); residual_norms()
  // holds the history of ||x_k - x_{k-1}|| (entry 0 NaN); costs() the history of the objective
  // f(x_k) + epsg g(x_k).

  /// The scalar type of the model.
  using T = typename Domain::value_type;

  /// Keeps shared copies of f (differentiable) and g and a copy of the options; checks nothing
  /// until setup().
  ProximalGradient(const ProxOperator<Domain>& f, const ProxOperator<Domain>& g,
                   const ProximalGradientOptions<Domain>& options = {})
      : f_(f.clone()), g_(g.clone()), options_(options) {}

  /// Validates the options (InvalidArgument on every rank), allocates the work vectors, sets
  /// x = x0 (or loads the checkpoint) and records the initial objective.
  void setup(const Domain& x0);
  /// One iteration (InvalidArgument when not set up or finished).
  void step();
  /// The result (moves the iterate out; the solver is spent afterwards).
  ProximalResult<Domain> finalize();

  /// The extrapolated point the next gradient step starts from.
  const Domain& y() const { return *y_; }
  /// The current step size (reduced by backtracking when tau is absent).
  double tau() const { return tau_; }

 private:
  using Base = detail::StepwiseSolver<ProximalGradient<Domain>, Domain>;
  using Base::k_;
  using Base::reason_;
  using Base::run_;
  using Base::x_;

  double objective(const Domain& x) const { return f_->value(x) + options_.epsg * g_->value(x); }
  /// z = prox_{epsg tau g}(from - tau grad), the gradient step's candidate.
  void candidate(const Domain& from, double tau) {
    w_->copy_from(from);
    w_->axpy(detail::scalar<T>(-tau), *grad_);
    g_->prox(*w_, options_.epsg * tau, *z_);
  }
  std::vector<double> row() const { return {update_, cost_, tau_}; }

  std::shared_ptr<const ProxOperator<Domain>> f_, g_;
  ProximalGradientOptions<Domain> options_;
  std::optional<Domain> y_, xold_, grad_, w_, z_;
  double tau_ = 0, t_ = 1, cost_ = 0, update_ = std::numeric_limits<double>::quiet_NaN();
};

template <class Domain>
void ProximalGradient<Domain>::setup(const Domain& x0) {
  const ProximalGradientOptions<Domain>& o = options_;
  Fingerprint parameters;
  parameters.add(o.tau.has_value()).add(o.tau.value_or(0.0)).add(o.tau0).add(o.beta);
  parameters.add(o.niterback).add(o.epsg).add(o.eta).add(static_cast<int>(o.acceleration));
  run_.reset();
  Fingerprint operands;
  f_->fingerprint(operands);
  g_->fingerprint(operands);
  run_.emplace("proximal_gradient", options_, detail::solver_communicator(x0),
               detail::checkpoint_rank(x0), parameters, operands, 0, [&] {
                 auto fail = [](const std::string& what) {
                   throw InvalidArgument("proximal_gradient: " + what);
                 };
                 auto positive = [](double v) { return v > 0 && std::isfinite(v); };
                 if (o.tau && !positive(*o.tau)) fail("tau must be positive and finite");
                 if (!positive(o.tau0)) fail("tau0 must be positive and finite");
                 if (!(o.beta > 0 && o.beta < 1)) fail("beta must lie in (0, 1)");
                 if (o.niterback < 1) fail("niterback must be positive");
                 if (!(o.epsg >= 0) || !std::isfinite(o.epsg)) {
                   fail("epsg must be finite and non-negative");
                 }
                 if (!(o.eta > 0 && o.eta <= 1)) fail("eta must lie in (0, 1]");
                 if (!f_->differentiable()) fail("f (" + f_->name() + ") must be differentiable");
                 f_->check(x0.layout());
                 g_->check(x0.layout());
               });
  for (auto* v : {&x_, &y_, &xold_, &grad_, &w_, &z_})
    v->emplace(x0.layout());
  reason_.reset();
  update_ = std::numeric_limits<double>::quiet_NaN();
  const std::array<double*, 4> scalars{&tau_, &t_, &cost_, &update_};
  if (run_->resuming()) {
    k_ = run_->resume(scalars, *x_, *y_);
  } else {
    k_ = 0;
    t_ = 1;
    tau_ = o.tau.value_or(o.tau0);
    x_->copy_from(x0);
    y_->copy_from(x0);
    cost_ = objective(*x_);
    run_->record({update_, cost_});
  }
  run_->header(x0.global_size(), x0.global_size(),
               {{"f", f_->name()},
                {"g", g_->name()},
                {"tau", o.tau ? detail::format_parameter(*o.tau) : "backtracking"},
                {"epsg", detail::format_parameter(o.epsg)},
                {"eta", detail::format_parameter(o.eta)},
                {"acceleration", to_string(o.acceleration)}},
               {"xupdate", "cost", "tau"});
  run_->row(k_, *x_, [&] { return row(); });
  if (!std::isfinite(cost_)) reason_ = StopReason::non_finite;
}

template <class Domain>
void ProximalGradient<Domain>::step() {
  this->require_running("proximal_gradient");
  // The operands are the solver's own vectors, of the layouts agreed on in setup() (where
  // the objective at x0 ran every operand pair through the collective checks).
  const AgreedOperands agreed;
  const ProximalGradientOptions<Domain>& o = options_;
  xold_->copy_from(*x_);
  const Domain& from = o.eta == 1.0 ? *y_ : *x_;
  f_->gradient(from, *grad_);
  if (o.tau) {
    candidate(from, tau_);
  } else {
    const double f_from = f_->value(from);
    for (int trial = 0; trial < o.niterback; ++trial) {
      candidate(from, tau_);
      w_->axpbypcz(T(1), *z_, T(-1), from, T(0));  // z - y
      const double bound =
          f_from + detail::real_vdot(*grad_, *w_) + detail::squared_norm(*w_) / (2 * tau_);
      if (f_->value(*z_) <= bound) break;
      tau_ *= o.beta;
    }
  }
  if (o.eta == 1.0) {
    std::swap(*x_, *z_);
  } else {
    x_->axpby(detail::scalar<T>(o.eta), *z_, detail::scalar<T>(1 - o.eta));
  }
  double omega = 0;
  if (o.acceleration == Acceleration::vandenberghe) {
    omega = static_cast<double>(k_) / (k_ + 3);
  } else if (o.acceleration == Acceleration::fista) {
    const double t_next = (1 + std::sqrt(1 + 4 * t_ * t_)) / 2;
    omega = (t_ - 1) / t_next;
    t_ = t_next;
  }
  y_->axpbypcz(detail::scalar<T>(1 + omega), *x_, detail::scalar<T>(-omega), *xold_, T(0));
  w_->axpbypcz(T(1), *x_, T(-1), *xold_, T(0));
  const double update = std::sqrt(detail::squared_norm(*w_));
  const double cost = objective(*x_);
  const double previous = cost_;
  ++k_;
  update_ = update;
  cost_ = cost;
  run_->record({update_, cost_});
  if (!detail::all_finite(update, cost)) {
    std::swap(*x_, *xold_);
    reason_ = StopReason::non_finite;
  } else if (detail::objective_settled(cost, previous, run_->tol())) {
    reason_ = StopReason::tolerance;
  } else {
    const std::array<double*, 4> scalars{&tau_, &t_, &cost_, &update_};
    run_->checkpoint(k_, scalars, *x_, *y_);
  }
  run_->row(k_, *x_, [&] { return row(); });
  if (run_->callback_stops(k_, *x_, update_, cost_) && !reason_) reason_ = StopReason::callback;
}

template <class Domain>
ProximalResult<Domain> ProximalGradient<Domain>::finalize() {
  if (!x_) throw InvalidArgument("proximal_gradient: finalize() needs setup()");
  ProximalResult<Domain> result{
      run_->finish(std::move(*x_), k_, reason_.value_or(StopReason::max_iterations),
                   [&] { return row(); }, {{"tau", detail::format_parameter(tau_)}}),
      tau_};
  x_.reset();
  return result;
}

/// Solves min f(x) + epsg g(x) by the proximal gradient method from x0. Collective.
template <class Domain>
ProximalResult<Domain> proximal_gradient(const ProxOperator<Domain>& f,
                                         const ProxOperator<Domain>& g, const Domain& x0,
                                         const ProximalGradientOptions<Domain>& options = {}) {
  return ProximalGradient<Domain>(f, g, options).solve(x0);
}

/// \cond
#define DISTLOPS_DETAIL_EXTERN_PROXIMAL_GRADIENT(...) \
  extern template class ProximalGradient<__VA_ARGS__>;
DISTLOPS_FOR_EACH_PROX_VECTOR(DISTLOPS_DETAIL_EXTERN_PROXIMAL_GRADIENT)
#undef DISTLOPS_DETAIL_EXTERN_PROXIMAL_GRADIENT
/// \endcond

}  // namespace distlops
