// SPDX-License-Identifier: BSD-3-Clause
// Copyright (c) 2026 The distlops authors
#include "distlops/core/stacked_layout.hpp"

#include "distlops/core/error.hpp"

namespace distlops {

StackedLayout::StackedLayout(std::vector<Layout> layouts) {
  for (Layout& layout : layouts)
    push_back(std::move(layout));
}

StackedLayout& StackedLayout::push_back(Layout layout) {
  if (!layout.valid()) throw InvalidArgument("StackedLayout: empty layout");
  blocks_.emplace_back(std::move(layout));
  return *this;
}

StackedLayout& StackedLayout::push_back(StackedLayout nested_layout) {
  if (nested_layout.size() == 0) throw InvalidArgument("StackedLayout: empty nested stack");
  blocks_.emplace_back(std::make_shared<const StackedLayout>(std::move(nested_layout)));
  return *this;
}

bool StackedLayout::is_nested(std::size_t i) const {
  if (i >= blocks_.size()) {
    throw InvalidArgument("StackedLayout: block " + std::to_string(i) + " out of range (" +
                          std::to_string(blocks_.size()) + " blocks)");
  }
  return blocks_[i].index() == 1;
}

const Layout& StackedLayout::operator[](std::size_t i) const {
  if (is_nested(i)) {
    throw InvalidArgument("StackedLayout: block " + std::to_string(i) + " is a nested stack");
  }
  return std::get<Layout>(blocks_[i]);
}

const StackedLayout& StackedLayout::nested(std::size_t i) const {
  if (!is_nested(i)) {
    throw InvalidArgument("StackedLayout: block " + std::to_string(i) + " is a plain layout");
  }
  return *std::get<1>(blocks_[i]);
}

Index StackedLayout::global_size() const {
  Index total = 0;
  for (const auto& block : blocks_) {
    if (const Layout* layout = std::get_if<Layout>(&block)) {
      total += layout->global_size();
    } else {
      total += std::get<1>(block)->global_size();
    }
  }
  return total;
}

bool StackedLayout::operator==(const StackedLayout& other) const {
  if (blocks_.size() != other.blocks_.size()) return false;
  for (std::size_t i = 0; i < blocks_.size(); ++i) {
    if (blocks_[i].index() != other.blocks_[i].index()) return false;
    if (const Layout* layout = std::get_if<Layout>(&blocks_[i])) {
      if (*layout != std::get<Layout>(other.blocks_[i])) return false;
    } else if (*std::get<1>(blocks_[i]) != *std::get<1>(other.blocks_[i])) {
      return false;
    }
  }
  return true;
}

std::string StackedLayout::describe() const {
  std::string text = "[";
  for (std::size_t i = 0; i < blocks_.size(); ++i) {
    if (i > 0) text += "; ";
    if (const Layout* layout = std::get_if<Layout>(&blocks_[i])) {
      text += layout->describe();
    } else {
      text += std::get<1>(blocks_[i])->describe();
    }
  }
  return text + "]";
}

}  // namespace distlops
