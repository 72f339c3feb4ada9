// DistributedArray for the Cuda space and the four scalar types.
#include "../distributed_array_impl.hpp"

namespace distlops {
template class DistributedArray<float, Cuda>;
template class DistributedArray<double, Cuda>;
template class DistributedArray<std::complex<float>, Cuda>;
template class DistributedArray<std::complex<double>, Cuda>;
}  // namespace distlops
