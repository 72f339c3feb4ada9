// SPDX-License-Identifier: BSD-3-Clause
// Copyright (c) 2026 The distlops authors
// The primal-dual algorithm and linearised ADMM (both min f(x) + g(K x) without linear solves)
// compiled for the pairs of distributed and stacked arrays of every scalar type and memory
// space.
#include "distlops/solvers/proximal/primal_dual.hpp"
#include "distlops/solvers/proximal/linearized_admm.hpp"

namespace distlops {

#define DISTLOPS_INSTANTIATE_PRIMAL_DUAL(T, Space)                                                 \
  template class PrimalDual<DistributedArray<T, Space>, DistributedArray<T, Space>>;               \
  template class PrimalDual<DistributedArray<T, Space>, StackedDistributedArray<T, Space>>;        \
  template class PrimalDual<StackedDistributedArray<T, Space>, StackedDistributedArray<T, Space>>; \
  template class PrimalDual<StackedDistributedArray<T, Space>, DistributedArray<T, Space>>;        \
  template class LinearizedAdmm<DistributedArray<T, Space>, DistributedArray<T, Space>>;           \
  template class LinearizedAdmm<DistributedArray<T, Space>, StackedDistributedArray<T, Space>>;    \
  template class LinearizedAdmm<StackedDistributedArray<T, Space>,                                 \
                                StackedDistributedArray<T, Space>>;                                \
  template class LinearizedAdmm<StackedDistributedArray<T, Space>, DistributedArray<T, Space>>;
DISTLOPS_FOR_EACH_SCALAR_AND_SPACE(DISTLOPS_INSTANTIATE_PRIMAL_DUAL)
#undef DISTLOPS_INSTANTIATE_PRIMAL_DUAL

}  // namespace distlops
