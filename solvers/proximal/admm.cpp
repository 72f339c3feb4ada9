// SPDX-License-Identifier: BSD-3-Clause
// Copyright (c) 2026 The distlops authors
// ADMM with an l2 data term compiled for the cases listed in admm.hpp, for every scalar type
// and memory space.
#include "distlops/solvers/proximal/admm.hpp"

namespace distlops {

#define DISTLOPS_INSTANTIATE_ADMM(T, Space)                                                 \
  template class Admm<DistributedArray<T, Space>, DistributedArray<T, Space>,               \
                      DistributedArray<T, Space>>;                                          \
  template class Admm<DistributedArray<T, Space>, DistributedArray<T, Space>,               \
                      StackedDistributedArray<T, Space>>;                                   \
  template class Admm<StackedDistributedArray<T, Space>, StackedDistributedArray<T, Space>, \
                      StackedDistributedArray<T, Space>>;                                   \
  template class Admm<StackedDistributedArray<T, Space>, StackedDistributedArray<T, Space>, \
                      DistributedArray<T, Space>>;
DISTLOPS_FOR_EACH_SCALAR_AND_SPACE(DISTLOPS_INSTANTIATE_ADMM)
#undef DISTLOPS_INSTANTIATE_ADMM

}  // namespace distlops
