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
  if (op.empty()) {
    this->defer_error(ErrorKind::invalid_argument, "L2: the operator is empty");
    return;
  }
  // b seen with the operator's range layout (a copy of its data), checked on this rank alone:
  // a constructor cannot tell the others, the first call does.
  try {
    const AgreedOperands local;
    const LayoutAdapter<Range> data(b, op.range(), "L2", "", "b");
    b_.emplace(data.get_const());
  } catch (const Error& error) {
    this->defer_error(error.kind(), error.what());
  }
}

template <class Domain, class Range>
void L2<Domain, Range>::check_parameters() {
  const std::string problem = detail::sigma_problem("L2", sigma_);
  if (!problem.empty()) this->defer_error(ErrorKind::invalid_argument, problem);
  if (inner_.niter < 0 || !(inner_.rtol >= 0) || !std::isfinite(inner_.rtol)) {
    this->defer_error(ErrorKind::invalid_argument,
                      "L2: the inner solve needs niter >= 0 and a finite rtol >= 0");
  }
}

template <class Domain, class Range>
bool L2<Domain, Range>::runs_user_code() const {
  return !op_.empty() && op_.implementation().runs_user_code();
}

template <class Domain, class Range>
void L2<Domain, Range>::check_operand(const vector_layout_t<Domain>& layout) const {
  if (!op_.empty()) {
    if (!detail::fits_layout(layout, op_.domain())) {
      throw ShapeMismatch(name() + ": x is expected with " +
                          vector_traits<Domain>::describe(op_.domain()) +
                          " (the domain of Op), got " + vector_traits<Domain>::describe(layout));
    }
    return;
  }
  if constexpr (std::same_as<Domain, Range>) {
    if (b_) detail::require_layout(*b_, layout, name(), "b");
  }
}

template <class Domain, class Range>
void L2<Domain, Range>::add_parameters(Fingerprint& fingerprint) const {
  fingerprint.add(sigma_).add(inner_.niter).add(inner_.rtol).add(!op_.empty());
  if (!op_.empty()) {
    detail::add_layout(fingerprint, op_.domain());
    detail::add_layout(fingerprint, op_.range());
  }
  detail::add_layout_of(fingerprint, b_);
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
