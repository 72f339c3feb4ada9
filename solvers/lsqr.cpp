// SPDX-License-Identifier: BSD-3-Clause
// Copyright (c) 2026 The distlops authors
// LSQR compiled for the cases its header lists.
#include "distlops/solvers/lsqr.hpp"

namespace distlops {
DISTLOPS_DETAIL_LSQR_CASES()
}  // namespace distlops
