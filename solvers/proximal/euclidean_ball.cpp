// SPDX-License-Identifier: BSD-3-Clause
// Copyright (c) 2026 The distlops authors
// The indicator of a Euclidean ball (euclidean_ball.hpp): one reduction and a scaling.
#include <cmath>
#include <limits>
#include <string>

#include "distlops/core/error.hpp"
#include "distlops/solvers/proximal/euclidean_ball.hpp"
#include "prox_support.hpp"

namespace distlops {

template <class V>
EuclideanBall<V>::EuclideanBall(double radius) : radius_(radius) {
  if (!(radius >= 0) || !std::isfinite(radius)) {
    this->defer_error(ErrorKind::invalid_argument,
                      "EuclideanBall: radius must be finite and non-negative, got " +
                          detail::format_parameter(radius));
  }
}

template <class V>
EuclideanBall<V>::EuclideanBall(const V& center, double radius) : EuclideanBall(radius) {
  center_.emplace(center);
}

template <class V>
void EuclideanBall<V>::check_operand(const vector_layout_t<V>& layout) const {
  if (center_) detail::require_layout(*center_, layout, name(), "the centre");
}

template <class V>
void EuclideanBall<V>::add_parameters(Fingerprint& fingerprint) const {
  fingerprint.add(radius_);
  detail::add_layout_of(fingerprint, center_);
}

template <class V>
std::string EuclideanBall<V>::name() const {
  return "EuclideanBall(radius=" + detail::format_parameter(radius_) +
         (center_ ? ", centred)" : ")");
}

template <class V>
std::shared_ptr<const ProxOperator<V>> EuclideanBall<V>::clone() const {
  return std::make_shared<EuclideanBall>(*this);
}

template <class V>
double EuclideanBall<V>::distance(const V& x, V& difference) const {
  using T = typename V::value_type;
  detail::copy_into(x, difference);
  if (center_) difference.axpy(T(-1), *center_);
  return static_cast<double>(difference.norm(2));
}

template <class V>
double EuclideanBall<V>::do_value(const V& x) const {
  using R = real_type_t<typename V::value_type>;
  V difference(x.layout());
  const double d = distance(x, difference);
  const double slack = 100 * static_cast<double>(std::numeric_limits<R>::epsilon());
  return d <= radius_ * (1 + slack) ? 0.0 : detail::prox_infinity;
}

template <class V>
void EuclideanBall<V>::do_prox(const V& x, double, V& out) const {
  using T = typename V::value_type;
  const double d = distance(x, out);  // out = x - c
  if (d > radius_) out.scale(detail::scalar<T>(radius_ / d));
  if (center_) out.axpy(T(1), *center_);
}

#define DISTLOPS_INSTANTIATE_BALL(...) template class EuclideanBall<__VA_ARGS__>;
DISTLOPS_FOR_EACH_PROX_VECTOR(DISTLOPS_INSTANTIATE_BALL)
#undef DISTLOPS_INSTANTIATE_BALL

}  // namespace distlops
