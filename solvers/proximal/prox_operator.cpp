// SPDX-License-Identifier: BSD-3-Clause
// Copyright (c) 2026 The distlops authors
// The base of the proximal operators (prox_operator.hpp): the checks and the agreement of the
// public members, and the defaults (the conjugate's prox by Moreau's identity, no gradient).
#include <optional>
#include <string>
#include <string_view>
#include <typeinfo>

#include "distlops/core/collective_check.hpp"
#include "distlops/core/error.hpp"
#include "distlops/solvers/proximal/prox_operator.hpp"
#include "prox_support.hpp"

namespace distlops {

template <class V>
void ProxOperator<V>::defer_error(ErrorKind kind, std::string message) {
  if (!deferred_) deferred_.emplace(kind, std::move(message));
}

template <class V>
void ProxOperator<V>::check(const layout_type& layout) const {
  if (deferred_) throw_error(deferred_->first, deferred_->second);
  check_operand(layout);
}

template <class V>
void ProxOperator<V>::fingerprint(Fingerprint& fingerprint) const {
  fingerprint.add(std::string_view(typeid(*this).name())).add(runs_user_code());
  add_parameters(fingerprint);
}

template <class V>
template <class Body>
void ProxOperator<V>::agreed_call(const char* operation, const V& x, const V* out,
                                  const double* tau, const Fingerprint& outcome,
                                  Body&& body) const {
  const Communicator* comm = detail::communicator_of(x);
  // Messages are built only on failure: a solver's loop builds no strings.
  const auto check = [&] {
    if (tau && (!(*tau > 0) || !std::isfinite(*tau))) {
      throw InvalidArgument(name() + "." + operation + ": tau must be positive and finite, got " +
                            detail::format_parameter(*tau));
    }
    if (out && !detail::same_layout(*out, x)) {
      detail::require_same_layout(*out, x, name() + "." + operation, "out");
    }
    this->check(x.layout());
  };
  if (!comm || detail::operands_agreed()) {
    check();
  } else {
    Fingerprint arguments;
    arguments.add(std::string_view(operation)).add(tau != nullptr).add(tau ? *tau : 0.0);
    detail::add_layout(arguments, x.layout());
    if (out) detail::add_layout(arguments, out->layout());
    fingerprint(arguments);
    // The subject names no parameter: its text must be the same on every rank.
    collective_check(
        *comm, arguments,
        std::string("ProxOperator::") + operation + ": the set of tau, layouts and parameters",
        check);
  }
  if (runs_user_code()) {
    agree_on_user_code(comm, outcome, "the value a proximal operator's user code computed",
                       std::forward<Body>(body));
  } else {
    const AgreedOperands agreed;
    std::forward<Body>(body)();
  }
}

template <class V>
double ProxOperator<V>::value(const V& x) const {
  double result = 0;
  Fingerprint outcome;
  agreed_call("value", x, nullptr, nullptr, outcome, [&] {
    result = do_value(x);
    outcome.add(result == 0 ? 0.0 : result);  // -0 and +0 alike
  });
  return result;
}

template <class V>
void ProxOperator<V>::prox(const V& x, double tau, V& out) const {
  const Fingerprint nothing;
  agreed_call("prox", x, &out, &tau, nothing, [&] { do_prox(x, tau, out); });
}

template <class V>
V ProxOperator<V>::prox(const V& x, double tau) const {
  V out(x.layout());
  prox(x, tau, out);
  return out;
}

template <class V>
void ProxOperator<V>::prox_conjugate(const V& x, double tau, V& out) const {
  const Fingerprint nothing;
  agreed_call("prox_conjugate", x, &out, &tau, nothing, [&] { do_prox_conjugate(x, tau, out); });
}

template <class V>
V ProxOperator<V>::prox_conjugate(const V& x, double tau) const {
  V out(x.layout());
  prox_conjugate(x, tau, out);
  return out;
}

template <class V>
void ProxOperator<V>::gradient(const V& x, V& out) const {
  const Fingerprint nothing;
  agreed_call("gradient", x, &out, nullptr, nothing, [&] { do_gradient(x, out); });
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
