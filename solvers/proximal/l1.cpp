// SPDX-License-Identifier: BSD-3-Clause
// Copyright (c) 2026 The distlops authors
// The (weighted) l1 norm (l1.hpp): soft thresholding and the projection of its conjugate, in
// the kernels of proximal_kernels.hpp.
#include <string>

#include "distlops/core/error.hpp"
#include "distlops/solvers/proximal/l1.hpp"
#include "prox_support.hpp"
#include "proximal_kernels.hpp"

namespace distlops {

template <class V>
L1<V>::L1(double sigma) : sigma_(sigma) {
  const std::string problem = detail::sigma_problem("L1", sigma);
  if (!problem.empty()) this->defer_error(ErrorKind::invalid_argument, problem);
}

template <class V>
L1<V>::L1(const V& weights, double sigma) : L1(sigma) {
  weights_.emplace(weights);
}

template <class V>
L1<V>::L1(std::function<double(int)> schedule)
    : sigma_(1.0), schedule_(std::make_shared<Schedule>()) {
  if (!schedule)
    this->defer_error(ErrorKind::invalid_argument, "L1: the schedule of sigma is empty");
  schedule_->sigma = std::move(schedule);
}

template <class V>
void L1<V>::check_operand(const vector_layout_t<V>& layout) const {
  if (weights_) detail::require_layout(*weights_, layout, name(), "the weights");
}

template <class V>
void L1<V>::add_parameters(Fingerprint& fingerprint) const {
  fingerprint.add(schedule_ != nullptr).add(schedule_ ? 0.0 : sigma_);
  detail::add_layout_of(fingerprint, weights_);
}

template <class V>
double L1<V>::scheduled(int k) const {
  const double s = schedule_->sigma(k);
  if (!(s >= 0) || !std::isfinite(s)) {
    throw InvalidArgument("L1: the schedule gave sigma(" + std::to_string(k) + ") = " +
                          detail::format_parameter(s) + ", expected finite and non-negative");
  }
  return s;
}

template <class V>
double L1<V>::sigma() const {
  return schedule_ ? scheduled(schedule_->calls.load()) : sigma_;
}

template <class V>
std::string L1<V>::name() const {
  if (schedule_) return std::string("L1(sigma=schedule") + (weights_ ? ", weighted)" : ")");
  return std::string("L1(sigma=") + detail::format_parameter(sigma_) +
         (weights_ ? ", weighted)" : ")");
}

template <class V>
std::shared_ptr<const ProxOperator<V>> L1<V>::clone() const {
  return std::make_shared<L1>(*this);
}

template <class V>
double L1<V>::do_value(const V& x) const {
  const double s = sigma();
  if (!weights_) return s * static_cast<double>(x.norm(1));
  V weighted(x);
  weighted *= *weights_;
  return s * static_cast<double>(weighted.norm(1));
}

template <class V>
void L1<V>::do_prox(const V& x, double tau, V& out) const {
  using T = typename V::value_type;
  using Space = typename V::space_type;
  const double s = schedule_ ? scheduled(++schedule_->calls) : sigma_;
  detail::copy_into(x, out);
  const auto t = static_cast<real_type_t<T>>(tau * s);
  detail::for_each_weighted_block(out, weights_ ? &*weights_ : nullptr,
                                  [&](T* data, const T* w, Index n) {
                                    kernels::weighted_soft_threshold(Space{}, n, t, w, data);
                                  });
}

template <class V>
void L1<V>::do_prox_conjugate(const V& x, double, V& out) const {
  using T = typename V::value_type;
  using Space = typename V::space_type;
  detail::copy_into(x, out);
  const auto bound = static_cast<real_type_t<T>>(sigma());
  detail::for_each_weighted_block(
      out, weights_ ? &*weights_ : nullptr,
      [&](T* data, const T* w, Index n) { kernels::clip_magnitude(Space{}, n, bound, w, data); });
}

#define DISTLOPS_INSTANTIATE_L1(...) template class L1<__VA_ARGS__>;
DISTLOPS_FOR_EACH_PROX_VECTOR(DISTLOPS_INSTANTIATE_L1)
#undef DISTLOPS_INSTANTIATE_L1

}  // namespace distlops
