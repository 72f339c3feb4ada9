// SPDX-License-Identifier: BSD-3-Clause
// Copyright (c) 2026 The distlops authors
// The stacking operators (of local blocks, of distributed operators) and Replicated, for the
// four scalar types in every memory space of the build.
#include "distlops/core/instantiate.hpp"
#include "distlops/operators/stack/block_diag.hpp"
#include "distlops/operators/stack/replicated.hpp"
#include "distlops/operators/stack/stacked.hpp"
#include "distlops/operators/stack/vstack.hpp"

namespace distlops {
DISTLOPS_INSTANTIATE_TEMPLATE_CLASS(BlockDiagOperator)
DISTLOPS_INSTANTIATE_TEMPLATE_CLASS(VStackOperator)
DISTLOPS_INSTANTIATE_TEMPLATE_CLASS(StackBlock)
DISTLOPS_INSTANTIATE_TEMPLATE_CLASS(StackedBlockDiagOperator)
DISTLOPS_INSTANTIATE_TEMPLATE_CLASS(StackedVStackOperator)
DISTLOPS_INSTANTIATE_TEMPLATE_CLASS(ReplicatedOperator)
#define DISTLOPS_INSTANTIATE_NESTED_VSTACK(T, S) \
  template class StackedVStackOperator<T, S, StackedDistributedArray<T, S>>;
DISTLOPS_FOR_EACH_SCALAR_AND_SPACE(DISTLOPS_INSTANTIATE_NESTED_VSTACK)
#undef DISTLOPS_INSTANTIATE_NESTED_VSTACK
}  // namespace distlops
