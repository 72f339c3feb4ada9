// SPDX-License-Identifier: BSD-3-Clause
// Copyright (c) 2026 The distlops authors
#pragma once
/// \file uniform_gather.hpp
/// Recognises an all-gather among the variable ones: every rank contributes the same count and
/// rank r's part starts at r * count, so that one fixed-size all-gather serves.

#include <span>

#include "distlops/core/types.hpp"

namespace distlops::detail {

/// The count each rank contributes when every count is the same positive number and
/// displacements[r] == r * count; -1 otherwise (also for no ranks or empty contributions).
inline Index uniform_gather_count(std::span<const Index> counts,
                                  std::span<const Index> displacements) {
  if (counts.empty() || counts.size() != displacements.size() || counts[0] <= 0) return -1;
  const Index count = counts[0];
  for (std::size_t r = 0; r < counts.size(); ++r) {
    if (counts[r] != count || displacements[r] != static_cast<Index>(r) * count) return -1;
  }
  return count;
}

}  // namespace distlops::detail
