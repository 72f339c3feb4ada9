// SPDX-License-Identifier: BSD-3-Clause
// Copyright (c) 2026 The distlops authors
// DistributedArray for the host space and the four scalar types.
#include "../distributed_array_impl.hpp"
#include "distlops/core/instantiate.hpp"

namespace distlops {
DISTLOPS_INSTANTIATE_TEMPLATE_CLASS_IN(DistributedArray, Host)
}  // namespace distlops
