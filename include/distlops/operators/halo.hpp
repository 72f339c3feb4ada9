// SPDX-License-Identifier: BSD-3-Clause
// Copyright (c) 2026 The distlops authors
#pragma once
/// \file halo.hpp
/// Halo: extends each rank's block of an N-d array, distributed over a Cartesian process grid,
/// with ghost cells from its neighbours (PyLops-MPI's MPIHalo). Local operators then act on
/// the extended blocks independently (typically inside a BlockDiag), as the serial operator
/// would on the whole array.
///
/// The process grid is a Layout's (layout.hpp, "Box layouts" in docs/architecture.md): rank r
/// sits at its row-major grid coordinates and owns its box of the layout. Halo(layout, widths)
/// takes the grid of a SCATTER layout, slabs and uneven parts (LayoutOptions::grid_extents)
/// included, and its model is that layout: a DistributedArray cut over the grid goes in, and
/// comes out of the adjoint, as it is. Halo(comm, dims, widths, grid) makes the grid's layout
/// with distlops' default split of dims[k] over grid[k] parts along every axis (PyLops-MPI uses
/// ceil-sized blocks; this keeps Halo consistent with DistributedArray along a one-dimensional
/// grid), and its model is the flattened array whose rank-r part is r's block (C order, block
/// shape `core_shape()`), which views the layout's arrays (`block_layout()`) without copy. The
/// data are the flattened extended blocks (`extended_shape()`).
///
/// Unlike PyLops-MPI, whose adjoint only drops the ghost cells, the adjoint here is exact:
/// ghost cells are sent back to their owners and added, so Halo passes the dot test and
/// compositions such as Crop * A_local * Halo have exact adjoints.
///
/// The slabs are packed and unpacked by the space's kernels and travel, one axis at a time, in
/// one batch of messages through the space's transport (transport.hpp: on the device one NCCL
/// group in stream order, or staged through host memory over MPI): only the slabs cross, not
/// the block. Empty slabs are never sent. Buffers are kept between applies. (GhostExchange, the
/// box layouts' ghost cells, only gathers, and clips at the array ends; Halo's adjoint sends the
/// ghost cells back to be added, and its untrimmed ghost cells outside the array hold zeros, so
/// it keeps its own exchange.)

#include <memory>
#include <vector>

#include "distlops/core/instantiate.hpp"
#include "distlops/core/transport.hpp"
#include "distlops/operators/linear_operator.hpp"

namespace distlops {

/// Ghost widths on the minus and plus side of every axis.
struct HaloWidths {
  /// Ghost cells before the block, one entry per axis.
  std::vector<Index> minus;
  /// Ghost cells after the block, one entry per axis.
  std::vector<Index> plus;
  /// No ghost cells at the ends of the global array (PyLops-MPI trims a scalar halo there);
  /// otherwise those ghost cells exist and hold zeros (PyLops-MPI's per-axis halos).
  bool trim_at_boundaries = true;

  /// The same width everywhere, trimmed at the array ends.
  static HaloWidths uniform(Index width, int ndim);
  /// One width per axis (both sides), kept at the array ends.
  static HaloWidths per_axis(const std::vector<Index>& widths);
  /// (minus_0, plus_0, minus_1, plus_1, ...), kept at the array ends.
  static HaloWidths per_side(const std::vector<Index>& widths);
};

/// A Cartesian arrangement of ranks: rank r has row-major coordinates in `shape`.
struct CartesianGrid {
  /// Number of ranks along each axis; their product is the communicator's size.
  Shape shape;
  /// The row-major coordinates of `rank` in the grid.
  std::vector<Index> coordinates(int rank) const;
  /// The rank at `coordinates`, or -1 outside the grid.
  int rank_at(const std::vector<Index>& coordinates) const;
};

/// The operator object of Halo(): model the ranks' blocks of a dims-shaped array (flattened, rank
/// r's part its block), data the blocks extended with their ghost cells. Use Halo() to build it.
template <Scalar T, MemorySpace Space = Host>
class HaloOperator final : public LinearOperatorBase<DistributedArray<T, Space>> {
 public:
  /// The library's own code: nothing to agree on after an apply.
  bool runs_user_code() const override { return false; }
  /// The vector type of domain and range.
  using Array = DistributedArray<T, Space>;
  /// Collective over `comm`. `grid` has one entry per axis and product comm.size(); empty:
  /// every rank along the last axis.
  HaloOperator(const Communicator& comm, Shape dims, HaloWidths widths, Shape grid = {});
  /// Collective over the layout's communicator: the blocks of `layout`, a SCATTER layout with a
  /// process grid (a slab, a grid, uneven parts and empty ones included), which is the domain.
  /// InvalidArgument on every rank for a replicated layout, boxes that form no grid, widths
  /// that differ between ranks, or a ghost width larger than the neighbour's block.
  HaloOperator(const Layout& layout, HaloWidths widths);

  /// y = each rank's block with its neighbours' ghost cells (zeros where a kept ghost cell lies
  /// outside the array). Collective: one batch of slab messages per axis.
  void forward(const Array& x, Array& y) const override;
  /// x = each rank's block of y plus the ghost cells its neighbours hold of it (exact adjoint).
  /// Collective.
  void adjoint(const Array& y, Array& x) const override;

