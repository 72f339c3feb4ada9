// StackedDistributedArray for the host space and the four scalar types.
#include "../stacked_distributed_array_impl.hpp"

namespace distlops {
template class StackedDistributedArray<float, Host>;
template class StackedDistributedArray<double, Host>;
template class StackedDistributedArray<std::complex<float>, Host>;
template class StackedDistributedArray<std::complex<double>, Host>;
}  // namespace distlops
