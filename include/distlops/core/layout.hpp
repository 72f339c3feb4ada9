// SPDX-License-Identifier: BSD-3-Clause
// Copyright (c) 2026 The distlops authors
#pragma once
/// \file layout.hpp
/// `Layout`: how an N-d global array is spread over the ranks of a communicator: its global
/// shape, partition, the cut (one axis: a slab; several axes over a process grid, or explicit
/// per-rank boxes: a box layout), every rank's box and the optional mask.
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

/// A box of an N-d array: the half-open range [lower[k], upper[k]) along every axis k
/// (nvmath-python's Box: lower and upper corners). Empty when upper[k] == lower[k] on some axis.
struct ArrayBox {
  Shape lower;  ///< The first index along every axis.
  Shape upper;  ///< One past the last index along every axis.
  /// upper - lower, axis by axis.
  Shape extent() const;
  /// Number of elements (0 for an empty box).
  Index size() const;
  /// Same corners.
  bool operator==(const ArrayBox& other) const = default;
};

/// Optional settings of a Layout. `local_shapes`, `grid` (with `grid_extents`) and `boxes`
/// are three ways of saying how a SCATTER array is cut; give at most one of them.
struct LayoutOptions {
  /// SCATTER (a block per rank, the default), BROADCAST or UNSAFE_BROADCAST (replicated).
  Partition partition = Partition::SCATTER;
  /// Distribution axis of a slab; negative values count from the end as in NumPy.
  int axis = 0;
  /// Every rank's local shape (one entry per rank) of a slab along `axis`. Empty: PyLops-MPI's
  /// default split, which gives n / P + 1 items to ranks r < n % P and n / P to the others.
  std::vector<Shape> local_shapes = {};
  /// A colour per rank: ranks of the same colour form a sub-communicator that holds one
  /// replica of the data, and reductions (dot, norm) run inside it. Empty: no mask.
  std::vector<int> mask = {};
  /// A process grid (SCATTER only): per axis of the global shape, the number of parts the axis
  /// is cut into; the product is the communicator's rank count (a mask groups ranks for
  /// reductions and does not change the cut). Rank r sits at the row-major coordinates of r in
  /// the grid (the last axis fastest, MPI_Cart_create's order without reordering). Each axis
  /// is split with the default split, or as `grid_extents` says. A grid with at most one
  /// entry above 1 is a slab along that axis (along `axis` when every entry is 1).
  /// default_grid() gives a balanced one. Empty: a slab along `axis`.
  std::vector<int> grid = {};
  /// Per axis, the extents of the grid's parts (grid[k] entries summing to the global extent,
  /// as PETSc's DMDA lx, ly, lz). Empty: the default split on every axis. Given alone, the
  /// grid is their sizes.
  std::vector<std::vector<Index>> grid_extents = {};
  /// Every rank's box (one entry per rank, SCATTER only): the boxes must tile the global
  /// array, no overlap and no gap; empty boxes are ranks that own nothing. Boxes that form a
  /// grid in rank order become that grid (a slab when one axis is cut).
  std::vector<ArrayBox> boxes = {};
};

/// How an N-d global array (row-major) is spread over the ranks of a communicator: global shape,
/// partition, the cut, every rank's box, and the optional mask. A cheap-to-copy handle to
/// immutable data; building one is collective, and afterwards every rank knows every rank's box,
/// so comparisons and queries need no communication.
///
/// Three kinds of SCATTER layouts share one description, every rank's box:
/// - a slab (PyLops-MPI's layouts): one distribution axis, cut in rank order; axis(),
///   local_extent() and offset() describe the cut;
/// - a grid: several axes cut over a process grid (grid(), grid_offsets(), grid_coordinates());
/// - explicit boxes that form no grid (box() only).
/// Slabs are the grids with at most one entry above 1. Replicated layouts count as slabs along
/// their axis. The slab queries raise InvalidArgument on the other two kinds (is_slab()).
class Layout {
 public:
  /// An empty layout (no communicator); only assignable.
  Layout() = default;
  /// Collective over `comm`: validates the arguments and agrees on them (one small allreduce,
  /// plus a communicator split when a mask is given). Bad or inconsistent input raises the
  /// same exception on every rank.
  Layout(const Communicator& comm, Shape global_shape, Partition partition = Partition::SCATTER,
         int axis = 0);
  /// As Layout(comm, global_shape, partition, axis), with custom local shapes, a grid or
  /// boxes, and a mask from `options`. Collective; InvalidArgument on every rank when the local
  /// shapes, the grid or the boxes do not tile the global shape (a grid whose product is not
  /// the rank count, boxes that overlap or leave a gap), when they differ between ranks, or
  /// when the mask has not one non-negative colour per rank.
  Layout(const Communicator& comm, Shape global_shape, const LayoutOptions& options);

