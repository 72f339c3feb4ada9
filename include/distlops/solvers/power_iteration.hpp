// SPDX-License-Identifier: BSD-3-Clause
// Copyright (c) 2026 The distlops authors
#pragma once
/// \file power_iteration.hpp
/// Power iteration for the eigenvalue of largest modulus of a square operator, or for the
/// largest eigenvalue of the normal operator A^H A (PyLops-MPI's power_iteration):
///
///     b_0 = random / ||random||            (fill_random with key `seed`)
///     b_0 = start / ||start||              (the overloads taking a start vector)
///     lambda_k = b_k^H A b_k,   b_{k+1} = A b_k / ||A b_k||
///     stop when |lambda_k - lambda_{k-1}| < tol |lambda_k|, or after niter iterations.
///
/// The Rayleigh quotient approaches the largest eigenvalue from below for Hermitian positive
/// semi-definite operators such as A^H A. Per iteration: one apply, 2 reductions (b^H A b and
/// ||A b||^2) in one batch (scalar_slots.hpp): one collective, the normalisation of A b by a
/// coefficient computed where the vectors live, and one read-back of the scalars to the host.
///
/// A start vector close to the wanted eigenvector (the estimate of a previous run, of a nearby
/// operator in a sequence of problems) saves iterations; it must have the operator's domain
/// layout (or one that can be viewed as it), be non-zero and finite; otherwise every rank
/// raises ShapeMismatch or InvalidArgument alike (the norm that decides it is a reduction).

#include <cmath>
#include <complex>
#include <cstdint>
#include <utility>

#include "distlops/core/collective_check.hpp"
#include "distlops/core/instantiate.hpp"
#include "distlops/core/random.hpp"
#include "distlops/operators/linear_operator.hpp"
#include "distlops/solvers/detail/scalar_slots.hpp"
#include "distlops/solvers/detail/vectors.hpp"

