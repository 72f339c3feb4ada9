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
/// (c^H A c and r^H r), 3 with (c^H A c, r^H r, r^H z). Work vectors: x, r, c, A c (and z),
/// allocated once before the loop.
///
/// Breakdowns: c^H A c == 0 (zero_curvature), c^H A c < 0 (negative_curvature),
/// r^H z <= 0 (indefinite_preconditioner) and NaN/Inf (non_finite) stop the run with that
/// reason on every rank; x is then the last finite iterate. PyLops takes |c^H A c| instead
/// and iterates on.

#include <array>
#include <optional>

#include "distlops/operators/linear_operator.hpp"
#include "distlops/solvers/common.hpp"
#include "distlops/solvers/detail/driver.hpp"
#include "distlops/solvers/detail/instantiation.hpp"

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
  double rr = 0;  // r^H r
  double rz = 0;  // r^H z (r^H r without preconditioner)
  const std::array<double*, 2> scalars{&rr, &rz};
  int k = 0;
  if (run.resuming()) {
    k = run.resume(scalars, x, r, c);
  } else {
    inputs.start(x, r);
    rr = squared_norm(r);
    if (preconditioned) {
      m.apply(r, *z);
      rz = real_vdot(r, *z);
    } else {
      rz = rr;
    }
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
    const double curvature = real_vdot(c, q);
    if (!std::isfinite(curvature)) {
      reason = StopReason::non_finite;
      break;
    }
    if (curvature <= 0) {
      reason = curvature == 0 ? StopReason::zero_curvature : StopReason::negative_curvature;
      break;
    }
    const double a = rz / curvature;
    x.axpy(scalar<T>(a), c);
    r.axpy(scalar<T>(-a), q);
    rr = squared_norm(r);
    double rz_next = rr;
    if (preconditioned) {
      m.apply(r, *z);
      rz_next = real_vdot(r, *z);
    }
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
