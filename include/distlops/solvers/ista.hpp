// SPDX-License-Identifier: BSD-3-Clause
// Copyright (c) 2026 The distlops authors
#pragma once
/// \file ista.hpp
/// ISTA, the iterative shrinkage-thresholding algorithm (PyLops' ista), for the sparsity-
/// promoting problem
///
///     min ||y - A x||_2^2 + eps R(x)        or, with a sparsifying operator SOp,
///     min ||y - A x||_2^2 + eps R(SOp^H x)
///
/// with R the penalty of the thresholding rule (soft: the l1 norm, hard: the number of
/// non-zeros, half: sum |x_i|^(1/2); see thresholding.hpp). Each iteration takes a gradient
/// step and thresholds with t_k = decay[k] eps alpha / 2:
///
///     x_{k+1} = T_{t_k}(x_k + alpha A^H (y - A x_k))                 (no SOp)
///     x_{k+1} = SOp T_{t_k}(SOp^H (x_k + alpha A^H (y - A x_k)))     (with SOp)
///
/// The step alpha defaults to 1 / lambda_max(A^H A), estimated by power iteration (from below,
/// so the step can exceed 1 / lambda_max slightly; pass `alpha` to control it). FISTA
/// (fista.hpp) adds Nesterov's momentum. With the same alpha and decay the iterates equal
/// PyLops' to rounding.
///
/// The cost recorded is PyLops' cost
///
///     J(x) = 1/2 ||y - A x||_2^2 + eps R(x)        (with SOp: eps R(SOp^H x))
///
/// so that histories compare with PyLops' entry for entry. With PyLops' threshold
/// eps alpha / 2, each iteration is a proximal-gradient step on F(x) = 1/2 ||y - A x||^2 +
/// eps/2 R(x), the functional above halved: F decreases from iteration to iteration for
/// alpha <= 1 / lambda_max (ISTA), J = F + eps/2 R need not. F follows from the histories:
/// F(x_k) = ||y - A x_k||^2 / 4 + J(x_k) / 2.
///
/// Stopping rules, all enforced (PyLops-MPI registers rtol and rtol1 callbacks but never
/// checks them):
///   - tol: ||x_{k+1} - x_k|| <= tol (absolute change of the model, PyLops' tol; default
///     1e-10) -> StopReason::tolerance;
///   - rtol > 0: J(x_k) < rtol J(x_0) -> StopReason::cost_to_initial (J(x_0) is the result's
///     initial_cost);
///   - rtol1 > 0: J(x_k) < rtol1 ||y||^2 / 2 -> StopReason::cost_to_data. ||y||^2 / 2 is J of
///     the zero model, the same kind of quantity as J, so the rule does not depend on the
///     scale of the data (PyLops compares J, a squared quantity, with ||y||);
///   - a NaN or infinite cost or model change -> StopReason::non_finite.
///
/// Histories, like PyLops', have one entry per iteration (the initial guess has none; its
/// values are `initial_residual_norm` and `initial_cost`): residual_norms[k - 1] =
/// ||y - A x_k||, costs[k - 1] = J(x_k), model_updates[k - 1] = ||x_k - x_{k-1}|| for the
/// iterate x_k after k iterations. Both terms of J are evaluated at the same iterate (PyLops'
/// ISTA pairs ||y - A x_{k-1}|| with the norm of x_k and always uses the l1 norm of x).
///
/// Per iteration (ISTA and FISTA alike): one apply of A and one of A^H (FISTA obtains the
/// residual at the extrapolated point from those of x_{k+1} and x_k, where PyLops applies A
/// twice), with SOp one apply of SOp^H and of SOp for the step and one more SOp^H for the
/// penalty of the cost; reductions: 3 (||x_{k+1} - x_k||, ||y - A x_{k+1}||, R) in one batch
/// (scalar_slots.hpp) at the end of the iteration: one collective (two with an SOp whose
/// coefficients live on another communicator) and one read-back of the scalars to the host.
/// A non-finite model change found then restores x_k (the vectors are swapped back).
/// Work vectors: 3 in the domain (4 for FISTA), 1 in the range (2 for FISTA), 1 coefficient
/// vector with SOp, allocated once before the loop.

