// SPDX-License-Identifier: BSD-3-Clause
// Copyright (c) 2026 The distlops authors
#pragma once
/// \file threshold_rules.hpp
/// The thresholding rules of ISTA and FISTA as per-element functions (thresholding.hpp has the
/// formulas and the vector-level functions), light enough for CUDA files. The library's kernels
/// apply them to contiguous data in each memory space.

#include <cmath>

#include "distlops/config.hpp"
#include "distlops/core/host_device.hpp"
#include "distlops/core/memory_space.hpp"
#include "distlops/core/pointwise.hpp"
#include "distlops/core/types.hpp"

namespace distlops {

/// The thresholding rule of ISTA and FISTA (thresholding.hpp has the formulas).
enum class ThresholdKind {
  /// Soft thresholding, the proximal operator of the l1 norm.
  soft,
  /// Hard thresholding, the proximal operator of the number of non-zeros.
  hard,
  /// Half thresholding, the proximal operator of sum |x_i|^(1/2).
  half
};

/// The exponent p of the penalty a rule is the proximal operator of: 1, 0 or 0.5.
constexpr double penalty_exponent(ThresholdKind kind) {
  return kind == ThresholdKind::soft ? 1.0 : kind == ThresholdKind::hard ? 0.0 : 0.5;
}

/// The per-element rules, written once for the host loop (solvers/host/threshold_kernels.cpp) and
/// the CUDA kernel (solvers/cuda/threshold_kernels.cu). T is a real type, std::complex or
/// pointwise::complex_pair (device code).
namespace threshold_rules {

/// x * s for a real s (exact per component for complex values).
template <class T, class R>
DISTLOPS_HOST_DEVICE inline T times_real(const T& x, R s) {
  if constexpr (pointwise::ComplexLike<T>) {
    return T(x.real() * s, x.imag() * s);
  } else {
    return x * s;
  }
}

/// max(|x| - t, 0) x / |x|: the magnitude shrinks by t, the phase stays.
template <class T>
DISTLOPS_HOST_DEVICE inline T soft(const T& x, pointwise::real_of_t<T> t) {
  using R = pointwise::real_of_t<T>;
  const R magnitude = std::sqrt(pointwise::abs_squared(x));
  return magnitude > t ? times_real(x, (magnitude - t) / magnitude) : pointwise::from_real<T>(0);
}

/// `cut` = sqrt(2 t), computed once by the caller.
template <class T>
DISTLOPS_HOST_DEVICE inline T hard(const T& x, pointwise::real_of_t<T> cut) {
  return std::sqrt(pointwise::abs_squared(x)) > cut ? x : pointwise::from_real<T>(0);
}

/// `cut` = 54^(1/3) / 4 t^(2/3), computed once by the caller.
template <class T>
DISTLOPS_HOST_DEVICE inline T half(const T& x, pointwise::real_of_t<T> t,
                                   pointwise::real_of_t<T> cut) {
  using R = pointwise::real_of_t<T>;
  const R magnitude = std::sqrt(pointwise::abs_squared(x));
  if (magnitude <= cut) return pointwise::from_real<T>(0);
  R argument = (t / R(8)) * std::pow(magnitude / R(3), R(-1.5));
  argument = std::fmin(std::fmax(argument, R(-1)), R(1));
  const R phi = R(2) / R(3) * std::acos(argument);
  // PyLops' order of operations and its 2 pi / 3 (2 pi / 3 rounded in double arithmetic), so
  // that real iterates equal PyLops' bit for bit where the elementary functions agree.
  const R two_pi_over_three = R(2.0 * 3.141592653589793 / 3.0);
  return times_real(times_real(x, R(2) / R(3)), R(1) + std::cos(two_pi_over_three - phi));
}

}  // namespace threshold_rules

/// The cut of the hard rule for threshold t: sqrt(2 t).
template <class R>
R hard_threshold_cut(R t) {
  return std::sqrt(R(2) * t);
}
/// The cut of the half rule for threshold t: 54^(1/3) / 4 t^(2/3).
template <class R>
R half_threshold_cut(R t) {
  return std::cbrt(R(54)) / R(4) * std::pow(t, R(2) / R(3));
}

}  // namespace distlops
