// The stacking operators of local blocks for the host space and the four scalar types.
#include "distlops/operators/stack/block_diag.hpp"
#include "distlops/operators/stack/vstack.hpp"

namespace distlops {
#define DISTLOPS_INSTANTIATE_STACKS(T)       \
  template class BlockDiagOperator<T, Host>; \
  template class VStackOperator<T, Host>;    \
  template class HStackOperator<T, Host>;
DISTLOPS_INSTANTIATE_STACKS(float)
DISTLOPS_INSTANTIATE_STACKS(double)
DISTLOPS_INSTANTIATE_STACKS(std::complex<float>)
DISTLOPS_INSTANTIATE_STACKS(std::complex<double>)
#if DISTLOPS_WITH_CUDA
#define DISTLOPS_INSTANTIATE_CUDA_STACKS(T)  \
  template class BlockDiagOperator<T, Cuda>; \
  template class VStackOperator<T, Cuda>;    \
  template class HStackOperator<T, Cuda>;
DISTLOPS_INSTANTIATE_CUDA_STACKS(float)
DISTLOPS_INSTANTIATE_CUDA_STACKS(double)
DISTLOPS_INSTANTIATE_CUDA_STACKS(std::complex<float>)
DISTLOPS_INSTANTIATE_CUDA_STACKS(std::complex<double>)
#undef DISTLOPS_INSTANTIATE_CUDA_STACKS
#endif
#undef DISTLOPS_INSTANTIATE_STACKS
}  // namespace distlops
