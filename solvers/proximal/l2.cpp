// SPDX-License-Identifier: BSD-3-Clause
// Copyright (c) 2026 The distlops authors
// The squared l2 misfit (l2.hpp): closed forms without an operator, CGLS on the correction
// with one.
#include <cmath>
#include <string>

#include "distlops/core/error.hpp"
#include "distlops/solvers/cgls.hpp"
#include "distlops/solvers/detail/vectors.hpp"
#include "distlops/solvers/proximal/l2.hpp"
#include "prox_support.hpp"

namespace distlops {

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
  detail::require_sigma("L2", sigma_);
  if (inner_.niter < 0 || !(inner_.rtol >= 0) || !std::isfinite(inner_.rtol)) {
    throw InvalidArgument("L2: the inner solve needs niter >= 0 and a finite rtol >= 0");
  }
}

template <class Domain, class Range>
std::string L2<Domain, Range>::name() const {
  std::string text = "L2(sigma=" + detail::format_parameter(sigma_);
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
      detail::require_same_layout(*b_, x, name(), "b");
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
      detail::copy_into(x, out);
      if (b_) {
        detail::require_same_layout(*b_, x, name(), "b");
        out.axpby(detail::scalar<T>(ts / (1 + ts)), *b_, detail::scalar<T>(1 / (1 + ts)));
      } else {
        out.scale(detail::scalar<T>(1 / (1 + ts)));
      }
      return;
    }
  }
  // y = x + d, d = argmin ||Op d - (b - Op x)||^2 + ||d||^2 / (tau sigma).
  Range residual(op_.range());
  op_.apply(x, residual);
  residual.axpby(T(1), *b_, T(-1));
  detail::copy_into(x, out);
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
    detail::copy_into(x, out);
    if (b_) {
      detail::require_same_layout(*b_, x, name(), "b");
      out.axpby(detail::scalar<T>(-tau * c), *b_, detail::scalar<T>(c));
    } else {
      out.scale(detail::scalar<T>(c));
    }
  }
}

template <class Domain, class Range>
void L2<Domain, Range>::do_gradient(const Domain& x, Domain& out) const {
  using T = typename Domain::value_type;
  if (op_.empty()) {
    if constexpr (std::same_as<Domain, Range>) {
      detail::copy_into(x, out);
      if (b_) {
        detail::require_same_layout(*b_, x, name(), "b");
        out.axpby(detail::scalar<T>(-sigma_), *b_, detail::scalar<T>(sigma_));
      } else {
        out.scale(detail::scalar<T>(sigma_));
      }
      return;
    }
  }
  Range residual(op_.range());
  op_.apply(x, residual);
  // out = Op^H (sigma (Op x - b)).
  residual.axpby(detail::scalar<T>(-sigma_), *b_, detail::scalar<T>(sigma_));
  op_.apply_adjoint(residual, out);
}

#define DISTLOPS_INSTANTIATE_L2(T, Space)                                                  \
  template class L2<DistributedArray<T, Space>, DistributedArray<T, Space>>;               \
  template class L2<StackedDistributedArray<T, Space>, StackedDistributedArray<T, Space>>; \
  template class L2<DistributedArray<T, Space>, StackedDistributedArray<T, Space>>;        \
  template class L2<StackedDistributedArray<T, Space>, DistributedArray<T, Space>>;
DISTLOPS_FOR_EACH_SCALAR_AND_SPACE(DISTLOPS_INSTANTIATE_L2)
#undef DISTLOPS_INSTANTIATE_L2

}  // namespace distlops
