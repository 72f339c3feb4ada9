// SPDX-License-Identifier: BSD-3-Clause
// Copyright (c) 2026 The distlops authors
// The reference operators and assemblies of dense_reference.hpp, compiled once for the four
// scalar types of the tests in every memory space of the build.
#include "dense_reference.hpp"

namespace distlops::testing {

#define DISTLOPS_DETAIL_DENSE_REFERENCE(T) DISTLOPS_DENSE_REFERENCE(, T)
#define DISTLOPS_DETAIL_DENSE_REFERENCE_IN(T, Space) DISTLOPS_DENSE_REFERENCE_IN(, T, Space)
DISTLOPS_FOR_EACH_SCALAR(DISTLOPS_DETAIL_DENSE_REFERENCE)
DISTLOPS_FOR_EACH_SCALAR_AND_SPACE(DISTLOPS_DETAIL_DENSE_REFERENCE_IN)

}  // namespace distlops::testing
