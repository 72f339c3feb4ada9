// SPDX-License-Identifier: BSD-3-Clause
// Copyright (c) 2026 The distlops authors
#pragma once
/// \file box.hpp
/// The indicator of the box {lower <= x_i <= upper} (PyProximal's Box): f(x) = 0 inside,
/// +infinity outside; its prox (for every tau) clips every element to [lower, upper]. For
/// complex x the box bounds the real and the imaginary part alike (C seen as R^2). Bounds may
/// be infinite; lower <= upper (InvalidArgument otherwise). The conjugate's prox goes
/// through Moreau's identity. `nonnegative<V>()` is the box [0, +infinity).
///
/// The bounds may also be vectors of x's layout, one pair per element (PyProximal's array
/// bounds): complex bounds bound the real part of x_i by their real parts and the imaginary
/// part by their imaginary parts. Bounds beyond the largest finite value of the scalar type
/// count as infinite.

#include <limits>
#include <optional>
#include <string>

#include "distlops/solvers/proximal/prox_operator.hpp"

namespace distlops {

/// The indicator of {lower <= x_i <= upper}: prox clips every element (both parts of complex
/// values).
template <class V>
class Box : public ProxOperator<V> {
 public:
  /// Bounds may be infinite; InvalidArgument at the first call unless lower <= upper (NaN
  /// included).
  Box(double lower, double upper);
  /// Element-wise bounds, of the layout of the vectors x (ShapeMismatch otherwise); at the first
  /// call InvalidArgument on every rank unless lower_i <= upper_i for every element (both
  /// parts of complex bounds; NaN included). No communication.
  Box(const V& lower, const V& upper);

  /// The lower bound (-infinity with element-wise bounds).
  double lower() const { return lower_; }
  /// The upper bound (+infinity with element-wise bounds).
  double upper() const { return upper_; }
  /// Whether the bounds are vectors.
  bool elementwise() const { return lower_bounds_.has_value(); }
  std::string name() const override;
  std::shared_ptr<const ProxOperator<V>> clone() const override;
  /// The library's own code.
  bool runs_user_code() const override { return false; }
  /// The element-wise bounds have x's layout, and lower <= upper holds on this rank's elements.
  void check_operand(const vector_layout_t<V>& layout) const override;
  /// Its bounds (numbers, or the layouts of the bound vectors).
  void add_parameters(Fingerprint& fingerprint) const override;

 protected:
  double do_value(const V& x) const override;
  void do_prox(const V& x, double tau, V& out) const override;

 private:
  /// x_i = clip_box_between(x_i, lower_i, upper_i) on every local block.
  static void for_each_bounds_block(V& x, const V& lower, const V& upper);
  /// What is wrong with this rank's element-wise bounds (empty when nothing), found once.
  const std::string& bounds_problem() const;
  double lower_;
  double upper_;
  std::optional<V> lower_bounds_;
  std::optional<V> upper_bounds_;
  mutable bool bounds_checked_ = false;
  mutable std::string bounds_problem_;
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
