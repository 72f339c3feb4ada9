// The serial solver references for the complex scalar types of the tests.
#include "solver_reference_impl.hpp"

namespace distlops::testing {

DISTLOPS_INSTANTIATE_SOLVER_REFERENCE(std::complex<float>)
DISTLOPS_INSTANTIATE_SOLVER_REFERENCE(std::complex<double>)

}  // namespace distlops::testing
