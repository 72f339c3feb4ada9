// SPDX-License-Identifier: BSD-3-Clause
// Copyright (c) 2026 The distlops authors
#pragma once
/// \file stacked_layout.hpp
/// `StackedLayout`: the layouts of the blocks of a StackedDistributedArray, nested like it.
/// It describes the domain or range of operators on stacked arrays.

#include <memory>
#include <string>
#include <variant>
#include <vector>

#include "distlops/core/layout.hpp"

namespace distlops {

/// An ordered list of blocks, each a Layout or a nested StackedLayout. Only describes: building
/// and comparing it needs no communication.
class StackedLayout {
 public:
  /// No block.
  StackedLayout() = default;
  /// One plain block per layout, in order.
  explicit StackedLayout(std::vector<Layout> layouts);

  /// Appends a plain block; returns *this.
  StackedLayout& push_back(Layout layout);
  /// Appends a nested stack as one block; returns *this.
  StackedLayout& push_back(StackedLayout nested);

  /// Number of blocks (a nested stack counts as one).
  std::size_t size() const { return blocks_.size(); }
  /// True when block i is a nested stack.
  bool is_nested(std::size_t i) const;
  /// Block i as a plain layout (InvalidArgument when it is nested).
  const Layout& operator[](std::size_t i) const;
  /// Block i as a nested stack (InvalidArgument when it is a plain layout).
  const StackedLayout& nested(std::size_t i) const;

  /// Total number of elements.
  Index global_size() const;
  /// Same number of blocks, equal layouts and the same nesting, block by block.
  bool operator==(const StackedLayout& other) const;
  /// Not operator==.
  bool operator!=(const StackedLayout& other) const { return !(*this == other); }
  /// "[shape (4,), SCATTER ..., [shape (2, 3), ...]]".
  std::string describe() const;

 private:
  std::vector<std::variant<Layout, std::shared_ptr<const StackedLayout>>> blocks_;
};

}  // namespace distlops
