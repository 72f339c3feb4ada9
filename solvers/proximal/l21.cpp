// SPDX-License-Identifier: BSD-3-Clause
// Copyright (c) 2026 The distlops authors
// The mixed l2,1 norm over the components of a stacked array (l21.hpp): the groups' squared
// norms in a workspace, then one scaling kernel per component.
#include <cmath>
#include <string>

#include "distlops/core/error.hpp"
#include "distlops/solvers/proximal/l21.hpp"
#include "prox_support.hpp"
#include "proximal_kernels.hpp"

namespace distlops {

template <class V>
L21<V>::L21(double sigma) : sigma_(sigma) {
  const std::string problem = detail::sigma_problem("L21", sigma);
  if (!problem.empty()) this->defer_error(ErrorKind::invalid_argument, problem);
}

template <class V>
std::string L21<V>::name() const {
  return "L21(sigma=" + detail::format_parameter(sigma_) + ")";
}

template <class V>
std::shared_ptr<const ProxOperator<V>> L21<V>::clone() const {
  return std::make_shared<L21>(sigma_);
}

/// The components must be distributed arrays of one layout.
template <class V>
void L21<V>::check_operand(const StackedLayout& layout) const {
  if (layout.size() == 0) throw ShapeMismatch(name() + ": the stacked array has no components");
  for (std::size_t j = 0; j < layout.size(); ++j) {
    if (layout.is_nested(j)) {
      throw ShapeMismatch(name() + ": component " + std::to_string(j) +
                          " is a nested stack; the components must be distributed arrays");
    }
    if (!(layout[j] == layout[0])) {
      throw ShapeMismatch(name() + ": component " + std::to_string(j) + " has " +
                          layout[j].describe() + ", component 0 has " + layout[0].describe());
    }
  }
}

template <class V>
void L21<V>::add_parameters(Fingerprint& fingerprint) const {
  fingerprint.add(sigma_);
}

/// s2_i = sum_j |x_j,i|^2, an array of the components' layout in the real type.
template <class V>
auto L21<V>::group_squared_norms(const V& x) const -> const Norms& {
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
  detail::copy_into(x, out);
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

#define DISTLOPS_INSTANTIATE_L21(T, Space) template class L21<StackedDistributedArray<T, Space>>;
DISTLOPS_FOR_EACH_SCALAR_AND_SPACE(DISTLOPS_INSTANTIATE_L21)
#undef DISTLOPS_INSTANTIATE_L21

}  // namespace distlops
