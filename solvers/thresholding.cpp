// SPDX-License-Identifier: BSD-3-Clause
// Copyright (c) 2026 The distlops authors
// The thresholding of a vector, block by block in the kernels of threshold_kernels.hpp, and the
// names of the rules.
#include "distlops/solvers/thresholding.hpp"

#include "distlops/core/instantiate.hpp"
#include "threshold_kernels.hpp"

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

template <class V>
void threshold(V& v, ThresholdKind kind, double t) {
  using T = typename V::value_type;
  using Space = typename V::space_type;
  detail::for_each_block(v, [&](T* data, Index n, Index) {
    kernels::threshold(Space{}, kind, n, static_cast<real_type_t<T>>(t), data);
  });
}

#define DISTLOPS_INSTANTIATE_THRESHOLD(T, Space)                                      \
  template void threshold(DistributedArray<T, Space>&, ThresholdKind, double);        \
  template void threshold(StackedDistributedArray<T, Space>&, ThresholdKind, double); \
  template void threshold(LocalArray<T, Space>&, ThresholdKind, double);
DISTLOPS_FOR_EACH_SCALAR_AND_SPACE(DISTLOPS_INSTANTIATE_THRESHOLD)
#undef DISTLOPS_INSTANTIATE_THRESHOLD

}  // namespace distlops
