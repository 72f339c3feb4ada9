// SPDX-License-Identifier: BSD-3-Clause
// Copyright (c) 2026 The distlops authors
// The base of the proximal operators (prox_operator.hpp): the checks of the public members
// and the defaults (the conjugate's prox by Moreau's identity, no gradient).
#include <optional>
#include <string>

#include "distlops/core/error.hpp"
#include "distlops/solvers/proximal/prox_operator.hpp"
#include "prox_support.hpp"

namespace distlops {

template <class V>
void ProxOperator<V>::check_step(const V& x, double tau, const V& out,
                                 const char* operation) const {
  if (!(tau > 0) || !std::isfinite(tau)) {
    throw InvalidArgument(name() + "." + operation + ": tau must be positive and finite, got " +
                          detail::format_parameter(tau));
  }
  // The owner's name only on failure: a solver's loop builds no strings.
  if (!detail::same_layout(out, x))
    detail::require_same_layout(out, x, name() + "." + operation, "out");
}

template <class V>
double ProxOperator<V>::value(const V& x) const {
  return do_value(x);
}

template <class V>
void ProxOperator<V>::prox(const V& x, double tau, V& out) const {
  check_step(x, tau, out, "prox");
  do_prox(x, tau, out);
}

template <class V>
V ProxOperator<V>::prox(const V& x, double tau) const {
  V out(x.layout());
  prox(x, tau, out);
  return out;
}

template <class V>
void ProxOperator<V>::prox_conjugate(const V& x, double tau, V& out) const {
  check_step(x, tau, out, "prox_conjugate");
  do_prox_conjugate(x, tau, out);
}

template <class V>
V ProxOperator<V>::prox_conjugate(const V& x, double tau) const {
  V out(x.layout());
  prox_conjugate(x, tau, out);
  return out;
}

template <class V>
void ProxOperator<V>::gradient(const V& x, V& out) const {
  detail::require_same_layout(out, x, name() + ".gradient", "out");
  do_gradient(x, out);
}

template <class V>
V ProxOperator<V>::gradient(const V& x) const {
  V out(x.layout());
  gradient(x, out);
  return out;
}

template <class V>
void ProxOperator<V>::do_prox_conjugate(const V& x, double tau, V& out) const {
  using T = typename V::value_type;
  // Moreau: prox_{tau f*}(x) = x - tau prox_{f / tau}(x / tau).
  std::optional<V> saved;
  if (&x == &out) saved.emplace(x);
  const V& source = saved ? *saved : x;
  detail::copy_into(source, out);
  out.scale(detail::scalar<T>(1 / tau));
  do_prox(out, 1 / tau, out);
  out.axpby(T(1), source, detail::scalar<T>(-tau));
}

template <class V>
void ProxOperator<V>::do_gradient(const V&, V&) const {
  throw InvalidArgument(name() + " is not differentiable: it has no gradient");
}

#define DISTLOPS_INSTANTIATE_PROX_OPERATOR(...) template class ProxOperator<__VA_ARGS__>;
DISTLOPS_FOR_EACH_PROX_VECTOR(DISTLOPS_INSTANTIATE_PROX_OPERATOR)
#undef DISTLOPS_INSTANTIATE_PROX_OPERATOR

}  // namespace distlops