#include <array>
#include <limits>
#include <optional>
#include <vector>

#include "distlops/core/instantiate.hpp"
#include "distlops/operators/linear_operator.hpp"
#include "distlops/solvers/common.hpp"
#include "distlops/solvers/detail/driver.hpp"
#include "distlops/solvers/detail/scalar_slots.hpp"
#include "distlops/solvers/detail/stepwise_solver.hpp"
#include "distlops/solvers/power_iteration.hpp"
#include "distlops/solvers/thresholding.hpp"

namespace distlops {

/// Options of ISTA and FISTA. `Coefficients` is the vector type of SOp's domain.
template <class Domain, class Coefficients = Domain>
struct IstaOptions : SolverOptions<Domain> {
  /// PyLops' defaults; tol 1e-10, compared with ||x_{k+1} - x_k||.
  IstaOptions() { this->tol = 1e-10; }
  /// Weight of the sparsity penalty (>= 0).
  double eps = 0.1;
  /// Step size; absent: 1 / lambda_max(A^H A) estimated by power iteration with `eigs`.
  std::optional<double> alpha = std::nullopt;
  /// Options of the power iteration that estimates lambda_max(A^H A) when alpha is absent.
  PowerIterationOptions eigs = {};
  /// The thresholding rule: soft (L1, default), hard (L0) or half (L1/2).
  ThresholdKind threshold = ThresholdKind::soft;
  /// Factors of the threshold per iteration (decay[k] multiplies the threshold of iteration
  /// k; at least niter entries). Empty: all ones.
  std::vector<double> decay = {};
  /// Sparsifying operator of the analysis problem (x = SOp c); empty: none.
  BasicLinearOperator<Coefficients, Domain> sop = {};
  /// Stop when J(x_k) < rtol J(x_0) (StopReason::cost_to_initial); 0 disables it.
  double rtol = 0.0;
  /// Stop when J(x_k) < rtol1 ||y||^2 / 2 (StopReason::cost_to_data); 0 disables it.
  double rtol1 = 0.0;
  /// FISTA: the residual at the extrapolated point by one more apply of A, y - A z (PyLops'
  /// arithmetic, for ports that compare iterates with it at rounding level); false, by
  /// linearity from the residuals of the last two iterates, one apply fewer per iteration.
  bool residual_by_apply = false;
};

/// The result of ISTA and FISTA. Unlike the other solvers' histories, residual_norms, costs
/// and model_updates have one entry per iteration (PyLops' convention): entry k - 1 belongs to
/// the iterate after k iterations; the initial guess's values are the initial_* fields.
template <class Domain>
struct IstaResult : SolverResult<Domain> {
  /// The step used.
  double alpha = 0.0;
  /// The threshold before decay: eps alpha / 2.
  double threshold = 0.0;
  /// model_updates[k - 1] = ||x_k - x_{k-1}||.
  std::vector<double> model_updates;
  /// ||y - A x_0|| of the initial guess (||y|| without x0).
  double initial_residual_norm = 0.0;
  /// J(x_0) of the initial guess (||y||^2 / 2 without x0).
  double initial_cost = 0.0;
};

/// ISTA (FISTA with `accelerated`) in step-wise form (PyLops' class solvers): setup, step until
/// finished, finalize, the state readable between steps (docs/solvers.md). `ista()` and
/// `fista()` are `Ista(op, options, accelerated).solve(y, x0)`. y (and x0) must stay alive
/// until finalize(). Not copyable: it holds the run's state.
template <class Domain, class Range, class Coefficients = Domain>
class Ista : public detail::StepwiseSolver<Ista<Domain, Range, Coefficients>, Domain> {
 public:
  // The step-wise base's accessors: finished(), iteration(), x(), reason(); residual_norms()
  // holds the history of ||y - A x_k||, one entry per iteration; costs() the history of J(x_k), one
  // entry per iteration.

