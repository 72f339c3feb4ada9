// SPDX-License-Identifier: BSD-3-Clause
// Copyright (c) 2026 The distlops authors
#pragma once
/// \file proximal_rules.hpp
/// The per-element arithmetic of the proximal operators (l1 shrinkage with weights, projection
/// onto magnitude bounds, box clipping, the group shrinkage of the mixed l2,1 norm), written
/// once for the host loops (solvers/proximal_kernels.cpp) and the CUDA kernels
/// (solvers/cuda/proximal_kernels.cu), and the kernels that apply them to contiguous data.
/// Light enough for CUDA files.

#include <cmath>

#include "distlops/config.hpp"
#include "distlops/core/host_device.hpp"
#include "distlops/core/memory_space.hpp"
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

/// How the group kernel scales every group.
enum class GroupScaling {
  /// Shrink: the prox of the l2,1 norm.
  shrink,
  /// Project onto the l2,inf ball: the prox of its conjugate.
  project
};

namespace kernels {
/// x[i] = soft(x[i], t |w[i]|) (w == nullptr: soft(x[i], t)), in place.
template <Scalar T>
void weighted_soft_threshold(Host, Index n, real_type_t<T> t, const T* w, T* x);
/// x[i] = clip_magnitude(x[i], bound |w[i]|) (w == nullptr: bound), in place.
template <Scalar T>
void clip_magnitude(Host, Index n, real_type_t<T> bound, const T* w, T* x);
/// x[i] = clip_box(x[i], lower, upper), in place.
template <Scalar T>
void clip_box(Host, Index n, real_type_t<T> lower, real_type_t<T> upper, T* x);
/// x[i] = clip_box_between(x[i], lower[i], upper[i]), in place.
template <Scalar T>
void clip_box_between(Host, Index n, const T* lower, const T* upper, T* x);
/// s2[i] += |x[i]|^2.
template <Scalar T>
void accumulate_abs_squared(Host, Index n, const T* x, real_type_t<T>* s2);
/// x[i] *= group_shrink_factor(s2[i], t) or group_project_factor(s2[i], t).
template <Scalar T>
void scale_groups(Host, GroupScaling scaling, Index n, const real_type_t<T>* s2, real_type_t<T> t,
                  T* x);

/// The same on device memory (solvers/cuda/proximal_kernels.cu), one kernel each on the
/// library's stream.
template <Scalar T>
void weighted_soft_threshold(Cuda, Index n, real_type_t<T> t, const T* w, T* x);
/// clip_magnitude on device memory.
template <Scalar T>
void clip_magnitude(Cuda, Index n, real_type_t<T> bound, const T* w, T* x);
/// clip_box on device memory.
template <Scalar T>
void clip_box(Cuda, Index n, real_type_t<T> lower, real_type_t<T> upper, T* x);
/// clip_box_between on device memory.
template <Scalar T>
void clip_box_between(Cuda, Index n, const T* lower, const T* upper, T* x);
/// accumulate_abs_squared on device memory.
template <Scalar T>
void accumulate_abs_squared(Cuda, Index n, const T* x, real_type_t<T>* s2);
/// scale_groups on device memory.
template <Scalar T>
void scale_groups(Cuda, GroupScaling scaling, Index n, const real_type_t<T>* s2, real_type_t<T> t,
                  T* x);
}  // namespace kernels

}  // namespace distlops
