// SPDX-License-Identifier: BSD-3-Clause
// Copyright (c) 2026 The distlops authors
#pragma once
/// \file admm.hpp
/// ADMM with an l2 data term (PyProximal's and PyLops-MPI's ADMML2) for
///
///     min_x 1/2 ||Op x - b||^2 + g(A x),   i.e.  min_{x,z} 1/2 ||Op x - b||^2 + g(z), A x = z
///
/// with g convex with a prox. From x_0 = x0, z_0 = z0 (A x0 when absent), u_0 = 0, x first
/// (PyProximal's gfirst=False, the default):
///
///     x_{k+1} = argmin_x 1/2 ||Op x - b||^2 + 1/(2 tau) ||A x - z_k + u_k||^2
///     z_{k+1} = prox_{tau g}(A x_{k+1} + u_k)
///     u_{k+1} = u_k + A x_{k+1} - z_{k+1}
///
/// or, with `g_first` (PyProximal's gfirst=True; z0 is not read, the first z-update uses A x0):
///
///     z_{k+1} = prox_{tau g}(A x_k + u_k)
///     x_{k+1} = argmin_x 1/2 ||Op x - b||^2 + 1/(2 tau) ||A x - z_{k+1} + u_k||^2
///     u_{k+1} = u_k + A x_{k+1} - z_{k+1}
///
/// PyProximal's ADMML2 with gfirst=True updates u with A x_k instead of A x_{k+1}, so that
/// u stops moving only where A x_k = z_{k+1}; the library keeps the scaled dual update of ADMM
/// (that of PyProximal's ADMM with gfirst=True), whose fixed points solve the problem.
///
/// The x-update solves the normal equations (Op^H Op + A^H A / tau) x = Op^H b +
/// A^H (z_k - u_k) / tau by CG (cg.hpp) from x_k, for at most `inner_niter` iterations or
/// until CG's residual falls below inner_rtol times the norm of the right-hand side
/// (PyLops-MPI runs CGLS on the stacked system [Op; A / sqrt(tau)]: the same minimiser).
/// Per iteration: the inner CG's applies of Op^H Op and A^H A, one apply of A^H, A and Op
/// (the last for the objective J = 1/2 ||Op x - b||^2 + g(A x) of the histories).
/// Stopping rules and histories as in proximal_gradient.hpp.

#include <array>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "distlops/operators/linear_operator.hpp"
#include "distlops/solvers/cg.hpp"
#include "distlops/solvers/common.hpp"
#include "distlops/solvers/detail/driver.hpp"
#include "distlops/solvers/detail/stepwise_solver.hpp"
#include "distlops/solvers/detail/vectors.hpp"
#include "distlops/solvers/proximal/prox_operator.hpp"
#include "distlops/solvers/proximal/stepwise.hpp"

namespace distlops {

/// Options of admm: the common ones (tol compared with the objective's relative change), the step
/// and the x-update's inner CG.
template <class Domain>
struct AdmmOptions : SolverOptions<Domain> {
  /// Step of g (positive).
  double tau = 1.0;
  /// Most iterations of the x-update's CG (>= 1).
  int inner_niter = 20;
  /// Relative tolerance of the x-update's CG (>= 0), against the norm of the right-hand side.
  double inner_rtol = 1e-10;
  /// Whether an iteration updates z before x (PyProximal's gfirst=True).
  bool g_first = false;
};

/// ADMM in step-wise form (stepwise.hpp); admm() is `Admm(g, op, b, a, options).solve(x0)`. Domain
/// is x's type, Range b's and Aux z's (A's range). Not copyable: it holds the run's state.
template <class Domain, class Range, class Aux>
class Admm : public detail::StepwiseSolver<Admm<Domain, Range, Aux>, Domain> {
 public:
  // The step-wise base's accessors: finished(), iteration(), x(), reason(); residual_norms()
  // holds the history of ||x_k - x_{k-1}|| (entry 0 NaN); costs() the history of the objective 1/2
  // ||Op x_k - b||^2 + g(A x_k).

  /// The scalar type of the model.
  using T = typename Domain::value_type;

  /// Keeps a shared copy of g, the operators Op and A, and copies of b and the options; checks
  /// nothing until setup().
  Admm(const ProxOperator<Aux>& g, const BasicLinearOperator<Domain, Range>& op, const Range& b,
       const BasicLinearOperator<Domain, Aux>& a, const AdmmOptions<Domain>& options = {})
      : g_(g.clone()), op_(op), b_(b), a_(a), options_(options) {}

