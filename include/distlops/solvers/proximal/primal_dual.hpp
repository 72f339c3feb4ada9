// SPDX-License-Identifier: BSD-3-Clause
// Copyright (c) 2026 The distlops authors
#pragma once
/// \file primal_dual.hpp
/// The primal-dual algorithm of Chambolle and Pock (PyProximal's PrimalDual) for
///
///     min_x f(x) + g(K x)
///
/// with f and g convex with proxes (g through its conjugate's prox) and K a linear operator
/// (e.g. f = L2 data misfit, g = L21, K = Gradient: total-variation denoising). From x_0 = x0,
/// xbar_0 = x0 and the dual variable y_0 = y0 (0 when absent), primal step first:
///
///     x_{k+1}    = prox_{tau f}(x_k - tau K^H y_k)
///     xbar_{k+1} = x_{k+1} + theta (x_{k+1} - x_k)
///     y_{k+1}    = prox_{sigma g*}(y_k + sigma K xbar_{k+1})
///
/// (PyProximal's order with gfirst=False; its dual step is called mu), or with `dual_first`
/// (PyProximal's gfirst=True, its default):
///
///     y_{k+1}    = prox_{sigma g*}(y_k + sigma K xbar_k)
///     x_{k+1}    = prox_{tau f}(x_k - tau K^H y_{k+1})
///     xbar_{k+1} = x_{k+1} + theta (x_{k+1} - x_k)
///
/// PyProximal's linear term z (min f(x) + Re<z, x> + g(K x)) is f = Postcomposed(f, 1, z)
/// (composition.hpp): its prox is prox_{tau f}(x - tau z), the same x-update. Convergence needs
/// tau sigma ||K||^2 <= 1 and theta in [0, 1]; setup() estimates ||K||^2 = lambda_max(K^H K)
/// by power iteration (power_iteration.hpp, `eigs`) and raises InvalidArgument when
/// tau sigma ||K||^2 > 1 (the estimate approaches ||K||^2 from below: a product slightly above
/// 1 / ||K||^2 may pass; `check_steps = false` skips the estimate). Without tau and sigma both
/// are 0.95 / ||K||.
///
/// K xbar comes from K x_{k+1} and K x_k by linearity, (1 + theta) K x_{k+1} - theta K x_k, so
/// an iteration applies K once and K^H once, and the objective J(x) = f(x) + g(K x) costs no
/// apply (one reduction for each of f and g; ||x_{k+1} - x_k|| is one more).
/// Stopping rules and histories as in proximal_gradient.hpp (tol: relative change of J), except
/// that J is evaluated only where something reads it, because it can cost more than the rest of
/// the iteration (g = L21: a square root per group): at x0, and at x_k when tol > 0, a callback
/// is set, the progress table shows row k, or `record_costs` is true. costs[k] is NaN for the
/// other iterations; `objective()` gives J of the current iterate on demand.

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

/// Options of primal_dual: the common ones (tol compared with the objective's relative change),
/// the steps and the extrapolation.
template <class Domain>
struct PrimalDualOptions : SolverOptions<Domain> {
  /// Primal step size (positive); absent: 0.95 / ||K||.
  std::optional<double> tau = std::nullopt;
  /// Dual step size (positive); absent: 0.95 / ||K||.
  std::optional<double> sigma = std::nullopt;
  /// Extrapolation in [0, 1].
  double theta = 1.0;
  /// Whether setup() checks tau sigma ||K||^2 <= 1 (the estimate is needed anyway when a step
  /// is absent).
  bool check_steps = true;
  /// Options of the power iteration that estimates ||K||^2.
  PowerIterationOptions eigs = {};
  /// Whether every iteration evaluates J for the costs history (otherwise only where the stop
  /// test, a callback or the progress table needs it).
  bool record_costs = false;
  /// Whether an iteration updates y before x (PyProximal's gfirst=True). Its checkpoints also
  /// hold x_{k-1}, which the next extrapolation needs.
  bool dual_first = false;
};

/// What primal_dual returns: the proximal result (tau the primal step) and the dual step.
template <class Domain>
struct PrimalDualResult : ProximalResult<Domain> {
  /// The dual step size used.
  double sigma = 0.0;
  /// The estimate of ||K||^2 (0 when none was made).
  double operator_norm_squared = 0.0;
};

