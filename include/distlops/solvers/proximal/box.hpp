// SPDX-License-Identifier: BSD-3-Clause
// Copyright (c) 2026 The distlops authors
#pragma once
/// \file box.hpp
/// The indicator of the box {lower <= x_i <= upper} (PyProximal's Box): f(x) = 0 inside,
/// +infinity outside; its prox (for every tau) clips every element to [lower, upper]. For
/// complex x the box bounds the real and the imaginary part alike (C seen as R^2). Bounds may
/// be infinite; lower <= upper (InvalidArgument otherwise). The conjugate's prox goes
/// through Moreau's identity. `nonnegative<V>()` is the box [0, +infinity).

#include <limits>

#include "distlops/solvers/proximal/prox_operator.hpp"

namespace distlops {

/// The indicator of {lower <= x_i <= upper}: prox clips every element (both parts of complex
/// values).
template <class V>
class Box : public ProxOperator<V> {
 public:
  /// Bounds may be infinite; InvalidArgument unless lower <= upper (NaN included).
  Box(double lower, double upper);

  /// The lower bound.
  double lower() const { return lower_; }
  /// The upper bound.
  double upper() const { return upper_; }
  std::string name() const override;
  std::shared_ptr<const ProxOperator<V>> clone() const override;

 protected:
  double do_value(const V& x) const override;
  void do_prox(const V& x, double tau, V& out) const override;

 private:
  double lower_;
  double upper_;
};

/// The indicator of the non-negative orthant.
template <class V>
Box<V> nonnegative() {
  return Box<V>(0.0, std::numeric_limits<double>::infinity());
}

/// \cond
#define DISTLOPS_DETAIL_EXTERN_BOX(...) extern template class Box<__VA_ARGS__>;
DISTLOPS_FOR_EACH_PROX_VECTOR(DISTLOPS_DETAIL_EXTERN_BOX)
#undef DISTLOPS_DETAIL_EXTERN_BOX
/// \endcond

}  // namespace distlops
