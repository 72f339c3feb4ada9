// SPDX-License-Identifier: BSD-3-Clause
// Copyright (c) 2026 The distlops authors
#pragma once
/// \file l1.hpp
/// The (weighted) l1 norm f(x) = sigma sum_i w_i |x_i| (PyProximal's L1, PyLops-MPI's
/// MPIL1), w_i = 1 without weights. Its proximal operator is the soft threshold with
/// threshold tau sigma w_i; complex values shrink their magnitude and keep their phase:
///
///     prox_{tau f}(x)_i = max(|x_i| - tau sigma w_i, 0) x_i / |x_i|
///
/// Its conjugate is the indicator of {|y_i| <= sigma w_i}, whose prox is the projection
/// y_i = x_i min(1, sigma w_i / |x_i|) (computed directly, not through Moreau's identity).
/// Weights are used through their magnitudes |w_i|; they must have the layout of x.

#include <optional>

#include "distlops/solvers/proximal/prox_operator.hpp"

namespace distlops {

/// f(x) = sigma sum_i |w_i| |x_i|: prox the soft threshold, conjugate's prox the projection
/// onto {|y_i| <= sigma |w_i|} (see above).
template <class V>
class L1 : public ProxOperator<V> {
 public:
  /// sigma >= 0 and finite (InvalidArgument otherwise).
  explicit L1(double sigma = 1.0);
  /// The weighted norm; `weights` must have the layout of the vectors x (ShapeMismatch on every
  /// rank otherwise), sigma as above.
  L1(const V& weights, double sigma = 1.0);

  /// The factor sigma.
  double sigma() const { return sigma_; }
  std::string name() const override;
  std::shared_ptr<const ProxOperator<V>> clone() const override;

 protected:
  double do_value(const V& x) const override;
  void do_prox(const V& x, double tau, V& out) const override;
  void do_prox_conjugate(const V& x, double tau, V& out) const override;

 private:
  double sigma_;
  std::optional<V> weights_;
};

/// \cond
#define DISTLOPS_DETAIL_EXTERN_L1(...) extern template class L1<__VA_ARGS__>;
DISTLOPS_FOR_EACH_PROX_VECTOR(DISTLOPS_DETAIL_EXTERN_L1)
#undef DISTLOPS_DETAIL_EXTERN_L1
/// \endcond

}  // namespace distlops
