// SPDX-License-Identifier: BSD-3-Clause
// Copyright (c) 2026 The distlops authors
// CG compiled for the cases its header lists.
#include "distlops/solvers/cg.hpp"

namespace distlops {
DISTLOPS_DETAIL_CG_CASES()
}  // namespace distlops
