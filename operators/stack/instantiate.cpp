// The stacking operators of local blocks for the host space and the four scalar types.
#include "distlops/core/instantiate.hpp"
#include "distlops/operators/stack/block_diag.hpp"
#include "distlops/operators/stack/vstack.hpp"

namespace distlops {
#define DISTLOPS_INSTANTIATE_STACKS(T, S) \
  template class BlockDiagOperator<T, S>; \
  template class VStackOperator<T, S>;
DISTLOPS_FOR_EACH_SCALAR_AND_SPACE(DISTLOPS_INSTANTIATE_STACKS)
#undef DISTLOPS_INSTANTIATE_STACKS
}  // namespace distlops