  /// Validates the options and operators (InvalidArgument or ShapeMismatch on every rank),
  /// allocates the work vectors, sets x = x0, z = A x0, u = 0 (or loads the checkpoint) and records
  /// the initial objective. Collective.
  void setup(const Domain& x0) { initialise(x0, nullptr); }
  /// The same from z = z0 (of A's range layout, ShapeMismatch on every rank otherwise); the
  /// objective of the histories is still that of x0, 1/2 ||Op x0 - b||^2 + g(A x0).
  void setup(const Domain& x0, const Aux& z0) { initialise(x0, &z0); }
  /// One iteration (InvalidArgument when not set up or finished). Collective.
  void step();
  /// The result (moves the iterate out; the solver is spent afterwards). Collective.
  ProximalResult<Domain> finalize();

  /// The splitting variable z_k ~ A x_k.
  const Aux& z() const { return *z_; }
  /// The scaled dual variable.
  const Aux& u() const { return *u_; }

 private:
  using Base = detail::StepwiseSolver<Admm<Domain, Range, Aux>, Domain>;
  using Base::k_;
  using Base::reason_;
  using Base::run_;
  using Base::x_;

  void initialise(const Domain& x0, const Aux* z0);
  /// x = argmin 1/2 ||Op x - b||^2 + 1/(2 tau) ||A x - z + u||^2 by CG from xold_, and ax_ = A x.
  void update_x();
  /// z = prox_{tau g}(ax_ + u).
  void update_z();
  std::vector<double> row() const { return {update_, cost_}; }
  double objective() {
    op_.apply(*x_, *s_);
    s_->axpy(T(-1), b_);
    return 0.5 * detail::squared_norm(*s_) + g_->value(*ax_);
  }

