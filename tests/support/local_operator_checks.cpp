// SPDX-License-Identifier: BSD-3-Clause
// Copyright (c) 2026 The distlops authors
// The checks of local_operator_checks.hpp, compiled once for the four scalar types of the tests
// in every memory space of the build.
#include "local_operator_checks.hpp"

namespace distlops::testing {

#define DISTLOPS_DETAIL_LOCAL_OPERATOR_CHECKS(T) DISTLOPS_LOCAL_OPERATOR_CHECKS(, T)
#define DISTLOPS_DETAIL_LOCAL_OPERATOR_CHECKS_IN(T, Space) \
  DISTLOPS_LOCAL_OPERATOR_CHECKS_IN(, T, Space)
DISTLOPS_FOR_EACH_SCALAR(DISTLOPS_DETAIL_LOCAL_OPERATOR_CHECKS)
DISTLOPS_FOR_EACH_SCALAR_AND_SPACE(DISTLOPS_DETAIL_LOCAL_OPERATOR_CHECKS_IN)

}  // namespace distlops::testing
