// SPDX-License-Identifier: BSD-3-Clause
// Copyright (c) 2026 The distlops authors
// ISTA and FISTA (one implementation) compiled for the cases its header lists.
#include "distlops/solvers/fista.hpp"

namespace distlops {
DISTLOPS_DETAIL_ISTA_CASES()
}  // namespace distlops
