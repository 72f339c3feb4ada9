// SPDX-License-Identifier: BSD-3-Clause
// Copyright (c) 2026 The distlops authors
// CGLS compiled for the cases its header lists.
#include "distlops/solvers/cgls.hpp"

namespace distlops {
DISTLOPS_DETAIL_CGLS_CASES()
}  // namespace distlops
