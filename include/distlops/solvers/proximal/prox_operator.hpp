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
/// replicated arrays stay consistent. `out` may be `x` itself (in place).
///
/// Agreement: a call checks tau (positive and finite), out (x's layout) and the function
/// itself against x's layout (check_operand: parameters in range, vectors held of x's layout)
/// on every rank, and agrees with the other ranks, in the one allreduce it makes anyway, on the
/// verdict and on a fingerprint of tau, the layouts and the function's parameters
/// (add_parameters): bad input on any rank raises the same InvalidArgument or ShapeMismatch on
/// every rank, and arguments or parameters that differ between ranks raise InvalidArgument
/// naming the first rank that differs. The work then runs without further agreement. Inside a
/// solver's iterations (AgreedOperands) the checks stay local. Constructors check nothing
/// that could fail on some ranks only and communicate nothing: a parameter out of range is
/// reported by the first call, on every rank. A function that runs user code
/// (runs_user_code(): a subclass of the user's, a callable sigma, an operator with user code)
/// agrees after the call on its outcome too: an exception on some ranks becomes the same error
/// on every rank, and a value that differs between ranks an InvalidArgument.
///
/// Values of indicator functions (Box, EuclideanBall) are 0 or +infinity. For complex vectors
/// inner products are real parts: <v, x> = Re(v^H x), the inner product of C^n seen as R^2n.
///
/// Operators are immutable once built; composites (composition.hpp) hold shared copies.

#include <memory>
#include <optional>
#include <string>
#include <utility>

#include "distlops/config.hpp"
#include "distlops/core/distributed_array.hpp"
#include "distlops/core/instantiate.hpp"
#include "distlops/core/stacked_distributed_array.hpp"
#include "distlops/operators/vector_traits.hpp"

namespace distlops {

/// Base of the proximal operators: a convex function f seen through f(x), prox_{tau f},
/// prox_{tau f*} and, when differentiable, its gradient (see above). The public members check
/// and agree (see above), then call the protected do_* members a new function implements.
template <class V>
class ProxOperator {
 public:
  /// The vector type f acts on.
  using vector_type = V;
  /// The scalar type of the vectors.
  using value_type = typename V::value_type;
  /// What describes the vectors' distribution (Layout, StackedLayout).
  using layout_type = vector_layout_t<V>;

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

  /// Whether f runs code the library does not control, which may throw on some ranks only or
  /// compute a different value per rank: true for a subclass of the user's, false for the
  /// library's functions, which override it (composites say what they hold). Each call of such
  /// an f agrees on its outcome after it (one allreduce of four words). A user's function that
  /// never throws on some ranks only and returns equal values may return false.
  virtual bool runs_user_code() const { return true; }
  /// Raises (InvalidArgument, ShapeMismatch) when f cannot act on vectors of `layout` on this
  /// rank: a parameter out of range, a vector held of another layout, an operator whose domain
  /// does not fit. Run on every rank, its verdict agreed, before every call made outside a
  /// solver's iterations and at the proximal solvers' setup. The default accepts any layout.
  virtual void check_operand(const layout_type& layout) const { (void)layout; }
  /// Mixes into `fingerprint` what must be equal on every rank for f to be used: its numbers and
  /// the layouts of the vectors and operators it holds. Every call made outside a solver's
  /// iterations agrees on it, and the proximal solvers at setup. The default adds nothing.
  virtual void add_parameters(Fingerprint& fingerprint) const { (void)fingerprint; }
  /// check_operand with the error a constructor deferred first (what the solvers call).
  void check(const layout_type& layout) const;
  /// add_parameters, with the function's type and whether it runs user code.
  void fingerprint(Fingerprint& fingerprint) const;

 protected:
  /// No deferred error.
  ProxOperator() = default;
  /// Copies the deferred error, if any (what clone() needs).
  ProxOperator(const ProxOperator&) = default;
  /// Takes the other's deferred error, if any.
  ProxOperator& operator=(const ProxOperator&) = default;

  /// Records a parameter out of range found by a constructor: the first call raises it, on
  /// every rank (a constructor cannot tell the other ranks).
  void defer_error(ErrorKind kind, std::string message);

  /// f(x), with x already checked; a reduction, equal on every rank.
  virtual double do_value(const V& x) const = 0;
  /// out = prox_{tau f}(x), with tau and out already checked; out may be x.
  virtual void do_prox(const V& x, double tau, V& out) const = 0;
  /// Moreau's identity unless the function has a closed form.
  virtual void do_prox_conjugate(const V& x, double tau, V& out) const;
  /// out = grad f(x); the default throws InvalidArgument (f not differentiable).
  virtual void do_gradient(const V& x, V& out) const;

 private:
  /// Checks tau and out (when given) and f against x, agrees, then runs
  /// `body` (with the agreement on its outcome, `outcome`, when f runs user code).
  template <class Body>
  void agreed_call(const char* operation, const V& x, const V* out, const double* tau,
                   const Fingerprint& outcome, Body&& body) const;

  /// The error a constructor deferred (kind and message), if any.
  std::optional<std::pair<ErrorKind, std::string>> deferred_;
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
