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
/// batch; nothing else waits for the device. Without preconditioner the updates of x and r and
/// r^H r are one pass (ScalarSlots::add_axpy_pair_squared_norm): 13 words per unknown move per
/// iteration (apply 2, c^H A c 2, that pass 6, c 3) instead of 14, with the same rounding.
/// Work vectors: x, r, c, A c (and z), allocated once before the loop.
///
/// Breakdowns: c^H A c == 0 (zero_curvature), c^H A c < 0 (negative_curvature),
/// r^H z <= 0 (indefinite_preconditioner) and NaN/Inf (non_finite) stop the run with that
/// reason on every rank; x is then the last finite iterate (the step of a curvature breakdown
/// is 0). PyLops takes |c^H A c| instead
/// and iterates on.

#include <array>
#include <optional>

#include "distlops/operators/linear_operator.hpp"
#include "distlops/solvers/common.hpp"
#include "distlops/solvers/detail/driver.hpp"
#include "distlops/solvers/detail/instantiation.hpp"
#include "distlops/solvers/detail/scalar_slots.hpp"

namespace distlops {

template <class V>
struct CgOptions : SolverOptions<V> {
  /// M ~ A^{-1} (Hermitian positive definite, mapping A's domain onto itself), applied once
  /// per iteration. An empty handle (the default) runs plain CG.
  BasicLinearOperator<V, V> preconditioner = {};
};

template <class V>
using CgResult = SolverResult<V>;

namespace detail {

template <class V>
CgResult<V> cg_run(const BasicLinearOperator<V, V>& op, const V& y, const V* x0,
                   const CgOptions<V>& options) {
  using T = typename V::value_type;
  using traits = vector_traits<V>;
  const BasicLinearOperator<V, V>& m = options.preconditioner;
  const bool preconditioned = !m.empty();
  if (!(op.domain() == op.range())) {
    throw ShapeMismatch("cg: the operator must map a space onto itself; " + op.name() + " maps " +
                        traits::describe(op.domain()) + " to " + traits::describe(op.range()));
  }
  if (preconditioned && (!(m.domain() == op.domain()) || !(m.range() == op.domain()))) {
    throw ShapeMismatch("cg: the preconditioner " + m.name() + " must map " +
                        traits::describe(op.domain()) + " onto itself, it maps " +
                        traits::describe(m.domain()) + " to " + traits::describe(m.range()));
  }
  const SolverInputs<V, V> inputs(op, y, x0, "cg");
  const V& b = inputs.y();

  Fingerprint parameters;
  parameters.add(preconditioned);
  SolverDriver<V> run("cg", options, solver_communicator(b), checkpoint_rank(b), parameters, 0,
                      [] {});

  V x(op.domain()), r(op.domain()), c(op.domain()), q(op.domain());
  std::optional<V> z;
  if (preconditioned) z.emplace(op.domain());
  // Slots: c^H A c, the step a, r^H r, r^H z.
  enum { curvature_slot, step, r_squared, rz_slot, slot_count };
  ScalarSlots<typename V::space_type> slots(slot_count);
  auto reduce_r_and_z = [&] {
    slots.begin(r_squared, 2);
    slots.add_squared_norm(r_squared, r);
    if (preconditioned) slots.add_real_vdot(rz_slot, r, *z);
    slots.combine();
    slots.read_back();
  };

  double rr = 0;  // r^H r
  double rz = 0;  // r^H z (r^H r without preconditioner)
  const std::array<double*, 2> scalars{&rr, &rz};
  int k = 0;
  if (run.resuming()) {
    k = run.resume(scalars, x, r, c);
  } else {
    inputs.start(x, r);
    if (preconditioned) m.apply(r, *z);
    reduce_r_and_z();
    rr = slots[r_squared];
    rz = preconditioned ? slots[rz_slot] : rr;
    c.copy_from(preconditioned ? *z : r);
    run.record({std::sqrt(rr), std::sqrt(rz)});
  }

  // The stop tests of an iterate: NaN/Inf, the tolerance, then a usable r^H z.
  auto stop_test = [&]() -> std::optional<StopReason> {
    if (!all_finite(rr, rz)) return StopReason::non_finite;
    if (std::sqrt(rr) <= run.tol()) return StopReason::tolerance;
    if (!(rz > 0)) return StopReason::indefinite_preconditioner;
    return std::nullopt;
  };
  auto row = [&] { return std::vector<double>{std::sqrt(rr), std::sqrt(rz)}; };
  run.header(op.rows(), op.cols(), {{"preconditioner", preconditioned ? m.name() : "none"}},
             {"r2norm", "Mnorm"});
  run.row(k, x, row);

  std::optional<StopReason> reason = stop_test();
  while (!reason && k < run.niter()) {
    op.apply(c, q);
    // a = r^H z / c^H A c where the vectors live (0 at a breakdown: x, r stay as they are).
    slots.begin(curvature_slot, 1);
    slots.add_real_vdot(curvature_slot, c, q);
    slots.combine();
    slots.step_length(step, rz, curvature_slot);
    if (preconditioned) {
      axpy_by_slot(x, slots.device(step), 1.0, c);
      axpy_by_slot(r, slots.device(step), -1.0, q);
      m.apply(r, *z);
      reduce_r_and_z();
    } else {
      // x, r and r^H r in one pass: c, q, x, r read once, x and r written once.
      slots.begin(r_squared, 1);
      slots.add_axpy_pair_squared_norm(r_squared, step, x, 1.0, c, r, -1.0, q);
      slots.combine();
      slots.read_back();
    }
    const double curvature = slots[curvature_slot];
    if (!std::isfinite(curvature)) {
      reason = StopReason::non_finite;
      break;
    }
    if (curvature <= 0) {
      reason = curvature == 0 ? StopReason::zero_curvature : StopReason::negative_curvature;
      break;
    }
    rr = slots[r_squared];
    const double rz_next = preconditioned ? slots[rz_slot] : rr;
    ++k;
    const double rz_previous = rz;
    rz = rz_next;
    run.record({std::sqrt(rr), std::sqrt(std::abs(rz))});
    reason = stop_test();
    if (!reason) {
      c.axpby(T(1), preconditioned ? *z : r, scalar<T>(rz / rz_previous));
      run.checkpoint(k, scalars, x, r, c);
    }
    run.row(k, x, row);
    if (run.callback_stops(k, x, std::sqrt(rr), std::sqrt(std::abs(rz))) && !reason) {
      reason = StopReason::callback;
    }
  }
  return run.finish(std::move(x), k, reason.value_or(StopReason::max_iterations), row);
}

}  // namespace detail

/// Solves A x = y by (preconditioned) conjugate gradients from x0 = 0. A must map its domain
/// onto itself (square) and be Hermitian positive definite; y has A's range layout (or a
/// view-compatible one). Collective over the vectors' communicator.
template <class V>
CgResult<V> cg(const BasicLinearOperator<V, V>& op, const V& y, const CgOptions<V>& options = {}) {
  return detail::cg_run(op, y, static_cast<const V*>(nullptr), options);
}
/// As above, starting from x0 (A's domain layout).
template <class V>
CgResult<V> cg(const BasicLinearOperator<V, V>& op, const V& y, const V& x0,
               const CgOptions<V>& options = {}) {
  return detail::cg_run(op, y, &x0, options);
}

#define DISTLOPS_CG_INSTANCE(prefix, V)                                                     \
  prefix template CgResult<V> detail::cg_run<V>(const BasicLinearOperator<V, V>&, const V&, \
                                                const V*, const CgOptions<V>&);
DISTLOPS_SOLVER_VECTORS(DISTLOPS_CG_INSTANCE, extern)
DISTLOPS_SOLVER_CUDA_VECTORS(DISTLOPS_CG_INSTANCE, extern)

}  // namespace distlops
