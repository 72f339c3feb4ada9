// SPDX-License-Identifier: BSD-3-Clause
// Copyright (c) 2026 The distlops authors
#pragma once
// The copy of a box between two C-order arrays reduced to its simplest strided form, shared by
// the host and device copy_box kernels: axes of extent 1 are dropped (their corner only moves
// the start), and neighbouring axes that are contiguous in both arrays are merged. A box of
// whole trailing planes thus becomes one run, a box of rows of a matrix two axes, and so on.
#include <algorithm>
#include <span>
#include <vector>

#include "distlops/core/kernels.hpp"

namespace distlops::kernels::detail {

struct BoxCopyPlan {
  // Remaining axes, outermost first; strides in elements. Empty when the box is one element.
  std::vector<Index> extent;
  std::vector<Index> source_stride;
  std::vector<Index> destination_stride;
  // Offsets in elements of the box's first element in each array.
  Index source_offset = 0;
  Index destination_offset = 0;
  // Elements in the box (0: nothing to copy).
  Index count = 0;

  std::size_t ndim() const { return extent.size(); }
  // True when the innermost remaining axis is contiguous in both arrays (runs of extent.back()
  // elements); false when even it is strided (then runs are single elements).
  bool innermost_contiguous() const {
    return !extent.empty() && source_stride.back() == 1 && destination_stride.back() == 1;
  }
};

inline BoxCopyPlan plan_box_copy(BoxView source, BoxView destination,
                                 std::span<const Index> extent) {
  BoxCopyPlan plan;
  const std::size_t ndim = extent.size();
  plan.count = 1;
  for (Index e : extent)
    plan.count *= e;
  if (plan.count == 0) return plan;
  Index s = 1, d = 1;
  std::vector<Index> source_stride(ndim), destination_stride(ndim);
  for (std::size_t k = ndim; k-- > 0;) {
    source_stride[k] = s;
    destination_stride[k] = d;
    s *= source.array_shape[k];
    d *= destination.array_shape[k];
  }
  for (std::size_t k = 0; k < ndim; ++k) {
    plan.source_offset += source.corner[k] * source_stride[k];
    plan.destination_offset += destination.corner[k] * destination_stride[k];
  }
  // Innermost first while merging; reversed at the end.
  for (std::size_t k = ndim; k-- > 0;) {
    if (extent[k] == 1) continue;
    if (!plan.extent.empty()) {
      const std::size_t inner = plan.extent.size() - 1;
      if (source_stride[k] == plan.source_stride[inner] * plan.extent[inner] &&
          destination_stride[k] == plan.destination_stride[inner] * plan.extent[inner]) {
        plan.extent[inner] *= extent[k];
        continue;
      }
    }
    plan.extent.push_back(extent[k]);
    plan.source_stride.push_back(source_stride[k]);
    plan.destination_stride.push_back(destination_stride[k]);
  }
  std::reverse(plan.extent.begin(), plan.extent.end());
  std::reverse(plan.source_stride.begin(), plan.source_stride.end());
  std::reverse(plan.destination_stride.begin(), plan.destination_stride.end());
  return plan;
}

}  // namespace distlops::kernels::detail
