// DistributedArray for the host space and the four scalar types.
#include "../distributed_array_impl.hpp"

namespace distlops {
template class DistributedArray<float, Host>;
template class DistributedArray<double, Host>;
template class DistributedArray<std::complex<float>, Host>;
template class DistributedArray<std::complex<double>, Host>;
}  // namespace distlops
