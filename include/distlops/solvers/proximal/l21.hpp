// SPDX-License-Identifier: BSD-3-Clause
// Copyright (c) 2026 The distlops authors
#pragma once
/// \file l21.hpp
/// The mixed l2,1 norm over the components of a stacked array (PyProximal's L21, PyLops-MPI's
/// MPIL21): for x = [x_1; ...; x_d], d distributed arrays of one layout,
///
///     f(x) = sigma sum_i sqrt(|x_1,i|^2 + ... + |x_d,i|^2)
///
/// With x = Gradient(m) (derivatives.hpp) it is the isotropic total variation of m. Its prox
/// shrinks every group (x_1,i, ..., x_d,i) as a whole, by the factor
/// max(0, 1 - tau sigma / ||group||); its conjugate is the indicator of {||group|| <= sigma},
/// whose prox projects every group onto that ball (computed directly). Groups never cross
/// ranks: the components share their layout, so one group lives on one rank.
///
/// The components must be distributed arrays (not nested stacks) of one layout: ShapeMismatch
/// on every rank otherwise.
///
/// The groups' squared norms go to a workspace kept from call to call (reallocated only when
/// the components' layout changes), so that value, prox and its conjugate allocate nothing in a
/// solver's loop. Like the operators' workspaces it makes one object unfit for calls from
/// several threads at once; copies and clone() start with an empty workspace.

#include <optional>

#include "distlops/solvers/proximal/prox_operator.hpp"

namespace distlops {

/// f(x) = sigma sum_i ||(x_1,i, ..., x_d,i)|| over the components of a stacked array (see above).
template <class V>
class L21 : public ProxOperator<V> {
 public:
  /// sigma >= 0 and finite (InvalidArgument otherwise).
  explicit L21(double sigma = 1.0);
  /// Copies sigma; the copy starts with an empty workspace of its own.
  L21(const L21& other) : ProxOperator<V>(other), sigma_(other.sigma_) {}
  /// Takes other's sigma and drops the workspace (rebuilt at the next call).
  L21& operator=(const L21& other) {
    sigma_ = other.sigma_;
    group_norms_.reset();
    return *this;
  }

  /// The factor sigma.
  double sigma() const { return sigma_; }
  std::string name() const override;
  std::shared_ptr<const ProxOperator<V>> clone() const override;
  /// The library's own code.
  bool runs_user_code() const override { return false; }
  /// The components are distributed arrays of one layout.
  void check_operand(const StackedLayout& layout) const override;
  /// Its sigma.
  void add_parameters(Fingerprint& fingerprint) const override;

 protected:
  double do_value(const V& x) const override;
  void do_prox(const V& x, double tau, V& out) const override;
  void do_prox_conjugate(const V& x, double tau, V& out) const override;

 private:
  using Real = real_type_t<typename V::value_type>;
  using Norms = DistributedArray<Real, typename V::space_type>;
  /// The squared norms of x's groups, in the workspace (x checked by check_operand).
  const Norms& group_squared_norms(const V& x) const;

  double sigma_;
  mutable std::optional<Norms> group_norms_;
};

/// \cond
#define DISTLOPS_DETAIL_EXTERN_L21(T, Space) \
  extern template class L21<StackedDistributedArray<T, Space>>;
DISTLOPS_FOR_EACH_SCALAR_AND_SPACE(DISTLOPS_DETAIL_EXTERN_L21)
#undef DISTLOPS_DETAIL_EXTERN_L21
/// \endcond

}  // namespace distlops