  std::shared_ptr<const ProxOperator<Aux>> g_;
  BasicLinearOperator<Domain, Range> op_;
  Range b_;
  BasicLinearOperator<Domain, Aux> a_;
  AdmmOptions<Domain> options_;
  BasicLinearOperator<Domain, Domain> normal_;
  std::optional<Domain> xold_, rhs_, opb_;
  std::optional<Range> s_;
  std::optional<Aux> ax_, z_, u_, r_;
  double cost_ = 0, update_ = std::numeric_limits<double>::quiet_NaN();
};

template <class Domain, class Range, class Aux>
void Admm<Domain, Range, Aux>::initialise(const Domain& x0, const Aux* z0) {
  const AdmmOptions<Domain>& o = options_;
  Fingerprint parameters;
  parameters.add(o.tau).add(o.inner_niter).add(o.inner_rtol).add(o.g_first);
  run_.reset();
  Fingerprint operands;
  g_->fingerprint(operands);
  run_.emplace("admm", options_, detail::solver_communicator(x0), detail::checkpoint_rank(x0),
               parameters, operands, 0, [&] {
                 auto fail = [](const std::string& what) {
                   throw InvalidArgument("admm: " + what);
                 };
                 if (!(o.tau > 0) || !std::isfinite(o.tau)) {
                   fail("tau must be positive and finite");
                 }
                 if (o.inner_niter < 1) fail("inner_niter must be positive");
                 if (!(o.inner_rtol >= 0) || !std::isfinite(o.inner_rtol)) {
                   fail("inner_rtol must be finite and non-negative");
                 }
                 if (op_.empty() || a_.empty()) fail("the operators Op and A must not be empty");
                 if (!(op_.domain() == a_.domain())) {
                   fail("Op and A must share their domain (Op: " +
                        vector_traits<Domain>::describe(op_.domain()) +
                        ", A: " + vector_traits<Domain>::describe(a_.domain()) + ")");
                 }
                 g_->check(a_.range());
               });
  const LayoutAdapter<Domain> start(x0, op_.domain(), "admm", "", "x0");
  const LayoutAdapter<Range> data(b_, op_.range(), "admm", "", "b");
  std::optional<LayoutAdapter<Aux>> first_z;
  if (z0) first_z.emplace(*z0, a_.range(), "admm", "", "z0");
  normal_ = op_.adjoint() * op_ + detail::scalar<T>(1 / o.tau) * (a_.adjoint() * a_);
  for (auto* v : {&x_, &xold_, &rhs_, &opb_})
    v->emplace(op_.domain());
  s_.emplace(op_.range());
  for (auto* v : {&ax_, &z_, &u_, &r_})
    v->emplace(a_.range());
  b_ = Range(data.get_const());
  op_.apply_adjoint(b_, *opb_);
  reason_.reset();
  update_ = std::numeric_limits<double>::quiet_NaN();
  const std::array<double*, 2> scalars{&cost_, &update_};
  if (run_->resuming()) {
    k_ = run_->resume(scalars, *x_, *z_, *u_);
    a_.apply(*x_, *ax_);
  } else {
    k_ = 0;
    x_->copy_from(start.get_const());
    a_.apply(*x_, *ax_);
    z_->copy_from(first_z ? first_z->get_const() : *ax_);
    u_->set_zero();
    cost_ = objective();
    run_->record({update_, cost_});
  }
  run_->header(op_.rows(), op_.cols(),
               {{"g", g_->name()},
                {"Op", op_.name()},
                {"A", a_.name()},
                {"tau", detail::format_parameter(o.tau)},
                {"inner_niter", std::to_string(o.inner_niter)},
                {"gfirst", o.g_first ? "true" : "false"}},
               {"xupdate", "cost"});
  run_->row(k_, *x_, [&] { return row(); });
  if (!std::isfinite(cost_)) reason_ = StopReason::non_finite;
}

template <class Domain, class Range, class Aux>
void Admm<Domain, Range, Aux>::step() {
  this->require_running("admm");
  // The operands are the solver's own vectors, of the layouts agreed on in setup() (where
  // the objective at x0 ran every operand pair through the collective checks).
  const AgreedOperands agreed;
  xold_->copy_from(*x_);
  if (options_.g_first) {
    update_z();
    update_x();
  } else {
    update_x();
    update_z();
  }
  // u = u + A x - z.
  u_->axpbypcz(T(1), *ax_, T(-1), *z_, T(1));
  rhs_->axpbypcz(T(1), *x_, T(-1), *xold_, T(0));
  const double update = std::sqrt(detail::squared_norm(*rhs_));
  const double cost = objective();
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

template <class Domain, class Range, class Aux>
void Admm<Domain, Range, Aux>::update_x() {
  const double tau = options_.tau;
  // (Op^H Op + A^H A / tau) x = Op^H b + A^H (z - u) / tau, by CG from x_k.
  r_->axpbypcz(T(1), *z_, T(-1), *u_, T(0));
  a_.apply_adjoint(*r_, *rhs_);
  rhs_->axpby(T(1), *opb_, detail::scalar<T>(1 / tau));
  CgOptions<Domain> inner;
  inner.niter = options_.inner_niter;
  inner.tol = options_.inner_rtol * std::sqrt(detail::squared_norm(*rhs_));
  x_->copy_from(cg(normal_, *rhs_, *xold_, inner).x);
  a_.apply(*x_, *ax_);
}

template <class Domain, class Range, class Aux>
void Admm<Domain, Range, Aux>::update_z() {
  r_->axpbypcz(T(1), *ax_, T(1), *u_, T(0));
  g_->prox(*r_, options_.tau, *z_);
}

template <class Domain, class Range, class Aux>
ProximalResult<Domain> Admm<Domain, Range, Aux>::finalize() {
  if (!x_) throw InvalidArgument("admm: finalize() needs setup()");
  ProximalResult<Domain> result{
      run_->finish(std::move(*x_), k_, reason_.value_or(StopReason::max_iterations),
                   [&] { return row(); }),
      options_.tau};
  x_.reset();
  return result;
}

/// Solves min 1/2 ||Op x - b||^2 + g(A x) by ADMM from x0. Collective.
template <class Domain, class Range, class Aux>
ProximalResult<Domain> admm(const ProxOperator<Aux>& g,
                            const BasicLinearOperator<Domain, Range>& op, const Range& b,
                            const BasicLinearOperator<Domain, Aux>& a, const Domain& x0,
                            const AdmmOptions<Domain>& options = {}) {
  return Admm<Domain, Range, Aux>(g, op, b, a, options).solve(x0);
}

/// The same from x0 and z0 (Admm::setup(x0, z0)). Collective.
template <class Domain, class Range, class Aux>
ProximalResult<Domain> admm(const ProxOperator<Aux>& g,
                            const BasicLinearOperator<Domain, Range>& op, const Range& b,
                            const BasicLinearOperator<Domain, Aux>& a, const Domain& x0,
                            const Aux& z0, const AdmmOptions<Domain>& options = {}) {
  return Admm<Domain, Range, Aux>(g, op, b, a, options).solve(x0, z0);
}

/// \cond
/// The cases compiled in the library: Op from a distributed or stacked domain onto itself, A
/// onto either kind.
#define DISTLOPS_DETAIL_EXTERN_ADMM(T, Space)                                                      \
  extern template class Admm<DistributedArray<T, Space>, DistributedArray<T, Space>,               \
                             DistributedArray<T, Space>>;                                          \
  extern template class Admm<DistributedArray<T, Space>, DistributedArray<T, Space>,               \
                             StackedDistributedArray<T, Space>>;                                   \
  extern template class Admm<StackedDistributedArray<T, Space>, StackedDistributedArray<T, Space>, \
                             StackedDistributedArray<T, Space>>;                                   \
  extern template class Admm<StackedDistributedArray<T, Space>, StackedDistributedArray<T, Space>, \
                             DistributedArray<T, Space>>;
DISTLOPS_FOR_EACH_SCALAR_AND_SPACE(DISTLOPS_DETAIL_EXTERN_ADMM)
#undef DISTLOPS_DETAIL_EXTERN_ADMM
/// \endcond

}  // namespace distlops