  /// Collective: builds the layout from each rank's own local shape; the global extent along
  /// `axis` is their sum (SCATTER) or the common shape (BROADCAST).
  static Layout from_local_shape(const Communicator& comm, const Shape& local_shape,
                                 Partition partition = Partition::SCATTER, int axis = 0,
                                 std::vector<int> mask = {});
  /// Collective: builds a SCATTER layout of `global_shape` from each rank's own box
  /// (nvmath-python's way); the boxes are gathered and validated as LayoutOptions::boxes.
  static Layout from_local_box(const Communicator& comm, const Shape& global_shape,
                               const ArrayBox& local_box, std::vector<int> mask = {});

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
  /// The colour of every rank; empty without a mask.
  const std::vector<int>& mask() const { return get().mask; }
  /// True when the layout has a mask.
  bool masked() const { return !get().mask.empty(); }

  // ---- every kind of layout ---------------------------------------------------------------------
  /// True for slabs (at most one axis cut, in rank order) and replicated layouts: those that
  /// axis(), local_extents() and offsets() describe.
  bool is_slab() const { return get().axis >= 0; }
  /// The box of `rank` in global coordinates (the whole array for replicated layouts).
  ArrayBox box(int rank) const;
  /// This rank's box.
  ArrayBox box() const { return box(rank()); }
  /// Lower corner of `rank`'s box along `axis`, without building a Box.
  Index box_lower(int rank, int axis) const;
  /// Upper corner (exclusive) of `rank`'s box along `axis`.
  Index box_upper(int rank, int axis) const;
  /// The axes along which the array is cut: those of some box that does not span the whole
  /// extent, or the grid's entries above 1 (one for a slab of several ranks; none when
  /// replicated or on one rank).
  std::vector<int> cut_axes() const;

  /// The shape of `rank`'s local block: its box's extent (the global shape for replicated
  /// layouts).
  Shape local_shape(int rank) const;
  /// The shape of this rank's local block.
  Shape local_shape() const { return local_shape(rank()); }
  /// Every rank's local shape, in rank order.
  std::vector<Shape> local_shapes() const;
  /// Number of elements of `rank`'s local block.
  Index local_size(int rank) const { return get().sizes[static_cast<std::size_t>(rank)]; }
  /// Number of elements of this rank's local block.
  Index local_size() const { return local_size(rank()); }
  /// Number of elements of the whole array.
  Index global_size() const { return get().global_size; }
  /// A hash of the global shape, partition, cut (a slab's axis and local extents, a grid and
  /// its parts, or the boxes) and mask, the same on every rank: layouts passed on different
  /// ranks are compared through it (collective_check.hpp).
  std::uint64_t fingerprint() const { return get().fingerprint; }

  // ---- grids (slabs included) -------------------------------------------------------------------
  /// True when the boxes form a process grid: slabs, replicated layouts (a grid of ones) and
  /// grid layouts; false for explicit boxes that form none.
  bool has_grid() const { return !get().grid.empty(); }
  /// Per axis, the number of parts (the product is size()); InvalidArgument without a grid.
  std::span<const int> grid() const;
  /// Where the parts along `axis` start: grid()[axis] + 1 entries, the last the global extent.
  std::span<const Index> grid_offsets(int axis) const;
  /// `rank`'s coordinates in the grid (row-major: the last axis varies fastest).
  std::vector<int> grid_coordinates(int rank) const;
  /// The rank at `coordinates` in the grid.
  int grid_rank(std::span<const int> coordinates) const;

