// SPDX-License-Identifier: BSD-3-Clause
// Copyright (c) 2026 The distlops authors
// ISTA and FISTA (one implementation) compiled for the host and Cuda cases of
// solvers/detail/instantiation.hpp.
#include "distlops/solvers/fista.hpp"

namespace distlops {
DISTLOPS_SOLVER_PAIRS(DISTLOPS_SPARSE_INSTANCE, )
DISTLOPS_SOLVER_CUDA_PAIRS(DISTLOPS_SPARSE_INSTANCE, )
}  // namespace distlops
