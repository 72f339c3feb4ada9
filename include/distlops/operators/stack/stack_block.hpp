// SPDX-License-Identifier: BSD-3-Clause
// Copyright (c) 2026 The distlops authors
#pragma once
/// \file stack_block.hpp
/// `StackBlock<T, Space>`: one block of a stacked operator (StackedBlockDiag, StackedVStack,
/// StackedHStack). A block maps a domain item to a range item, an item being a DistributedArray
/// or a (nested) StackedDistributedArray, so a block is one of the four operator kinds
///
///   LinearOperator<T, Space>                        DistributedArray -> DistributedArray
///   BasicLinearOperator<DistributedArray, Stacked>  e.g. Gradient, StackedVStack
///   BasicLinearOperator<Stacked, DistributedArray>  e.g. StackedHStack
///   StackedLinearOperator<T, Space>                 e.g. StackedBlockDiag
///
/// and a stack whose block has a stacked side holds a nested StackedDistributedArray there
/// (PyLops-MPI's stacked operators of stacked operators). The block converts implicitly from
/// each kind, so a list of mixed operators reads like a list of operators.

#include <string>
#include <type_traits>
#include <utility>
#include <variant>

#include "distlops/core/instantiate.hpp"
#include "distlops/operators/linear_operator.hpp"

namespace distlops {

/// One block of a stacked operator: a handle to an operator of any of the four kinds, with the
/// nesting of its sides.
template <Scalar T, MemorySpace Space = Host>
class StackBlock {
 public:
  using Array = DistributedArray<T, Space>;           ///< A plain item.
  using Stacked = StackedDistributedArray<T, Space>;  ///< A nested item.

  /// An array-to-array block.
  StackBlock(BasicLinearOperator<Array, Array> op) : op_(std::move(op)) {}
  /// An array-to-stack block: its range is nested in the stack's range.
  StackBlock(BasicLinearOperator<Array, Stacked> op) : op_(std::move(op)) {}
  /// A stack-to-array block: its domain is nested in the stack's domain.
  StackBlock(BasicLinearOperator<Stacked, Array> op) : op_(std::move(op)) {}
  /// A stack-to-stack block: both sides nested.
  StackBlock(BasicLinearOperator<Stacked, Stacked> op) : op_(std::move(op)) {}

  /// True for an empty operator handle (the stacks reject it).
  bool empty() const {
    return std::visit([](const auto& op) { return op.empty(); }, op_);
  }
  /// The operator's name.
  const std::string& name() const {
    return std::visit([](const auto& op) -> const std::string& { return op.name(); }, op_);
  }
  /// True when x is a StackedDistributedArray.
  bool nested_domain() const { return op_.index() >= 2; }
  /// True when y is a StackedDistributedArray.
  bool nested_range() const { return op_.index() % 2 == 1; }
  /// Appends the domain layout to `layout`, nested when the domain is stacked.
  void append_domain(StackedLayout& layout) const {
    std::visit([&](const auto& op) { layout.push_back(op.domain()); }, op_);
  }
  /// Appends the range layout to `layout`, nested when the range is stacked.
  void append_range(StackedLayout& layout) const {
    std::visit([&](const auto& op) { layout.push_back(op.range()); }, op_);
  }
  /// The domain layout, described for messages.
  std::string describe_domain() const {
    return std::visit([](const auto& op) { return op.domain().describe(); }, op_);
  }
  /// The range layout, described for messages.
  std::string describe_range() const {
    return std::visit([](const auto& op) { return op.range().describe(); }, op_);
  }
  /// The block of the adjoint operator.
  StackBlock adjoint() const {
    return std::visit([](const auto& op) { return StackBlock(op.adjoint()); }, op_);
  }
  /// Calls f(handle) with the operator handle of its own kind.
  template <class F>
  decltype(auto) visit(F&& f) const {
    return std::visit(std::forward<F>(f), op_);
  }

 private:
  std::variant<BasicLinearOperator<Array, Array>, BasicLinearOperator<Array, Stacked>,
               BasicLinearOperator<Stacked, Array>, BasicLinearOperator<Stacked, Stacked>>
      op_;
};

DISTLOPS_EXTERN_TEMPLATE_CLASS(StackBlock)

namespace detail {

/// Block i of a stacked vector as the item type V: the plain array x[i] or the nested x.nested(i).
template <class V, Scalar T, MemorySpace Space>
const V& stack_item(const StackedDistributedArray<T, Space>& x, std::size_t i) {
  if constexpr (std::is_same_v<V, DistributedArray<T, Space>>) {
    return x[i];
  } else {
    return x.nested(i);
  }
}
/// Block i of a stacked vector as the item type V, writable.
template <class V, Scalar T, MemorySpace Space>
V& stack_item(StackedDistributedArray<T, Space>& x, std::size_t i) {
  if constexpr (std::is_same_v<V, DistributedArray<T, Space>>) {
    return x[i];
  } else {
    return x.nested(i);
  }
}

}  // namespace detail

}  // namespace distlops