  // ---- slabs ------------------------------------------------------------------------------------
  /// The distribution axis, in [0, ndim()) (normalised from a negative one). Slabs and
  /// replicated layouts only: InvalidArgument for a layout cut along several axes or in
  /// explicit boxes, which have none.
  int axis() const;
  /// Extent along the distribution axis of every rank's local block (slabs only, as axis()).
  std::span<const Index> local_extents() const;
  /// Extent along the distribution axis of `rank`'s local block (0 when it owns nothing).
  Index local_extent(int rank) const { return local_extents()[static_cast<std::size_t>(rank)]; }
  /// Where rank's block starts along the distribution axis (0 for replicated layouts); the
  /// span has size() + 1 entries, the last being the global extent (slabs only, as axis()).
  std::span<const Index> offsets() const;
  /// Where `rank`'s block starts along the distribution axis.
  Index offset(int rank) const { return offsets()[static_cast<std::size_t>(rank)]; }

  // ---- derived layouts --------------------------------------------------------------------------
  /// Same global shape and communicator with PyLops-MPI's default split along `axis`, keeping
  /// partition and mask. Collective.
  Layout with_axis(int axis) const;
  /// Same global shape, cut, communicator and mask with another partition (from a replicated
  /// layout to SCATTER: a slab along its axis; from a box layout to a replicated one: axis 0).
  /// Collective.
  Layout with_partition(Partition partition) const;
  /// A SCATTER layout of the same global shape, communicator and mask over `grid` with the
  /// default split on every axis. Collective.
  Layout with_grid(std::vector<int> grid) const;

  /// Same communicator group, global shape, partition, cut and mask.
  bool operator==(const Layout& other) const;
  /// Not operator==.
  bool operator!=(const Layout& other) const { return !(*this == other); }

  /// "shape (10, 4), SCATTER along axis 0, local extents [4, 3, 3]" or "shape (8, 6), SCATTER
  /// over grid (2, 2), parts [4, 4] x [3, 3]": for error messages.
  std::string describe() const;

 private:
  struct Data {
    Communicator comm;
    Communicator sub_comm;
    Shape global_shape;
    Partition partition = Partition::SCATTER;
    int axis = 0;                          // slabs and replicated layouts; -1 otherwise
    std::vector<int> grid;                 // per axis; empty for explicit boxes
    std::vector<std::vector<Index>> cuts;  // per axis, grid[k] + 1 offsets (grid layouts)
    std::vector<Index> corners;            // explicit boxes: per rank, lower then upper corner
    std::vector<Index> extents;            // slabs: along the axis, per rank
    std::vector<Index> offsets;            // slabs: size + 1 entries
    std::vector<Index> sizes;              // every rank's local size
    std::vector<int> mask;
    Index global_size = 0;
    std::uint64_t fingerprint = 0;
  };
  static void set_grid(Data& data, std::vector<int> grid, std::vector<std::vector<Index>> cuts,
                       int axis);
  static void finish(Data& data);
  const Data& get() const;
  const Data& slab(const char* query) const;
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

/// A balanced process grid for `ranks` ranks over an array of `shape`, in the spirit of
/// MPI_Dims_create: the prime factors of `ranks`, largest first, each cut the axis (among
/// `axes`, negative ones counting from the end; empty: every axis) whose parts are then the
/// longest, preferring axes still longer than their number of parts (so that ranks own data
/// where the array allows), and the earlier axis on ties (C order keeps long rows whole).
/// Not collective. InvalidArgument for ranks < 1, an empty shape or axes out of range or
/// repeated.
std::vector<int> default_grid(const Shape& shape, int ranks, std::span<const int> axes = {});

}  // namespace distlops
