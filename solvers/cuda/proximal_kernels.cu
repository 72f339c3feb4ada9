// SPDX-License-Identifier: BSD-3-Clause
// Copyright (c) 2026 The distlops authors
// The Cuda kernels of the proximal operators: one thread per element, each calling the rule
// shared with the host loops (proximal_rules.hpp).
#include "../proximal/proximal_kernels.hpp"

#include "../proximal/proximal_rules.hpp"
#include "distlops/core/detail/cuda_launch.cuh"
#include "distlops/core/instantiate.hpp"

namespace distlops::kernels {

namespace {

using device::first_index;
using device::grid_stride;

template <class D, class R>
__global__ void weighted_soft_kernel(Index n, R t, const D* w, D* x) {
  for (Index i = first_index(); i < n; i += grid_stride()) {
    const R ti = w ? t * pointwise::magnitude(w[i]) : t;
    x[i] = threshold_rules::soft(x[i], ti);
  }
}

template <class D, class R>
__global__ void clip_magnitude_kernel(Index n, R bound, const D* w, D* x) {
  for (Index i = first_index(); i < n; i += grid_stride()) {
    const R bi = w ? bound * pointwise::magnitude(w[i]) : bound;
    x[i] = proximal_rules::clip_magnitude(x[i], bi);
  }
}

template <class D, class R>
__global__ void clip_box_kernel(Index n, R lower, R upper, D* x) {
  for (Index i = first_index(); i < n; i += grid_stride())
    x[i] = proximal_rules::clip_box(x[i], lower, upper);
}

template <class D>
__global__ void clip_box_between_kernel(Index n, const D* lower, const D* upper, D* x) {
  for (Index i = first_index(); i < n; i += grid_stride())
    x[i] = proximal_rules::clip_box_between(x[i], lower[i], upper[i]);
}

template <class D, class R>
__global__ void accumulate_abs_squared_kernel(Index n, const D* x, R* s2) {
  for (Index i = first_index(); i < n; i += grid_stride())
    s2[i] += pointwise::abs_squared(x[i]);
}

template <class D, class R>
__global__ void scale_groups_kernel(bool shrink, Index n, const R* s2, R t, D* x) {
  for (Index i = first_index(); i < n; i += grid_stride()) {
    const R factor = shrink ? proximal_rules::group_shrink_factor(s2[i], t)
                            : proximal_rules::group_project_factor(s2[i], t);
    x[i] = threshold_rules::times_real(x[i], factor);
  }
}

}  // namespace

template <Scalar T>
void weighted_soft_threshold(Cuda, Index n, real_type_t<T> t, const T* w, T* x) {
  if (n <= 0) return;
  weighted_soft_kernel<<<device::grid_size(n), device::block_size, 0, device::stream()>>>(
      n, t, device::pointer(w), device::pointer(x));
  cuda::check_launch("weighted soft threshold kernel launch");
}

template <Scalar T>
void clip_magnitude(Cuda, Index n, real_type_t<T> bound, const T* w, T* x) {
  if (n <= 0) return;
  clip_magnitude_kernel<<<device::grid_size(n), device::block_size, 0, device::stream()>>>(
      n, bound, device::pointer(w), device::pointer(x));
  cuda::check_launch("clip magnitude kernel launch");
}

template <Scalar T>
void clip_box(Cuda, Index n, real_type_t<T> lower, real_type_t<T> upper, T* x) {
  if (n <= 0) return;
  clip_box_kernel<<<device::grid_size(n), device::block_size, 0, device::stream()>>>(
      n, lower, upper, device::pointer(x));
  cuda::check_launch("clip box kernel launch");
}

template <Scalar T>
void clip_box_between(Cuda, Index n, const T* lower, const T* upper, T* x) {
  if (n <= 0) return;
  clip_box_between_kernel<<<device::grid_size(n), device::block_size, 0, device::stream()>>>(
      n, device::pointer(lower), device::pointer(upper), device::pointer(x));
  cuda::check_launch("clip box between kernel launch");
}

template <Scalar T>
void accumulate_abs_squared(Cuda, Index n, const T* x, real_type_t<T>* s2) {
  if (n <= 0) return;
  accumulate_abs_squared_kernel<<<device::grid_size(n), device::block_size, 0, device::stream()>>>(
      n, device::pointer(x), s2);
  cuda::check_launch("accumulate abs squared kernel launch");
}

template <Scalar T>
void scale_groups(Cuda, GroupScaling scaling, Index n, const real_type_t<T>* s2, real_type_t<T> t,
                  T* x) {
  if (n <= 0) return;
  scale_groups_kernel<<<device::grid_size(n), device::block_size, 0, device::stream()>>>(
      scaling == GroupScaling::shrink, n, s2, t, device::pointer(x));
  cuda::check_launch("scale groups kernel launch");
}

#define DISTLOPS_INSTANTIATE_PROXIMAL_KERNELS(T, Space)                                            \
  template void weighted_soft_threshold<T>(Space, Index, real_type_t<T>, const T*, T*);            \
  template void clip_magnitude<T>(Space, Index, real_type_t<T>, const T*, T*);                     \
  template void clip_box<T>(Space, Index, real_type_t<T>, real_type_t<T>, T*);                     \
  template void clip_box_between<T>(Space, Index, const T*, const T*, T*);                         \
  template void accumulate_abs_squared<T>(Space, Index, const T*, real_type_t<T>*);                \
  template void scale_groups<T>(Space, GroupScaling, Index, const real_type_t<T>*, real_type_t<T>, \
                                T*);
DISTLOPS_FOR_EACH_SCALAR_IN(DISTLOPS_INSTANTIATE_PROXIMAL_KERNELS, ::distlops::Cuda)
#undef DISTLOPS_INSTANTIATE_PROXIMAL_KERNELS

}  // namespace distlops::kernels