  /// The scalar type of the model.
  using T = typename Domain::value_type;

  /// Keeps the operator and a copy of the options; `accelerated` selects FISTA. Checks nothing
  /// until setup().
  explicit Ista(const BasicLinearOperator<Domain, Range>& op,
                const IstaOptions<Domain, Coefficients>& options = {}, bool accelerated = false)
      : op_(op), options_(options), accelerated_(accelerated) {}

  /// Validates the options and layouts (on every rank alike), estimates the step when absent,
  /// allocates the work vectors and starts from x0 (zeros when null) or the checkpoint.
  /// Collective.
  void setup(const Range& y, const Domain* x0 = nullptr) {
    using namespace detail;
    const char* solver = name();
    const IstaOptions<Domain, Coefficients>& options = options_;
    const BasicLinearOperator<Coefficients, Domain>& sop = options.sop;
    analysis_ = !sop.empty();
    if (analysis_ && !(sop.range() == op_.domain())) {
      throw ShapeMismatch(std::string(solver) + ": the range of SOp (" + sop.name() + ", " +
                          vector_traits<Domain>::describe(sop.range()) +
                          ") must be the domain of the operator (" +
                          vector_traits<Domain>::describe(op_.domain()) + ")");
    }
    inputs_.reset();
    inputs_.emplace(op_, y, x0, solver);
    const Range& b = inputs_->y();

    x_.emplace(op_.domain());
    v_.emplace(op_.domain());
    d_.emplace(op_.domain());
    res_.emplace(op_.range());
    z_.reset();
    rz_.reset();
    if (accelerated_) {
      z_.emplace(op_.domain());
      rz_.emplace(op_.range());
    }
    coefficients_.reset();
    if (analysis_) coefficients_.emplace(sop.domain());

    Fingerprint parameters;
    parameters.add(options.eps).add(options.threshold).add(analysis_);
    parameters.add(options.alpha.has_value()).add(options.alpha.value_or(0.0));
    run_.reset();
    run_.emplace(solver, options, solver_communicator(*x_), checkpoint_rank(*x_), parameters, 1,
                 [&] {
                   auto fail = [&](const std::string& what) {
                     throw InvalidArgument(std::string(solver) + ": " + what);
                   };
                   if (!(options.eps >= 0) || !std::isfinite(options.eps)) {
                     fail("eps must be finite and non-negative");
                   }
                   if (options.alpha && !(*options.alpha > 0 && std::isfinite(*options.alpha))) {
                     fail("alpha must be positive and finite");
                   }
                   if (!options.decay.empty() &&
                       options.decay.size() < static_cast<std::size_t>(options.niter)) {
                     fail("decay has " + std::to_string(options.decay.size()) +
                          " entries, fewer than niter = " + std::to_string(options.niter));
                   }
                   for (double factor : options.decay) {
                     if (!(factor >= 0) || !std::isfinite(factor)) {
                       fail("decay factors must be finite and non-negative");
                     }
                   }
                   if (!(options.rtol >= 0) || !(options.rtol1 >= 0)) {
                     fail("rtol and rtol1 must be non-negative");
                   }
                 });
    // From here on the operands are the solver's own vectors, of the layouts agreed above.
    const AgreedOperands agreed;

    alpha_ = 0;
    t_ = 1;
    rnorm_ = cost_ = rnorm0_ = cost0_ = 0;
    k_ = 0;
    if (run_->resuming()) {
      const std::array<double*, 6> scalars = state_scalars();
      if (accelerated_) {
        k_ = run_->resume(scalars, *x_, *res_, *z_, *rz_);
      } else {
        k_ = run_->resume(scalars, *x_, *res_);
      }
    } else {
      if (options.alpha) {
        alpha_ = *options.alpha;
      } else {
        const double lambda =
            static_cast<double>(std::real(power_iteration_normal(op_, options.eigs).eigenvalue));
        if (!(lambda > 0) || !std::isfinite(lambda)) {
          throw InvalidArgument(std::string(solver) +
                                ": the estimated largest eigenvalue of A^H A is " +
                                std::to_string(lambda) + "; pass alpha explicitly");
        }
        alpha_ = 1.0 / lambda;
      }
      inputs_->start(*x_, *res_);
      if (accelerated_) {
        z_->copy_from(*x_);
        rz_->copy_from(*res_);
      }
      rnorm_ = std::sqrt(squared_norm(*res_));
      cost_ = objective(rnorm_, penalty_of(*x_));
      rnorm0_ = rnorm_;
      cost0_ = cost_;
    }
    threshold0_ = options.eps * alpha_ / 2;
    // J(0) = ||y||^2 / 2: the reference of rtol1.
    data_cost_ = options.rtol1 > 0 ? 0.5 * squared_norm(b) : 0.0;
    update_ = std::numeric_limits<double>::infinity();
    std::vector<NamedValue> header{{"eps", format_parameter(options.eps)},
                                   {"alpha", format_parameter(alpha_)},
                                   {"thresh", format_parameter(threshold0_)},
                                   {"threshold", to_string(options.threshold)}};
    if (analysis_) header.push_back({"SOp", sop.name()});
    run_->header(op_.rows(), op_.cols(), header, {"resnorm", "cost", "xupdate"});
    run_->row(k_, *x_, [&] { return row(); });

    slots_.emplace(slot_count);
    exponent_ = penalty_exponent(options.threshold);
    reason_.reset();
    if (!all_finite(cost_)) reason_ = StopReason::non_finite;
  }

