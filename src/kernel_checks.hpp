// SPDX-License-Identifier: BSD-3-Clause
// Copyright (c) 2026 The distlops authors
#pragma once
// Argument checks shared by the host and device kernels.
#include <cmath>
#include <string>

#include "distlops/core/error.hpp"
#include "distlops/core/kernels.hpp"

namespace distlops::kernels::detail {

template <class R>
void check_norm_kind(NormKind kind, R p) {
  if (kind == NormKind::power_sum && (p == 0 || !std::isfinite(p))) {
    throw InvalidArgument(
        "norm: the order p of a power-sum norm must be finite and non-zero, got " +
        std::to_string(p));
  }
}

}  // namespace distlops::kernels::detail
