// SPDX-License-Identifier: BSD-3-Clause
// Copyright (c) 2026 The distlops authors
// CG compiled for the host and Cuda cases of solvers/detail/instantiation.hpp.
#include "distlops/solvers/cg.hpp"

namespace distlops {
DISTLOPS_SOLVER_VECTORS(DISTLOPS_CG_INSTANCE, )
DISTLOPS_SOLVER_CUDA_VECTORS(DISTLOPS_CG_INSTANCE, )
}  // namespace distlops