  /// One iteration (InvalidArgument when not set up or finished). Collective.
  void step() {
    using namespace detail;
    this->require_running(name());
    const AgreedOperands agreed;  // the operands are the vectors agreed on in setup()
    const IstaOptions<Domain, Coefficients>& options = options_;
    const BasicLinearOperator<Coefficients, Domain>& sop = options.sop;
    const ThresholdKind kind = options.threshold;
    const Range& b = inputs_->y();
    Domain& x = *x_;
    Domain& v = *v_;
    Domain& d = *d_;
    Range& res = *res_;
    ScalarSlots<typename Domain::space_type>& slots = *slots_;
    // Gradient step from x (ISTA) or from the extrapolated point z (FISTA).
    const Domain& from = accelerated_ ? *z_ : x;
    op_.apply_adjoint(accelerated_ ? *rz_ : res, v);
    v.axpby(T(1), from, scalar<T>(alpha_));
    const double threshold_k =
        threshold0_ * (options.decay.empty() ? 1.0 : options.decay[static_cast<std::size_t>(k_)]);
    if (analysis_) {
      sop.apply_adjoint(v, *coefficients_);
      threshold(*coefficients_, kind, threshold_k);
      sop.apply(*coefficients_, v);
    } else {
      threshold(v, kind, threshold_k);
    }
    // v = x_{k+1}; d = x_{k+1} - x_k.
    d.axpbypcz(T(1), v, T(-1), x, T(0));
    double momentum = 0;
    double t_next = t_;
    if (accelerated_) {
      t_next = (1 + std::sqrt(1 + 4 * t_ * t_)) / 2;
      momentum = (t_ - 1) / t_next;
      z_->axpbypcz(T(1), v, scalar<T>(momentum), d, T(0));
    }
    std::swap(x, v);
    // The residual of x_{k+1}; FISTA's residual at z_{k+1} = x_{k+1} + m (x_{k+1} - x_k) is
    // (1 + m) res_{k+1} - m res_k by linearity.
    Range& next = accelerated_ ? *rz_ : res;
    op_.apply(x, next);
    next.axpby(T(1), b, T(-1));
    if (accelerated_ && options.residual_by_apply) {
      std::swap(res, next);
      op_.apply(*z_, *rz_);
      rz_->axpby(T(1), b, T(-1));
    } else if (accelerated_) {
      res.axpby(scalar<T>(1 + momentum), next, scalar<T>(-momentum));
      std::swap(res, next);
    }
    // The iteration's reductions in one batch, read back once.
    slots.begin(update_squared, 3);
    slots.add_squared_norm(update_squared, d);
    slots.add_squared_norm(residual_squared, res);
    if (analysis_) {
      sop.apply_adjoint(x, *coefficients_);
      slots.add_power_sum(penalty_slot, *coefficients_, exponent_);
    } else {
      slots.add_power_sum(penalty_slot, x, exponent_);
    }
    slots.combine();
    slots.read_back();
    update_ = std::sqrt(slots[update_squared]);
    if (!std::isfinite(update_)) {
      std::swap(x, v);  // back to x_k
      reason_ = StopReason::non_finite;
      return;
    }
    t_ = t_next;
    rnorm_ = std::sqrt(slots[residual_squared]);
    cost_ = objective(rnorm_, slots[penalty_slot]);
    ++k_;
    run_->record({rnorm_, cost_, update_});
    reason_ = stop_test();
    if (!reason_) {
      const std::array<double*, 6> scalars = state_scalars();
      if (accelerated_) {
        run_->checkpoint(k_, scalars, x, res, *z_, *rz_);
      } else {
        run_->checkpoint(k_, scalars, x, res);
      }
    }
    run_->row(k_, x, [&] { return row(); });
    if (run_->callback_stops(k_, x, rnorm_, cost_) && !reason_) reason_ = StopReason::callback;
  }

