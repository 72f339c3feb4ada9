// SPDX-License-Identifier: BSD-3-Clause
// Copyright (c) 2026 The distlops authors
#pragma once
/// \file composition.hpp
/// New proximal operators from one (PyProximal's precomposition, postcomposition and
/// affine_addition; PyLops-MPI's MPIProxOperator composition):
///
///   Precomposed(f, a, b):   g(x) = f(a x + b),  a real and non-zero, b a vector (or 0)
///       prox_{tau g}(x) = (prox_{a^2 tau f}(a x + b) - b) / a,  grad g(x) = a grad f(a x + b)
///   Postcomposed(f, s, v):  g(x) = s f(x) + <v, x>,  s > 0, v a vector (or 0)
///       prox_{tau g}(x) = prox_{s tau f}(x - tau v),  grad g(x) = s grad f(x) + v
///
/// with <v, x> = Re(v^H x). The conjugates' proxes go through Moreau's identity. The
/// composites hold a shared copy of f (ProxOperator::clone).

#include <optional>

#include "distlops/solvers/proximal/prox_operator.hpp"

namespace distlops {

/// g(x) = f(a x + b): prox_{tau g}(x) = (prox_{a^2 tau f}(a x + b) - b) / a (see above);
/// differentiable when f is.
template <class V>
class Precomposed : public ProxOperator<V> {
 public:
  /// a finite and non-zero (InvalidArgument at the first call otherwise).
  Precomposed(const ProxOperator<V>& f, double a);
  /// f(a x + b); `b` must have the layout of the vectors x; a as above.
  Precomposed(const ProxOperator<V>& f, double a, const V& b);

  std::string name() const override;
  std::shared_ptr<const ProxOperator<V>> clone() const override;
  bool differentiable() const override { return f_->differentiable(); }
  /// Whether f runs user code.
  bool runs_user_code() const override { return f_->runs_user_code(); }
  /// f accepts x's layout and the vector held has it.
  void check_operand(const vector_layout_t<V>& layout) const override;
  /// f's parameters, the factor and the vector's layout.
  void add_parameters(Fingerprint& fingerprint) const override;

 protected:
  double do_value(const V& x) const override;
  void do_prox(const V& x, double tau, V& out) const override;
  void do_gradient(const V& x, V& out) const override;

 private:
  /// out = a x + b.
  void inner(const V& x, V& out) const;
  std::shared_ptr<const ProxOperator<V>> f_;
  double a_;
  std::optional<V> b_;
};

/// g(x) = s f(x) + Re<v, x>: prox_{tau g}(x) = prox_{s tau f}(x - tau v) (see above);
/// differentiable when f is.
template <class V>
class Postcomposed : public ProxOperator<V> {
 public:
  /// s positive and finite (InvalidArgument at the first call otherwise).
  Postcomposed(const ProxOperator<V>& f, double s);
  /// s f(x) + Re<v, x>; `v` must have the layout of the vectors x; s as above.
  Postcomposed(const ProxOperator<V>& f, double s, const V& v);

  std::string name() const override;
  std::shared_ptr<const ProxOperator<V>> clone() const override;
  bool differentiable() const override { return f_->differentiable(); }
  /// Whether f runs user code.
  bool runs_user_code() const override { return f_->runs_user_code(); }
  /// f accepts x's layout and the vector held has it.
  void check_operand(const vector_layout_t<V>& layout) const override;
  /// f's parameters, the factor and the vector's layout.
  void add_parameters(Fingerprint& fingerprint) const override;

 protected:
  double do_value(const V& x) const override;
  void do_prox(const V& x, double tau, V& out) const override;
  void do_gradient(const V& x, V& out) const override;

 private:
  std::shared_ptr<const ProxOperator<V>> f_;
  double s_;
  std::optional<V> v_;
};

/// \cond
#define DISTLOPS_DETAIL_EXTERN_COMPOSITES(...)    \
  extern template class Precomposed<__VA_ARGS__>; \
  extern template class Postcomposed<__VA_ARGS__>;
DISTLOPS_FOR_EACH_PROX_VECTOR(DISTLOPS_DETAIL_EXTERN_COMPOSITES)
#undef DISTLOPS_DETAIL_EXTERN_COMPOSITES
/// \endcond

}  // namespace distlops
