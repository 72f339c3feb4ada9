// SPDX-License-Identifier: BSD-3-Clause
// Copyright (c) 2026 The distlops authors
// The indicator of a box (box.hpp): clipping kernels, scalar or element-wise bounds.
#include <cmath>
#include <limits>
#include <string>

#include "distlops/core/collective_check.hpp"
#include "distlops/core/error.hpp"
#include "distlops/core/kernels.hpp"
#include "distlops/solvers/proximal/box.hpp"
#include "prox_support.hpp"
#include "proximal_kernels.hpp"

namespace distlops {

template <class V>
Box<V>::Box(double lower, double upper) : lower_(lower), upper_(upper) {
  if (std::isnan(lower) || std::isnan(upper) || !(lower <= upper)) {
    this->defer_error(
        ErrorKind::invalid_argument,
        "Box: lower <= upper is needed, got lower = " + detail::format_parameter(lower) +
            " and upper = " + detail::format_parameter(upper));
  }
}

namespace {

/// v with its elements beyond the largest finite value of the scalar type (infinities included)
/// moved onto it, so that differences of such vectors are finite or +-infinity, never NaN.
template <class V>
V finite_part(const V& v) {
  using T = typename V::value_type;
  using Space = typename V::space_type;
  using R = real_type_t<T>;
  V out(v);
  const R largest = std::numeric_limits<R>::max();
  detail::for_each_block(out, [&](T* data, Index n, Index) {
    kernels::clip_box(Space{}, n, -largest, largest, data);
  });
  return out;
}

}  // namespace

template <class V>
Box<V>::Box(const V& lower, const V& upper)
    : lower_(-detail::prox_infinity),
      upper_(detail::prox_infinity),
      lower_bounds_(lower),
      upper_bounds_(upper) {}

template <class V>
const std::string& Box<V>::bounds_problem() const {
  using T = typename V::value_type;
  using Space = typename V::space_type;
  using R = real_type_t<T>;
  if (bounds_checked_) return bounds_problem_;
  bounds_checked_ = true;
  // This rank's elements only, without communication: the caller agrees on the verdict.
  const AgreedOperands local;
  const V& lower = *lower_bounds_;
  const V& upper = *upper_bounds_;
  // NaN anywhere makes the sum of magnitudes NaN (infinities alone make it infinite).
  bool has_nan = false;
  for (const V* bounds : {&lower, &upper}) {
    detail::for_each_block(*bounds, [&](const T* data, Index n, Index) {
      has_nan = has_nan || std::isnan(static_cast<double>(kernels::norm_reduce(
                               Space{}, kernels::NormKind::power_sum, R(1), n, data)));
    });
  }
  bool crossed = false;
  if (!has_nan) {
    // min(lower, upper) part by part differs from lower where lower_i > upper_i.
    const V l = finite_part(lower), u = finite_part(upper);
    V smaller(l);
    for_each_bounds_block(smaller, l, u);
    smaller.axpy(T(-1), l);
    detail::for_each_block(smaller, [&](const T* data, Index n, Index) {
      crossed = crossed ||
                kernels::norm_reduce(Space{}, kernels::NormKind::max_abs, R(1), n, data) > R(0);
    });
  }
  if (has_nan || crossed) {
    bounds_problem_ = std::string("Box: lower <= upper is needed for every element, got ") +
                      (has_nan ? "NaN in the bounds" : "a lower bound above its upper bound");
  }
  return bounds_problem_;
}

template <class V>
void Box<V>::check_operand(const vector_layout_t<V>& layout) const {
  if (!lower_bounds_) return;
  detail::require_layout(*lower_bounds_, layout, name(), "the bounds");
  detail::require_layout(*upper_bounds_, layout, name(), "the upper bounds");
  if (!bounds_problem().empty()) throw InvalidArgument(bounds_problem_);
}

template <class V>
void Box<V>::add_parameters(Fingerprint& fingerprint) const {
  fingerprint.add(lower_).add(upper_);
  detail::add_layout_of(fingerprint, lower_bounds_);
  detail::add_layout_of(fingerprint, upper_bounds_);
}

template <class V>
void Box<V>::for_each_bounds_block(V& x, const V& lower, const V& upper) {
  using T = typename V::value_type;
  using Space = typename V::space_type;
  const auto xs = detail::blocks_of<V, T*>(x);
  const auto ls = detail::blocks_of<const V, const T*>(lower);
  const auto us = detail::blocks_of<const V, const T*>(upper);
  for (std::size_t i = 0; i < xs.size(); ++i)
    kernels::clip_box_between(Space{}, xs[i].second, ls[i].first, us[i].first, xs[i].first);
}

template <class V>
std::string Box<V>::name() const {
  if (lower_bounds_) return "Box(element-wise bounds)";
  return "Box(lower=" + detail::format_parameter(lower_) +
         ", upper=" + detail::format_parameter(upper_) + ")";
}

template <class V>
std::shared_ptr<const ProxOperator<V>> Box<V>::clone() const {
  return std::make_shared<Box>(*this);
}

template <class V>
double Box<V>::do_value(const V& x) const {
  using T = typename V::value_type;
  V clipped(x.layout());
  do_prox(x, 1.0, clipped);
  clipped.axpy(T(-1), x);
  return clipped.norm(std::numeric_limits<double>::infinity()) > 0 ? detail::prox_infinity : 0.0;
}

template <class V>
void Box<V>::do_prox(const V& x, double, V& out) const {
  using T = typename V::value_type;
  using Space = typename V::space_type;
  using R = real_type_t<T>;
  if (lower_bounds_) {
    detail::copy_into(x, out);
    for_each_bounds_block(out, *lower_bounds_, *upper_bounds_);
    return;
  }
  detail::copy_into(x, out);
  // Bounds beyond the range of R clip nothing on that side.
  const R lower = lower_ < -static_cast<double>(std::numeric_limits<R>::max())
                      ? -std::numeric_limits<R>::infinity()
                      : static_cast<R>(lower_);
  const R upper = upper_ > static_cast<double>(std::numeric_limits<R>::max())
                      ? std::numeric_limits<R>::infinity()
                      : static_cast<R>(upper_);
  detail::for_each_block(
      out, [&](T* data, Index n, Index) { kernels::clip_box(Space{}, n, lower, upper, data); });
}

#define DISTLOPS_INSTANTIATE_BOX(...) template class Box<__VA_ARGS__>;
DISTLOPS_FOR_EACH_PROX_VECTOR(DISTLOPS_INSTANTIATE_BOX)
#undef DISTLOPS_INSTANTIATE_BOX

}  // namespace distlops
