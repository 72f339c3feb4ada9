// SPDX-License-Identifier: BSD-3-Clause
// Copyright (c) 2026 The distlops authors
#pragma once
/// \file distributed_array.hpp
/// `DistributedArray<T, Space>`: an N-d array spread over the ranks of a communicator as its
/// Layout says (PyLops-MPI's DistributedArray). Each rank stores its local block, C order, in
/// memory of `Space`. Copies are deep; moves are cheap; views (wrap, view) alias memory.
///
/// Operations between arrays require equal layouts and raise ShapeMismatch otherwise. Since
/// every rank holds the same layouts, such errors are raised on every rank alike without
/// communication. Reductions (dot, vdot, norm) return the same value on every rank.
///
/// Arrays of the Cuda space (builds with the CUDA backend) keep their blocks in device memory;
/// their collectives go over NCCL or through host memory and MPI (gpu_collectives.hpp).

#include <memory>
#include <span>
#include <vector>

#include "distlops/config.hpp"
#include "distlops/core/buffer.hpp"
#include "distlops/core/instantiate.hpp"
#include "distlops/core/layout.hpp"
#include "distlops/core/local_array.hpp"
#include "distlops/core/memory_space.hpp"
#include "distlops/core/types.hpp"

namespace distlops {

/// How DistributedArray::to_dist spreads a global array (PyLops-MPI's to_dist arguments):
/// its global shape, communicator and the settings of its Layout (LayoutOptions). Written for
/// designated initializers: `to_dist(x, {.shape = {n, m}, .axis = 1})`.
struct ToDistOptions {
  /// The global shape; empty: one axis holding every element given.
  Shape shape = {};
  /// The ranks that share the array.
  Communicator comm = Communicator::world();
  /// SCATTER (the default), BROADCAST or UNSAFE_BROADCAST.
  Partition partition = Partition::SCATTER;
  /// Distribution axis; negative values count from the end.
  int axis = 0;
  /// Every rank's local shape (one entry per rank); empty: the default split.
  std::vector<Shape> local_shapes = {};
  /// Mask colours (one per rank); empty: no mask.
  std::vector<int> mask = {};
  /// A process grid (LayoutOptions::grid); empty: a slab along `axis`.
  std::vector<int> grid = {};
  /// Every rank's box (LayoutOptions::boxes); empty: none.
  std::vector<ArrayBox> boxes = {};
};

class ReshapePlan;

/// An N-d array of scalars T spread over the ranks as its Layout says, each rank holding its
/// local block (C order) in memory of Space. Element-wise operations are local; reductions are
/// collective within the mask group and return the same value on every rank.
template <Scalar T, MemorySpace Space = Host>
class DistributedArray {
 public:
  using value_type = T;              ///< The scalar type.
  using real_type = real_type_t<T>;  ///< The type of norms: T's real type.
  using space_type = Space;          ///< Where the local block lives: Host or Cuda.

  // ---- construction ---------------------------------------------------------------------------
  /// An empty array without layout; only assignable.
  DistributedArray() = default;
  /// Uninitialised local storage for `layout` (the same as empty(layout)): the elements hold
  /// whatever the allocator left (host or device memory alike), replicas of a BROADCAST
  /// layout need not agree, and reading an element before writing it gives an unspecified
  /// value. Meant for outputs that are overwritten whole (an operator's apply, copy_from,
  /// assign_global, a read), where filling first would cost a pass over memory. No
  /// communication: ranks may construct it independently.
  explicit DistributedArray(const Layout& layout);
  /// Every element set to `value`. No communication.
  DistributedArray(const Layout& layout, T value);

  /// Every element zero (PyLops-MPI's zeros-initialised DistributedArray). No communication.
  static DistributedArray zeros(const Layout& layout) { return DistributedArray(layout, T(0)); }
  /// Uninitialised, as DistributedArray(layout) above: write every element before reading it.
  static DistributedArray empty(const Layout& layout) { return DistributedArray(layout); }
  /// PyLops-MPI's DistributedArray.to_dist: every rank holds the same global array (C order,
  /// `global` of options.shape) and keeps its part of the layout that `options` describe.
  /// BROADCAST arrays take rank 0's values (broadcast once, so replicas agree); for the Cuda
  /// space each rank copies its part to the device. Collective over options.comm: the layout's
  /// checks and the size of `global` (which must be the shape's) raise the same exception on
  /// every rank.
  static DistributedArray to_dist(std::span<const T> global, const ToDistOptions& options = {});

