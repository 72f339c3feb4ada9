// SPDX-License-Identifier: BSD-3-Clause
// Copyright (c) 2026 The distlops authors
#pragma once
/// \file convolvend.hpp
/// `ConvolveND` and `Convolve2D`: convolution of an N-d array (C order) with a compact N-d
/// filter along some of its axes, PyLops' `ConvolveND(dims, h, offset, axes)` and
/// `Convolve2D(dims, h, offset, axes)` with method "direct", on one rank's array
/// (`local::ConvolveND`, `local::Convolve2D`) or on a DistributedArray of any layout. Filter
/// axis i acts along array axis axes[i]; with o the offsets (the filter's centre, one per filter
/// axis), the forward is
///     y[p] = sum_k h[k] x[p + o - k]      (on the convolved axes; p unchanged elsewhere),
/// with x zero outside the array, and the data have the model's shape (NumPy's mode "same").
/// The adjoint is the correlation with conj(h):
///     x[q] = sum_k conj(h[k]) y[q - o + k].
///
/// Direct method: prod(filter shape) operations per output point. On the host each tap adds a
/// shifted input row to the output row, which stays in cache (vectorised along the last axis);
/// on the device one thread computes one output point.
///
/// Distributed: on every cut axis that the filter convolves, each rank first fetches the cells of
/// the other ranks that its filter reaches (one GhostExchange over the whole extended box, edges
/// and corners included, from any rank, so that blocks may be small or empty, on slabs, process
/// grids and explicit boxes alike): h[a] - 1 - o[a] planes before its block and o[a] after it
/// along axis a for the forward, the reverse for the adjoint. Both directions only gather, so
/// the adjoint is exact without sending sums back. The block is copied into the extended block
/// while the ghost cells travel, and the kernel convolves the extended block. Along axes that are
/// not cut, and on replicated layouts, nothing moves. The extended block is allocated at
/// construction: an apply allocates nothing.
///
/// Differences from PyLops: `axes` need not increase (PyLops reshapes h to the array's axes,
/// which transposes nothing, so a decreasing `axes` there mixes the filter's axes); every offset
/// must lie in [0, filter extent) (PyLops accepts others and pads h); only the direct method
/// (PyLops' default is "fft"; both give the same result). Errors: InvalidArgument for a filter
/// of the wrong size or with an empty axis, offsets or axes of the wrong number, an offset out
/// of range, an axis out of range or repeated, more than 8 axes, or a bad shape; the
/// distributed operator raises them on every rank alike (they depend on arguments every rank
/// holds), and InvalidArgument for an UNSAFE_BROADCAST layout.

#include <array>
#include <optional>
#include <span>
#include <vector>

#include "distlops/core/buffer.hpp"
#include "distlops/core/ghost_cells.hpp"
#include "distlops/core/instantiate.hpp"
#include "distlops/core/transport.hpp"
#include "distlops/operators/linear_operator.hpp"

namespace distlops {

namespace local {

/// Convolution of arrays of shape `dims` with the filter `filter` of shape `filter_shape` (C
/// order) along `axes` (one per filter axis, negative counting from the end; empty: the last
/// filter_shape.size() axes), centred at `offset` (one per filter axis; empty: zeros).
template <Scalar T, MemorySpace Space = Host>
LocalOperator<T, Space> ConvolveND(const Shape& dims, std::span<const T> filter,
                                   const Shape& filter_shape, const std::vector<Index>& offset = {},
                                   const std::vector<int>& axes = {});

/// ConvolveND with a 2-d filter (PyLops' Convolve2D: default axes (-2, -1), offset (0, 0)).
template <Scalar T, MemorySpace Space = Host>
LocalOperator<T, Space> Convolve2D(const Shape& dims, std::span<const T> filter,
                                   const Shape& filter_shape, std::array<Index, 2> offset = {0, 0},
                                   std::array<int, 2> axes = {-2, -1});

}  // namespace local

/// The operator object of the distributed ConvolveND and Convolve2D: domain and range are the
/// given layout; ghost cells come from the other ranks along the cut axes the filter convolves.
template <Scalar T, MemorySpace Space = Host>
class ConvolveNDOperator final : public LinearOperatorBase<DistributedArray<T, Space>> {
 public:
  /// The library's own code: nothing to agree on after an apply.
  bool runs_user_code() const override { return false; }
  /// The vector type of domain and range.
  using Array = DistributedArray<T, Space>;
  /// Collective over the layout's communicator (plans the ghost exchanges).
  ConvolveNDOperator(const Layout& layout, std::span<const T> filter, const Shape& filter_shape,
                     const std::vector<Index>& offset, const std::vector<int>& axes,
                     std::string name);

