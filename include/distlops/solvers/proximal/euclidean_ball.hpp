// SPDX-License-Identifier: BSD-3-Clause
// Copyright (c) 2026 The distlops authors
#pragma once
/// \file euclidean_ball.hpp
/// The indicator of the Euclidean ball {||x - c|| <= radius} (PyProximal's EuclideanBall):
/// f(x) = 0 inside (with a relative slack of 100 machine epsilons of the scalar type, so that
/// projected points count as inside), +infinity outside. Its prox projects onto the ball:
/// c + (x - c) min(1, radius / ||x - c||) (one reduction). Without a centre, c = 0. The
/// conjugate, radius ||y|| + Re<c, y>, has its prox through Moreau's identity.

#include <optional>

#include "distlops/solvers/proximal/prox_operator.hpp"

namespace distlops {

/// The indicator of {||x - c|| <= radius}: prox projects onto the ball (one reduction).
template <class V>
class EuclideanBall : public ProxOperator<V> {
 public:
  /// radius >= 0 and finite (InvalidArgument at the first call otherwise).
  explicit EuclideanBall(double radius);
  /// The ball around `center`, which must have the layout of the vectors x; radius as above.
  EuclideanBall(const V& center, double radius);

  /// The radius.
  double radius() const { return radius_; }
  std::string name() const override;
  std::shared_ptr<const ProxOperator<V>> clone() const override;
  /// The library's own code.
  bool runs_user_code() const override { return false; }
  /// The centre has x's layout.
  void check_operand(const vector_layout_t<V>& layout) const override;
  /// Its radius and the centre's layout.
  void add_parameters(Fingerprint& fingerprint) const override;

 protected:
  double do_value(const V& x) const override;
  void do_prox(const V& x, double tau, V& out) const override;

 private:
  /// ||x - c|| (one reduction), and out = x - c when `out` is given.
  double distance(const V& x, V& difference) const;
  std::optional<V> center_;
  double radius_;
};

/// \cond
#define DISTLOPS_DETAIL_EXTERN_BALL(...) extern template class EuclideanBall<__VA_ARGS__>;
DISTLOPS_FOR_EACH_PROX_VECTOR(DISTLOPS_DETAIL_EXTERN_BALL)
#undef DISTLOPS_DETAIL_EXTERN_BALL
/// \endcond

}  // namespace distlops
