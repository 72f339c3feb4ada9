// SPDX-License-Identifier: BSD-3-Clause
// Copyright (c) 2026 The distlops authors
// The serial solver references for the real scalar types of the tests.
#include "solver_reference_impl.hpp"

namespace distlops::testing {

DISTLOPS_INSTANTIATE_SOLVER_REFERENCE(float)
DISTLOPS_INSTANTIATE_SOLVER_REFERENCE(double)

}  // namespace distlops::testing