namespace distlops {

/// Options of power_iteration and power_iteration_normal.
struct PowerIterationOptions {
  /// Maximum number of iterations.
  int niter = 30;
  /// Stop when |lambda_k - lambda_{k-1}| < tol |lambda_k|.
  double tol = 1e-6;
  /// Key of the random initial vector (fill_random).
  std::uint64_t seed = 0;
};

/// What power_iteration returns (equal on every rank).
template <class V>
struct PowerIterationResult {
  /// The estimate of the eigenvalue of largest modulus.
  typename V::value_type eigenvalue;
  /// Iterations done.
  int iterations = 0;
  /// Whether the relative change of the estimate fell below tol.
  bool converged = false;
  /// The last normalised iterate, an estimate of the eigenvector.
  V eigenvector;
};

namespace detail {

/// `start`: the start vector, or null for a random one (key options.seed).
template <class V>
PowerIterationResult<V> power_iteration_run(const BasicLinearOperator<V, V>& op, const V* start,
                                            const PowerIterationOptions& options) {
  using T = typename V::value_type;
  if (!(op.domain() == op.range())) {
    throw ShapeMismatch("power_iteration: the operator " + op.name() +
                        " must map a space onto itself");
  }
  V b(op.domain()), next(op.domain());
  Fingerprint parameters;
  parameters.add(options.niter).add(options.tol).add(options.seed).add(start != nullptr);
  collective_check(detail::solver_communicator(b), parameters,
                   "power_iteration: niter, tol, seed or the start vector's presence", [&] {
                     if (options.niter < 1 || !(options.tol >= 0)) {
                       throw InvalidArgument(
                           "power_iteration: niter must be positive and tol non-negative, got " +
                           std::to_string(options.niter) + " and " + std::to_string(options.tol));
                     }
                   });
  if (start) {
    const LayoutAdapter<V> given(*start, op.domain(), "power_iteration", "", "the start vector");
    b.copy_from(given.get_const());
  } else {
    fill_random(b, options.seed);
  }
  // From here on the operands are the iteration's own vectors.
  const AgreedOperands agreed;
  // A reduction: the same verdict on every rank.
  const double start_norm = static_cast<double>(b.norm());
  if (!(start_norm > 0) || !std::isfinite(start_norm)) {
    throw InvalidArgument(
        "power_iteration: the start vector must be non-zero and finite, its "
        "norm is " +
        std::to_string(start_norm));
  }
  b.scale(scalar<T>(1.0 / start_norm));
  // Slots: Re and Im of b^H A b, ||A b||^2, 1 / ||A b||.
  enum { eigenvalue_re, eigenvalue_im, length_squared, inverse_length, slot_count };
  ScalarSlots<typename V::space_type> slots(slot_count);
  PowerIterationResult<V> result{T(0), 0, false, {}};
  T previous(0);
  for (int k = 0; k < options.niter; ++k) {
    op.apply(b, next);
    slots.begin(eigenvalue_re, 3);
    slots.add_vdot(eigenvalue_re, b, next);
    slots.add_squared_norm(length_squared, next);
    slots.combine();
    // next / ||next|| where the vectors live (unscaled when A b == 0: then it is not used).
    slots.reciprocal_sqrt(inverse_length, length_squared, 1.0);
    scale_by_slot(next, slots.device(inverse_length), 1.0);
    slots.read_back();
    if constexpr (is_complex_v<T>) {
      using R = real_type_t<T>;
      result.eigenvalue =
          T(static_cast<R>(slots[eigenvalue_re]), static_cast<R>(slots[eigenvalue_im]));
    } else {
      result.eigenvalue = static_cast<T>(slots[eigenvalue_re]);
    }
    result.iterations = k + 1;
    const double length = std::sqrt(slots[length_squared]);
    // A b == 0: b lies in the null space, the estimate is 0 and cannot improve.
    if (!(length > 0) || !std::isfinite(length)) break;
    std::swap(b, next);
    if (std::abs(result.eigenvalue - previous) < options.tol * std::abs(result.eigenvalue)) {
      result.converged = true;
      break;
    }
    previous = result.eigenvalue;
  }
  result.eigenvector = std::move(b);
  return result;
}

}  // namespace detail

/// The eigenvalue of largest modulus of the square operator `op`, from a random start
/// (options.seed). Collective.
template <class V>
PowerIterationResult<V> power_iteration(const BasicLinearOperator<V, V>& op,
                                        const PowerIterationOptions& options = {}) {
  return detail::power_iteration_run(op, static_cast<const V*>(nullptr), options);
}
/// As above, from the start vector `start` (options.seed is not used). Collective.
template <class V>
PowerIterationResult<V> power_iteration(const BasicLinearOperator<V, V>& op, const V& start,
                                        const PowerIterationOptions& options = {}) {
  return detail::power_iteration_run(op, &start, options);
}

/// The largest eigenvalue of A^H A (its real part: A^H A is Hermitian), with the eigenvector
/// estimate in A's domain, from a random start. Collective.
template <class Domain, class Range>
PowerIterationResult<Domain> power_iteration_normal(const BasicLinearOperator<Domain, Range>& op,
                                                    const PowerIterationOptions& options = {}) {
  PowerIterationResult<Domain> result =
      detail::power_iteration_run(op.adjoint() * op, static_cast<const Domain*>(nullptr), options);
  result.eigenvalue = std::real(result.eigenvalue);
  return result;
}
/// As above, from the start vector `start` in A's domain. Collective.
template <class Domain, class Range>
PowerIterationResult<Domain> power_iteration_normal(const BasicLinearOperator<Domain, Range>& op,
                                                    const Domain& start,
                                                    const PowerIterationOptions& options = {}) {
  PowerIterationResult<Domain> result =
      detail::power_iteration_run(op.adjoint() * op, &start, options);
  result.eigenvalue = std::real(result.eigenvalue);
  return result;
}

/// \cond
/// The cases compiled in the library (solvers/power_iteration.cpp): distributed and stacked arrays
/// of every scalar type and memory space, and local arrays of the host (other cases compile where
/// used).
#define DISTLOPS_DETAIL_POWER_ITERATION_ARRAYS(prefix, T, Space)                          \
  prefix template PowerIterationResult<DistributedArray<T, Space>>                        \
  detail::power_iteration_run<DistributedArray<T, Space>>(                                \
      const BasicLinearOperator<DistributedArray<T, Space>, DistributedArray<T, Space>>&, \
      const DistributedArray<T, Space>*, const PowerIterationOptions&);                   \
  prefix template PowerIterationResult<StackedDistributedArray<T, Space>>                 \
  detail::power_iteration_run<StackedDistributedArray<T, Space>>(                         \
      const BasicLinearOperator<StackedDistributedArray<T, Space>,                        \
                                StackedDistributedArray<T, Space>>&,                      \
      const StackedDistributedArray<T, Space>*, const PowerIterationOptions&);
#define DISTLOPS_DETAIL_POWER_ITERATION_LOCAL(prefix, T, Space)               \
  prefix template PowerIterationResult<LocalArray<T, Space>>                  \
  detail::power_iteration_run<LocalArray<T, Space>>(                          \
      const BasicLinearOperator<LocalArray<T, Space>, LocalArray<T, Space>>&, \
      const LocalArray<T, Space>*, const PowerIterationOptions&);
#define DISTLOPS_DETAIL_POWER_ITERATION_CASES(prefix)                                    \
  DISTLOPS_FOR_EACH_SCALAR_AND_SPACE_ARG(DISTLOPS_DETAIL_POWER_ITERATION_ARRAYS, prefix) \
  DISTLOPS_FOR_EACH_SCALAR_IN_ARG(DISTLOPS_DETAIL_POWER_ITERATION_LOCAL, prefix, ::distlops::Host)
DISTLOPS_DETAIL_POWER_ITERATION_CASES(extern)
/// \endcond

}  // namespace distlops
