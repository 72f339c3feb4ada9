// SPDX-License-Identifier: BSD-3-Clause
// Copyright (c) 2026 The distlops authors
// Power iteration compiled for the host and Cuda cases of solvers/detail/instantiation.hpp.
#include "distlops/solvers/power_iteration.hpp"

namespace distlops {
DISTLOPS_SOLVER_VECTORS(DISTLOPS_POWER_INSTANCE, )
DISTLOPS_SOLVER_CUDA_VECTORS(DISTLOPS_POWER_INSTANCE, )
}  // namespace distlops
