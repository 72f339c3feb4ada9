// SPDX-License-Identifier: BSD-3-Clause
// Copyright (c) 2026 The distlops authors
// Host kernels of the proximal operators: loops over the rules of proximal_rules.hpp.
#include "../proximal/proximal_kernels.hpp"

#include "../proximal/proximal_rules.hpp"
#include "distlops/core/instantiate.hpp"

namespace distlops::kernels {

template <Scalar T>
void weighted_soft_threshold(Host, Index n, real_type_t<T> t, const T* w, T* x) {
  for (Index i = 0; i < n; ++i) {
    const real_type_t<T> ti = w ? t * pointwise::magnitude(w[i]) : t;
    x[i] = threshold_rules::soft(x[i], ti);
  }
}

template <Scalar T>
void clip_magnitude(Host, Index n, real_type_t<T> bound, const T* w, T* x) {
  for (Index i = 0; i < n; ++i) {
    const real_type_t<T> bi = w ? bound * pointwise::magnitude(w[i]) : bound;
    x[i] = proximal_rules::clip_magnitude(x[i], bi);
  }
}

template <Scalar T>
void clip_box(Host, Index n, real_type_t<T> lower, real_type_t<T> upper, T* x) {
  for (Index i = 0; i < n; ++i)
    x[i] = proximal_rules::clip_box(x[i], lower, upper);
}

template <Scalar T>
void clip_box_between(Host, Index n, const T* lower, const T* upper, T* x) {
  for (Index i = 0; i < n; ++i)
    x[i] = proximal_rules::clip_box_between(x[i], lower[i], upper[i]);
}

template <Scalar T>
void accumulate_abs_squared(Host, Index n, const T* x, real_type_t<T>* s2) {
  for (Index i = 0; i < n; ++i)
    s2[i] += pointwise::abs_squared(x[i]);
}

template <Scalar T>
void scale_groups(Host, GroupScaling scaling, Index n, const real_type_t<T>* s2, real_type_t<T> t,
                  T* x) {
  for (Index i = 0; i < n; ++i) {
    const real_type_t<T> factor = scaling == GroupScaling::shrink
                                      ? proximal_rules::group_shrink_factor(s2[i], t)
                                      : proximal_rules::group_project_factor(s2[i], t);
    x[i] = threshold_rules::times_real(x[i], factor);
  }
}

#define DISTLOPS_INSTANTIATE_PROXIMAL_KERNELS(T, Space)                                            \
  template void weighted_soft_threshold<T>(Space, Index, real_type_t<T>, const T*, T*);            \
  template void clip_magnitude<T>(Space, Index, real_type_t<T>, const T*, T*);                     \
  template void clip_box<T>(Space, Index, real_type_t<T>, real_type_t<T>, T*);                     \
  template void clip_box_between<T>(Space, Index, const T*, const T*, T*);                         \
  template void accumulate_abs_squared<T>(Space, Index, const T*, real_type_t<T>*);                \
  template void scale_groups<T>(Space, GroupScaling, Index, const real_type_t<T>*, real_type_t<T>, \
                                T*);
DISTLOPS_FOR_EACH_SCALAR_IN(DISTLOPS_INSTANTIATE_PROXIMAL_KERNELS, ::distlops::Host)
#undef DISTLOPS_INSTANTIATE_PROXIMAL_KERNELS

}  // namespace distlops::kernels
