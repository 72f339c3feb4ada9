// SPDX-License-Identifier: BSD-3-Clause
// Copyright (c) 2026 The distlops authors
#pragma once
// The per-element arithmetic of the proximal operators (l1 shrinkage with weights, projection
// onto magnitude bounds, box clipping, the group shrinkage of the mixed l2,1 norm), written
// once for the host loops (solvers/host/proximal_kernels.cpp) and the CUDA kernels
// (solvers/cuda/proximal_kernels.cu). Internal to the library; light enough for CUDA files.

#include <cmath>

#include "distlops/config.hpp"
#include "distlops/core/host_device.hpp"
#include "distlops/core/pointwise.hpp"
#include "distlops/core/types.hpp"
#include "distlops/solvers/threshold_rules.hpp"

namespace distlops {

namespace proximal_rules {

/// The projection of x onto {|y| <= bound}: x min(1, bound / |x|) (the phase is kept).
template <class T>
DISTLOPS_HOST_DEVICE inline T clip_magnitude(const T& x, pointwise::real_of_t<T> bound) {
  const pointwise::real_of_t<T> m = pointwise::magnitude(x);
  return m > bound ? threshold_rules::times_real(x, bound / m) : x;
}

/// x clipped to [lower, upper]; complex values component by component (the box of C seen as
/// R^2).
template <class T>
DISTLOPS_HOST_DEVICE inline T clip_box(const T& x, pointwise::real_of_t<T> lower,
                                       pointwise::real_of_t<T> upper) {
  if constexpr (pointwise::ComplexLike<T>) {
    return T(std::fmin(std::fmax(x.real(), lower), upper),
             std::fmin(std::fmax(x.imag(), lower), upper));
  } else {
    return std::fmin(std::fmax(x, lower), upper);
  }
}

/// x clipped to [lower, upper] with bounds of x's type: complex values part by part, the real
/// part to the real parts of the bounds and the imaginary part to their imaginary parts.
template <class T>
DISTLOPS_HOST_DEVICE inline T clip_box_between(const T& x, const T& lower, const T& upper) {
  if constexpr (pointwise::ComplexLike<T>) {
    return T(std::fmin(std::fmax(x.real(), lower.real()), upper.real()),
             std::fmin(std::fmax(x.imag(), lower.imag()), upper.imag()));
  } else {
    return std::fmin(std::fmax(x, lower), upper);
  }
}

/// The factor of the group shrinkage of a group of squared norm s2 with threshold t:
/// max(0, 1 - t / sqrt(s2)) (0 for an all-zero group).
template <class R>
DISTLOPS_HOST_DEVICE inline R group_shrink_factor(R s2, R t) {
  const R norm = std::sqrt(s2);
  return norm > t ? (norm - t) / norm : R(0);
}

/// The factor of the projection of a group onto the ball of radius t: min(1, t / sqrt(s2)).
template <class R>
DISTLOPS_HOST_DEVICE inline R group_project_factor(R s2, R t) {
  const R norm = std::sqrt(s2);
  return norm > t ? t / norm : R(1);
}

}  // namespace proximal_rules

}  // namespace distlops