  /// The global array's shape (dims).
  const Shape& global_shape() const { return dims_; }
  /// The process grid.
  const CartesianGrid& grid() const { return grid_; }
  /// The N-d layout of the blocks over the grid (the domain of Halo(layout, widths)).
  const Layout& block_layout() const { return block_layout_; }
  /// Where this rank's block starts in the global array.
  const Shape& core_start() const { return core_start_; }
  /// This rank's block shape.
  const Shape& core_shape() const { return core_shape_; }
  /// This rank's extended block: its block with the ghost cells.
  const Shape& extended_shape() const { return extended_shape_; }
  /// Where the block sits in the extended block: the minus widths.
  const Shape& core_offset() const { return minus_; }

 private:
  HaloOperator(const Layout& layout, const HaloWidths& widths, bool box_domain);
  void exchange(T* extended, bool accumulate) const;

  Layout block_layout_;
  Shape dims_;
  CartesianGrid grid_;
  Shape core_start_, core_shape_, extended_shape_;
  Shape minus_, plus_;                                 // this rank's ghost widths per axis
  std::vector<int> minus_neighbour_, plus_neighbour_;  // -1 at the array ends
  std::vector<Index> neighbour_minus_width_;  // ghost width of the plus neighbour's minus side
  std::vector<Index> neighbour_plus_width_;   // ghost width of the minus neighbour's plus side
  mutable Buffer<T, Space> workspace_;        // extended block (adjoint) and message slabs
  mutable Buffer<T, Space> send_minus_, send_plus_, receive_minus_, receive_plus_;
  // Carries the slabs between neighbours (made on first use).
  KeptTransport<Space> transport_;
};

/// The handle Halo() returns: a LinearOperator (it converts to one, and composes like one)
/// that also tells this rank's block geometry, PyLops-MPI's MPIHalo attributes, without a
/// downcast. Local operators that act on the extended blocks are built from local_extent().
template <Scalar T, MemorySpace Space = Host>
class HaloLinearOperator : public LinearOperator<T, Space> {
 public:
  /// Wraps a halo operator object (Halo() builds it).
  explicit HaloLinearOperator(std::shared_ptr<const HaloOperator<T, Space>> halo)
      : LinearOperator<T, Space>(std::move(halo)) {}

  /// The operator object itself.
  const HaloOperator<T, Space>& halo() const {
    return static_cast<const HaloOperator<T, Space>&>(this->implementation());
  }
  /// This rank's extended block: its block with the ghost cells (PyLops-MPI's local_extent).
  const Shape& local_extent() const { return halo().extended_shape(); }
  /// The same as local_extent().
  const Shape& extended_shape() const { return halo().extended_shape(); }
  /// This rank's block without ghost cells (PyLops-MPI's local_dims).
  const Shape& local_dims() const { return halo().core_shape(); }
  /// The same as local_dims().
  const Shape& core_shape() const { return halo().core_shape(); }
  /// Where this rank's block starts in the global array.
  const Shape& core_start() const { return halo().core_start(); }
  /// Where this rank's block sits in the extended block (the minus widths).
  const Shape& core_offset() const { return halo().core_offset(); }
  /// The global array's shape (dims).
  const Shape& global_shape() const { return halo().global_shape(); }
  /// The process grid.
  const CartesianGrid& grid() const { return halo().grid(); }
  /// The N-d layout of the blocks over the grid.
  const Layout& block_layout() const { return halo().block_layout(); }
};

/// Halo of `width` ghost cells on every side (trimmed at the array ends).
template <Scalar T, MemorySpace Space = Host>
HaloLinearOperator<T, Space> Halo(const Communicator& comm, const Shape& dims, Index width,
                                  const Shape& grid = {}) {
  return HaloLinearOperator<T, Space>(std::make_shared<const HaloOperator<T, Space>>(
      comm, dims, HaloWidths::uniform(width, static_cast<int>(dims.size())), grid));
}
/// Halo with the widths of `widths` (per axis and side, trimmed at the array ends or not).
/// Collective over `comm`; `grid` as in HaloOperator's constructor.
template <Scalar T, MemorySpace Space = Host>
HaloLinearOperator<T, Space> Halo(const Communicator& comm, const Shape& dims,
                                  const HaloWidths& widths, const Shape& grid = {}) {
  return HaloLinearOperator<T, Space>(
      std::make_shared<const HaloOperator<T, Space>>(comm, dims, widths, grid));
}

/// Halo of `width` ghost cells on every side (trimmed at the array ends) of the blocks of
/// `layout`, a SCATTER layout with a process grid, which is the model's layout. Collective.
template <Scalar T, MemorySpace Space = Host>
HaloLinearOperator<T, Space> Halo(const Layout& layout, Index width) {
  return HaloLinearOperator<T, Space>(std::make_shared<const HaloOperator<T, Space>>(
      layout, HaloWidths::uniform(width, layout.ndim())));
}
/// Halo with the widths of `widths` of the blocks of `layout`. Collective.
template <Scalar T, MemorySpace Space = Host>
HaloLinearOperator<T, Space> Halo(const Layout& layout, const HaloWidths& widths) {
  return HaloLinearOperator<T, Space>(
      std::make_shared<const HaloOperator<T, Space>>(layout, widths));
}

DISTLOPS_EXTERN_TEMPLATE_CLASS(HaloOperator)

}  // namespace distlops
