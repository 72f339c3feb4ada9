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

#include "distlops/operators/linear_operator.hpp"
#include "distlops/solvers/common.hpp"
#include "distlops/solvers/detail/driver.hpp"
#include "distlops/solvers/detail/instantiation.hpp"
#include "distlops/solvers/detail/scalar_slots.hpp"
#include "distlops/solvers/power_iteration.hpp"
#include "distlops/solvers/thresholding.hpp"

namespace distlops {

/// Options of ISTA and FISTA. `Coefficients` is the vector type of SOp's domain.
template <class Domain, class Coefficients = Domain>
struct IstaOptions : SolverOptions<Domain> {
  IstaOptions() { this->tol = 1e-10; }
  /// Weight of the sparsity penalty (>= 0).
  double eps = 0.1;
  /// Step size; absent: 1 / lambda_max(A^H A) estimated by power iteration with `eigs`.
  std::optional<double> alpha = std::nullopt;
  PowerIterationOptions eigs = {};
  ThresholdKind threshold = ThresholdKind::soft;
  /// Factors of the threshold per iteration (decay[k] multiplies the threshold of iteration
  /// k; at least niter entries). Empty: all ones.
  std::vector<double> decay = {};
  /// Sparsifying operator of the analysis problem (x = SOp c); empty: none.
  BasicLinearOperator<Coefficients, Domain> sop = {};
  /// Relative cost tolerances (0 disables them), see above.
  double rtol = 0.0;
  double rtol1 = 0.0;
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
  /// ||y - A x_0|| and J(x_0) of the initial guess (x_0 = 0 without x0: ||y|| and ||y||^2 / 2).
  double initial_residual_norm = 0.0;
  double initial_cost = 0.0;
};

namespace detail {

template <class Domain, class Range, class Coefficients>
IstaResult<Domain> sparse_run(const char* solver, bool accelerated,
                              const BasicLinearOperator<Domain, Range>& op, const Range& y,
                              const Domain* x0, const IstaOptions<Domain, Coefficients>& options) {
  using T = typename Domain::value_type;
  const BasicLinearOperator<Coefficients, Domain>& sop = options.sop;
  const bool analysis = !sop.empty();
  if (analysis && !(sop.range() == op.domain())) {
    throw ShapeMismatch(std::string(solver) + ": the range of SOp (" + sop.name() + ", " +
                        vector_traits<Domain>::describe(sop.range()) +
                        ") must be the domain of the operator (" +
                        vector_traits<Domain>::describe(op.domain()) + ")");
  }
  const SolverInputs<Domain, Range> inputs(op, y, x0, solver);
  const Range& b = inputs.y();

  Domain x(op.domain()), v(op.domain()), d(op.domain());
  Range res(op.range());
  std::optional<Domain> z;
  std::optional<Range> rz;
  if (accelerated) {
    z.emplace(op.domain());
    rz.emplace(op.range());
  }
  std::optional<Coefficients> coefficients;
  if (analysis) coefficients.emplace(sop.domain());

  Fingerprint parameters;
  parameters.add(options.eps).add(options.threshold).add(analysis);
  parameters.add(options.alpha.has_value()).add(options.alpha.value_or(0.0));
  SolverDriver<Domain> run(
      solver, options, solver_communicator(x), checkpoint_rank(x), parameters, 1, [&] {
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

  // The penalty of a model: R(x), or R(SOp^H x) using the coefficient vector as workspace.
  const ThresholdKind kind = options.threshold;
  auto penalty_of = [&](const Domain& model) {
    if (!analysis) return penalty(model, kind);
    sop.apply_adjoint(model, *coefficients);
    return penalty(*coefficients, kind);
  };
  double alpha = 0;
  double t = 1;  // FISTA's momentum parameter
  double rnorm = 0, cost = 0;
  double rnorm0 = 0, cost0 = 0;  // of the initial guess: not in the histories (PyLops')
  const std::array<double*, 6> scalars{&alpha, &t, &rnorm, &cost, &rnorm0, &cost0};
  auto objective = [&](double residual_norm, double penalty_value) {
    return 0.5 * residual_norm * residual_norm + options.eps * penalty_value;
  };
  int k = 0;
  if (run.resuming()) {
    if (accelerated) {
      k = run.resume(scalars, x, res, *z, *rz);
    } else {
      k = run.resume(scalars, x, res);
    }
  } else {
    if (options.alpha) {
      alpha = *options.alpha;
    } else {
      const double lambda =
          static_cast<double>(std::real(power_iteration_normal(op, options.eigs).eigenvalue));
      if (!(lambda > 0) || !std::isfinite(lambda)) {
        throw InvalidArgument(std::string(solver) +
                              ": the estimated largest eigenvalue of A^H A is " +
                              std::to_string(lambda) + "; pass alpha explicitly");
      }
      alpha = 1.0 / lambda;
    }
    inputs.start(x, res);
    if (accelerated) {
      z->copy_from(x);
      rz->copy_from(res);
    }
    rnorm = std::sqrt(squared_norm(res));
    cost = objective(rnorm, penalty_of(x));
    rnorm0 = rnorm;
    cost0 = cost;
  }
  const double threshold0 = options.eps * alpha / 2;
  // J(0) = ||y||^2 / 2: the reference of rtol1.
  const double data_cost = options.rtol1 > 0 ? 0.5 * squared_norm(b) : 0.0;
  double update = std::numeric_limits<double>::infinity();
  auto row = [&] { return std::vector<double>{rnorm, cost, update}; };
  std::vector<NamedValue> header{{"eps", format_parameter(options.eps)},
                                 {"alpha", format_parameter(alpha)},
                                 {"thresh", format_parameter(threshold0)},
                                 {"threshold", to_string(kind)}};
  if (analysis) header.push_back({"SOp", sop.name()});
  run.header(op.rows(), op.cols(), header, {"resnorm", "cost", "xupdate"});
  run.row(k, x, row);

  // Slots: ||x_{k+1} - x_k||^2, ||y - A x_{k+1}||^2, the penalty's sum.
  enum { update_squared, residual_squared, penalty_slot, slot_count };
  ScalarSlots<typename Domain::space_type> slots(slot_count);
  const double exponent = penalty_exponent(kind);

  auto stop_test = [&]() -> std::optional<StopReason> {
    if (!all_finite(cost, update)) return StopReason::non_finite;
    if (update <= run.tol()) return StopReason::tolerance;
    if (options.rtol > 0 && cost < options.rtol * cost0) return StopReason::cost_to_initial;
    if (options.rtol1 > 0 && cost < options.rtol1 * data_cost) return StopReason::cost_to_data;
    return std::nullopt;
  };
  std::optional<StopReason> reason;
  if (!all_finite(cost)) reason = StopReason::non_finite;
  while (!reason && k < run.niter()) {
    // Gradient step from x (ISTA) or from the extrapolated point z (FISTA).
    const Domain& from = accelerated ? *z : x;
    op.apply_adjoint(accelerated ? *rz : res, v);
    v.axpby(T(1), from, scalar<T>(alpha));
    const double threshold_k =
        threshold0 * (options.decay.empty() ? 1.0 : options.decay[static_cast<std::size_t>(k)]);
    if (analysis) {
      sop.apply_adjoint(v, *coefficients);
      threshold(*coefficients, kind, threshold_k);
      sop.apply(*coefficients, v);
    } else {
      threshold(v, kind, threshold_k);
    }
    // v = x_{k+1}; d = x_{k+1} - x_k.
    d.axpbypcz(T(1), v, T(-1), x, T(0));
    double momentum = 0;
    double t_next = t;
    if (accelerated) {
      t_next = (1 + std::sqrt(1 + 4 * t * t)) / 2;
      momentum = (t - 1) / t_next;
      z->axpbypcz(T(1), v, scalar<T>(momentum), d, T(0));
    }
    std::swap(x, v);
    // The residual of x_{k+1}; FISTA's residual at z_{k+1} = x_{k+1} + m (x_{k+1} - x_k) is
    // (1 + m) res_{k+1} - m res_k by linearity.
    Range& next = accelerated ? *rz : res;
    op.apply(x, next);
    next.axpby(T(1), b, T(-1));
    if (accelerated) {
      res.axpby(scalar<T>(1 + momentum), next, scalar<T>(-momentum));
      std::swap(res, next);
    }
    // The iteration's reductions in one batch, read back once.
    slots.begin(update_squared, 3);
    slots.add_squared_norm(update_squared, d);
    slots.add_squared_norm(residual_squared, res);
    if (analysis) {
      sop.apply_adjoint(x, *coefficients);
      slots.add_power_sum(penalty_slot, *coefficients, exponent);
    } else {
      slots.add_power_sum(penalty_slot, x, exponent);
    }
    slots.combine();
    slots.read_back();
    update = std::sqrt(slots[update_squared]);
    if (!std::isfinite(update)) {
      std::swap(x, v);  // back to x_k
      reason = StopReason::non_finite;
      break;
    }
    t = t_next;
    rnorm = std::sqrt(slots[residual_squared]);
    cost = objective(rnorm, slots[penalty_slot]);
    ++k;
    run.record({rnorm, cost, update});
    reason = stop_test();
    if (!reason) {
      if (accelerated) {
        run.checkpoint(k, scalars, x, res, *z, *rz);
      } else {
        run.checkpoint(k, scalars, x, res);
      }
    }
    run.row(k, x, row);
    if (run.callback_stops(k, x, rnorm, cost) && !reason) reason = StopReason::callback;
  }
  IstaResult<Domain> result{
      run.finish(std::move(x), k, reason.value_or(StopReason::max_iterations), row,
                 {{"alpha", format_parameter(alpha)}, {"cost", format_parameter(cost)}}),
      alpha,
      threshold0,
      run.take_history(2),
      rnorm0,
      cost0};
  return result;
}

}  // namespace detail

/// Solves the sparsity-promoting problem above by ISTA from x0 = 0. Collective.
template <class Domain, class Range, class Coefficients = Domain>
IstaResult<Domain> ista(const BasicLinearOperator<Domain, Range>& op, const Range& y,
                        const IstaOptions<Domain, Coefficients>& options = {}) {
  return detail::sparse_run("ista", false, op, y, static_cast<const Domain*>(nullptr), options);
}
/// As above, starting from x0.
template <class Domain, class Range, class Coefficients = Domain>
IstaResult<Domain> ista(const BasicLinearOperator<Domain, Range>& op, const Range& y,
                        const Domain& x0, const IstaOptions<Domain, Coefficients>& options = {}) {
  return detail::sparse_run("ista", false, op, y, &x0, options);
}

#define DISTLOPS_SPARSE_INSTANCE(prefix, D, R)                                 \
  prefix template IstaResult<D> detail::sparse_run<D, R, D>(                   \
      const char*, bool, const BasicLinearOperator<D, R>&, const R&, const D*, \
      const IstaOptions<D, D>&);
DISTLOPS_SOLVER_PAIRS(DISTLOPS_SPARSE_INSTANCE, extern)
DISTLOPS_SOLVER_CUDA_PAIRS(DISTLOPS_SPARSE_INSTANCE, extern)

}  // namespace distlops
