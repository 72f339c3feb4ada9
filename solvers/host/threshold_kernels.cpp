// SPDX-License-Identifier: BSD-3-Clause
// Copyright (c) 2026 The distlops authors
// Host kernel of the thresholding rules: one loop per rule, its cut computed once.
#include "../threshold_kernels.hpp"

#include "distlops/core/instantiate.hpp"

namespace distlops::kernels {

template <Scalar T>
void threshold(Host, ThresholdKind kind, Index n, real_type_t<T> t, T* x) {
  using R = real_type_t<T>;
  switch (kind) {
    case ThresholdKind::soft:
      for (Index i = 0; i < n; ++i)
        x[i] = threshold_rules::soft(x[i], t);
      break;
    case ThresholdKind::hard: {
      const R cut = hard_threshold_cut(t);
      for (Index i = 0; i < n; ++i)
        x[i] = threshold_rules::hard(x[i], cut);
      break;
    }
    case ThresholdKind::half: {
      const R cut = half_threshold_cut(t);
      for (Index i = 0; i < n; ++i)
        x[i] = threshold_rules::half(x[i], t, cut);
      break;
    }
  }
}

#define DISTLOPS_INSTANTIATE_THRESHOLD(T, Space) \
  template void threshold<T>(Space, ThresholdKind, Index, real_type_t<T>, T*);
DISTLOPS_FOR_EACH_SCALAR_IN(DISTLOPS_INSTANTIATE_THRESHOLD, ::distlops::Host)
#undef DISTLOPS_INSTANTIATE_THRESHOLD

}  // namespace distlops::kernels
