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
///
/// sigma may also follow a schedule, PyProximal's callable sigma: the k-th call of prox (k = 1,
/// 2, ...) uses sigma(k), and value and the conjugate's prox use sigma(k) of the calls made so
/// far (sigma(0) before any). The count is shared by the operator and its clones (the copies
/// solvers keep), so that it counts every prox call on the function, as PyProximal's does.
/// sigma(k) must be finite and non-negative (InvalidArgument otherwise) and equal on every rank.

#include <atomic>
#include <functional>
#include <memory>
#include <optional>

#include "distlops/solvers/proximal/prox_operator.hpp"

namespace distlops {

/// f(x) = sigma sum_i |w_i| |x_i|: prox the soft threshold, conjugate's prox the projection
/// onto {|y_i| <= sigma |w_i|} (see above).
template <class V>
class L1 : public ProxOperator<V> {
 public:
  /// sigma >= 0 and finite (InvalidArgument on every rank at the first call otherwise).
  explicit L1(double sigma = 1.0);
  /// The weighted norm; `weights` must have the layout of the vectors x (ShapeMismatch on every
  /// rank otherwise), sigma as above.
  L1(const V& weights, double sigma = 1.0);
  /// sigma(k) for the k-th prox call (see above); `schedule` must not be empty.
  explicit L1(std::function<double(int)> schedule);

  /// The factor sigma (with a schedule, sigma(k) of the prox calls made so far).
  double sigma() const;
  /// The prox calls made so far (0 without a schedule).
  int prox_calls() const { return schedule_ ? schedule_->calls.load() : 0; }
  std::string name() const override;
  std::shared_ptr<const ProxOperator<V>> clone() const override;
  /// Only a schedule of sigma is user code.
  bool runs_user_code() const override { return schedule_ != nullptr; }
  /// The weights have x's layout.
  void check_operand(const vector_layout_t<V>& layout) const override;
  /// Its sigma (or that it follows a schedule) and the weights' layout.
  void add_parameters(Fingerprint& fingerprint) const override;

 protected:
  double do_value(const V& x) const override;
  void do_prox(const V& x, double tau, V& out) const override;
  void do_prox_conjugate(const V& x, double tau, V& out) const override;

 private:
  /// A schedule of sigma and the count of prox calls, shared with the clones.
  struct Schedule {
    std::function<double(int)> sigma;
    std::atomic<int> calls{0};
  };
  /// sigma(k) checked: finite and non-negative.
  double scheduled(int k) const;
  double sigma_;
  std::optional<V> weights_;
  std::shared_ptr<Schedule> schedule_;
};

/// \cond
#define DISTLOPS_DETAIL_EXTERN_L1(...) extern template class L1<__VA_ARGS__>;
DISTLOPS_FOR_EACH_PROX_VECTOR(DISTLOPS_DETAIL_EXTERN_L1)
#undef DISTLOPS_DETAIL_EXTERN_L1
/// \endcond

}  // namespace distlops
