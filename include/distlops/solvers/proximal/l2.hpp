// SPDX-License-Identifier: BSD-3-Clause
// Copyright (c) 2026 The distlops authors
#pragma once
/// \file l2.hpp
/// The squared l2 misfit f(x) = sigma/2 ||Op x - b||^2 (PyProximal's L2, PyLops-MPI's MPIL2),
/// sigma >= 0; without Op, f(x) = sigma/2 ||x - b||^2, and without b, b = 0.
///
/// prox_{tau f}(x) solves (I + tau sigma Op^H Op) y = x + tau sigma Op^H b:
///   - without Op in closed form, y = (x + tau sigma b) / (1 + tau sigma);
///   - with Op by CGLS on the correction d = y - x, min ||Op d - (b - Op x)||^2 +
///     ||d||^2 / (tau sigma) (cgls.hpp's damp = 1 / sqrt(tau sigma)), from d = 0 with the
///     iterations and relative tolerance of `inner` (an inexact prox when they are too few).
/// Without Op the conjugate's prox is closed too: prox_{tau f*}(x) = sigma (x - tau b) /
/// (sigma + tau); with Op it goes through Moreau's identity.
/// f is differentiable: grad f(x) = sigma Op^H (Op x - b).

#include <optional>

#include "distlops/operators/linear_operator.hpp"
#include "distlops/solvers/proximal/prox_operator.hpp"

namespace distlops {

/// The inner solve of L2's prox with an operator.
struct L2InnerOptions {
  /// Maximum CGLS iterations.
  int niter = 20;
  /// Stop when CGLS's normal-equations residual falls below rtol times its first value (0:
  /// always niter iterations). Worth setting: CGLS's recurrence drifts when it runs far past
  /// convergence in the precision of the scalars, in single precision especially. Computing
  /// the first value costs one more apply of Op^H per prox.
  double rtol = 1e-6;
};

/// f(x) = sigma/2 ||Op x - b||^2 (see above); differentiable. Domain is x's type, Range b's.
template <class Domain, class Range = Domain>
class L2 : public ProxOperator<Domain> {
 public:
  /// sigma/2 ||x||^2.
  explicit L2(double sigma = 1.0) requires std::same_as<Domain, Range>;
  /// sigma/2 ||x - b||^2.
  explicit L2(const Range& b, double sigma = 1.0) requires std::same_as<Domain, Range>;
  /// sigma/2 ||Op x - b||^2; b must have (or be seen with) Op's range layout (ShapeMismatch at
  /// the first call otherwise).
  L2(const BasicLinearOperator<Domain, Range>& op, const Range& b, double sigma = 1.0,
     const L2InnerOptions& inner = {});

  /// The factor sigma.
  double sigma() const { return sigma_; }
  std::string name() const override;
  std::shared_ptr<const ProxOperator<Domain>> clone() const override;
  bool differentiable() const override { return true; }
  /// Whether Op runs user code.
  bool runs_user_code() const override;
  /// x fits Op's domain (with Op) or b has x's layout (without).
  void check_operand(const vector_layout_t<Domain>& layout) const override;
  /// Its sigma, the inner solve's options, Op's layouts and b's.
  void add_parameters(Fingerprint& fingerprint) const override;

 protected:
  double do_value(const Domain& x) const override;
  void do_prox(const Domain& x, double tau, Domain& out) const override;
  void do_prox_conjugate(const Domain& x, double tau, Domain& out) const override;
  void do_gradient(const Domain& x, Domain& out) const override;

 private:
  /// Defers the complaint about sigma or the inner options to the first call.
  void check_parameters();
  BasicLinearOperator<Domain, Range> op_;
  std::optional<Range> b_;
  double sigma_;
  L2InnerOptions inner_;
};

/// \cond
#define DISTLOPS_DETAIL_EXTERN_L2(T, Space)                                                       \
  extern template class L2<DistributedArray<T, Space>, DistributedArray<T, Space>>;               \
  extern template class L2<StackedDistributedArray<T, Space>, StackedDistributedArray<T, Space>>; \
  extern template class L2<DistributedArray<T, Space>, StackedDistributedArray<T, Space>>;        \
  extern template class L2<StackedDistributedArray<T, Space>, DistributedArray<T, Space>>;
DISTLOPS_FOR_EACH_SCALAR_AND_SPACE(DISTLOPS_DETAIL_EXTERN_L2)
#undef DISTLOPS_DETAIL_EXTERN_L2
/// \endcond

}  // namespace distlops