/// Chambolle and Pock's primal-dual method in step-wise form (stepwise.hpp); primal_dual() is
/// `PrimalDual(f, g, k, options).solve(x0)`. Domain is x's type, Dual y's (K's range). Not
/// copyable: it holds the run's state.
template <class Domain, class Dual>
class PrimalDual : public detail::StepwiseSolver<PrimalDual<Domain, Dual>, Domain> {
 public:
  // The step-wise base's accessors: finished(), iteration(), x(), reason(); residual_norms()
  // holds the history of ||x_k - x_{k-1}|| (entry 0 NaN); costs() the history of the objective
  // f(x_k) + g(K x_k).

  /// The scalar type of the model.
  using T = typename Domain::value_type;

  /// Keeps shared copies of f and g, the operator K and a copy of the options; checks nothing
  /// until setup().
  PrimalDual(const ProxOperator<Domain>& f, const ProxOperator<Dual>& g,
             const BasicLinearOperator<Domain, Dual>& k,
             const PrimalDualOptions<Domain>& options = {})
      : f_(f.clone()), g_(g.clone()), k_op_(k), options_(options) {}

  /// Validates the options and operators (InvalidArgument or ShapeMismatch on every rank),
  /// estimates the operator norm when needed, allocates the work vectors, sets x = x0 and y = 0
  /// (or loads the checkpoint) and records the initial objective. Collective.
  void setup(const Domain& x0) { initialise(x0, nullptr); }
  /// The same from y = y0 (of K's range layout, ShapeMismatch on every rank otherwise).
  void setup(const Domain& x0, const Dual& y0) { initialise(x0, &y0); }
  /// One iteration (InvalidArgument when not set up or finished). Collective.
  void step();
  /// The result (moves the iterate out; the solver is spent afterwards). Collective.
  PrimalDualResult<Domain> finalize();

  /// The dual variable.
  const Dual& y() const { return *y_; }
  /// J(x) = f(x) + g(K x) of the current iterate (evaluated when not known yet). Collective.
  double objective();

  /// The primal step size in use.
  double tau() const { return tau_; }
  /// The dual step size in use.
  double sigma() const { return sigma_; }

 private:
  using Base = detail::StepwiseSolver<PrimalDual<Domain, Dual>, Domain>;
  using Base::k_;
  using Base::reason_;
  using Base::run_;
  using Base::x_;

  void initialise(const Domain& x0, const Dual* y0);
  /// y = prox_{sigma g*}(y + sigma K xbar) from kx_ = K x and kx_old_ = K x_old.
  void update_y();
  std::vector<double> row() { return {update_, objective()}; }
  /// Whether iteration k must evaluate J.
  bool needs_objective(int k) const {
    return options_.record_costs || run_->tol() > 0 || run_->has_callback() || run_->shows_row(k);
  }

  std::shared_ptr<const ProxOperator<Domain>> f_;
  std::shared_ptr<const ProxOperator<Dual>> g_;
  BasicLinearOperator<Domain, Dual> k_op_;
  PrimalDualOptions<Domain> options_;
  std::optional<Domain> xold_, w_;
  std::optional<Dual> y_, v_, kx_, kx_old_;
  double tau_ = 0, sigma_ = 0, norm_squared_ = 0, cost_ = 0;
  double update_ = std::numeric_limits<double>::quiet_NaN();
  bool cost_known_ = false;  // cost_ is J of the current x (and kx_ = K x)
};