  /// From the global array (C order, global_size() elements) held by every rank: each rank
  /// copies its block. For BROADCAST, rank 0's values are broadcast so replicas agree.
  /// Collective (the size of `global` is checked on every rank).
  static DistributedArray from_global(const Layout& layout, std::span<const T> global);
  /// From the global array held by rank `root` only (others may pass an empty span): the
  /// blocks are scattered (SCATTER) or the array is broadcast (BROADCAST and
  /// UNSAFE_BROADCAST). Collective.
  static DistributedArray from_root(const Layout& layout, std::span<const T> global_on_root,
                                    int root = 0);
  /// Over existing local memory of Space, without copying: the array aliases `local`, which
  /// must hold exactly layout.local_size() elements (checked collectively) and outlive it.
  static DistributedArray wrap(const Layout& layout, std::span<T> local);

  /// Deep copy.
  DistributedArray(const DistributedArray& other);
  /// Takes `other`'s storage; `other` is left empty.
  DistributedArray(DistributedArray&& other) noexcept = default;
  /// Deep copy. When this array already has other's layout the values are copied into the
  /// existing storage (no allocation, and a view keeps aliasing its memory).
  DistributedArray& operator=(const DistributedArray& other);
  /// Takes `other`'s storage and layout; `other` is left empty.
  DistributedArray& operator=(DistributedArray&& other) noexcept = default;
  /// Releases this array's share of the storage (views share it; wrapped memory is the
  /// caller's).
  ~DistributedArray() = default;

  // ---- description ----------------------------------------------------------------------------
  /// True for a default-constructed (or moved-from) array, which has no layout.
  bool empty() const { return !layout_.valid(); }
  /// The layout: global shape, partition, axis, every rank's block, mask.
  const Layout& layout() const { return layout_; }
  /// The layout's communicator.
  const Communicator& communicator() const { return layout_.communicator(); }
  /// The shape of the whole array.
  const Shape& global_shape() const { return layout_.global_shape(); }
  /// The shape of this rank's block.
  Shape local_shape() const { return layout_.local_shape(); }
  /// SCATTER, BROADCAST or UNSAFE_BROADCAST.
  Partition partition() const { return layout_.partition(); }
  /// The distribution axis of a slab layout (InvalidArgument for box layouts: Layout::axis()).
  int axis() const { return layout_.axis(); }
  /// Number of dimensions.
  int ndim() const { return layout_.ndim(); }
  /// The mask colours, one per rank; empty without a mask.
  const std::vector<int>& mask() const { return layout_.mask(); }
  /// Number of elements of the whole array.
  Index global_size() const { return layout_.global_size(); }
  /// Number of elements of this rank's block (0 on a rank that owns nothing).
  Index local_size() const { return local_size_; }

  // ---- local data -----------------------------------------------------------------------------
  /// This rank's block, C order, in memory of Space.
  T* data() { return data_; }
  /// This rank's block, read-only, in memory of Space.
  const T* data() const { return data_; }
  /// Host arrays: this rank's block as a span.
  std::span<T> local() requires std::same_as<Space, Host> {
    return {data_, static_cast<std::size_t>(local_size_)};
  }
  /// Host arrays: this rank's block as a read-only span.
  std::span<const T> local() const requires std::same_as<Space, Host> {
    return {data_, static_cast<std::size_t>(local_size_)};
  }

  /// An array that aliases this one's storage with another layout of the same local size on
  /// every rank (a reshape without copy, e.g. an N-d array seen as a flat vector whose split
  /// matches). ShapeMismatch on every rank when a local size differs. No communication.
  DistributedArray view(const Layout& layout);
  /// Read-only view (the result must not be modified).
  const DistributedArray view(const Layout& layout) const;

