// SPDX-License-Identifier: BSD-3-Clause
// Copyright (c) 2026 The distlops authors
// The serial solver references for the complex scalar types of the tests.
#include "solver_reference_impl.hpp"

namespace distlops::testing {

DISTLOPS_INSTANTIATE_SOLVER_REFERENCE(std::complex<float>)
DISTLOPS_INSTANTIATE_SOLVER_REFERENCE(std::complex<double>)

}  // namespace distlops::testing
