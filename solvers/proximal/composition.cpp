// SPDX-License-Identifier: BSD-3-Clause
// Copyright (c) 2026 The distlops authors
// Pre- and postcomposition of a proximal operator (composition.hpp).
#include <string>

#include "distlops/core/error.hpp"
#include "distlops/solvers/detail/vectors.hpp"
#include "distlops/solvers/proximal/composition.hpp"
#include "prox_support.hpp"

namespace distlops {

template <class V>
Precomposed<V>::Precomposed(const ProxOperator<V>& f, double a) : f_(f.clone()), a_(a) {
  if (!(a != 0) || !std::isfinite(a)) {
    this->defer_error(
        ErrorKind::invalid_argument,
        "Precomposed: a must be finite and non-zero, got " + detail::format_parameter(a));
  }
}

template <class V>
void Precomposed<V>::check_operand(const vector_layout_t<V>& layout) const {
  f_->check(layout);
  if (b_) detail::require_layout(*b_, layout, name(), "b");
}

template <class V>
void Precomposed<V>::add_parameters(Fingerprint& fingerprint) const {
  f_->fingerprint(fingerprint);
  fingerprint.add(a_);
  detail::add_layout_of(fingerprint, b_);
}

template <class V>
Precomposed<V>::Precomposed(const ProxOperator<V>& f, double a, const V& b) : Precomposed(f, a) {
  b_.emplace(b);
}

template <class V>
std::string Precomposed<V>::name() const {
  return f_->name() + "(" + detail::format_parameter(a_) + " x" + (b_ ? " + b)" : ")");
}

template <class V>
std::shared_ptr<const ProxOperator<V>> Precomposed<V>::clone() const {
  return std::make_shared<Precomposed>(*this);
}

template <class V>
void Precomposed<V>::inner(const V& x, V& out) const {
  using T = typename V::value_type;
  detail::copy_into(x, out);
  if (b_) {
    out.axpby(T(1), *b_, detail::scalar<T>(a_));
  } else {
    out.scale(detail::scalar<T>(a_));
  }
}

template <class V>
double Precomposed<V>::do_value(const V& x) const {
  V z(x.layout());
  inner(x, z);
  return f_->value(z);
}

template <class V>
void Precomposed<V>::do_prox(const V& x, double tau, V& out) const {
  using T = typename V::value_type;
  // (prox_{a^2 tau f}(a x + b) - b) / a.
  inner(x, out);
  f_->prox(out, a_ * a_ * tau, out);
  if (b_) out.axpy(T(-1), *b_);
  out.scale(detail::scalar<T>(1 / a_));
}

template <class V>
void Precomposed<V>::do_gradient(const V& x, V& out) const {
  using T = typename V::value_type;
  V z(x.layout());
  inner(x, z);
  f_->gradient(z, out);
  out.scale(detail::scalar<T>(a_));
}

template <class V>
Postcomposed<V>::Postcomposed(const ProxOperator<V>& f, double s) : f_(f.clone()), s_(s) {
  if (!(s > 0) || !std::isfinite(s)) {
    this->defer_error(
        ErrorKind::invalid_argument,
        "Postcomposed: s must be positive and finite, got " + detail::format_parameter(s));
  }
}

template <class V>
void Postcomposed<V>::check_operand(const vector_layout_t<V>& layout) const {
  f_->check(layout);
  if (v_) detail::require_layout(*v_, layout, name(), "v");
}

template <class V>
void Postcomposed<V>::add_parameters(Fingerprint& fingerprint) const {
  f_->fingerprint(fingerprint);
  fingerprint.add(s_);
  detail::add_layout_of(fingerprint, v_);
}

template <class V>
Postcomposed<V>::Postcomposed(const ProxOperator<V>& f, double s, const V& v) : Postcomposed(f, s) {
  v_.emplace(v);
}

template <class V>
std::string Postcomposed<V>::name() const {
  return detail::format_parameter(s_) + " " + f_->name() + (v_ ? " + <v, x>" : "");
}

template <class V>
std::shared_ptr<const ProxOperator<V>> Postcomposed<V>::clone() const {
  return std::make_shared<Postcomposed>(*this);
}

template <class V>
double Postcomposed<V>::do_value(const V& x) const {
  double value = s_ * f_->value(x);
  if (v_) {
    value += detail::real_vdot(*v_, x);
  }
  return value;
}

template <class V>
void Postcomposed<V>::do_prox(const V& x, double tau, V& out) const {
  using T = typename V::value_type;
  // prox_{s tau f}(x - tau v).
  detail::copy_into(x, out);
  if (v_) {
    out.axpy(detail::scalar<T>(-tau), *v_);
  }
  f_->prox(out, s_ * tau, out);
}

template <class V>
void Postcomposed<V>::do_gradient(const V& x, V& out) const {
  using T = typename V::value_type;
  f_->gradient(x, out);
  if (v_) {
    out.axpby(T(1), *v_, detail::scalar<T>(s_));
  } else {
    out.scale(detail::scalar<T>(s_));
  }
}

#define DISTLOPS_INSTANTIATE_COMPOSITES(...) \
  template class Precomposed<__VA_ARGS__>;   \
  template class Postcomposed<__VA_ARGS__>;
DISTLOPS_FOR_EACH_PROX_VECTOR(DISTLOPS_INSTANTIATE_COMPOSITES)
#undef DISTLOPS_INSTANTIATE_COMPOSITES

}  // namespace distlops
