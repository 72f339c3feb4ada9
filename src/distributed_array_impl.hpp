// SPDX-License-Identifier: BSD-3-Clause
// Copyright (c) 2026 The distlops authors
#pragma once
// Definitions of DistributedArray's members, written once for every memory space. Included by
// the translation units that instantiate the class for a space (host/distributed_array.cpp,
// and the CUDA backend's). Only kernels::* and memory::* differ per space; data of either
// space cross ranks through the space's transport (transport.hpp), which decides how.
#include <algorithm>
#include <cmath>
#include <cstring>
#include <limits>
#include <numeric>

#include "distlops/core/collective_check.hpp"
#include "distlops/core/distributed_array.hpp"
#include "distlops/core/error.hpp"
#include "distlops/core/ghost_cells.hpp"
#include "distlops/core/kernels.hpp"
#include "distlops/core/reshape_plan.hpp"
#include "distlops/core/transport.hpp"
#include "host_staging.hpp"
#include "prefault.hpp"

namespace distlops {

namespace detail {

// op over the ranks of comm of the one-element reduction that `reduce_into` writes to memory of
// Space: reduced into the reduction slot of the space's transport, one collective through it,
// one read-back.
template <class R, class Space, class F>
R reduce_across(const Communicator& comm, ReduceOp op, F&& reduce_into) {
  const std::shared_ptr<Transport> transport = transport_for<Space>(comm);
  R* slot = reinterpret_cast<R*>(transport->workspace(WorkspaceSlot::reduction, sizeof(R)));
  reduce_into(slot);
  allreduce_in_place(*transport, slot, 1, op);
  R result{};
  memory::copy_bytes<Host, Space>(&result, slot, sizeof(R));
  return result;
}

// Product of the extents before and after `axis`.
inline Index extent_product(const Shape& shape, int first, int last) {
  Index product = 1;
  for (int k = first; k < last; ++k)
    product *= shape[static_cast<std::size_t>(k)];
  return product;
}

// The corner of a block that starts at `offset` along `axis` (zero elsewhere).
inline Shape axis_corner(std::size_t ndim, int axis, Index offset) {
  Shape corner(ndim, 0);
  corner[static_cast<std::size_t>(axis)] = offset;
  return corner;
}

// The block of `local_shape` at `corner` of an array of `global_shape`, copied out.
inline void copy_block_out(std::size_t element_size, const void* global, const Shape& global_shape,
                           void* local, const Shape& local_shape, const Shape& corner) {
  const Shape zero(global_shape.size(), 0);
  kernels::copy_box(Host{}, element_size, global, {global_shape, corner}, local,
                    {local_shape, zero}, local_shape);
}

// The block of `local_shape` copied in at `corner` of an array of `global_shape`.
template <class Space = Host>
void copy_block_in(std::size_t element_size, const void* local, const Shape& local_shape,
                   void* global, const Shape& global_shape, const Shape& corner, Space space = {}) {
  const Shape zero(global_shape.size(), 0);
  kernels::copy_box(space, element_size, local, {local_shape, zero}, global, {global_shape, corner},
                    local_shape);
}

// Whether the blocks of `layout`, one after the other in rank order, are the global array in C
// order: a slab with nothing before its distribution axis.
inline bool blocks_contiguous(const Layout& layout) {
  return layout.is_slab() && extent_product(layout.global_shape(), 0, layout.axis()) == 1;
}

// The box that the blocks of `members` tile, or InvalidArgument when they tile none (box
// layouts with a mask: gather(true) of a group).
inline ArrayBox tiled_box(const Layout& layout, const std::vector<int>& members) {
  const int ndim = layout.ndim();
  ArrayBox bound{Shape(ndim, 0), Shape(ndim, 0)};
  Index held = 0;
  bool first = true;
  for (int r : members) {
    if (layout.local_size(r) == 0) continue;
    held += layout.local_size(r);
    for (int k = 0; k < ndim; ++k) {
      const Index lo = layout.box_lower(r, k), hi = layout.box_upper(r, k);
      bound.lower[k] = first ? lo : std::min(bound.lower[k], lo);
      bound.upper[k] = first ? hi : std::max(bound.upper[k], hi);
    }
    first = false;
  }
  if (held != bound.size()) {
    throw InvalidArgument("DistributedArray: the boxes of the mask group of rank " +
                          std::to_string(layout.rank()) + " do not tile a box (" +
                          std::to_string(held) + " elements in a bounding box of " +
                          std::to_string(bound.size()) + ") in " + layout.describe());
  }
  return bound;
}

}  // namespace detail

// ---- construction ---------------------------------------------------------------------------

template <Scalar T, MemorySpace Space>
DistributedArray<T, Space>::DistributedArray(const Layout& layout)
    : layout_(layout), local_size_(layout.local_size()) {
  storage_ = std::make_shared<Buffer<T, Space>>(local_size_);
  data_ = storage_->data();
}

template <Scalar T, MemorySpace Space>
DistributedArray<T, Space>::DistributedArray(const Layout& layout, T value)
    : DistributedArray(layout) {
  fill(value);
}

template <Scalar T, MemorySpace Space>
DistributedArray<T, Space> DistributedArray<T, Space>::from_global(const Layout& layout,
                                                                   std::span<const T> global) {
  DistributedArray result(layout);
  result.assign_global(global);
  return result;
}

template <Scalar T, MemorySpace Space>
void DistributedArray<T, Space>::assign_global(std::span<const T> global) {
  const Layout& layout = layout_;
  Fingerprint arguments;
  arguments.add(layout.fingerprint());
  collective_check(layout.communicator(), arguments, "from_global: the layout", [&] {
    if (static_cast<Index>(global.size()) != layout.global_size()) {
      throw ShapeMismatch("DistributedArray::from_global: the global array of rank " +
                          std::to_string(layout.rank()) + " has " + std::to_string(global.size()) +
                          " elements, the layout (" + layout.describe() + ") needs " +
                          std::to_string(layout.global_size()));
    }
  });
  memory::detail::with_host_output(Space{}, data_, local_size_, false, [&](T* local) {
    if (layout.replicated()) {
      std::copy(global.begin(), global.end(), local);
    } else {
      detail::copy_block_out(sizeof(T), global.data(), layout.global_shape(), local,
                             layout.local_shape(), layout.box().lower);
    }
    if (layout.partition() == Partition::BROADCAST) {
      layout.communicator().broadcast(local, local_size_, 0);
    }
  });
}

template <Scalar T, MemorySpace Space>
DistributedArray<T, Space> DistributedArray<T, Space>::to_dist(std::span<const T> global,
                                                               const ToDistOptions& options) {
  const Shape shape =
      options.shape.empty() ? Shape{static_cast<Index>(global.size())} : options.shape;
  const LayoutOptions layout_options{.partition = options.partition,
                                     .axis = options.axis,
                                     .local_shapes = options.local_shapes,
                                     .mask = options.mask,
                                     .grid = options.grid,
                                     .boxes = options.boxes};
  return from_global(Layout(options.comm, shape, layout_options), global);
}

template <Scalar T, MemorySpace Space>
DistributedArray<T, Space> DistributedArray<T, Space>::from_root(const Layout& layout,
                                                                 std::span<const T> global_on_root,
                                                                 int root) {
  const Communicator& comm = layout.communicator();
  Fingerprint arguments;
  arguments.add(root).add(layout.fingerprint());
  collective_check(comm, arguments, "DistributedArray::from_root: the root or the layout", [&] {
    if (root < 0 || root >= comm.size()) {
      throw InvalidArgument("DistributedArray::from_root: root " + std::to_string(root) +
                            " is not a rank of a communicator of size " +
                            std::to_string(comm.size()));
    }
    if (comm.rank() == root && static_cast<Index>(global_on_root.size()) != layout.global_size()) {
      throw ShapeMismatch("DistributedArray::from_root: the root's array has " +
                          std::to_string(global_on_root.size()) + " elements, the layout (" +
                          layout.describe() + ") needs " + std::to_string(layout.global_size()));
    }
  });
  DistributedArray result(layout);
  memory::detail::with_host_output(Space{}, result.data_, result.local_size_, false, [&](T* local) {
    if (layout.replicated()) {
      comm.broadcast(global_on_root.data(), local, result.local_size_, root);
      return;
    }
    const int size = comm.size();
    std::vector<Index> counts(static_cast<std::size_t>(size)), displacements(counts.size());
    Index position = 0;
    for (int r = 0; r < size; ++r) {
      counts[r] = layout.local_size(r);
      displacements[r] = position;
      position += counts[r];
    }
    const Shape& shape = layout.global_shape();
    std::vector<T> packed;
    const T* source = global_on_root.data();
    if (comm.rank() == root && !detail::blocks_contiguous(layout)) {
      packed.resize(static_cast<std::size_t>(layout.global_size()));
      for (int r = 0; r < size; ++r) {
        detail::copy_block_out(sizeof(T), global_on_root.data(), shape,
                               packed.data() + displacements[r], layout.local_shape(r),
                               layout.box(r).lower);
      }
      source = packed.data();
    }
    comm.scatterv(source, counts, displacements, local, result.local_size_, root);
  });
  return result;
}

template <Scalar T, MemorySpace Space>
DistributedArray<T, Space> DistributedArray<T, Space>::wrap(const Layout& layout,
                                                            std::span<T> local) {
  Fingerprint arguments;
  arguments.add(layout.fingerprint());
  collective_check(layout.communicator(), arguments, "DistributedArray::wrap: the layout", [&] {
    if (static_cast<Index>(local.size()) != layout.local_size()) {
      throw ShapeMismatch("DistributedArray::wrap: rank " + std::to_string(layout.rank()) +
                          " gives " + std::to_string(local.size()) +
                          " elements, its block of the layout (" + layout.describe() + ") has " +
                          std::to_string(layout.local_size()));
    }
  });
  DistributedArray result;
  result.layout_ = layout;
  result.data_ = local.data();
  result.local_size_ = layout.local_size();
  return result;
}

template <Scalar T, MemorySpace Space>
DistributedArray<T, Space>::DistributedArray(const DistributedArray& other)
    : layout_(other.layout_), local_size_(other.local_size_) {
  if (other.empty()) return;
  storage_ = std::make_shared<Buffer<T, Space>>(local_size_);
  data_ = storage_->data();
  kernels::copy(Space{}, local_size_, other.data_, data_);
}

template <Scalar T, MemorySpace Space>
DistributedArray<T, Space>& DistributedArray<T, Space>::operator=(const DistributedArray& other) {
  if (this == &other) return *this;
  if (!empty() && !other.empty() && layout_ == other.layout_) {
    kernels::copy(Space{}, local_size_, other.data_, data_);
    return *this;
  }
  *this = DistributedArray(other);
  return *this;
}

template <Scalar T, MemorySpace Space>
DistributedArray<T, Space> DistributedArray<T, Space>::view(const Layout& layout) {
  auto check = [&] {
    if (empty()) throw InvalidArgument("DistributedArray::view: the array is empty");
    if (!layout.valid()) throw InvalidArgument("DistributedArray::view: empty layout");
    if (!layout.communicator().congruent(communicator())) {
      throw ShapeMismatch("DistributedArray::view: the new layout lives on another communicator");
    }
    for (int r = 0; r < layout.size(); ++r) {
      if (layout.local_size(r) != layout_.local_size(r)) {
        throw ShapeMismatch("DistributedArray::view: rank " + std::to_string(r) + " holds " +
                            std::to_string(layout_.local_size(r)) +
                            " elements, its block of the new layout (" + layout.describe() +
                            ") has " + std::to_string(layout.local_size(r)));
      }
    }
    if (!views_alike(layout_, layout)) {
      throw ShapeMismatch("DistributedArray::view: the blocks of " + layout_.describe() +
                          " hold other elements than those of " + layout.describe() +
                          " (another split or partition): redistribute instead");
    }
  };
  // The array and the layout may differ between ranks: the verdict is agreed, unless the caller
  // has agreed on them already.
  const Communicator* comm = !empty()         ? &communicator()
                             : layout.valid() ? &layout.communicator()
                                              : nullptr;
  if (!comm || detail::operands_agreed()) {
    check();
  } else {
    Fingerprint layouts;
    layouts.add(empty() ? 0 : layout_.fingerprint()).add(layout.valid() ? layout.fingerprint() : 0);
    collective_check(*comm, layouts, "DistributedArray::view: the layouts", check);
  }
  DistributedArray result;
  result.layout_ = layout;
  result.storage_ = storage_;
  result.data_ = data_;
  result.local_size_ = local_size_;
  return result;
}

template <Scalar T, MemorySpace Space>
const DistributedArray<T, Space> DistributedArray<T, Space>::view(const Layout& layout) const {
  return const_cast<DistributedArray*>(this)->view(layout);
}

// ---- global data ----------------------------------------------------------------------------

template <Scalar T, MemorySpace Space>
Shape DistributedArray<T, Space>::masked_shape() const {
  Shape shape = global_shape();
  if (layout_.replicated() || !layout_.masked()) return shape;
  const int me = layout_.rank();
  if (!layout_.is_slab()) {
    std::vector<int> members;
    for (int r = 0; r < layout_.size(); ++r) {
      if (mask()[r] == mask()[me]) members.push_back(r);
    }
    return detail::tiled_box(layout_, members).extent();
  }
  Index extent = 0;
  for (int r = 0; r < layout_.size(); ++r) {
    if (mask()[r] == mask()[me]) extent += layout_.local_extent(r);
  }
  shape[static_cast<std::size_t>(axis())] = extent;
  return shape;
}

template <Scalar T, MemorySpace Space>
std::vector<T> DistributedArray<T, Space>::gather(bool masked) const {
  std::vector<T> result;
  if (empty()) return result;
  // `masked` picks the communicator of the gather: it must be the same on every rank.
  Fingerprint arguments;
  arguments.add(masked).add(layout_.fingerprint());
  // A mask group of a box layout must tile a box: agreed, since groups differ between ranks.
  check_operands(&communicator(), arguments,
                 "DistributedArray::gather: `masked` or the array's layout", [&] {
                   if (masked && !layout_.replicated()) (void)masked_shape();
                 });
  if (layout_.replicated()) {
    memory::detail::with_host_input(Space{}, data_, local_size_, [&](const T* local) {
      result.assign(local, local + local_size_);
    });
    return result;
  }
  // The ranks whose blocks are gathered, in rank order: all, or this rank's mask group (the
  // sub-communicator orders its ranks by their rank in the whole communicator).
  std::vector<int> members;
  const bool group_only = masked && layout_.masked();
  for (int r = 0; r < layout_.size(); ++r) {
    if (!group_only || mask()[r] == mask()[layout_.rank()]) members.push_back(r);
  }
  const Communicator& comm = group_only ? layout_.sub_communicator() : communicator();
  const Shape shape = group_only ? masked_shape() : global_shape();
  // Where a member's block lands: its box's corner (less the group's corner), or along the axis
  // of a slab, one block after the other.
  const Shape origin = group_only && !layout_.is_slab() ? detail::tiled_box(layout_, members).lower
                                                        : Shape(shape.size(), 0);
  std::vector<Index> counts(members.size()), displacements(members.size());
  Index position = 0;
  for (std::size_t i = 0; i < members.size(); ++i) {
    counts[i] = layout_.local_size(members[i]);
    displacements[i] = position;
    position += counts[i];
  }
  // Every member's block, in member order, into host memory at `packed`: the result is host
  // memory, so device blocks come to the host first and the gather runs there.
  auto allgather_blocks = [&](T* packed) {
    memory::detail::with_host_input(Space{}, data_, local_size_, [&](const T* local) {
      comm.allgatherv(local, local_size_, packed, counts, displacements);
    });
  };
  result = memory::detail::prefaulted_vector<T>(static_cast<std::size_t>(position));
  if (detail::blocks_contiguous(layout_)) {
    allgather_blocks(result.data());
    return result;
  }
  std::vector<T> packed = memory::detail::prefaulted_vector<T>(result.size());
  allgather_blocks(packed.data());
  Index offset = 0;
  for (std::size_t i = 0; i < members.size(); ++i) {
    Shape corner;
    if (layout_.is_slab()) {
      corner = detail::axis_corner(shape.size(), axis(), offset);
      offset += layout_.local_extent(members[i]);
    } else {
      corner = layout_.box(members[i]).lower;
      for (std::size_t k = 0; k < corner.size(); ++k)
        corner[k] -= origin[k];
    }
    detail::copy_block_in(sizeof(T), packed.data() + displacements[i],
                          layout_.local_shape(members[i]), result.data(), shape, corner);
  }
  return result;
}

template <Scalar T, MemorySpace Space>
std::vector<T> DistributedArray<T, Space>::gather_to(int root) const {
  const Communicator& comm = communicator();
  Fingerprint arguments;
  arguments.add(root).add(layout_.fingerprint());
  collective_check(comm, arguments, "DistributedArray::gather_to: the root or the layout", [&] {
    if (root < 0 || root >= comm.size()) {
      throw InvalidArgument("DistributedArray::gather_to: root " + std::to_string(root) +
                            " is not a rank of a communicator of size " +
                            std::to_string(comm.size()));
    }
  });
  std::vector<T> result;
  memory::detail::with_host_input(Space{}, data_, local_size_, [&](const T* local) {
    if (layout_.replicated()) {
      if (comm.rank() == root) result.assign(local, local + local_size_);
      return;
    }
    const int size = comm.size();
    std::vector<Index> counts(static_cast<std::size_t>(size)), displacements(counts.size());
    Index position = 0;
    for (int r = 0; r < size; ++r) {
      counts[r] = layout_.local_size(r);
      displacements[r] = position;
      position += counts[r];
    }
    const bool contiguous_blocks = detail::blocks_contiguous(layout_);
    std::vector<T> packed;
    if (comm.rank() == root) {
      result = memory::detail::prefaulted_vector<T>(static_cast<std::size_t>(global_size()));
      if (!contiguous_blocks) packed = memory::detail::prefaulted_vector<T>(result.size());
    }
    T* target = contiguous_blocks ? result.data() : packed.data();
    comm.gatherv(local, local_size_, target, counts, displacements, root);
    if (comm.rank() == root && !contiguous_blocks) {
      for (int r = 0; r < size; ++r) {
        detail::copy_block_in(sizeof(T), packed.data() + displacements[r], layout_.local_shape(r),
                              result.data(), global_shape(), layout_.box(r).lower);
      }
    }
  });
  return result;
}

// ---- element-wise ---------------------------------------------------------------------------

template <Scalar T, MemorySpace Space>
void DistributedArray<T, Space>::require_same_layout(const DistributedArray& other,
                                                     const char* operation) const {
  auto check = [&] {
    if (empty() || other.empty()) {
      throw InvalidArgument(std::string("DistributedArray ") + operation + ": empty operand");
    }
    if (layout_ == other.layout_) return;
    throw ShapeMismatch(std::string("DistributedArray ") + operation + ": layouts differ: " +
                        layout_.describe() + " vs " + other.layout_.describe());
  };
  // The operands may differ between ranks: one allreduce agrees on the verdict and on the
  // layouts, except where the caller (a solver) has agreed on its operands once.
  const DistributedArray& known = empty() ? other : *this;
  if (known.empty() || detail::operands_agreed()) {
    check();
    return;
  }
  Fingerprint layouts;
  layouts.add(empty() ? 0 : layout_.fingerprint())
      .add(other.empty() ? 0 : other.layout_.fingerprint());
  collective_check(known.communicator(), layouts,
                   std::string("DistributedArray ") + operation + ": the operands' layouts", check);
}

template <Scalar T, MemorySpace Space>
DistributedArray<T, Space>& DistributedArray<T, Space>::fill(T value) {
  kernels::fill(Space{}, local_size_, value, data_);
  return *this;
}

template <Scalar T, MemorySpace Space>
DistributedArray<T, Space>& DistributedArray<T, Space>::copy_from(const DistributedArray& other) {
  require_same_layout(other, "copy_from");
  kernels::copy(Space{}, local_size_, other.data_, data_);
  return *this;
}

template <Scalar T, MemorySpace Space>
DistributedArray<T, Space>& DistributedArray<T, Space>::axpy(T a, const DistributedArray& x) {
  require_same_layout(x, "axpy");
  kernels::axpy(Space{}, local_size_, a, x.data_, data_);
  return *this;
}

template <Scalar T, MemorySpace Space>
DistributedArray<T, Space>& DistributedArray<T, Space>::axpby(T a, const DistributedArray& x, T b) {
  require_same_layout(x, "axpby");
  kernels::axpby(Space{}, local_size_, a, x.data_, b, data_);
  return *this;
}

template <Scalar T, MemorySpace Space>
DistributedArray<T, Space>& DistributedArray<T, Space>::axpbypcz(T a, const DistributedArray& x,
                                                                 T b, const DistributedArray& y,
                                                                 T c) {
  require_same_layout(x, "axpbypcz");
  require_same_layout(y, "axpbypcz");
  kernels::axpbypcz(Space{}, local_size_, a, x.data_, b, y.data_, c, data_);
  return *this;
}

template <Scalar T, MemorySpace Space>
DistributedArray<T, Space>& DistributedArray<T, Space>::scale(T a) {
  kernels::scale(Space{}, local_size_, a, data_);
  return *this;
}

template <Scalar T, MemorySpace Space>
DistributedArray<T, Space>& DistributedArray<T, Space>::conj_in_place() {
  kernels::conj(Space{}, local_size_, data_, data_);
  return *this;
}

template <Scalar T, MemorySpace Space>
DistributedArray<T, Space> DistributedArray<T, Space>::conj() const {
  DistributedArray result(layout_);
  kernels::conj(Space{}, local_size_, data_, result.data_);
  return result;
}

namespace detail {
inline kernels::BinaryOp binary_op(int op) {
  constexpr kernels::BinaryOp ops[] = {kernels::BinaryOp::add, kernels::BinaryOp::subtract,
                                       kernels::BinaryOp::multiply, kernels::BinaryOp::divide};
  return ops[op];
}
inline const char* binary_name(int op) {
  constexpr const char* names[] = {"+", "-", "*", "/"};
  return names[op];
}
}  // namespace detail

template <Scalar T, MemorySpace Space>
DistributedArray<T, Space> DistributedArray<T, Space>::binary_result(const DistributedArray& other,
                                                                     int op) const {
  require_same_layout(other, detail::binary_name(op));
  DistributedArray result(layout_);
  kernels::binary(Space{}, detail::binary_op(op), local_size_, data_, other.data_, result.data_);
  return result;
}

template <Scalar T, MemorySpace Space>
DistributedArray<T, Space> DistributedArray<T, Space>::scalar_result(T s, int op,
                                                                     bool scalar_first) const {
  if (empty()) throw InvalidArgument("DistributedArray: arithmetic on an empty array");
  DistributedArray result(layout_);
  if (scalar_first) {
    kernels::scalar_binary(Space{}, detail::binary_op(op), local_size_, s, data_, result.data_);
  } else {
    kernels::binary_scalar(Space{}, detail::binary_op(op), local_size_, data_, s, result.data_);
  }
  return result;
}

#define DISTLOPS_IN_PLACE_ARRAY_OP(symbol, op_index)                                               \
  template <Scalar T, MemorySpace Space>                                                           \
  DistributedArray<T, Space>& DistributedArray<T, Space>::operator symbol(                         \
      const DistributedArray& other) {                                                             \
    require_same_layout(other, #symbol);                                                           \
    kernels::binary(Space{}, detail::binary_op(op_index), local_size_, data_, other.data_, data_); \
    return *this;                                                                                  \
  }                                                                                                \
  template <Scalar T, MemorySpace Space>                                                           \
  DistributedArray<T, Space>& DistributedArray<T, Space>::operator symbol(T value) {               \
    kernels::binary_scalar(Space{}, detail::binary_op(op_index), local_size_, data_, value,        \
                           data_);                                                                 \
    return *this;                                                                                  \
  }
DISTLOPS_IN_PLACE_ARRAY_OP(+=, 0)
DISTLOPS_IN_PLACE_ARRAY_OP(-=, 1)
DISTLOPS_IN_PLACE_ARRAY_OP(*=, 2)
DISTLOPS_IN_PLACE_ARRAY_OP(/=, 3)
#undef DISTLOPS_IN_PLACE_ARRAY_OP

// ---- reductions -----------------------------------------------------------------------------

template <Scalar T, MemorySpace Space>
T DistributedArray<T, Space>::dot(const DistributedArray& other) const {
  require_same_layout(other, "dot");
  if (layout_.replicated()) return kernels::dot(Space{}, local_size_, data_, other.data_);
  return detail::reduce_across<T, Space>(layout_.sub_communicator(), ReduceOp::sum, [&](T* slot) {
    kernels::dot_into(Space{}, local_size_, data_, other.data_, slot);
  });
}

template <Scalar T, MemorySpace Space>
T DistributedArray<T, Space>::vdot(const DistributedArray& other) const {
  require_same_layout(other, "vdot");
  if (layout_.replicated()) return kernels::vdot(Space{}, local_size_, data_, other.data_);
  return detail::reduce_across<T, Space>(layout_.sub_communicator(), ReduceOp::sum, [&](T* slot) {
    kernels::vdot_into(Space{}, local_size_, data_, other.data_, slot);
  });
}

namespace detail {

struct NormPlan {
  kernels::NormKind kind;
  double p;
  ReduceOp across_ranks;
};

inline NormPlan plan_norm(double ord) {
  if (std::isnan(ord)) throw InvalidArgument("norm: ord is NaN");
  if (ord == 0) return {kernels::NormKind::count_nonzero, 0, ReduceOp::sum};
  if (ord == std::numeric_limits<double>::infinity()) {
    return {kernels::NormKind::max_abs, 0, ReduceOp::max};
  }
  if (ord == -std::numeric_limits<double>::infinity()) {
    return {kernels::NormKind::min_abs, 0, ReduceOp::min};
  }
  return {kernels::NormKind::power_sum, ord, ReduceOp::sum};
}

// The partial norms along `axis` of every rank's block of a box layout (this rank's in
// `partial`, C order over its box without the axis) combined into the global result: the lines
// cut between ranks of a mask group reduced with `op` inside the group, and, with a mask, the
// lines a group holds no part of taken from the groups that do (their results combined by `op`).
template <class R>
std::vector<R> combine_box_norms(const Layout& layout, const std::vector<R>& partial, int axis,
                                 ReduceOp op) {
  const int ndim = layout.ndim();
  Shape output_shape;
  for (int k = 0; k < ndim; ++k) {
    if (k != axis) output_shape.push_back(layout.global_shape()[k]);
  }
  if (output_shape.empty()) output_shape.push_back(1);
  // Where a rank's partial result lies in the output: its box without the axis.
  auto projected = [&](int rank, Shape& corner, Shape& extent) {
    corner.clear();
    extent.clear();
    for (int k = 0; k < ndim; ++k) {
      if (k == axis) continue;
      corner.push_back(layout.box_lower(rank, k));
      extent.push_back(layout.box_upper(rank, k) - layout.box_lower(rank, k));
    }
    if (corner.empty()) {
      corner.push_back(0);
      extent.push_back(1);
    }
  };
  const R identity = op == ReduceOp::min ? std::numeric_limits<R>::infinity() : R(0);
  const auto count = static_cast<std::size_t>(element_count(output_shape));
  std::vector<R> result(count, identity);
  Shape corner, extent;
  const int me = layout.rank();
  if (layout.local_size(me) > 0) {
    projected(me, corner, extent);
    copy_block_in(sizeof(R), partial.data(), extent, result.data(), output_shape, corner);
  }
  layout.sub_communicator().allreduce(result.data(), result.data(), static_cast<Index>(count), op);
  if (!layout.masked()) return result;
  // The lines this rank's group holds a part of.
  std::vector<unsigned char> covered(count, 0);
  for (int r = 0; r < layout.size(); ++r) {
    if (layout.mask()[r] != layout.mask()[me] || layout.local_size(r) == 0) continue;
    projected(r, corner, extent);
    const std::vector<unsigned char> ones(static_cast<std::size_t>(element_count(extent)), 1);
    copy_block_in(1, ones.data(), extent, covered.data(), output_shape, corner);
  }
  // One rank per group offers its group's lines; the others take what they lack.
  std::vector<R> offered(count, identity);
  if (layout.sub_communicator().rank() == 0) {
    for (std::size_t i = 0; i < count; ++i) {
      if (covered[i]) offered[i] = result[i];
    }
  }
  layout.communicator().allreduce(offered.data(), offered.data(), static_cast<Index>(count), op);
  for (std::size_t i = 0; i < count; ++i) {
    if (!covered[i]) result[i] = offered[i];
  }
  return result;
}

template <class R>
R finish_norm(const NormPlan& plan, R reduced) {
  if (plan.kind != kernels::NormKind::power_sum) return reduced;
  if (plan.p == 1) return reduced;
  if (plan.p == 2) return std::sqrt(reduced);
  return std::pow(reduced, R(1) / static_cast<R>(plan.p));
}

}  // namespace detail

template <Scalar T, MemorySpace Space>
auto DistributedArray<T, Space>::norm(double ord) const -> real_type {
  detail::NormPlan plan{};
  Fingerprint arguments;
  arguments.add(ord).add(empty() ? 0 : layout_.fingerprint());
  check_operands(empty() ? nullptr : &communicator(), arguments,
                 "DistributedArray::norm: ord or the array's layout", [&] {
                   if (empty()) throw InvalidArgument("DistributedArray::norm: empty array");
                   plan = detail::plan_norm(ord);
                 });
  const auto p = static_cast<real_type>(plan.p);
  if (layout_.replicated()) {
    return detail::finish_norm(plan,
                               kernels::norm_reduce(Space{}, plan.kind, p, local_size_, data_));
  }
  return detail::finish_norm(
      plan, detail::reduce_across<real_type, Space>(
                layout_.sub_communicator(), plan.across_ranks, [&](real_type* slot) {
                  kernels::norm_reduce_into(Space{}, plan.kind, p, local_size_, data_, slot);
                }));
}

template <Scalar T, MemorySpace Space>
auto DistributedArray<T, Space>::norm(double ord, int norm_axis) const -> std::vector<real_type> {
  detail::NormPlan plan{};
  Fingerprint arguments;
  arguments.add(ord).add(norm_axis).add(empty() ? 0 : layout_.fingerprint());
  check_operands(empty() ? nullptr : &communicator(), arguments,
                 "DistributedArray::norm: ord, axis or the array's layout", [&] {
                   if (empty()) throw InvalidArgument("DistributedArray::norm: empty array");
                   const int nd = ndim();
                   if (norm_axis < -nd || norm_axis >= nd) {
                     throw InvalidArgument("DistributedArray::norm: axis " +
                                           std::to_string(norm_axis) +
                                           " is out of range for an array of " +
                                           std::to_string(nd) + " dimension(s)");
                   }
                   plan = detail::plan_norm(ord);
                 });
  const int nd = ndim();
  if (norm_axis < 0) norm_axis += nd;
  const Shape local = local_shape();
  const Index outer = detail::extent_product(local, 0, norm_axis);
  const Index length = local[static_cast<std::size_t>(norm_axis)];
  const Index inner = detail::extent_product(local, norm_axis + 1, nd);

  // Partial reduction of this rank's block, where the data live. When the reduced axis is the
  // distribution axis, every rank holds a partial result of the full output shape: reduced
  // across the group there, through the space's transport. Then brought to the host.
  const bool reduce_across_ranks =
      !layout_.replicated() && layout_.is_slab() && norm_axis == axis();
  Buffer<real_type, Space> partial_in_space(outer * inner);
  kernels::norm_reduce_axis(Space{}, plan.kind, static_cast<real_type>(plan.p), outer, length,
                            inner, data_, partial_in_space.data());
  if (reduce_across_ranks) {
    allreduce_in_place(*transport_for<Space>(layout_.sub_communicator()), partial_in_space.data(),
                       partial_in_space.size(), plan.across_ranks);
  }
  std::vector<real_type> partial(static_cast<std::size_t>(partial_in_space.size()));
  memory::copy_bytes<Host, Space>(partial.data(), partial_in_space.data(),
                                  partial_in_space.bytes());

  std::vector<real_type> result;
  if (layout_.replicated() || reduce_across_ranks) {
    result = std::move(partial);
  } else if (!layout_.is_slab()) {
    result = detail::combine_box_norms(layout_, partial, norm_axis, plan.across_ranks);
  } else {
    // Each rank holds its block of the output, distributed along the (shifted) array axis.
    Shape output_shape = global_shape();
    output_shape.erase(output_shape.begin() + norm_axis);
    const int output_axis = axis() > norm_axis ? axis() - 1 : axis();
    std::vector<Index> counts(static_cast<std::size_t>(layout_.size())),
        displacements(counts.size());
    Index position = 0;
    const Index output_slab =
        element_count(output_shape) /
        std::max<Index>(1, output_shape[static_cast<std::size_t>(output_axis)]);
    for (int r = 0; r < layout_.size(); ++r) {
      counts[r] = layout_.local_extent(r) * output_slab;
      displacements[r] = position;
      position += counts[r];
    }
    std::vector<real_type> packed(static_cast<std::size_t>(position));
    communicator().allgatherv(partial.data(), static_cast<Index>(partial.size()), packed.data(),
                              counts, displacements);
    result.resize(packed.size());
    for (int r = 0; r < layout_.size(); ++r) {
      Shape block = output_shape;
      block[static_cast<std::size_t>(output_axis)] = layout_.local_extent(r);
      detail::copy_block_in(
          sizeof(real_type), packed.data() + displacements[r], block, result.data(), output_shape,
          detail::axis_corner(output_shape.size(), output_axis, layout_.offset(r)));
    }
  }
  for (real_type& value : result)
    value = detail::finish_norm(plan, value);
  return result;
}

// ---- layout changes -------------------------------------------------------------------------

template <Scalar T, MemorySpace Space>
DistributedArray<T, Space> DistributedArray<T, Space>::redistribute(const Layout& target) const {
  Fingerprint layouts;
  layouts.add(empty() ? 0 : layout_.fingerprint()).add(target.valid() ? target.fingerprint() : 0);
  const Communicator* comm = !empty()         ? &communicator()
                             : target.valid() ? &target.communicator()
                                              : nullptr;
  check_operands(comm, layouts, "DistributedArray::redistribute: the array's or the target layout",
                 [&] {
                   if (empty())
                     throw InvalidArgument("DistributedArray::redistribute: empty array");
                   if (!target.valid()) {
                     throw InvalidArgument("DistributedArray::redistribute: empty target layout");
                   }
                 });
  const ReshapePlan plan(layout_, target);
  DistributedArray result(target);
  plan.execute(*transport_for<Space>(communicator()), data_, result.data_);
  return result;
}

template <Scalar T, MemorySpace Space>
void DistributedArray<T, Space>::redistribute(const ReshapePlan& plan,
                                              DistributedArray& target) const {
  auto check = [&] {
    if (empty() || target.empty()) {
      throw InvalidArgument("DistributedArray::redistribute: empty array");
    }
    if (layout_ != plan.source() || target.layout_ != plan.destination()) {
      throw ShapeMismatch("DistributedArray::redistribute: the plan moves " +
                          plan.source().describe() + " to " + plan.destination().describe() +
                          ", the arrays are " + layout_.describe() + " and " +
                          target.layout_.describe());
    }
  };
  if (empty() || detail::operands_agreed()) {
    check();
  } else {
    Fingerprint layouts;
    layouts.add(layout_.fingerprint()).add(target.empty() ? 0 : target.layout_.fingerprint());
    collective_check(communicator(), layouts, "DistributedArray::redistribute: the layouts", check);
  }
  if constexpr (std::same_as<Space, Host>) {
    plan.execute(Host{}, data_, target.data_);
  } else {
    plan.execute(*transport_for<Space>(communicator()), data_, target.data_);
  }
}

template <Scalar T, MemorySpace Space>
DistributedArray<T, Space> DistributedArray<T, Space>::redistribute(int new_axis) const {
  Fingerprint arguments;
  arguments.add(new_axis).add(empty() ? 0 : layout_.fingerprint());
  check_operands(empty() ? nullptr : &communicator(), arguments,
                 "DistributedArray::redistribute: the axis or the array's layout", [&] {
                   if (empty())
                     throw InvalidArgument("DistributedArray::redistribute: empty array");
                 });
  return redistribute(layout_.with_axis(new_axis));
}

template <Scalar T, MemorySpace Space>
LocalArray<T, Space> DistributedArray<T, Space>::add_ghost_cells(Index front, Index back) const {
  Fingerprint arguments;
  arguments.add(empty() ? 0 : layout_.fingerprint());
  check_operands(empty() ? nullptr : &communicator(), arguments,
                 "DistributedArray::add_ghost_cells: the array's layout", [&] {
                   if (empty()) {
                     throw InvalidArgument("DistributedArray::add_ghost_cells: empty array");
                   }
                   if (!layout_.is_slab()) {
                     throw InvalidArgument(
                         "DistributedArray::add_ghost_cells: the layout (" + layout_.describe() +
                         ") is cut along several axes or in boxes, and has no distribution "
                         "axis; ghost cells on every axis come from a GhostExchange with "
                         "per-axis widths");
                   }
                 });
  const GhostExchange exchange(layout_, front, back, GhostReach::neighbours);
  const Shape ghosted_shape = exchange.ghosted_shape();
  LocalArray<T, Space> result(ghosted_shape);
  const Shape local = local_shape();
  const std::size_t a = static_cast<std::size_t>(axis());
  // Builds the ghosted block at `ghosted` from this rank's block at `source`, exchanging the
  // planes through `transport`.
  auto assemble = [&](Transport& transport, const T* source, T* ghosted) {
    const Space space{};
    if (detail::extent_product(local, 0, axis()) == 1) {
      // The ghosted block is [front planes][local block][back planes], each contiguous.
      T* front_part = ghosted;
      T* middle = ghosted + element_count(exchange.front_shape());
      T* back_part = middle + local_size_;
      // The own block is copied while the ghost planes are in flight.
      GhostExchange::Pending pending = exchange.begin(transport, source, front_part, back_part);
      kernels::copy(space, local_size_, source, middle);
      exchange.end(pending);
      return;
    }
    Buffer<T, Space> front_planes(element_count(exchange.front_shape()));
    Buffer<T, Space> back_planes(element_count(exchange.back_shape()));
    exchange.exchange(transport, source, front_planes.data(), back_planes.data());
    const std::size_t nd = local.size();
    detail::copy_block_in(sizeof(T), front_planes.data(), exchange.front_shape(), ghosted,
                          ghosted_shape, detail::axis_corner(nd, axis(), 0), space);
    detail::copy_block_in(sizeof(T), source, local, ghosted, ghosted_shape,
                          detail::axis_corner(nd, axis(), exchange.front()), space);
    detail::copy_block_in(sizeof(T), back_planes.data(), exchange.back_shape(), ghosted,
                          ghosted_shape,
                          detail::axis_corner(nd, axis(), exchange.front() + local[a]), space);
  };
  assemble(*transport_for<Space>(communicator()), data_, result.data());
  return result;
}

template <Scalar T, MemorySpace Space>
void DistributedArray<T, Space>::check_replicas() const {
  if (empty()) return;
  // A SCATTER array on some ranks returns at once: the layouts are agreed first.
  Fingerprint layout;
  layout.add(layout_.fingerprint());
  check_operands(&communicator(), layout, "DistributedArray::check_replicas: the array's layout",
                 [] {});
  if (!layout_.replicated()) return;
  Fingerprint fingerprint;
  memory::detail::with_host_input(Space{}, data_, local_size_, [&](const T* local) {
    fingerprint.add_bytes(local, static_cast<std::size_t>(local_size_) * sizeof(T));
  });
  const std::uint64_t hash = fingerprint.value();
  std::uint64_t local[2] = {hash, ~hash}, global[2] = {0, 0};
  communicator().allreduce(local, global, 2, ReduceOp::max);
  if (global[0] != ~global[1]) {
    throw ReplicaMismatch("DistributedArray::check_replicas: the replicas of a " +
                          std::string(to_string(partition())) + " array (" + layout_.describe() +
                          ") differ between ranks");
  }
}

}  // namespace distlops
