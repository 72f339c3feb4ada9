// SPDX-License-Identifier: BSD-3-Clause
// Copyright (c) 2026 The distlops authors
#pragma once
/// \file prox_operator.hpp
/// `ProxOperator<V>`: a convex function f on vectors V (DistributedArray or
/// StackedDistributedArray, either memory space) through what the proximal solvers need of it
/// (PyProximal's ProxOperator, PyLops-MPI's MPIProxOperator):
///
///     value(x)               f(x)
///     prox(x, tau)           prox_{tau f}(x) = argmin_y f(y) + 1/(2 tau) ||y - x||^2
///     prox_conjugate(x, tau) prox_{tau f*}(x), f* the convex conjugate, by default through
///                            Moreau's identity prox_{tau f*}(x) = x - tau prox_{f/tau}(x / tau)
///     gradient(x)            grad f(x), for differentiable f (differentiable() == true)
///
/// Every member is collective over the vector's communicator (the values are reductions,
/// returned equal on every rank) and works on every rank's local data only otherwise, so
/// replicated arrays stay consistent. `out` may be `x` itself (in place). tau must be positive
/// and finite, and out must have x's layout: otherwise InvalidArgument or ShapeMismatch, raised
/// on every rank alike (tau and layouts are the same on every rank).
///
/// Values of indicator functions (Box, EuclideanBall) are 0 or +infinity. For complex vectors
/// inner products are real parts: <v, x> = Re(v^H x), the inner product of C^n seen as R^2n.
///
/// Operators are immutable once built; composites (composition.hpp) hold shared copies.

#include <memory>
#include <string>

#include "distlops/config.hpp"
#include "distlops/core/distributed_array.hpp"
#include "distlops/core/instantiate.hpp"
#include "distlops/core/stacked_distributed_array.hpp"

namespace distlops {

/// Base of the proximal operators: a convex function f seen through f(x), prox_{tau f},
/// prox_{tau f*} and, when differentiable, its gradient (see above). The public members check
/// tau and the layouts on every rank, then call the protected do_* members a new function
/// implements.
template <class V>
class ProxOperator {
 public:
  /// The vector type f acts on.
  using vector_type = V;
  /// The scalar type of the vectors.
  using value_type = typename V::value_type;

  virtual ~ProxOperator() = default;

  /// A short description ("L1(sigma=0.1)").
  virtual std::string name() const = 0;
  /// A shared copy (composites and solvers keep these).
  virtual std::shared_ptr<const ProxOperator> clone() const = 0;

  /// f(x). Collective.
  double value(const V& x) const;
  /// out = prox_{tau f}(x). Collective.
  void prox(const V& x, double tau, V& out) const;
  /// prox_{tau f}(x) in a new vector of x's layout. Collective.
  V prox(const V& x, double tau) const;
  /// out = prox_{tau f*}(x). Collective.
  void prox_conjugate(const V& x, double tau, V& out) const;
  /// prox_{tau f*}(x) in a new vector of x's layout. Collective.
  V prox_conjugate(const V& x, double tau) const;
  /// Whether f is differentiable (gradient() is available).
  virtual bool differentiable() const { return false; }
  /// out = grad f(x) (for complex x the gradient with respect to the real and imaginary parts,
  /// as one complex vector). InvalidArgument when f is not differentiable. Collective.
  void gradient(const V& x, V& out) const;
  /// grad f(x) in a new vector of x's layout. Collective.
  V gradient(const V& x) const;

 protected:
  /// f(x), with x already checked; a reduction, equal on every rank.
  virtual double do_value(const V& x) const = 0;
  /// out = prox_{tau f}(x), with tau and out already checked; out may be x.
  virtual void do_prox(const V& x, double tau, V& out) const = 0;
  /// Moreau's identity unless the function has a closed form.
  virtual void do_prox_conjugate(const V& x, double tau, V& out) const;
  /// out = grad f(x); the default throws InvalidArgument (f not differentiable).
  virtual void do_gradient(const V& x, V& out) const;

 private:
  void check_step(const V& x, double tau, const V& out, const char* operation) const;
};

/// \cond
#define DISTLOPS_DETAIL_PROX_VECTORS(M, T, Space) \
  M(DistributedArray<T, Space>) M(StackedDistributedArray<T, Space>)
/// \endcond
/// M(V) for the vector types the library compiles the proximal operators and solvers for:
/// distributed and stacked arrays of the four scalar types in every memory space of the build.
/// M is variadic (`#define M(...)`): V holds a comma.
#define DISTLOPS_FOR_EACH_PROX_VECTOR(M) DISTLOPS_DETAIL_EACH(DISTLOPS_DETAIL_PROX_VECTORS, M)

/// \cond
#define DISTLOPS_DETAIL_EXTERN_PROX_OPERATOR(...) extern template class ProxOperator<__VA_ARGS__>;
DISTLOPS_FOR_EACH_PROX_VECTOR(DISTLOPS_DETAIL_EXTERN_PROX_OPERATOR)
#undef DISTLOPS_DETAIL_EXTERN_PROX_OPERATOR
/// \endcond

}  // namespace distlops