template <class Domain, class Dual>
void PrimalDual<Domain, Dual>::initialise(const Domain& x0, const Dual* y0) {
  const PrimalDualOptions<Domain>& o = options_;
  Fingerprint parameters;
  parameters.add(o.tau.has_value()).add(o.tau.value_or(0.0));
  parameters.add(o.sigma.has_value()).add(o.sigma.value_or(0.0)).add(o.theta).add(o.dual_first);
  run_.reset();
  Fingerprint operands;
  f_->fingerprint(operands);
  g_->fingerprint(operands);
  run_.emplace("primal_dual", options_, detail::solver_communicator(x0),
               detail::checkpoint_rank(x0), parameters, operands, 0, [&] {
                 auto fail = [](const std::string& what) {
                   throw InvalidArgument("primal_dual: " + what);
                 };
                 auto positive = [](double v) { return v > 0 && std::isfinite(v); };
                 if (o.tau && !positive(*o.tau)) fail("tau must be positive and finite");
                 if (o.sigma && !positive(*o.sigma)) fail("sigma must be positive and finite");
                 if (!(o.theta >= 0 && o.theta <= 1)) fail("theta must lie in [0, 1]");
                 if (k_op_.empty()) fail("the operator K is empty");
                 f_->check(k_op_.domain());
                 g_->check(k_op_.range());
               });
  // x0 seen with K's domain layout (ShapeMismatch on every rank otherwise).
  const LayoutAdapter<Domain> start(x0, k_op_.domain(), "primal_dual", "", "x0");
  std::optional<LayoutAdapter<Dual>> first_y;
  if (y0) first_y.emplace(*y0, k_op_.range(), "primal_dual", "", "y0");
  norm_squared_ = 0;
  if (o.check_steps || !o.tau || !o.sigma) {
    norm_squared_ =
        static_cast<double>(std::real(power_iteration_normal(k_op_, o.eigs).eigenvalue));
    if (!(norm_squared_ > 0) || !std::isfinite(norm_squared_)) {
      throw InvalidArgument("primal_dual: the estimate of ||K||^2 is " +
                            detail::format_parameter(norm_squared_) + "; pass tau and sigma");
    }
  }
  tau_ = o.tau.value_or(0.95 / std::sqrt(norm_squared_));
  sigma_ = o.sigma.value_or(0.95 / std::sqrt(norm_squared_));
  if (o.check_steps && tau_ * sigma_ * norm_squared_ > 1) {
    throw InvalidArgument("primal_dual: tau sigma ||K||^2 = " +
                          detail::format_parameter(tau_ * sigma_ * norm_squared_) +
                          " exceeds 1 (tau = " + detail::format_parameter(tau_) +
                          ", sigma = " + detail::format_parameter(sigma_) + ", ||K||^2 ~ " +
                          detail::format_parameter(norm_squared_) + "): the iteration may diverge");
  }
  for (auto* v : {&x_, &xold_, &w_})
    v->emplace(k_op_.domain());
  for (auto* v : {&y_, &v_, &kx_, &kx_old_})
    v->emplace(k_op_.range());
  reason_.reset();
  update_ = std::numeric_limits<double>::quiet_NaN();
  const std::array<double*, 2> scalars{&cost_, &update_};
  if (run_->resuming()) {
    k_ = o.dual_first ? run_->resume(scalars, *x_, *y_, *xold_) : run_->resume(scalars, *x_, *y_);
  } else {
    k_ = 0;
    x_->copy_from(start.get_const());
    if (first_y) {
      y_->copy_from(first_y->get_const());
    } else {
      y_->set_zero();
    }
    xold_->copy_from(*x_);  // xbar_0 = x0
  }
  k_op_.apply(*x_, *kx_);
  if (o.dual_first) k_op_.apply(*xold_, *kx_old_);
  cost_known_ = false;
  if (run_->resuming()) {
    // The checkpoint's cost is that of its iterate when it was evaluated (finite then).
    cost_known_ = std::isfinite(cost_);
  } else {
    objective();
    run_->record({update_, cost_});
  }
  run_->header(k_op_.rows(), k_op_.cols(),
               {{"f", f_->name()},
                {"g", g_->name()},
                {"K", k_op_.name()},
                {"tau", detail::format_parameter(tau_)},
                {"sigma", detail::format_parameter(sigma_)},
                {"theta", detail::format_parameter(o.theta)},
                {"gfirst", o.dual_first ? "true" : "false"}},
               {"xupdate", "cost"});
  run_->row(k_, *x_, [&] { return row(); });
  if (cost_known_ && !std::isfinite(cost_)) reason_ = StopReason::non_finite;
}

template <class Domain, class Dual>
double PrimalDual<Domain, Dual>::objective() {
  if (!x_) throw InvalidArgument("primal_dual: objective() needs setup()");
  if (!cost_known_) {
    cost_ = f_->value(*x_) + g_->value(*kx_);
    cost_known_ = true;
  }
  return cost_;
}

