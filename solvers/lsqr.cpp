// SPDX-License-Identifier: BSD-3-Clause
// Copyright (c) 2026 The distlops authors
// LSQR compiled for the host and Cuda cases of solvers/detail/instantiation.hpp.
#include "distlops/solvers/lsqr.hpp"

namespace distlops {
DISTLOPS_SOLVER_PAIRS(DISTLOPS_LSQR_INSTANCE, )
DISTLOPS_SOLVER_CUDA_PAIRS(DISTLOPS_LSQR_INSTANCE, )
}  // namespace distlops
