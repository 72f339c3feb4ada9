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

#include "distlops/operators/linear_operator.hpp"
#include "distlops/solvers/common.hpp"
#include "distlops/solvers/detail/driver.hpp"
#include "distlops/solvers/detail/instantiation.hpp"
#include "distlops/solvers/detail/scalar_slots.hpp"

namespace distlops {

template <class Domain>
struct CglsOptions : SolverOptions<Domain> {
  /// Damping: the problem is min ||y - A x||^2 + damp^2 ||x||^2 (damp >= 0).
  double damp = 0.0;
};

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

template <class Domain, class Range>
CglsResult<Domain> cgls_run(const BasicLinearOperator<Domain, Range>& op, const Range& y,
                            const Domain* x0, const CglsOptions<Domain>& options) {
  using T = typename Domain::value_type;
  const SolverInputs<Domain, Range> inputs(op, y, x0, "cgls");
  const double damp = options.damp;
  const double damp2 = damp * damp;

  Domain x(op.domain()), r(op.domain()), c(op.domain());
  Range s(op.range()), q(op.range());
  Fingerprint parameters;
  parameters.add(damp);
  SolverDriver<Domain> run("cgls", options, solver_communicator(x), checkpoint_rank(x), parameters,
                           0, [&] { check_damp("cgls", damp); });

  // Slots: ||q||^2, ||c||^2, the step a, ||r||^2, ||s||^2.
  enum { q_squared, c_squared, step, r_squared, s_squared, slot_count };
  ScalarSlots<typename Domain::space_type> slots(slot_count);
  auto reduce_r_and_s = [&] {
    slots.begin(r_squared, 2);
    slots.add_squared_norm(r_squared, r);
    slots.add_squared_norm(s_squared, s);
    slots.combine();
    slots.read_back();
  };

  double kold = 0;   // ||r||^2
  double snorm = 0;  // ||s||
  const std::array<double*, 2> scalars{&kold, &snorm};
  int k = 0;
  if (run.resuming()) {
    k = run.resume(scalars, x, r, c, s, q);
  } else {
    inputs.start(x, s);
    op.apply_adjoint(s, r);
    if (inputs.has_x0() && damp2 != 0) r.axpy(scalar<T>(-damp2), x);
    c.copy_from(r);
    op.apply(c, q);
    reduce_r_and_s();
    kold = slots[r_squared];
    snorm = std::sqrt(slots[s_squared]);
    run.record({std::sqrt(kold), snorm});
  }

  auto r2norm = [&] {
    return damp2 == 0 ? snorm : std::sqrt(snorm * snorm + damp2 * squared_norm(x));
  };
  auto row = [&] { return std::vector<double>{snorm, r2norm(), std::sqrt(kold)}; };
  run.header(op.rows(), op.cols(), {{"damp", format_parameter(damp)}},
             {"r1norm", "r2norm", "normres"});
  run.row(k, x, row);

  auto stop_test = [&]() -> std::optional<StopReason> {
    if (!all_finite(kold, snorm)) return StopReason::non_finite;
    if (std::sqrt(kold) <= run.tol()) return StopReason::tolerance;
    return std::nullopt;
  };
  std::optional<StopReason> reason = stop_test();
  while (!reason && k < run.niter()) {
    // a = ||r||^2 / curvature where the vectors live (0 at a breakdown: x, s stay as they are).
    slots.begin(q_squared, 2);
    slots.add_squared_norm(q_squared, q);
    if (damp2 != 0) slots.add_squared_norm(c_squared, c);
    slots.combine();
    slots.step_length(step, kold, q_squared, damp2 != 0 ? c_squared : -1, damp2);
    axpy_by_slot(x, slots.device(step), 1.0, c);
    axpy_by_slot(s, slots.device(step), -1.0, q);
    op.apply_adjoint(s, r);
    if (damp2 != 0) r.axpy(scalar<T>(-damp2), x);
    reduce_r_and_s();
    double curvature = slots[q_squared];
    if (damp2 != 0) curvature += damp2 * slots[c_squared];
    if (!std::isfinite(curvature)) {
      reason = StopReason::non_finite;
      break;
    }
    if (curvature <= 0) {
      reason = StopReason::zero_curvature;
      break;
    }
    const double knew = slots[r_squared];
    snorm = std::sqrt(slots[s_squared]);
    ++k;
    const double kprevious = kold;
    kold = knew;
    run.record({std::sqrt(kold), snorm});
    reason = stop_test();
    if (!reason) {
      c.axpby(T(1), r, scalar<T>(kold / kprevious));
      op.apply(c, q);
      run.checkpoint(k, scalars, x, r, c, s, q);
    }
    run.row(k, x, row);
    if (run.callback_stops(k, x, std::sqrt(kold), snorm) && !reason) reason = StopReason::callback;
  }
  const double final_r2norm = r2norm();
  CglsResult<Domain> result{
      run.finish(std::move(x), k, reason.value_or(StopReason::max_iterations), row,
                 {{"r1norm", format_parameter(snorm)}, {"r2norm", format_parameter(final_r2norm)}}),
      snorm, final_r2norm};
  return result;
}

}  // namespace detail

/// Solves min ||y - A x||^2 + damp^2 ||x||^2 by CGLS from x0 = 0. y has A's range layout (or a
/// view-compatible one). Collective over the vectors' communicator.
template <class Domain, class Range>
CglsResult<Domain> cgls(const BasicLinearOperator<Domain, Range>& op, const Range& y,
                        const CglsOptions<Domain>& options = {}) {
  return detail::cgls_run(op, y, static_cast<const Domain*>(nullptr), options);
}
/// As above, starting from x0 (A's domain layout).
template <class Domain, class Range>
CglsResult<Domain> cgls(const BasicLinearOperator<Domain, Range>& op, const Range& y,
                        const Domain& x0, const CglsOptions<Domain>& options = {}) {
  return detail::cgls_run(op, y, &x0, options);
}

#define DISTLOPS_CGLS_INSTANCE(prefix, D, R)                                                       \
  prefix template CglsResult<D> detail::cgls_run<D, R>(const BasicLinearOperator<D, R>&, const R&, \
                                                       const D*, const CglsOptions<D>&);
DISTLOPS_SOLVER_PAIRS(DISTLOPS_CGLS_INSTANCE, extern)
DISTLOPS_SOLVER_CUDA_PAIRS(DISTLOPS_CGLS_INSTANCE, extern)

}  // namespace distlops
