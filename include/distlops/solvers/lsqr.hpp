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

#include "distlops/operators/linear_operator.hpp"
#include "distlops/solvers/cgls.hpp"
#include "distlops/solvers/common.hpp"
#include "distlops/solvers/detail/driver.hpp"
#include "distlops/solvers/detail/instantiation.hpp"
#include "distlops/solvers/detail/lsqr_recurrence.hpp"
#include "distlops/solvers/detail/scalar_slots.hpp"

namespace distlops {

template <class Domain>
struct LsqrOptions : SolverOptions<Domain> {
  /// Damping (>= 0).
  double damp = 0.0;
  /// Stopping tolerances of LSQR (PyLops' defaults); 0 disables the corresponding test.
  double atol = 1e-8;
  double btol = 1e-8;
  /// Stop when the condition estimate exceeds conlim (0 disables the test).
  double conlim = 1e8;
};

template <class Domain>
struct LsqrResult : SolverResult<Domain> {
  /// PyLops' istop code of the stop reason: 1 to 6 for its tests, 7 for the iteration limit,
  /// 0 for the others (tolerance, breakdown, callback).
  int istop = 0;
  double r1norm = 0.0;
  double r2norm = 0.0;
  double anorm = 0.0;
  double acond = 0.0;
  double arnorm = 0.0;
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

template <class Domain, class Range>
LsqrResult<Domain> lsqr_run(const BasicLinearOperator<Domain, Range>& op, const Range& y,
                            const Domain* x0, const LsqrOptions<Domain>& options) {
  using T = typename Domain::value_type;
  const SolverInputs<Domain, Range> inputs(op, y, x0, "lsqr");
  const double damp = options.damp;
  const double dampsq = damp * damp;
  const double ctol = options.conlim > 0 ? 1.0 / options.conlim : 0.0;

  Domain x(op.domain()), v(op.domain()), w(op.domain());
  Range u(op.range());
  Fingerprint parameters;
  parameters.add(damp).add(options.atol).add(options.btol).add(options.conlim);
  SolverDriver<Domain> run(
      "lsqr", options, solver_communicator(x), checkpoint_rank(x), parameters, 0, [&] {
        check_damp("lsqr", damp);
        if (!(options.atol >= 0) || !(options.btol >= 0) || !(options.conlim >= 0)) {
          throw InvalidArgument("lsqr: atol, btol and conlim must be non-negative");
        }
      });
  // From here on the operands are the solver's own vectors, of the layouts agreed above.
  const AgreedOperands agreed;

  // The slots hold the recurrence's scalars (LsqrSlots); sc is their host copy.
  using Space = typename Domain::space_type;
  ScalarSlots<Space> slots(lsqr_slot_count);
  LsqrSlots& host_slots = *reinterpret_cast<LsqrSlots*>(slots.host_data());
  LsqrScalars& sc = host_slots.sc;
  sc = LsqrScalars{};
  const auto scalars = sc.fields();
  const LsqrParameters parameters_of_run{damp, dampsq, options.atol, options.btol, ctol};
  int k = 0;
  if (run.resuming()) {
    k = run.resume(scalars, x, v, w, u);
  } else {
    inputs.start(x, u);
    sc.beta = static_cast<double>(u.norm());
    if (sc.beta > 0) {
      u.scale(scalar<T>(1.0 / sc.beta));
      op.apply_adjoint(u, v);
      sc.alfa = static_cast<double>(v.norm());
      if (sc.alfa > 0) v.scale(scalar<T>(1.0 / sc.alfa));
    } else {
      v.copy_from(x);
    }
    w.copy_from(v);
    sc.arnorm = sc.arnorm0 = sc.alfa * sc.beta;
    sc.rhobar = sc.alfa;
    sc.phibar = sc.bnorm = sc.rnorm = sc.r1norm = sc.beta;
    run.record({sc.arnorm, sc.r1norm});
  }
  slots.upload();

  auto row = [&] {
    return std::vector<double>{sc.r1norm, sc.rnorm, sc.test1, sc.test2, sc.anorm, sc.acond};
  };
  run.header(op.rows(), op.cols(),
             {{"damp", format_parameter(damp)},
              {"atol", format_parameter(options.atol)},
              {"btol", format_parameter(options.btol)},
              {"conlim", format_parameter(options.conlim)}},
             {"r1norm", "r2norm", "Compatible", "LS", "Norm A", "Cond A"});
  run.row(k, x, row);

  // The slot memory of a field of LsqrSlots.
  auto slot = [&](double LsqrSlots::*field) {
    const LsqrSlots& device_slots = *reinterpret_cast<const LsqrSlots*>(slots.data());
    return &(device_slots.*field);
  };
  auto stop_test = [&]() -> std::optional<StopReason> {
    if (sc.istop > 0) return lsqr_reason(static_cast<int>(sc.istop));
    if (!all_finite(sc.arnorm, sc.r1norm)) return StopReason::non_finite;
    if (sc.arnorm <= run.tol()) return StopReason::tolerance;
    return std::nullopt;
  };
  std::optional<StopReason> reason = stop_test();
  while (!reason && k < run.niter()) {
    // Bidiagonalisation: beta u = A v - alfa u, alfa v = A^H u - beta v, with beta and alfa
    // where the vectors live (alfa of the previous iteration is known on the host).
    op.apply_add(T(1), v, scalar<T>(-sc.alfa), u);
    slots.begin(lsqr_slot_u_squared, 2);
    slots.add_squared_norm(lsqr_slot_u_squared, u);
    slots.add_squared_norm(lsqr_slot_w_squared, w);
    slots.combine();
    kernels::slots::lsqr_after_u(Space{}, slots.data(), dampsq);
    scale_by_slot(u, slot(&LsqrSlots::u_scale), 1.0);
    scale_by_slot(v, slot(&LsqrSlots::v_scale), 1.0);
    op.apply_adjoint_add(T(1), u, T(1), v);
    slots.begin(lsqr_slot_v_squared, 1);
    slots.add_squared_norm(lsqr_slot_v_squared, v);
    slots.combine();
    // Rotations, estimates and stopping tests; then x += t1 w, w = v + t2 w (x and w unchanged
    // when a scalar is not finite).
    kernels::slots::lsqr_after_v(Space{}, slots.data(), parameters_of_run);
    scale_by_slot(v, slot(&LsqrSlots::v_normalise), 1.0);
    axpy_by_slot(x, slot(&LsqrSlots::x_step), 1.0, w);
    axpby_by_slot(w, slot(&LsqrSlots::w_v), v, slot(&LsqrSlots::w_w));
    slots.read_back();
    if (host_slots.finite == 0) {
      reason = StopReason::non_finite;
      break;
    }
    ++k;
    run.record({sc.arnorm, sc.r1norm});
    reason = stop_test();
    if (!reason) run.checkpoint(k, scalars, x, v, w, u);
    run.row(k, x, row);
    if (run.callback_stops(k, x, sc.arnorm, sc.r1norm) && !reason) reason = StopReason::callback;
  }
  const StopReason final_reason = reason.value_or(StopReason::max_iterations);
  int istop = 0;
  if (sc.istop > 0) istop = static_cast<int>(sc.istop);
  if (final_reason == StopReason::max_iterations) istop = 7;
  LsqrResult<Domain> result{run.finish(std::move(x), k, final_reason, row,
                                       {{"istop", std::to_string(istop)},
                                        {"r1norm", format_parameter(sc.r1norm)},
                                        {"r2norm", format_parameter(sc.rnorm)},
                                        {"anorm", format_parameter(sc.anorm)},
                                        {"acond", format_parameter(sc.acond)},
                                        {"arnorm", format_parameter(sc.arnorm)},
                                        {"xnorm", format_parameter(sc.xnorm)}}),
                            istop,
                            sc.r1norm,
                            sc.rnorm,
                            sc.anorm,
                            sc.acond,
                            sc.arnorm,
                            sc.xnorm};
  return result;
}

}  // namespace detail

/// Solves min ||y - A x||^2 + damp^2 ||x||^2 by LSQR from x0 = 0. Collective.
template <class Domain, class Range>
LsqrResult<Domain> lsqr(const BasicLinearOperator<Domain, Range>& op, const Range& y,
                        const LsqrOptions<Domain>& options = {}) {
  return detail::lsqr_run(op, y, static_cast<const Domain*>(nullptr), options);
}
/// As above, starting from x0 (A's domain layout).
template <class Domain, class Range>
LsqrResult<Domain> lsqr(const BasicLinearOperator<Domain, Range>& op, const Range& y,
                        const Domain& x0, const LsqrOptions<Domain>& options = {}) {
  return detail::lsqr_run(op, y, &x0, options);
}

#define DISTLOPS_LSQR_INSTANCE(prefix, D, R)                                                       \
  prefix template LsqrResult<D> detail::lsqr_run<D, R>(const BasicLinearOperator<D, R>&, const R&, \
                                                       const D*, const LsqrOptions<D>&);
DISTLOPS_SOLVER_PAIRS(DISTLOPS_LSQR_INSTANCE, extern)
DISTLOPS_SOLVER_CUDA_PAIRS(DISTLOPS_LSQR_INSTANCE, extern)

}  // namespace distlops
