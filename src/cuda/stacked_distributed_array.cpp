// StackedDistributedArray for the Cuda space and the four scalar types.
#include "../stacked_distributed_array_impl.hpp"

namespace distlops {
template class StackedDistributedArray<float, Cuda>;
template class StackedDistributedArray<double, Cuda>;
template class StackedDistributedArray<std::complex<float>, Cuda>;
template class StackedDistributedArray<std::complex<double>, Cuda>;
}  // namespace distlops
