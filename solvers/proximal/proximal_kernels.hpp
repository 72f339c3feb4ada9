// SPDX-License-Identifier: BSD-3-Clause
// Copyright (c) 2026 The distlops authors
#pragma once
// The kernels of the proximal operators (internal to the library): the rules of
// proximal_rules.hpp applied to contiguous data, declared for both memory spaces and defined in
// solvers/host/proximal_kernels.cpp and solvers/cuda/proximal_kernels.cu.
#include "distlops/core/memory_space.hpp"
#include "distlops/core/types.hpp"

namespace distlops {

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
