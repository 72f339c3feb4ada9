// SPDX-License-Identifier: BSD-3-Clause
// Copyright (c) 2026 The distlops authors
#pragma once
// The copy of a box between two C-order arrays reduced to its simplest strided form, shared by
// the host and device copy_box kernels: axes of extent 1 are dropped (their corner only moves
// the start), and neighbouring axes that are contiguous in both arrays are merged. A box of
// whole trailing planes thus becomes one run, a box of rows of a matrix two axes, and so on.
#include <algorithm>
#include <array>
#include <span>
#include <vector>

#include "distlops/core/kernels.hpp"

namespace distlops::kernels::detail {

// A list of indices, one per axis of a box, held in place up to `kept` axes (longer lists go to
// the heap): planning and running a box copy allocates nothing, which keeps the plans executed
// in solver loops (reshapes, ghost exchanges) free of allocations.
class AxisIndices {
 public:
  explicit AxisIndices(std::size_t count = 0, Index value = 0) {
    for (std::size_t i = 0; i < count; ++i)
      push_back(value);
  }
  void push_back(Index value) {
    if (size_ == kept && spilled_.empty()) spilled_.assign(kept_.begin(), kept_.end());
    if (size_ >= kept) {
      spilled_.push_back(value);
    } else {
      kept_[size_] = value;
    }
    ++size_;
  }
  std::size_t size() const { return size_; }
  bool empty() const { return size_ == 0; }
  Index* begin() { return size_ > kept ? spilled_.data() : kept_.data(); }
  const Index* begin() const { return size_ > kept ? spilled_.data() : kept_.data(); }
  Index* end() { return begin() + size_; }
  const Index* end() const { return begin() + size_; }
  Index& operator[](std::size_t i) { return begin()[i]; }
  Index operator[](std::size_t i) const { return begin()[i]; }
  Index& back() { return begin()[size_ - 1]; }
  Index back() const { return begin()[size_ - 1]; }

 private:
  static constexpr std::size_t kept = 12;
  std::array<Index, kept> kept_{};
  std::vector<Index> spilled_;
  std::size_t size_ = 0;
};

struct BoxCopyPlan {
  // Remaining axes, outermost first; strides in elements. Empty when the box is one element.
  AxisIndices extent;
  AxisIndices source_stride;
  AxisIndices destination_stride;
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
  AxisIndices source_stride(ndim), destination_stride(ndim);
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

// The offset in elements of the box (corner, extent) in a row-major block of shape `block` when
// its elements are contiguous there (every axis after the first one of extent > 1 is whole), so
// that a message may read or write it in place; -1 otherwise.
inline Index contiguous_offset_in_block(std::span<const Index> block, std::span<const Index> corner,
                                        std::span<const Index> extent) {
  std::size_t first = 0;
  while (first < block.size() && extent[first] == 1)
    ++first;
  for (std::size_t k = first + 1; k < block.size(); ++k) {
    if (extent[k] != block[k]) return -1;
  }
  Index offset = 0;
  for (std::size_t k = 0; k < block.size(); ++k)
    offset = offset * block[k] + corner[k];
  return offset;
}

}  // namespace distlops::kernels::detail