  // ---- global data ----------------------------------------------------------------------------
  /// The global array in C order on every rank (host memory). Collective. With `masked`, the
  /// array of this rank's mask group only (the blocks of its ranks, in rank order); `masked`
  /// and the layout are agreed over the ranks first (one small allreduce).
  std::vector<T> gather(bool masked = false) const;
  /// Global shape of gather(true): slabs, the extents of this rank's mask group along the
  /// axis; box layouts, the box that the group's boxes tile (InvalidArgument when they tile
  /// none).
  Shape masked_shape() const;
  /// The global array on rank `root` (empty elsewhere). Collective.
  std::vector<T> gather_to(int root) const;
  /// Overwrites the array with the global array held by every rank (see from_global).
  void assign_global(std::span<const T> global);

  // ---- element-wise ---------------------------------------------------------------------------
  /// Every element = value. These element-wise members act on the local block only (no
  /// communication) and return *this; operands must have equal layouts (ShapeMismatch).
  DistributedArray& fill(T value);
  /// Every element = 0.
  DistributedArray& set_zero() { return fill(T(0)); }
  /// this = other (equal layouts, no allocation).
  DistributedArray& copy_from(const DistributedArray& other);
  /// this += a * x.
  DistributedArray& axpy(T a, const DistributedArray& x);
  /// this = a * x + b * this (this is not read when b == 0).
  DistributedArray& axpby(T a, const DistributedArray& x, T b);
  /// this = a * x + b * y + c * this (this is not read when c == 0).
  DistributedArray& axpbypcz(T a, const DistributedArray& x, T b, const DistributedArray& y, T c);
  /// this *= a.
  DistributedArray& scale(T a);
  /// this = conj(this); a no-op for real types.
  DistributedArray& conj_in_place();

  /// Element-wise this += other.
  DistributedArray& operator+=(const DistributedArray& other);
  /// Element-wise this -= other.
  DistributedArray& operator-=(const DistributedArray& other);
  /// Element-wise (Hadamard) this *= other.
  DistributedArray& operator*=(const DistributedArray& other);
  /// Element-wise this /= other.
  DistributedArray& operator/=(const DistributedArray& other);
  /// Adds `value` to every element.
  DistributedArray& operator+=(T value);
  /// Subtracts `value` from every element.
  DistributedArray& operator-=(T value);
  /// Multiplies every element by `value`.
  DistributedArray& operator*=(T value);
  /// Divides every element by `value`.
  DistributedArray& operator/=(T value);

  /// Element-wise x + y in a new array of their layout (ShapeMismatch when layouts differ).
  friend DistributedArray operator+(const DistributedArray& x, const DistributedArray& y) {
    return x.binary_result(y, 0);
  }
  /// Element-wise x - y in a new array.
  friend DistributedArray operator-(const DistributedArray& x, const DistributedArray& y) {
    return x.binary_result(y, 1);
  }
  /// Element-wise (Hadamard) x * y in a new array.
  friend DistributedArray operator*(const DistributedArray& x, const DistributedArray& y) {
    return x.binary_result(y, 2);
  }
  /// Element-wise x / y in a new array.
  friend DistributedArray operator/(const DistributedArray& x, const DistributedArray& y) {
    return x.binary_result(y, 3);
  }
  /// x_i + s in a new array.
  friend DistributedArray operator+(const DistributedArray& x, T s) {
    return x.scalar_result(s, 0, false);
  }
  /// x_i - s in a new array.
  friend DistributedArray operator-(const DistributedArray& x, T s) {
    return x.scalar_result(s, 1, false);
  }
  /// x_i * s in a new array.
  friend DistributedArray operator*(const DistributedArray& x, T s) {
    return x.scalar_result(s, 2, false);
  }
  /// x_i / s in a new array.
  friend DistributedArray operator/(const DistributedArray& x, T s) {
    return x.scalar_result(s, 3, false);
  }
  /// s + x_i in a new array.
  friend DistributedArray operator+(T s, const DistributedArray& x) {
    return x.scalar_result(s, 0, true);
  }
  /// s - x_i in a new array.
  friend DistributedArray operator-(T s, const DistributedArray& x) {
    return x.scalar_result(s, 1, true);
  }
  /// s * x_i in a new array.
  friend DistributedArray operator*(T s, const DistributedArray& x) {
    return x.scalar_result(s, 2, true);
  }
  /// s / x_i in a new array.
  friend DistributedArray operator/(T s, const DistributedArray& x) {
    return x.scalar_result(s, 3, true);
  }
  /// -x_i in a new array.
  friend DistributedArray operator-(const DistributedArray& x) {
    return x.scalar_result(T(-1), 2, false);
  }

