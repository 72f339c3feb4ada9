// SPDX-License-Identifier: BSD-3-Clause
// Copyright (c) 2026 The distlops authors
#pragma once
/// \file layout.hpp
/// `Layout`: how an N-d global array is spread over the ranks of a communicator: its global
/// shape, partition, distribution axis, every rank's local shape and the optional mask.
/// A Layout is computed once and shared (it is a cheap-to-copy handle to immutable data);
/// every rank holds the same description, so checks on layouts reach the same verdict on
/// every rank without communication.

#include <cstdint>
#include <memory>
#include <span>
#include <string>
#include <vector>

#include "distlops/core/communicator.hpp"
#include "distlops/core/partition.hpp"
#include "distlops/core/types.hpp"

namespace distlops {

/// Optional settings of a Layout.
struct LayoutOptions {
  /// SCATTER (a block per rank, the default), BROADCAST or UNSAFE_BROADCAST (replicated).
  Partition partition = Partition::SCATTER;
  /// Distribution axis; negative values count from the end as in NumPy.
  int axis = 0;
  /// Every rank's local shape (one entry per rank). Empty: PyLops-MPI's default split, which
  /// gives n / P + 1 items to ranks r < n % P and n / P to the others.
  std::vector<Shape> local_shapes = {};
  /// A colour per rank: ranks of the same colour form a sub-communicator that holds one
  /// replica of the data, and reductions (dot, norm) run inside it. Empty: no mask.
  std::vector<int> mask = {};
};

/// How an N-d global array (row-major) is spread over the ranks of a communicator: global shape,
/// partition, distribution axis, every rank's local shape and offset, and the optional mask.
/// A cheap-to-copy handle to immutable data; building one is collective, and afterwards every
/// rank knows every rank's block, so comparisons and queries need no communication.
class Layout {
 public:
  /// An empty layout (no communicator); only assignable.
  Layout() = default;
  /// Collective over `comm`: validates the arguments and agrees on them (one small allreduce,
  /// plus a communicator split when a mask is given). Bad or inconsistent input raises the
  /// same exception on every rank.
  Layout(const Communicator& comm, Shape global_shape, Partition partition = Partition::SCATTER,
         int axis = 0);
  /// As Layout(comm, global_shape, partition, axis), with custom local shapes and a mask from
  /// `options`. Collective; InvalidArgument on every rank when the local shapes do not tile
  /// the global shape or the mask has not one non-negative colour per rank.
  Layout(const Communicator& comm, Shape global_shape, const LayoutOptions& options);

  /// Collective: builds the layout from each rank's own local shape; the global extent along
  /// `axis` is their sum (SCATTER) or the common shape (BROADCAST).
  static Layout from_local_shape(const Communicator& comm, const Shape& local_shape,
                                 Partition partition = Partition::SCATTER, int axis = 0,
                                 std::vector<int> mask = {});

  /// False for a default-constructed layout, whose other queries throw InvalidArgument.
  bool valid() const { return static_cast<bool>(data_); }

  /// The communicator over which the array is laid out.
  const Communicator& communicator() const { return get().comm; }
  /// The communicator of this rank's mask group (the communicator itself without a mask).
  const Communicator& sub_communicator() const { return get().sub_comm; }
  /// This process's rank in communicator().
  int rank() const { return get().comm.rank(); }
  /// Number of ranks of communicator().
  int size() const { return get().comm.size(); }

  /// The shape of the whole array.
  const Shape& global_shape() const { return get().global_shape; }
  /// Number of dimensions of the global shape.
  int ndim() const { return static_cast<int>(get().global_shape.size()); }
  /// SCATTER, BROADCAST or UNSAFE_BROADCAST.
  Partition partition() const { return get().partition; }
  /// True when every rank holds the whole array (BROADCAST, UNSAFE_BROADCAST).
  bool replicated() const { return is_replicated(get().partition); }
  /// The distribution axis, in [0, ndim()) (normalised from a negative one).
  int axis() const { return get().axis; }
  /// The colour of every rank; empty without a mask.
  const std::vector<int>& mask() const { return get().mask; }
  /// True when the layout has a mask.
  bool masked() const { return !get().mask.empty(); }

  /// Extent along the distribution axis of every rank's local block.
  std::span<const Index> local_extents() const { return get().extents; }
  /// Extent along the distribution axis of `rank`'s local block (0 when it owns nothing).
  Index local_extent(int rank) const { return get().extents[static_cast<std::size_t>(rank)]; }
  /// Where rank's block starts along the distribution axis (0 for replicated layouts); the
  /// span has size() + 1 entries, the last being the global extent.
  std::span<const Index> offsets() const { return get().offsets; }
  /// Where `rank`'s block starts along the distribution axis.
  Index offset(int rank) const { return get().offsets[static_cast<std::size_t>(rank)]; }

  /// The shape of `rank`'s local block: the global shape with the axis extent replaced by the
  /// rank's (the global shape itself for replicated layouts).
  Shape local_shape(int rank) const;
  /// The shape of this rank's local block.
  Shape local_shape() const { return local_shape(rank()); }
  /// Every rank's local shape, in rank order.
  std::vector<Shape> local_shapes() const;
  /// Number of elements of `rank`'s local block.
  Index local_size(int rank) const;
  /// Number of elements of this rank's local block.
  Index local_size() const { return local_size(rank()); }
  /// Number of elements of the whole array.
  Index global_size() const { return get().global_size; }
  /// A hash of the global shape, partition, axis, local extents and mask, the same on every
  /// rank: layouts passed on different ranks are compared through it (collective_check.hpp).
  std::uint64_t fingerprint() const { return get().fingerprint; }

  /// Same global shape and communicator with PyLops-MPI's default split along `axis`, keeping
  /// partition and mask. Collective.
  Layout with_axis(int axis) const;
  /// Same global shape, axis, communicator and mask with another partition. Collective.
  Layout with_partition(Partition partition) const;

  /// Same communicator group, global shape, partition, axis, local shapes and mask.
  bool operator==(const Layout& other) const;
  /// Not operator==.
  bool operator!=(const Layout& other) const { return !(*this == other); }

  /// "shape (10, 4), SCATTER along axis 0, local extents [4, 3, 3]": for error messages.
  std::string describe() const;

 private:
  struct Data {
    Communicator comm;
    Communicator sub_comm;
    Shape global_shape;
    Partition partition = Partition::SCATTER;
    int axis = 0;
    std::vector<Index> extents;
    std::vector<Index> offsets;
    std::vector<int> mask;
    Index global_size = 0;
    Index slab_size = 0;  // product of the extents of the axes other than the distribution axis
    std::uint64_t fingerprint = 0;
  };
  const Data& get() const;
  std::shared_ptr<const Data> data_;
};

/// Whether data of layout `a` may be seen with layout `b` without copy: same global size,
/// partition (or both replicated), mask, communicator group and local sizes, and either the same
/// elements in the same order on every rank (split alike, or both in global order) or one side
/// flat (1-d: each rank's block in its local C order, PyLops-MPI's flattened arrays).
bool views_alike(const Layout& a, const Layout& b);

/// PyLops-MPI's default split of n items over `parts` ranks: n / parts + 1 to the first
/// n % parts ranks, n / parts to the others.
std::vector<Index> default_split(Index n, int parts);

}  // namespace distlops
