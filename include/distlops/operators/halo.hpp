// SPDX-License-Identifier: BSD-3-Clause
// Copyright (c) 2026 The distlops authors
#pragma once
/// \file halo.hpp
/// Halo: extends each rank's block of an N-d array, distributed over a Cartesian process grid,
/// with ghost cells from its neighbours (PyLops-MPI's MPIHalo). Local operators then act on
/// the extended blocks independently (typically inside a BlockDiag), as the serial operator
/// would on the whole array.
///
/// The model is the flattened array whose rank-r part is r's block (C order, block shape
/// `core_shape()`); the data are the flattened extended blocks (`extended_shape()`). Blocks
/// follow the grid: along axis k, the coordinate c of a rank owns the c-th part of
/// distlops' default split of dims[k] over grid[k] ranks (PyLops-MPI uses ceil-sized blocks;
/// this keeps Halo consistent with DistributedArray along a one-dimensional grid).
///
/// Unlike PyLops-MPI, whose adjoint only drops the ghost cells, the adjoint here is exact:
/// ghost cells are sent back to their owners and added, so Halo passes the dot test and
/// compositions such as Crop * A_local * Halo have exact adjoints.
///
/// The slabs are packed and unpacked by the space's kernels and travel, one axis at a time, in
/// one batch of messages through the space's transport (transport.hpp: on the device one NCCL
/// group in stream order, or staged through host memory over MPI): only the slabs cross, not
/// the block. Empty slabs are never sent. Buffers are kept between applies.

#include <memory>
#include <vector>

#include "distlops/core/instantiate.hpp"
#include "distlops/core/transport.hpp"
#include "distlops/operators/linear_operator.hpp"

namespace distlops {

/// Ghost widths on the minus and plus side of every axis.
struct HaloWidths {
  std::vector<Index> minus;
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
  Shape shape;
  std::vector<Index> coordinates(int rank) const;
  /// The rank at `coordinates`, or -1 outside the grid.
  int rank_at(const std::vector<Index>& coordinates) const;
};

template <Scalar T, MemorySpace Space = Host>
class HaloOperator final : public LinearOperatorBase<DistributedArray<T, Space>> {
 public:
  using Array = DistributedArray<T, Space>;
  /// Collective over `comm`. `grid` has one entry per axis and product comm.size(); empty:
  /// every rank along the last axis.
  HaloOperator(const Communicator& comm, Shape dims, HaloWidths widths, Shape grid = {});

  void forward(const Array& x, Array& y) const override;
  void adjoint(const Array& y, Array& x) const override;

  const Shape& global_shape() const { return dims_; }
  const CartesianGrid& grid() const { return grid_; }
  /// This rank's block: its start in the global array and its shape.
  const Shape& core_start() const { return core_start_; }
  const Shape& core_shape() const { return core_shape_; }
  /// This rank's extended block and where the block sits in it (the minus widths).
  const Shape& extended_shape() const { return extended_shape_; }
  const Shape& core_offset() const { return minus_; }

 private:
  HaloOperator(const Communicator& comm, const Shape& dims, const HaloWidths& widths,
               const CartesianGrid& grid, int);
  void exchange(T* extended, bool accumulate) const;

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
  explicit HaloLinearOperator(std::shared_ptr<const HaloOperator<T, Space>> halo)
      : LinearOperator<T, Space>(std::move(halo)) {}

  /// The operator object itself.
  const HaloOperator<T, Space>& halo() const {
    return static_cast<const HaloOperator<T, Space>&>(this->implementation());
  }
  /// This rank's extended block: its block with the ghost cells (PyLops-MPI's local_extent).
  const Shape& local_extent() const { return halo().extended_shape(); }
  const Shape& extended_shape() const { return halo().extended_shape(); }
  /// This rank's block without ghost cells (PyLops-MPI's local_dims).
  const Shape& local_dims() const { return halo().core_shape(); }
  const Shape& core_shape() const { return halo().core_shape(); }
  /// Where this rank's block starts in the global array, and where it sits in the extended
  /// block (the minus widths).
  const Shape& core_start() const { return halo().core_start(); }
  const Shape& core_offset() const { return halo().core_offset(); }
  const Shape& global_shape() const { return halo().global_shape(); }
  const CartesianGrid& grid() const { return halo().grid(); }
};

/// Halo of `width` ghost cells on every side (trimmed at the array ends).
template <Scalar T, MemorySpace Space = Host>
HaloLinearOperator<T, Space> Halo(const Communicator& comm, const Shape& dims, Index width,
                                  const Shape& grid = {}) {
  return HaloLinearOperator<T, Space>(std::make_shared<const HaloOperator<T, Space>>(
      comm, dims, HaloWidths::uniform(width, static_cast<int>(dims.size())), grid));
}
template <Scalar T, MemorySpace Space = Host>
HaloLinearOperator<T, Space> Halo(const Communicator& comm, const Shape& dims,
                                  const HaloWidths& widths, const Shape& grid = {}) {
  return HaloLinearOperator<T, Space>(
      std::make_shared<const HaloOperator<T, Space>>(comm, dims, widths, grid));
}

DISTLOPS_EXTERN_TEMPLATE_CLASS(HaloOperator)

}  // namespace distlops
