// The checks of local_operator_checks.hpp, compiled once for the four scalar types of the tests.
#include "local_operator_checks.hpp"

namespace distlops::testing {

DISTLOPS_LOCAL_OPERATOR_CHECKS(, float)
DISTLOPS_LOCAL_OPERATOR_CHECKS(, double)
DISTLOPS_LOCAL_OPERATOR_CHECKS(, std::complex<float>)
DISTLOPS_LOCAL_OPERATOR_CHECKS(, std::complex<double>)

}  // namespace distlops::testing