  /// y = h * x (convolution). Collective when a cut axis is convolved.
  void forward(const Array& x, Array& y) const override { forward_add(T(1), x, T(0), y); }
  /// x = correlation of y with conj(h). Collective when a cut axis is convolved.
  void adjoint(const Array& y, Array& x) const override { adjoint_add(T(1), y, T(0), x); }
  /// y = alpha (h * x) + beta y.
  void forward_add(T alpha, const Array& x, T beta, Array& y) const override;
  /// x = alpha corr(conj(h), y) + beta x.
  void adjoint_add(T alpha, const Array& y, T beta, Array& x) const override;

 private:
  struct Direction {
    std::optional<GhostExchange> exchange;  // when a cut axis is convolved
    Shape extended;                         // the block with its ghost cells
    Shape origin;                           // where the block starts in `extended`
    bool ghosts = false;                    // this rank receives ghost cells
    Index weights = 0;                      // where the direction's taps start in filters_
    bool adjoint = false;
  };
  void run(const Direction& direction, T alpha, const Array& in, T beta, Array& out) const;

  Direction forward_, adjoint_;
  Shape local_shape_;
  Shape block_corner_;                 // zeros: where the block starts in itself
  Buffer<T, Space> filters_;           // h then conj(h), on the array's axes
  std::vector<Index> taps_;            // per array axis
  std::vector<Index> offsets_;         // per array axis
  mutable Buffer<T, Space> extended_;  // the extended block of either direction
  KeptTransport<Space> transport_;
};

/// ConvolveND over the arrays of `layout` (arguments as local::ConvolveND). Collective.
template <Scalar T, MemorySpace Space = Host>
LinearOperator<T, Space> ConvolveND(const Layout& layout, std::span<const T> filter,
                                    const Shape& filter_shape,
                                    const std::vector<Index>& offset = {},
                                    const std::vector<int>& axes = {});

/// Convolve2D over the arrays of `layout` (arguments as local::Convolve2D). Collective.
template <Scalar T, MemorySpace Space = Host>
LinearOperator<T, Space> Convolve2D(const Layout& layout, std::span<const T> filter,
                                    const Shape& filter_shape, std::array<Index, 2> offset = {0, 0},
                                    std::array<int, 2> axes = {-2, -1});

/// \cond
#define DISTLOPS_DETAIL_CONVOLVEND(PREFIX, T, S)                                                 \
  PREFIX template LocalOperator<T, S> local::ConvolveND<T, S>(                                   \
      const Shape&, std::span<const T>, const Shape&, const std::vector<Index>&,                 \
      const std::vector<int>&);                                                                  \
  PREFIX template LocalOperator<T, S> local::Convolve2D<T, S>(                                   \
      const Shape&, std::span<const T>, const Shape&, std::array<Index, 2>, std::array<int, 2>); \
  PREFIX template LinearOperator<T, S> ConvolveND<T, S>(const Layout&, std::span<const T>,       \
                                                        const Shape&, const std::vector<Index>&, \
                                                        const std::vector<int>&);                \
  PREFIX template LinearOperator<T, S> Convolve2D<T, S>(                                         \
      const Layout&, std::span<const T>, const Shape&, std::array<Index, 2>, std::array<int, 2>);
DISTLOPS_FOR_EACH_SCALAR_AND_SPACE_ARG(DISTLOPS_DETAIL_CONVOLVEND, extern)
DISTLOPS_EXTERN_TEMPLATE_CLASS(ConvolveNDOperator)
/// \endcond

}  // namespace distlops
