// SPDX-License-Identifier: BSD-3-Clause
// Copyright (c) 2026 The distlops authors
// Power iteration compiled for the cases its header lists.
#include "distlops/solvers/power_iteration.hpp"

namespace distlops {
DISTLOPS_DETAIL_POWER_ITERATION_CASES()
}  // namespace distlops