  /// The result (moves the iterate out; the solver is spent afterwards). Collective.
  IstaResult<Domain> finalize() {
    using namespace detail;
    if (!x_) throw InvalidArgument(std::string(name()) + ": finalize() needs setup()");
    IstaResult<Domain> result{
        run_->finish(std::move(*x_), k_, reason_.value_or(StopReason::max_iterations),
                     [&] { return row(); },
                     {{"alpha", format_parameter(alpha_)}, {"cost", format_parameter(cost_)}}),
        alpha_,
        threshold0_,
        run_->take_history(2),
        rnorm0_,
        cost0_};
    x_.reset();
    return result;
  }

  /// "fista" or "ista", as in messages and the progress table.
  const char* name() const { return accelerated_ ? "fista" : "ista"; }
  /// FISTA's extrapolated point (x for ISTA).
  const Domain& z() const { return accelerated_ ? *z_ : *x_; }
  /// y - A x.
  const Range& residual() const { return *res_; }
  /// The step in use (given, or estimated at setup()).
  double alpha() const { return alpha_; }
  /// The history of ||x_k - x_{k-1}||, one entry per iteration.
  const std::vector<double>& model_updates() const { return run_->history(2); }

 private:
  using Base = detail::StepwiseSolver<Ista<Domain, Range, Coefficients>, Domain>;
  using Base::k_;
  using Base::reason_;
  using Base::run_;
  using Base::x_;

  // Slots: ||x_{k+1} - x_k||^2, ||y - A x_{k+1}||^2, the penalty's sum.
  enum { update_squared, residual_squared, penalty_slot, slot_count };

  std::array<double*, 6> state_scalars() {
    return {&alpha_, &t_, &rnorm_, &cost_, &rnorm0_, &cost0_};
  }
  /// The penalty of a model: R(x), or R(SOp^H x) using the coefficient vector as workspace.
  double penalty_of(const Domain& model) {
    if (!analysis_) return penalty(model, options_.threshold);
    options_.sop.apply_adjoint(model, *coefficients_);
    return penalty(*coefficients_, options_.threshold);
  }
  double objective(double residual_norm, double penalty_value) const {
    return 0.5 * residual_norm * residual_norm + options_.eps * penalty_value;
  }
  std::vector<double> row() const { return {rnorm_, cost_, update_}; }
  std::optional<StopReason> stop_test() const {
    if (!detail::all_finite(cost_, update_)) return StopReason::non_finite;
    if (update_ <= run_->tol()) return StopReason::tolerance;
    if (options_.rtol > 0 && cost_ < options_.rtol * cost0_) return StopReason::cost_to_initial;
    if (options_.rtol1 > 0 && cost_ < options_.rtol1 * data_cost_) {
      return StopReason::cost_to_data;
    }
    return std::nullopt;
  }

