// The reference operators and assemblies of dense_reference.hpp, compiled once for the four
// scalar types of the tests.
#include "dense_reference.hpp"

namespace distlops::testing {

DISTLOPS_DENSE_REFERENCE(, float)
DISTLOPS_DENSE_REFERENCE(, double)
DISTLOPS_DENSE_REFERENCE(, std::complex<float>)
DISTLOPS_DENSE_REFERENCE(, std::complex<double>)

}  // namespace distlops::testing
