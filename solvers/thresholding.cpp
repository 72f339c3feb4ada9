// SPDX-License-Identifier: BSD-3-Clause
// Copyright (c) 2026 The distlops authors
// Host kernels of the thresholding rules.
#include "distlops/solvers/thresholding.hpp"

#include "distlops/core/instantiate.hpp"

namespace distlops {

const char* to_string(ThresholdKind kind) {
  switch (kind) {
    case ThresholdKind::soft:
      return "soft";
    case ThresholdKind::hard:
      return "hard";
    case ThresholdKind::half:
      return "half";
  }
  return "unknown";
}

namespace kernels {

template <Scalar T>
void threshold(Host, ThresholdKind kind, Index n, real_type_t<T> t, T* x) {
  using R = real_type_t<T>;
  switch (kind) {
    case ThresholdKind::soft:
      for (Index i = 0; i < n; ++i)
        x[i] = soft_threshold(x[i], t);
      break;
    case ThresholdKind::hard: {
      const R cut = hard_threshold_cut(t);
      for (Index i = 0; i < n; ++i)
        x[i] = hard_threshold(x[i], cut);
      break;
    }
    case ThresholdKind::half: {
      const R cut = half_threshold_cut(t);
      for (Index i = 0; i < n; ++i)
        x[i] = half_threshold(x[i], t, cut);
      break;
    }
  }
}

#define DISTLOPS_INSTANTIATE_THRESHOLD(T, Space) \
  template void threshold<T>(Space, ThresholdKind, Index, real_type_t<T>, T*);
DISTLOPS_FOR_EACH_SCALAR_IN(DISTLOPS_INSTANTIATE_THRESHOLD, ::distlops::Host)
#undef DISTLOPS_INSTANTIATE_THRESHOLD

}  // namespace kernels
}  // namespace distlops
