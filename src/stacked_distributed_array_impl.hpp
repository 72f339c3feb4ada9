// SPDX-License-Identifier: BSD-3-Clause
// Copyright (c) 2026 The distlops authors
#pragma once
// Definitions of StackedDistributedArray's members for every memory space.
#include "distlops/core/stacked_distributed_array.hpp"
#include "distributed_array_impl.hpp"

namespace distlops {

template <Scalar T, MemorySpace Space>
StackedDistributedArray<T, Space>::StackedDistributedArray(std::vector<Array> arrays) {
  for (Array& array : arrays)
    push_back(std::move(array));
}

template <Scalar T, MemorySpace Space>
StackedDistributedArray<T, Space>::StackedDistributedArray(const StackedLayout& layout) {
  for (std::size_t i = 0; i < layout.size(); ++i) {
    if (layout.is_nested(i)) {
      push_back(StackedDistributedArray(layout.nested(i)));
    } else {
      push_back(Array(layout[i]));
    }
  }
}

template <Scalar T, MemorySpace Space>
StackedLayout StackedDistributedArray<T, Space>::layout() const {
  StackedLayout result;
  for (const Block& block : blocks_) {
    if (const Array* array = std::get_if<Array>(&block)) {
      result.push_back(array->layout());
    } else {
      result.push_back(std::get<1>(block)->layout());
    }
  }
  return result;
}

template <Scalar T, MemorySpace Space>
bool StackedDistributedArray<T, Space>::has_layout(const StackedLayout& layout) const {
  if (layout.size() != blocks_.size()) return false;
  for (std::size_t i = 0; i < blocks_.size(); ++i) {
    if (layout.is_nested(i) != (blocks_[i].index() == 1)) return false;
    if (const Array* array = std::get_if<Array>(&blocks_[i])) {
      if (array->layout() != layout[i]) return false;
    } else if (!std::get<1>(blocks_[i])->has_layout(layout.nested(i))) {
      return false;
    }
  }
  return true;
}

namespace detail {
// Mixes the nesting and every block's layout of `layout` into `fingerprint`.
inline void add_stacked_layout(Fingerprint& fingerprint, const StackedLayout& layout) {
  fingerprint.add(layout.size());
  for (std::size_t i = 0; i < layout.size(); ++i) {
    fingerprint.add(layout.is_nested(i));
    if (layout.is_nested(i)) {
      add_stacked_layout(fingerprint, layout.nested(i));
    } else {
      fingerprint.add(layout[i].valid() ? layout[i].fingerprint() : 0);
    }
  }
}
}  // namespace detail

template <Scalar T, MemorySpace Space>
void StackedDistributedArray<T, Space>::add_structure(Fingerprint& fingerprint) const {
  fingerprint.add(blocks_.size());
  for (const Block& block : blocks_) {
    fingerprint.add(block.index());
    if (const Array* array = std::get_if<Array>(&block)) {
      fingerprint.add(array->layout().fingerprint());
    } else {
      std::get<1>(block)->add_structure(fingerprint);
    }
  }
}

template <Scalar T, MemorySpace Space>
const Communicator* StackedDistributedArray<T, Space>::first_communicator() const {
  const Communicator* comm = nullptr;
  for_each_array([&](const Array& array) {
    if (!comm) comm = &array.communicator();
  });
  return comm;
}

template <Scalar T, MemorySpace Space>
StackedDistributedArray<T, Space> StackedDistributedArray<T, Space>::view(
    const StackedLayout& layout) {
  StackedDistributedArray result;
  // Built locally (the blocks' own views check without communication) and agreed once: the
  // stack and the layout may differ between ranks.
  auto build = [&] {
    const AgreedOperands agreed;
    if (layout.size() != blocks_.size()) {
      throw ShapeMismatch("StackedDistributedArray::view: the stack has " +
                          std::to_string(blocks_.size()) + " blocks, the new layout " +
                          std::to_string(layout.size()) + " (" + layout.describe() + ")");
    }
    result.blocks_.reserve(blocks_.size());
    for (std::size_t i = 0; i < blocks_.size(); ++i) {
      if (layout.is_nested(i) != (blocks_[i].index() == 1)) {
        throw ShapeMismatch("StackedDistributedArray::view: block " + std::to_string(i) + " is " +
                            (blocks_[i].index() == 1 ? "a nested stack" : "a plain array") +
                            ", the new layout's is not");
      }
      if (Array* array = std::get_if<Array>(&blocks_[i])) {
        result.blocks_.emplace_back(array->view(layout[i]));
      } else {
        result.blocks_.emplace_back(std::make_unique<StackedDistributedArray>(
            std::get<1>(blocks_[i])->view(layout.nested(i))));
      }
    }
  };
  Fingerprint structures;
  add_structure(structures);
  detail::add_stacked_layout(structures, layout);
  check_operands(first_communicator(), structures,
                 "StackedDistributedArray::view: the stack's or the new layouts", build);
  return result;
}

template <Scalar T, MemorySpace Space>
const StackedDistributedArray<T, Space> StackedDistributedArray<T, Space>::view(
    const StackedLayout& layout) const {
  return const_cast<StackedDistributedArray&>(*this).view(layout);
}

template <Scalar T, MemorySpace Space>
StackedDistributedArray<T, Space>::StackedDistributedArray(const StackedDistributedArray& other) {
  blocks_.reserve(other.blocks_.size());
  for (const Block& block : other.blocks_) {
    if (const Array* array = std::get_if<Array>(&block)) {
      blocks_.emplace_back(*array);
    } else {
      blocks_.emplace_back(std::make_unique<StackedDistributedArray>(*std::get<1>(block)));
    }
  }
}

template <Scalar T, MemorySpace Space>
StackedDistributedArray<T, Space>& StackedDistributedArray<T, Space>::operator=(
    const StackedDistributedArray& other) {
  if (this == &other) return *this;
  bool same_structure = blocks_.size() == other.blocks_.size();
  for (std::size_t i = 0; same_structure && i < blocks_.size(); ++i) {
    same_structure = blocks_[i].index() == other.blocks_[i].index();
  }
  if (!same_structure) {
    *this = StackedDistributedArray(other);
    return *this;
  }
  for (std::size_t i = 0; i < blocks_.size(); ++i) {
    if (Array* array = std::get_if<Array>(&blocks_[i])) {
      *array = std::get<Array>(other.blocks_[i]);
    } else {
      *std::get<1>(blocks_[i]) = *std::get<1>(other.blocks_[i]);
    }
  }
  return *this;
}

template <Scalar T, MemorySpace Space>
StackedDistributedArray<T, Space>& StackedDistributedArray<T, Space>::push_back(Array array) {
  if (array.empty()) throw InvalidArgument("StackedDistributedArray: empty block");
  blocks_.emplace_back(std::move(array));
  return *this;
}

template <Scalar T, MemorySpace Space>
StackedDistributedArray<T, Space>& StackedDistributedArray<T, Space>::push_back(
    StackedDistributedArray nested_stack) {
  if (nested_stack.narrays() == 0)
    throw InvalidArgument("StackedDistributedArray: empty nested stack");
  blocks_.emplace_back(std::make_unique<StackedDistributedArray>(std::move(nested_stack)));
  return *this;
}

template <Scalar T, MemorySpace Space>
bool StackedDistributedArray<T, Space>::is_nested(std::size_t i) const {
  if (i >= blocks_.size()) {
    throw InvalidArgument("StackedDistributedArray: block " + std::to_string(i) +
                          " out of range (" + std::to_string(blocks_.size()) + " blocks)");
  }
  return blocks_[i].index() == 1;
}

template <Scalar T, MemorySpace Space>
auto StackedDistributedArray<T, Space>::operator[](std::size_t i) -> Array& {
  if (is_nested(i)) {
    throw InvalidArgument("StackedDistributedArray: block " + std::to_string(i) +
                          " is a nested stack; use nested(i)");
  }
  return std::get<Array>(blocks_[i]);
}

template <Scalar T, MemorySpace Space>
auto StackedDistributedArray<T, Space>::operator[](std::size_t i) const -> const Array& {
  return const_cast<StackedDistributedArray&>(*this)[i];
}

template <Scalar T, MemorySpace Space>
StackedDistributedArray<T, Space>& StackedDistributedArray<T, Space>::nested(std::size_t i) {
  if (!is_nested(i)) {
    throw InvalidArgument("StackedDistributedArray: block " + std::to_string(i) +
                          " is a plain array; use operator[]");
  }
  return *std::get<1>(blocks_[i]);
}

template <Scalar T, MemorySpace Space>
const StackedDistributedArray<T, Space>& StackedDistributedArray<T, Space>::nested(
    std::size_t i) const {
  return const_cast<StackedDistributedArray&>(*this).nested(i);
}

template <Scalar T, MemorySpace Space>
Index StackedDistributedArray<T, Space>::global_size() const {
  Index total = 0;
  for_each_array([&](const Array& array) { total += array.global_size(); });
  return total;
}

template <Scalar T, MemorySpace Space>
const Communicator& StackedDistributedArray<T, Space>::communicator() const {
  const Communicator* comm = first_communicator();
  if (!comm) throw InvalidArgument("StackedDistributedArray: no blocks");
  return *comm;
}

template <Scalar T, MemorySpace Space>
std::vector<T> StackedDistributedArray<T, Space>::gather() const {
  Fingerprint structure;
  add_structure(structure);
  check_operands(first_communicator(), structure,
                 "StackedDistributedArray::gather: the stack's layouts", [] {});
  const AgreedOperands agreed;  // the blocks' layouts are agreed above
  std::vector<T> result;
  for_each_array([&](const Array& array) {
    const std::vector<T> part = array.gather();
    result.insert(result.end(), part.begin(), part.end());
  });
  return result;
}

template <Scalar T, MemorySpace Space>
void StackedDistributedArray<T, Space>::require_same_structure(const StackedDistributedArray& other,
                                                               const char* operation) const {
  const Communicator* comm = first_communicator();
  if (!comm || detail::operands_agreed()) {
    check_same_structure(other, operation);
    return;
  }
  Fingerprint structures;
  add_structure(structures);
  other.add_structure(structures);
  collective_check(*comm, structures,
                   std::string("StackedDistributedArray ") + operation + ": the operands' layouts",
                   [&] { check_same_structure(other, operation); });
}

template <Scalar T, MemorySpace Space>
void StackedDistributedArray<T, Space>::check_same_structure(const StackedDistributedArray& other,
                                                             const char* operation) const {
  if (blocks_.size() != other.blocks_.size()) {
    throw ShapeMismatch(std::string("StackedDistributedArray ") + operation + ": " +
                        std::to_string(blocks_.size()) + " blocks vs " +
                        std::to_string(other.blocks_.size()));
  }
  for (std::size_t i = 0; i < blocks_.size(); ++i) {
    if (blocks_[i].index() != other.blocks_[i].index()) {
      throw ShapeMismatch(std::string("StackedDistributedArray ") + operation + ": block " +
                          std::to_string(i) + " is nested in one operand only");
    }
    if (const Array* array = std::get_if<Array>(&blocks_[i])) {
      const Array& theirs = std::get<Array>(other.blocks_[i]);
      if (array->layout() != theirs.layout()) {
        throw ShapeMismatch(std::string("StackedDistributedArray ") + operation + ": block " +
                            std::to_string(i) + " layouts differ: " + array->layout().describe() +
                            " vs " + theirs.layout().describe());
      }
    } else {
      std::get<1>(blocks_[i])->check_same_structure(*std::get<1>(other.blocks_[i]), operation);
    }
  }
}

template <Scalar T, MemorySpace Space>
template <class F>
void StackedDistributedArray<T, Space>::for_each_pair(const StackedDistributedArray& other, F&& f) {
  // Called after require_same_structure: the pairs' layouts are agreed already.
  const AgreedOperands agreed;
  for (std::size_t i = 0; i < blocks_.size(); ++i) {
    if (Array* array = std::get_if<Array>(&blocks_[i])) {
      f(*array, std::get<Array>(other.blocks_[i]));
    } else {
      std::get<1>(blocks_[i])->for_each_pair(*std::get<1>(other.blocks_[i]), f);
    }
  }
}

template <Scalar T, MemorySpace Space>
StackedDistributedArray<T, Space>& StackedDistributedArray<T, Space>::fill(T value) {
  for_each_array([&](Array& array) { array.fill(value); });
  return *this;
}

template <Scalar T, MemorySpace Space>
StackedDistributedArray<T, Space>& StackedDistributedArray<T, Space>::copy_from(
    const StackedDistributedArray& other) {
  require_same_structure(other, "copy_from");
  for_each_pair(other, [](Array& mine, const Array& theirs) { mine.copy_from(theirs); });
  return *this;
}

template <Scalar T, MemorySpace Space>
StackedDistributedArray<T, Space>& StackedDistributedArray<T, Space>::axpy(
    T a, const StackedDistributedArray& x) {
  require_same_structure(x, "axpy");
  for_each_pair(x, [&](Array& mine, const Array& theirs) { mine.axpy(a, theirs); });
  return *this;
}

template <Scalar T, MemorySpace Space>
StackedDistributedArray<T, Space>& StackedDistributedArray<T, Space>::axpby(
    T a, const StackedDistributedArray& x, T b) {
  require_same_structure(x, "axpby");
  for_each_pair(x, [&](Array& mine, const Array& theirs) { mine.axpby(a, theirs, b); });
  return *this;
}

template <Scalar T, MemorySpace Space>
StackedDistributedArray<T, Space>& StackedDistributedArray<T, Space>::axpbypcz(
    T a, const StackedDistributedArray& x, T b, const StackedDistributedArray& y, T c) {
  require_same_structure(x, "axpbypcz");
  require_same_structure(y, "axpbypcz");
  // Walk the three trees in step by collecting y's leaves in order.
  std::vector<const Array*> y_leaves;
  y.for_each_array([&](const Array& leaf) { y_leaves.push_back(&leaf); });
  std::size_t next = 0;
  for_each_pair(x, [&](Array& mine, const Array& x_leaf) {
    mine.axpbypcz(a, x_leaf, b, *y_leaves[next++], c);
  });
  return *this;
}

template <Scalar T, MemorySpace Space>
StackedDistributedArray<T, Space>& StackedDistributedArray<T, Space>::scale(T a) {
  for_each_array([&](Array& array) { array.scale(a); });
  return *this;
}

template <Scalar T, MemorySpace Space>
StackedDistributedArray<T, Space>& StackedDistributedArray<T, Space>::conj_in_place() {
  for_each_array([](Array& array) { array.conj_in_place(); });
  return *this;
}

#define DISTLOPS_STACKED_IN_PLACE_OP(symbol)                                                       \
  template <Scalar T, MemorySpace Space>                                                           \
  StackedDistributedArray<T, Space>& StackedDistributedArray<T, Space>::operator symbol(           \
      const StackedDistributedArray& other) {                                                      \
    require_same_structure(other, #symbol);                                                        \
    for_each_pair(other, [](Array& mine, const Array& theirs) { mine symbol theirs; });            \
    return *this;                                                                                  \
  }                                                                                                \
  template <Scalar T, MemorySpace Space>                                                           \
  StackedDistributedArray<T, Space>& StackedDistributedArray<T, Space>::operator symbol(T value) { \
    for_each_array([&](Array& array) { array symbol value; });                                     \
    return *this;                                                                                  \
  }
DISTLOPS_STACKED_IN_PLACE_OP(+=)
DISTLOPS_STACKED_IN_PLACE_OP(-=)
DISTLOPS_STACKED_IN_PLACE_OP(*=)
DISTLOPS_STACKED_IN_PLACE_OP(/=)
#undef DISTLOPS_STACKED_IN_PLACE_OP

template <Scalar T, MemorySpace Space>
StackedDistributedArray<T, Space> StackedDistributedArray<T, Space>::zeros_like() const {
  StackedDistributedArray result = empty_like();
  return result.fill(T(0));
}

template <Scalar T, MemorySpace Space>
StackedDistributedArray<T, Space> StackedDistributedArray<T, Space>::empty_like() const {
  StackedDistributedArray result;
  for (const Block& block : blocks_) {
    if (const Array* array = std::get_if<Array>(&block)) {
      result.blocks_.emplace_back(array->empty_like());
    } else {
      result.blocks_.emplace_back(
          std::make_unique<StackedDistributedArray>(std::get<1>(block)->empty_like()));
    }
  }
  return result;
}

namespace detail {

// Whether the blocks' reductions can share one allreduce: same communicator, no mask.
template <class Array>
bool share_one_reduction(const std::vector<const Array*>& leaves) {
  for (const Array* leaf : leaves) {
    if (leaf->layout().masked()) return false;
    if (!leaf->communicator().congruent(leaves.front()->communicator())) return false;
  }
  return true;
}

}  // namespace detail

template <Scalar T, MemorySpace Space>
template <class Reduce>
T StackedDistributedArray<T, Space>::reduce_pairs(const StackedDistributedArray& other,
                                                  const char* operation, Reduce local) const {
  require_same_structure(other, operation);
  std::vector<const Array*> mine, theirs;
  for_each_array([&](const Array& leaf) { mine.push_back(&leaf); });
  other.for_each_array([&](const Array& leaf) { theirs.push_back(&leaf); });
  if (mine.empty()) return T(0);
  T total(0);
  if (detail::share_one_reduction(mine)) {
    // Replicated blocks hold the same value on every rank: only rank 0 contributes it.
    const Communicator& comm = mine.front()->communicator();
    for (std::size_t i = 0; i < mine.size(); ++i) {
      if (mine[i]->layout().replicated() && comm.rank() != 0) continue;
      total += local(*mine[i], *theirs[i]);
    }
    return comm.allreduce(total, ReduceOp::sum);
  }
  for (std::size_t i = 0; i < mine.size(); ++i) {
    T part = local(*mine[i], *theirs[i]);
    if (!mine[i]->layout().replicated()) {
      part = mine[i]->layout().sub_communicator().allreduce(part, ReduceOp::sum);
    }
    total += part;
  }
  return total;
}

template <Scalar T, MemorySpace Space>
T StackedDistributedArray<T, Space>::dot(const StackedDistributedArray& other) const {
  return reduce_pairs(other, "dot", [](const Array& x, const Array& y) {
    return kernels::dot(Space{}, x.local_size(), x.data(), y.data());
  });
}

template <Scalar T, MemorySpace Space>
T StackedDistributedArray<T, Space>::vdot(const StackedDistributedArray& other) const {
  return reduce_pairs(other, "vdot", [](const Array& x, const Array& y) {
    return kernels::vdot(Space{}, x.local_size(), x.data(), y.data());
  });
}

template <Scalar T, MemorySpace Space>
auto StackedDistributedArray<T, Space>::norm(double ord) const -> real_type {
  std::vector<const Array*> leaves;
  for_each_array([&](const Array& leaf) { leaves.push_back(&leaf); });
  detail::NormPlan plan{};
  Fingerprint arguments;
  arguments.add(ord);
  add_structure(arguments);
  check_operands(first_communicator(), arguments,
                 "StackedDistributedArray::norm: ord or the stack's layouts", [&] {
                   if (leaves.empty())
                     throw InvalidArgument("StackedDistributedArray::norm: no blocks");
                   plan = detail::plan_norm(ord);
                 });
  const auto p = static_cast<real_type>(plan.p);
  auto local = [&](const Array& x) {
    return kernels::norm_reduce(Space{}, plan.kind, p, x.local_size(), x.data());
  };
  const bool idempotent =
      plan.kind == kernels::NormKind::max_abs || plan.kind == kernels::NormKind::min_abs;
  real_type total = plan.kind == kernels::NormKind::min_abs
                        ? std::numeric_limits<real_type>::infinity()
                        : real_type(0);
  if (detail::share_one_reduction(leaves)) {
    const Communicator& comm = leaves.front()->communicator();
    for (const Array* leaf : leaves) {
      if (leaf->layout().replicated() && !idempotent && comm.rank() != 0) continue;
      total = kernels::norm_combine(plan.kind, total, local(*leaf));
    }
    return detail::finish_norm(plan, comm.allreduce(total, plan.across_ranks));
  }
  for (const Array* leaf : leaves) {
    real_type part = local(*leaf);
    if (!leaf->layout().replicated()) {
      part = leaf->layout().sub_communicator().allreduce(part, plan.across_ranks);
    }
    total = kernels::norm_combine(plan.kind, total, part);
  }
  return detail::finish_norm(plan, total);
}

}  // namespace distlops