  BasicLinearOperator<Domain, Range> op_;
  IstaOptions<Domain, Coefficients> options_;
  bool accelerated_;
  bool analysis_ = false;
  std::optional<detail::SolverInputs<Domain, Range>> inputs_;
  std::optional<detail::ScalarSlots<typename Domain::space_type>> slots_;
  std::optional<Domain> v_, d_, z_;
  std::optional<Range> res_, rz_;
  std::optional<Coefficients> coefficients_;
  double alpha_ = 0;
  double t_ = 1;  // FISTA's momentum parameter
  double rnorm_ = 0, cost_ = 0;
  double rnorm0_ = 0, cost0_ = 0;  // of the initial guess: not in the histories (PyLops')
  double threshold0_ = 0, data_cost_ = 0, exponent_ = 1;
  double update_ = std::numeric_limits<double>::infinity();
};

/// Solves the sparsity-promoting problem above by ISTA from x0 = 0. Collective.
template <class Domain, class Range, class Coefficients = Domain>
IstaResult<Domain> ista(const BasicLinearOperator<Domain, Range>& op, const Range& y,
                        const IstaOptions<Domain, Coefficients>& options = {}) {
  return Ista<Domain, Range, Coefficients>(op, options).solve(y);
}
/// As above, starting from x0.
template <class Domain, class Range, class Coefficients = Domain>
IstaResult<Domain> ista(const BasicLinearOperator<Domain, Range>& op, const Range& y,
                        const Domain& x0, const IstaOptions<Domain, Coefficients>& options = {}) {
  return Ista<Domain, Range, Coefficients>(op, options).solve(y, &x0);
}

/// \cond
/// The cases compiled in the library (solvers/sparse.cpp): operators between distributed and
/// stacked arrays (the mixed ones of StackedVStack and StackedHStack included) of every scalar type
/// and memory space, and local arrays of the host (other cases compile where used).
#define DISTLOPS_DETAIL_ISTA_ARRAYS(prefix, T, Space)                                              \
  prefix template class Ista<DistributedArray<T, Space>, DistributedArray<T, Space>,               \
                             DistributedArray<T, Space>>;                                          \
  prefix template class Ista<StackedDistributedArray<T, Space>, StackedDistributedArray<T, Space>, \
                             StackedDistributedArray<T, Space>>;                                   \
  prefix template class Ista<DistributedArray<T, Space>, StackedDistributedArray<T, Space>,        \
                             DistributedArray<T, Space>>;                                          \
  prefix template class Ista<StackedDistributedArray<T, Space>, DistributedArray<T, Space>,        \
                             StackedDistributedArray<T, Space>>;
#define DISTLOPS_DETAIL_ISTA_LOCAL(prefix, T, Space) \
  prefix template class Ista<LocalArray<T, Space>, LocalArray<T, Space>, LocalArray<T, Space>>;
#define DISTLOPS_DETAIL_ISTA_CASES(prefix)                                    \
  DISTLOPS_FOR_EACH_SCALAR_AND_SPACE_ARG(DISTLOPS_DETAIL_ISTA_ARRAYS, prefix) \
  DISTLOPS_FOR_EACH_SCALAR_IN_ARG(DISTLOPS_DETAIL_ISTA_LOCAL, prefix, ::distlops::Host)
DISTLOPS_DETAIL_ISTA_CASES(extern)
/// \endcond

}  // namespace distlops