template <class Domain, class Dual>
void PrimalDual<Domain, Dual>::step() {
  this->require_running("primal_dual");
  // The operands are the solver's own vectors, of the layouts agreed on in setup() (where
  // the objective at x0 ran every operand pair through the collective checks).
  const AgreedOperands agreed;
  if (options_.dual_first) update_y();
  std::swap(*x_, *xold_);
  // x = prox_{tau f}(x_old - tau K^H y).
  k_op_.apply_adjoint(*y_, *w_);
  w_->axpby(T(1), *xold_, detail::scalar<T>(-tau_));
  f_->prox(*w_, tau_, *x_);
  std::swap(*kx_, *kx_old_);
  k_op_.apply(*x_, *kx_);
  if (!options_.dual_first) update_y();
  w_->axpbypcz(T(1), *x_, T(-1), *xold_, T(0));
  const double update = std::sqrt(detail::squared_norm(*w_));
  const double previous = cost_known_ ? cost_ : std::numeric_limits<double>::quiet_NaN();
  ++k_;
  update_ = update;
  cost_known_ = false;
  cost_ = std::numeric_limits<double>::quiet_NaN();
  const bool evaluated = needs_objective(k_);
  if (evaluated) objective();
  const double cost = cost_;
  run_->record({update_, cost_});
  if (!std::isfinite(update) || (evaluated && !std::isfinite(cost))) {
    // Back to the last finite iterate, with its K x for the objective.
    std::swap(*x_, *xold_);
    std::swap(*kx_, *kx_old_);
    cost_known_ = false;
    reason_ = StopReason::non_finite;
  } else if (detail::objective_settled(cost, previous, run_->tol())) {
    reason_ = StopReason::tolerance;
  } else {
    const std::array<double*, 2> scalars{&cost_, &update_};
    if (options_.dual_first) {
      run_->checkpoint(k_, scalars, *x_, *y_, *xold_);
    } else {
      run_->checkpoint(k_, scalars, *x_, *y_);
    }
  }
  run_->row(k_, *x_, [&] { return row(); });
  if (run_->callback_stops(k_, *x_, update_, cost_) && !reason_) reason_ = StopReason::callback;
}

template <class Domain, class Dual>
void PrimalDual<Domain, Dual>::update_y() {
  // y = prox_{sigma g*}(y + sigma K xbar), K xbar = (1 + theta) K x - theta K x_old.
  const double theta = options_.theta;
  v_->copy_from(*y_);
  v_->axpbypcz(detail::scalar<T>(sigma_ * (1 + theta)), *kx_, detail::scalar<T>(-sigma_ * theta),
               *kx_old_, T(1));
  g_->prox_conjugate(*v_, sigma_, *y_);
}

template <class Domain, class Dual>
PrimalDualResult<Domain> PrimalDual<Domain, Dual>::finalize() {
  if (!x_) throw InvalidArgument("primal_dual: finalize() needs setup()");
  PrimalDualResult<Domain> result{
      {run_->finish(std::move(*x_), k_, reason_.value_or(StopReason::max_iterations),
                    [&] { return row(); }),
       tau_},
      sigma_,
      norm_squared_};
  x_.reset();
  return result;
}

/// Solves min f(x) + g(K x) by the Chambolle-Pock primal-dual algorithm from x0. Collective.
template <class Domain, class Dual>
PrimalDualResult<Domain> primal_dual(const ProxOperator<Domain>& f, const ProxOperator<Dual>& g,
                                     const BasicLinearOperator<Domain, Dual>& k, const Domain& x0,
                                     const PrimalDualOptions<Domain>& options = {}) {
  return PrimalDual<Domain, Dual>(f, g, k, options).solve(x0);
}

/// The same from x0 and y0 (PrimalDual::setup(x0, y0)). Collective.
template <class Domain, class Dual>
PrimalDualResult<Domain> primal_dual(const ProxOperator<Domain>& f, const ProxOperator<Dual>& g,
                                     const BasicLinearOperator<Domain, Dual>& k, const Domain& x0,
                                     const Dual& y0,
                                     const PrimalDualOptions<Domain>& options = {}) {
  return PrimalDual<Domain, Dual>(f, g, k, options).solve(x0, y0);
}

/// \cond
#define DISTLOPS_DETAIL_EXTERN_PRIMAL_DUAL(T, Space)                                               \
  extern template class PrimalDual<DistributedArray<T, Space>, DistributedArray<T, Space>>;        \
  extern template class PrimalDual<DistributedArray<T, Space>, StackedDistributedArray<T, Space>>; \
  extern template class PrimalDual<StackedDistributedArray<T, Space>,                              \
                                   StackedDistributedArray<T, Space>>;                             \
  extern template class PrimalDual<StackedDistributedArray<T, Space>, DistributedArray<T, Space>>;
DISTLOPS_FOR_EACH_SCALAR_AND_SPACE(DISTLOPS_DETAIL_EXTERN_PRIMAL_DUAL)
#undef DISTLOPS_DETAIL_EXTERN_PRIMAL_DUAL
/// \endcond

}  // namespace distlops
