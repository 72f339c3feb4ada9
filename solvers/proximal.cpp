// SPDX-License-Identifier: BSD-3-Clause
// Copyright (c) 2026 The distlops authors
// The proximal operators (solvers/proximal/*.hpp), compiled once for the distributed and
// stacked arrays of every scalar type and memory space. Element-wise work runs in the kernels
// of proximal_rules.hpp; reductions are those of the arrays.
#include <cmath>
#include <limits>
#include <string>
#include <vector>

#include "distlops/core/error.hpp"
#include "distlops/solvers/cgls.hpp"
#include "distlops/solvers/detail/progress.hpp"
#include "distlops/solvers/detail/vectors.hpp"
#include "distlops/solvers/proximal/box.hpp"
#include "distlops/solvers/proximal/composition.hpp"
#include "distlops/solvers/proximal/euclidean_ball.hpp"
#include "distlops/solvers/proximal/l1.hpp"
#include "distlops/solvers/proximal/l2.hpp"
#include "distlops/solvers/proximal/l21.hpp"
#include "distlops/solvers/proximal/proximal_rules.hpp"

namespace distlops {

namespace {

using detail::format_parameter;
using detail::scalar;

template <class V>
bool same_layout(const V& a, const V& b) {
  return vector_traits<V>::has_layout(a, b.layout());
}

template <class V>
void require_same_layout(const V& v, const V& x, const std::string& owner, const char* role) {
  if (!same_layout(v, x)) {
    throw ShapeMismatch(owner + ": " + role + " is expected with " +
                        vector_traits<V>::describe(x.layout()) + ", got " +
                        vector_traits<V>::describe(v.layout()));
  }
}

/// out = x unless they are the same object.
template <class V>
void copy_into(const V& x, V& out) {
  if (&x != &out) out.copy_from(x);
}

/// The contiguous local blocks of v (one for a distributed array, one per leaf of a stack).
template <class V, class P>
std::vector<std::pair<P, Index>> blocks_of(V& v) {
  std::vector<std::pair<P, Index>> blocks;
  detail::for_each_block(v, [&](P data, Index n, Index) { blocks.emplace_back(data, n); });
  return blocks;
}

/// Calls f(x_block, w_block_or_null, n) for the blocks of x, paired with those of the weights.
template <class V, class F>
void for_each_weighted_block(V& x, const V* weights, F&& f) {
  using T = typename V::value_type;
  const auto xs = blocks_of<V, T*>(x);
  std::vector<std::pair<const T*, Index>> ws;
  if (weights) ws = blocks_of<const V, const T*>(*weights);
  for (std::size_t i = 0; i < xs.size(); ++i)
    f(xs[i].first, weights ? ws[i].first : nullptr, xs[i].second);
}

void require_sigma(const std::string& owner, double sigma) {
  if (!(sigma >= 0) || !std::isfinite(sigma)) {
    throw InvalidArgument(owner + ": sigma must be finite and non-negative, got " +
                          format_parameter(sigma));
  }
}

constexpr double infinity = std::numeric_limits<double>::infinity();

}  // namespace

// ---------------------------------------------------------------------------------------------
// ProxOperator

template <class V>
void ProxOperator<V>::check_step(const V& x, double tau, const V& out,
                                 const char* operation) const {
  if (!(tau > 0) || !std::isfinite(tau)) {
    throw InvalidArgument(name() + "." + operation + ": tau must be positive and finite, got " +
                          format_parameter(tau));
  }
  // The owner's name only on failure: a solver's loop builds no strings.
  if (!same_layout(out, x)) require_same_layout(out, x, name() + "." + operation, "out");
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
  require_same_layout(out, x, name() + ".gradient", "out");
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
  copy_into(source, out);
  out.scale(scalar<T>(1 / tau));
  do_prox(out, 1 / tau, out);
  out.axpby(T(1), source, scalar<T>(-tau));
}

template <class V>
void ProxOperator<V>::do_gradient(const V&, V&) const {
  throw InvalidArgument(name() + " is not differentiable: it has no gradient");
}

// ---------------------------------------------------------------------------------------------
// L1

template <class V>
L1<V>::L1(double sigma) : sigma_(sigma) {
  require_sigma("L1", sigma);
}

template <class V>
L1<V>::L1(const V& weights, double sigma) : sigma_(sigma), weights_(weights) {
  require_sigma("L1", sigma);
}

template <class V>
L1<V>::L1(std::function<double(int)> schedule)
    : sigma_(1.0), schedule_(std::make_shared<Schedule>()) {
  if (!schedule) throw InvalidArgument("L1: the schedule of sigma is empty");
  schedule_->sigma = std::move(schedule);
}

template <class V>
double L1<V>::scheduled(int k) const {
  const double s = schedule_->sigma(k);
  if (!(s >= 0) || !std::isfinite(s)) {
    throw InvalidArgument("L1: the schedule gave sigma(" + std::to_string(k) +
                          ") = " + format_parameter(s) + ", expected finite and non-negative");
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
  return std::string("L1(sigma=") + format_parameter(sigma_) + (weights_ ? ", weighted)" : ")");
}

template <class V>
std::shared_ptr<const ProxOperator<V>> L1<V>::clone() const {
  return std::make_shared<L1>(*this);
}

template <class V>
double L1<V>::do_value(const V& x) const {
  const double s = sigma();
  if (!weights_) return s * static_cast<double>(x.norm(1));
  require_same_layout(*weights_, x, name(), "the weights");
  V weighted(x);
  weighted *= *weights_;
  return s * static_cast<double>(weighted.norm(1));
}

template <class V>
void L1<V>::do_prox(const V& x, double tau, V& out) const {
  using T = typename V::value_type;
  using Space = typename V::space_type;
  if (weights_) require_same_layout(*weights_, x, name(), "the weights");
  const double s = schedule_ ? scheduled(++schedule_->calls) : sigma_;
  copy_into(x, out);
  const auto t = static_cast<real_type_t<T>>(tau * s);
  for_each_weighted_block(out, weights_ ? &*weights_ : nullptr, [&](T* data, const T* w, Index n) {
    kernels::weighted_soft_threshold(Space{}, n, t, w, data);
  });
}

template <class V>
void L1<V>::do_prox_conjugate(const V& x, double, V& out) const {
  using T = typename V::value_type;
  using Space = typename V::space_type;
  if (weights_) require_same_layout(*weights_, x, name(), "the weights");
  copy_into(x, out);
  const auto bound = static_cast<real_type_t<T>>(sigma());
  for_each_weighted_block(out, weights_ ? &*weights_ : nullptr, [&](T* data, const T* w, Index n) {
    kernels::clip_magnitude(Space{}, n, bound, w, data);
  });
}

// ---------------------------------------------------------------------------------------------
// L2

template <class Domain, class Range>
L2<Domain, Range>::L2(double sigma) requires std::same_as<Domain, Range> : sigma_(sigma) {
  check_parameters();
}

template <class Domain, class Range>
L2<Domain, Range>::L2(const Range& b, double sigma) requires std::same_as<Domain, Range>
    : b_(b), sigma_(sigma) {
  check_parameters();
}

template <class Domain, class Range>
L2<Domain, Range>::L2(const BasicLinearOperator<Domain, Range>& op, const Range& b, double sigma,
                      const L2InnerOptions& inner)
    : op_(op), sigma_(sigma), inner_(inner) {
  check_parameters();
  if (op.empty()) throw InvalidArgument("L2: the operator is empty");
  // b seen with the operator's range layout (a copy of its data).
  const LayoutAdapter<Range> data(b, op.range(), "L2", "", "b");
  b_.emplace(data.get_const());
}

template <class Domain, class Range>
void L2<Domain, Range>::check_parameters() const {
  require_sigma("L2", sigma_);
  if (inner_.niter < 0 || !(inner_.rtol >= 0) || !std::isfinite(inner_.rtol)) {
    throw InvalidArgument("L2: the inner solve needs niter >= 0 and a finite rtol >= 0");
  }
}

template <class Domain, class Range>
std::string L2<Domain, Range>::name() const {
  std::string text = "L2(sigma=" + format_parameter(sigma_);
  if (!op_.empty()) text += ", Op=" + op_.name();
  return text + ")";
}

template <class Domain, class Range>
std::shared_ptr<const ProxOperator<Domain>> L2<Domain, Range>::clone() const {
  return std::make_shared<L2>(*this);
}

template <class Domain, class Range>
double L2<Domain, Range>::do_value(const Domain& x) const {
  using T = typename Domain::value_type;
  if (op_.empty()) {
    if constexpr (std::same_as<Domain, Range>) {
      if (!b_) return 0.5 * sigma_ * detail::squared_norm(x);
      require_same_layout(*b_, x, name(), "b");
      Domain residual(x);
      residual.axpy(T(-1), *b_);
      return 0.5 * sigma_ * detail::squared_norm(residual);
    }
  }
  Range residual(op_.range());
  op_.apply(x, residual);
  residual.axpy(T(-1), *b_);
  return 0.5 * sigma_ * detail::squared_norm(residual);
}

template <class Domain, class Range>
void L2<Domain, Range>::do_prox(const Domain& x, double tau, Domain& out) const {
  using T = typename Domain::value_type;
  const double ts = tau * sigma_;
  if (op_.empty()) {
    if constexpr (std::same_as<Domain, Range>) {
      // y = (x + tau sigma b) / (1 + tau sigma).
      copy_into(x, out);
      if (b_) {
        require_same_layout(*b_, x, name(), "b");
        out.axpby(scalar<T>(ts / (1 + ts)), *b_, scalar<T>(1 / (1 + ts)));
      } else {
        out.scale(scalar<T>(1 / (1 + ts)));
      }
      return;
    }
  }
  // y = x + d, d = argmin ||Op d - (b - Op x)||^2 + ||d||^2 / (tau sigma).
  Range residual(op_.range());
  op_.apply(x, residual);
  residual.axpby(T(1), *b_, T(-1));
  copy_into(x, out);
  if (ts == 0) return;
  CglsOptions<Domain> options;
  options.niter = inner_.niter;
  options.damp = 1 / std::sqrt(ts);
  if (inner_.rtol > 0) {
    // CGLS's first normal residual from d = 0 is Op^H (b - Op x).
    Domain normal_residual(op_.domain());
    op_.apply_adjoint(residual, normal_residual);
    options.tol = inner_.rtol * std::sqrt(detail::squared_norm(normal_residual));
  }
  const CglsResult<Domain> correction = cgls(op_, residual, options);
  LayoutAdapter<Domain> target(out, op_.domain(), name(), ".prox", "out");
  target.get().axpy(T(1), correction.x);
}

template <class Domain, class Range>
void L2<Domain, Range>::do_prox_conjugate(const Domain& x, double tau, Domain& out) const {
  using T = typename Domain::value_type;
  if (!op_.empty()) {
    ProxOperator<Domain>::do_prox_conjugate(x, tau, out);
    return;
  }
  if constexpr (std::same_as<Domain, Range>) {
    // f*(y) = ||y||^2 / (2 sigma) + Re<b, y>: prox_{tau f*}(x) = sigma (x - tau b) / (sigma + tau).
    const double c = sigma_ / (sigma_ + tau);
    copy_into(x, out);
    if (b_) {
      require_same_layout(*b_, x, name(), "b");
      out.axpby(scalar<T>(-tau * c), *b_, scalar<T>(c));
    } else {
      out.scale(scalar<T>(c));
    }
  }
}

template <class Domain, class Range>
void L2<Domain, Range>::do_gradient(const Domain& x, Domain& out) const {
  using T = typename Domain::value_type;
  if (op_.empty()) {
    if constexpr (std::same_as<Domain, Range>) {
      copy_into(x, out);
      if (b_) {
        require_same_layout(*b_, x, name(), "b");
        out.axpby(scalar<T>(-sigma_), *b_, scalar<T>(sigma_));
      } else {
        out.scale(scalar<T>(sigma_));
      }
      return;
    }
  }
  Range residual(op_.range());
  op_.apply(x, residual);
  // out = Op^H (sigma (Op x - b)).
  residual.axpby(scalar<T>(-sigma_), *b_, scalar<T>(sigma_));
  op_.apply_adjoint(residual, out);
}

// ---------------------------------------------------------------------------------------------
// L21

template <class V>
L21<V>::L21(double sigma) : sigma_(sigma) {
  require_sigma("L21", sigma);
}

template <class V>
std::string L21<V>::name() const {
  return "L21(sigma=" + format_parameter(sigma_) + ")";
}

template <class V>
std::shared_ptr<const ProxOperator<V>> L21<V>::clone() const {
  return std::make_shared<L21>(sigma_);
}

namespace {

/// Checks that x's components are distributed arrays of one layout (`owner()` names the
/// operator in the message: built only on failure, so that a solver's loop allocates nothing).
template <Scalar T, MemorySpace Space, class Owner>
void require_groups(const StackedDistributedArray<T, Space>& x, Owner&& owner) {
  if (x.narrays() == 0) throw ShapeMismatch(owner() + ": the stacked array has no components");
  for (std::size_t j = 0; j < x.narrays(); ++j) {
    if (x.is_nested(j)) {
      throw ShapeMismatch(owner() + ": component " + std::to_string(j) +
                          " is a nested stack; the components must be distributed arrays");
    }
    if (!(x[j].layout() == x[0].layout())) {
      throw ShapeMismatch(owner() + ": component " + std::to_string(j) + " has " +
                          x[j].layout().describe() + ", component 0 has " +
                          x[0].layout().describe());
    }
  }
}

}  // namespace

/// s2_i = sum_j |x_j,i|^2, an array of the components' layout in the real type.
template <class V>
auto L21<V>::group_squared_norms(const V& x) const -> const Norms& {
  require_groups(x, [&] { return name(); });
  const Layout& layout = x[0].layout();
  if (!group_norms_ || !(group_norms_->layout() == layout)) group_norms_.emplace(layout);
  Norms& s2 = *group_norms_;
  using Space = typename V::space_type;
  s2.set_zero();
  for (std::size_t j = 0; j < x.narrays(); ++j)
    kernels::accumulate_abs_squared(Space{}, x[j].local_size(), x[j].data(), s2.data());
  return s2;
}

namespace {

template <Scalar T, MemorySpace Space>
void scale_groups(const StackedDistributedArray<T, Space>& x,
                  const DistributedArray<real_type_t<T>, Space>& s2, GroupScaling scaling, double t,
                  StackedDistributedArray<T, Space>& out) {
  copy_into(x, out);
  for (std::size_t j = 0; j < out.narrays(); ++j) {
    kernels::scale_groups(Space{}, scaling, out[j].local_size(), s2.data(),
                          static_cast<real_type_t<T>>(t), out[j].data());
  }
}

}  // namespace

template <class V>
double L21<V>::do_value(const V& x) const {
  // sum_i sqrt(s2_i) = sqrt(norm_{1/2}(s2)), norm_p being (sum |s2_i|^p)^(1/p).
  return sigma_ * std::sqrt(static_cast<double>(group_squared_norms(x).norm(0.5)));
}

template <class V>
void L21<V>::do_prox(const V& x, double tau, V& out) const {
  scale_groups(x, group_squared_norms(x), GroupScaling::shrink, tau * sigma_, out);
}

template <class V>
void L21<V>::do_prox_conjugate(const V& x, double, V& out) const {
  scale_groups(x, group_squared_norms(x), GroupScaling::project, sigma_, out);
}

// ---------------------------------------------------------------------------------------------
// Box

template <class V>
Box<V>::Box(double lower, double upper) : lower_(lower), upper_(upper) {
  if (std::isnan(lower) || std::isnan(upper) || !(lower <= upper)) {
    throw InvalidArgument("Box: lower <= upper is needed, got lower = " + format_parameter(lower) +
                          " and upper = " + format_parameter(upper));
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
    : lower_(-infinity), upper_(infinity), lower_bounds_(lower), upper_bounds_(upper) {
  using T = typename V::value_type;
  require_same_layout(upper, lower, "Box", "the upper bounds");
  // NaN anywhere makes the 1-norm NaN (infinities alone make it infinite).
  const bool has_nan = std::isnan(static_cast<double>(lower.norm(1))) ||
                       std::isnan(static_cast<double>(upper.norm(1)));
  bool crossed = false;
  if (!has_nan) {
    // min(lower, upper) part by part differs from lower where lower_i > upper_i.
    const V l = finite_part(lower), u = finite_part(upper);
    V smaller(l);
    for_each_bounds_block(smaller, l, u);
    smaller.axpy(T(-1), l);
    crossed = smaller.norm(infinity) > 0;
  }
  if (has_nan || crossed) {
    throw InvalidArgument(std::string("Box: lower <= upper is needed for every element, got ") +
                          (has_nan ? "NaN in the bounds" : "a lower bound above its upper bound"));
  }
}

template <class V>
void Box<V>::for_each_bounds_block(V& x, const V& lower, const V& upper) {
  using T = typename V::value_type;
  using Space = typename V::space_type;
  const auto xs = blocks_of<V, T*>(x);
  const auto ls = blocks_of<const V, const T*>(lower);
  const auto us = blocks_of<const V, const T*>(upper);
  for (std::size_t i = 0; i < xs.size(); ++i)
    kernels::clip_box_between(Space{}, xs[i].second, ls[i].first, us[i].first, xs[i].first);
}

template <class V>
std::string Box<V>::name() const {
  if (lower_bounds_) return "Box(element-wise bounds)";
  return "Box(lower=" + format_parameter(lower_) + ", upper=" + format_parameter(upper_) + ")";
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
  return clipped.norm(std::numeric_limits<double>::infinity()) > 0 ? infinity : 0.0;
}

template <class V>
void Box<V>::do_prox(const V& x, double, V& out) const {
  using T = typename V::value_type;
  using Space = typename V::space_type;
  using R = real_type_t<T>;
  if (lower_bounds_) {
    require_same_layout(*lower_bounds_, x, name(), "the bounds");
    copy_into(x, out);
    for_each_bounds_block(out, *lower_bounds_, *upper_bounds_);
    return;
  }
  copy_into(x, out);
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

// ---------------------------------------------------------------------------------------------
// EuclideanBall

template <class V>
EuclideanBall<V>::EuclideanBall(double radius) : radius_(radius) {
  if (!(radius >= 0) || !std::isfinite(radius)) {
    throw InvalidArgument("EuclideanBall: radius must be finite and non-negative, got " +
                          format_parameter(radius));
  }
}

template <class V>
EuclideanBall<V>::EuclideanBall(const V& center, double radius) : EuclideanBall(radius) {
  center_.emplace(center);
}

template <class V>
std::string EuclideanBall<V>::name() const {
  return "EuclideanBall(radius=" + format_parameter(radius_) + (center_ ? ", centred)" : ")");
}

template <class V>
std::shared_ptr<const ProxOperator<V>> EuclideanBall<V>::clone() const {
  return std::make_shared<EuclideanBall>(*this);
}

template <class V>
double EuclideanBall<V>::distance(const V& x, V& difference) const {
  using T = typename V::value_type;
  copy_into(x, difference);
  if (center_) {
    require_same_layout(*center_, x, name(), "the centre");
    difference.axpy(T(-1), *center_);
  }
  return static_cast<double>(difference.norm(2));
}

template <class V>
double EuclideanBall<V>::do_value(const V& x) const {
  using R = real_type_t<typename V::value_type>;
  V difference(x.layout());
  const double d = distance(x, difference);
  const double slack = 100 * static_cast<double>(std::numeric_limits<R>::epsilon());
  return d <= radius_ * (1 + slack) ? 0.0 : infinity;
}

template <class V>
void EuclideanBall<V>::do_prox(const V& x, double, V& out) const {
  using T = typename V::value_type;
  const double d = distance(x, out);  // out = x - c
  if (d > radius_) out.scale(scalar<T>(radius_ / d));
  if (center_) out.axpy(T(1), *center_);
}

// ---------------------------------------------------------------------------------------------
// Precomposed and Postcomposed

template <class V>
Precomposed<V>::Precomposed(const ProxOperator<V>& f, double a) : f_(f.clone()), a_(a) {
  if (!(a != 0) || !std::isfinite(a)) {
    throw InvalidArgument("Precomposed: a must be finite and non-zero, got " + format_parameter(a));
  }
}

template <class V>
Precomposed<V>::Precomposed(const ProxOperator<V>& f, double a, const V& b) : Precomposed(f, a) {
  b_.emplace(b);
}

template <class V>
std::string Precomposed<V>::name() const {
  return f_->name() + "(" + format_parameter(a_) + " x" + (b_ ? " + b)" : ")");
}

template <class V>
std::shared_ptr<const ProxOperator<V>> Precomposed<V>::clone() const {
  return std::make_shared<Precomposed>(*this);
}

template <class V>
void Precomposed<V>::inner(const V& x, V& out) const {
  using T = typename V::value_type;
  copy_into(x, out);
  if (b_) {
    require_same_layout(*b_, x, name(), "b");
    out.axpby(T(1), *b_, scalar<T>(a_));
  } else {
    out.scale(scalar<T>(a_));
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
  out.scale(scalar<T>(1 / a_));
}

template <class V>
void Precomposed<V>::do_gradient(const V& x, V& out) const {
  using T = typename V::value_type;
  V z(x.layout());
  inner(x, z);
  f_->gradient(z, out);
  out.scale(scalar<T>(a_));
}

template <class V>
Postcomposed<V>::Postcomposed(const ProxOperator<V>& f, double s) : f_(f.clone()), s_(s) {
  if (!(s > 0) || !std::isfinite(s)) {
    throw InvalidArgument("Postcomposed: s must be positive and finite, got " +
                          format_parameter(s));
  }
}

template <class V>
Postcomposed<V>::Postcomposed(const ProxOperator<V>& f, double s, const V& v) : Postcomposed(f, s) {
  v_.emplace(v);
}

template <class V>
std::string Postcomposed<V>::name() const {
  return format_parameter(s_) + " " + f_->name() + (v_ ? " + <v, x>" : "");
}

template <class V>
std::shared_ptr<const ProxOperator<V>> Postcomposed<V>::clone() const {
  return std::make_shared<Postcomposed>(*this);
}

template <class V>
double Postcomposed<V>::do_value(const V& x) const {
  double value = s_ * f_->value(x);
  if (v_) {
    require_same_layout(*v_, x, name(), "v");
    value += detail::real_vdot(*v_, x);
  }
  return value;
}

template <class V>
void Postcomposed<V>::do_prox(const V& x, double tau, V& out) const {
  using T = typename V::value_type;
  // prox_{s tau f}(x - tau v).
  copy_into(x, out);
  if (v_) {
    require_same_layout(*v_, x, name(), "v");
    out.axpy(scalar<T>(-tau), *v_);
  }
  f_->prox(out, s_ * tau, out);
}

template <class V>
void Postcomposed<V>::do_gradient(const V& x, V& out) const {
  using T = typename V::value_type;
  f_->gradient(x, out);
  if (v_) {
    require_same_layout(*v_, x, name(), "v");
    out.axpby(T(1), *v_, scalar<T>(s_));
  } else {
    out.scale(scalar<T>(s_));
  }
}

// ---------------------------------------------------------------------------------------------
// Instantiations

#define DISTLOPS_INSTANTIATE_PROX_VECTOR(...) \
  template class ProxOperator<__VA_ARGS__>;   \
  template class L1<__VA_ARGS__>;             \
  template class Box<__VA_ARGS__>;            \
  template class EuclideanBall<__VA_ARGS__>;  \
  template class Precomposed<__VA_ARGS__>;    \
  template class Postcomposed<__VA_ARGS__>;
DISTLOPS_FOR_EACH_PROX_VECTOR(DISTLOPS_INSTANTIATE_PROX_VECTOR)
#undef DISTLOPS_INSTANTIATE_PROX_VECTOR

#define DISTLOPS_INSTANTIATE_L2(T, Space)                                                  \
  template class L2<DistributedArray<T, Space>, DistributedArray<T, Space>>;               \
  template class L2<StackedDistributedArray<T, Space>, StackedDistributedArray<T, Space>>; \
  template class L2<DistributedArray<T, Space>, StackedDistributedArray<T, Space>>;        \
  template class L2<StackedDistributedArray<T, Space>, DistributedArray<T, Space>>;
DISTLOPS_FOR_EACH_SCALAR_AND_SPACE(DISTLOPS_INSTANTIATE_L2)
#undef DISTLOPS_INSTANTIATE_L2

#define DISTLOPS_INSTANTIATE_L21(T, Space) template class L21<StackedDistributedArray<T, Space>>;
DISTLOPS_FOR_EACH_SCALAR_AND_SPACE(DISTLOPS_INSTANTIATE_L21)
#undef DISTLOPS_INSTANTIATE_L21

}  // namespace distlops
