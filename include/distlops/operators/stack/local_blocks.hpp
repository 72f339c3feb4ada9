// SPDX-License-Identifier: BSD-3-Clause
// Copyright (c) 2026 The distlops authors
#pragma once
/// \file local_blocks.hpp
/// Consecutive pieces of one rank's local data, one per local operator: the views through
/// which stacking operators hand their local operators the right part of a vector. The view
/// objects are made once and re-pointed on every apply, so applying allocates nothing.

#include <vector>

#include "distlops/core/collective_check.hpp"
#include "distlops/operators/linear_operator.hpp"

namespace distlops::detail {

template <Scalar T, MemorySpace Space>
class LocalBlocks {
 public:
  enum class Side { domain, range };
  /// Blocks with the given shapes, in order.
  explicit LocalBlocks(const std::vector<Shape>& shapes) {
    Index offset = 0;
    for (const Shape& shape : shapes) {
      views_.push_back(LocalArray<T, Space>::wrap(shape, nullptr));
      offsets_.push_back(offset);
      offset += element_count(shape);
    }
    total_ = offset;
  }
  /// Blocks with the domain (or range) shapes of `ops`.
  LocalBlocks(const std::vector<LocalOperator<T, Space>>& ops, Side side)
      : LocalBlocks(shapes_of(ops, side)) {}
  /// The shapes of the blocks; an empty shape for an empty handle (agreed_blocks rejects
  /// those on every rank).
  static std::vector<Shape> shapes_of(const std::vector<LocalOperator<T, Space>>& ops, Side side) {
    std::vector<Shape> shapes;
    for (const auto& op : ops) {
      shapes.push_back(op.empty() ? Shape{} : side == Side::domain ? op.domain() : op.range());
    }
    return shapes;
  }
  /// The view of block i of the local data starting at `base`.
  LocalArray<T, Space>& at(std::size_t i, const T* base) const {
    views_[i].rebind(const_cast<T*>(base) + offsets_[i]);
    return views_[i];
  }
  /// Number of elements of all blocks together.
  Index total() const { return total_; }
  std::size_t size() const { return views_.size(); }

 private:
  mutable std::vector<LocalArray<T, Space>> views_;
  std::vector<Index> offsets_;
  Index total_ = 0;
};

/// `ops`, once every rank has verified that none of its handles is empty: InvalidArgument on
/// every rank otherwise, before the stack's collectives. Collective over `comm`.
template <Scalar T, MemorySpace Space>
std::vector<LocalOperator<T, Space>> agreed_blocks(std::vector<LocalOperator<T, Space>> ops,
                                                   const Communicator& comm, const char* stack) {
  collective_check(comm, [&] {
    for (std::size_t i = 0; i < ops.size(); ++i) {
      if (ops[i].empty()) {
        throw InvalidArgument(std::string(stack) + ": block " + std::to_string(i) + " of rank " +
                              std::to_string(comm.rank()) + " is an empty operator handle");
      }
    }
  });
  return ops;
}

/// Whether the blocks of some rank run user code (LinearOperatorBase::runs_user_code), whose
/// failures the stack must then agree on at every apply. Collective over `comm`.
template <Scalar T, MemorySpace Space>
bool any_block_runs_user_code(const std::vector<LocalOperator<T, Space>>& ops,
                              const Communicator& comm) {
  int mine = 0;
  for (const auto& op : ops) {
    if (!op.empty() && op.implementation().runs_user_code()) mine = 1;
  }
  return comm.allreduce(mine, ReduceOp::max) != 0;
}

/// Runs `apply` (this rank's blocks, no communication). With `agree`, an exception on some ranks
/// is raised on every rank (one small allreduce), so that no rank goes on into a collective
/// that the failing ones never reach.
template <class Apply>
void apply_blocks(bool agree, const Communicator& comm, Apply&& apply) {
  if (agree) {
    collective_check(comm, std::forward<Apply>(apply));
  } else {
    std::forward<Apply>(apply)();
  }
}

/// "A, B, C": the names of operators, for the name of a stack.
template <class Op>
std::string joined_names(const std::vector<Op>& ops) {
  std::string text;
  for (std::size_t i = 0; i < ops.size(); ++i) {
    if (i > 0) text += ", ";
    text += ops[i].empty() ? "(empty)" : ops[i].name();
  }
  return text;
}

}  // namespace distlops::detail

namespace distlops::detail {

/// The shape every rank's operators agree on (the common domain of VStack's blocks, the
/// common range of HStack's), collective over `comm`. `local` is empty on ranks without
/// blocks. Disagreement, within a rank or between ranks, raises ShapeMismatch on every rank.
Shape agree_on_shape(const Communicator& comm, const std::vector<Shape>& local,
                     const std::string& what);

/// How a stack names itself in messages: VStack, whose blocks share their domain, or HStack
/// (built as the adjoint of a VStack), whose blocks share their range.
struct StackWording {
  const char* name = "VStack";
  const char* shared_side = "domain";
};

}  // namespace distlops::detail