  /// A deep copy (same as the copy constructor, spelled as in PyLops-MPI).
  DistributedArray copy() const { return *this; }
  /// The complex conjugate (a copy for real types).
  DistributedArray conj() const;
  /// Same layout (mask included), every element zero.
  DistributedArray zeros_like() const { return DistributedArray(layout_, T(0)); }
  /// Same layout (mask included), uninitialised.
  DistributedArray empty_like() const { return DistributedArray(layout_); }

  // ---- reductions (collective within the mask group; local for replicated layouts) -------------
  /// sum_i x_i y_i (bilinear: no conjugation).
  T dot(const DistributedArray& other) const;
  /// sum_i conj(x_i) y_i.
  T vdot(const DistributedArray& other) const;
  /// Vector norm of the flattened array for ord in {0, 1, 2, any finite p != 0, inf, -inf}
  /// (use std::numeric_limits<double>::infinity()), as numpy.linalg.norm.
  real_type norm(double ord = 2) const;
  /// Norm along `axis`: the global result (shape global_shape() without `axis`, C order) on
  /// every rank. Each line is reduced within the mask group of the rank; with a mask, a line
  /// the rank's group holds no part of takes the value the groups that hold it agree on (the
  /// op over their results).
  std::vector<real_type> norm(double ord, int axis) const;

  // ---- layout changes -------------------------------------------------------------------------
  /// A copy of this array in another layout of the same global shape: slab, grid, boxes or
  /// replicated (collective; one ReshapePlan, reshape_plan.hpp).
  DistributedArray redistribute(const Layout& target) const;
  /// A copy distributed along `axis` with the default split (collective). For replicated
  /// layouts, a SCATTER copy along `axis`.
  DistributedArray redistribute(int axis) const;
  /// Moves this array into `target` as `plan` says (plan.source() must be this array's layout,
  /// plan.destination() target's): the reshape of a loop, which allocates nothing after its
  /// first execution. Collective; ShapeMismatch on every rank when the layouts do not fit.
  void redistribute(const ReshapePlan& plan, DistributedArray& target) const;
  /// The local block extended by `front` planes of the previous rank and `back` planes of the
  /// next along the distribution axis (PyLops-MPI's add_ghost_cells; collective). A request
  /// larger than the neighbour's block raises InvalidArgument on every rank. Slab layouts
  /// (InvalidArgument otherwise: a box layout's ghost cells on every axis come from a
  /// GhostExchange with per-axis widths, ghost_cells.hpp).
  LocalArray<T, Space> add_ghost_cells(Index front, Index back) const;

  /// Debug check for replicated layouts: raises ReplicaMismatch on every rank when the
  /// replicas differ bit-wise between ranks (collective; for SCATTER, only the layout is
  /// agreed, so that an array replicated on some ranks only is an error on every rank).
  void check_replicas() const;

 private:
  void require_same_layout(const DistributedArray& other, const char* operation) const;
  DistributedArray binary_result(const DistributedArray& other, int op) const;
  DistributedArray scalar_result(T s, int op, bool scalar_first) const;
  real_type reduce_sum_in_group(real_type value) const;

  Layout layout_;
  std::shared_ptr<Buffer<T, Space>> storage_;  // null for arrays over user memory
  T* data_ = nullptr;
  Index local_size_ = 0;
};

// The library's instantiations, compiled in libdistlops: not API.
/// \cond
#define DISTLOPS_DECLARE_ARRAY(T, S) extern template class DistributedArray<T, S>;
DISTLOPS_FOR_EACH_SCALAR_AND_SPACE(DISTLOPS_DECLARE_ARRAY)
#undef DISTLOPS_DECLARE_ARRAY
/// \endcond

}  // namespace distlops
