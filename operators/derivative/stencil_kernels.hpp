// SPDX-License-Identifier: BSD-3-Clause
// Copyright (c) 2026 The distlops authors
#pragma once
// The kernels of StencilOperator, shared by every layout (local arrays, slabs, grids, boxes).
// Host: the local block cut into boxes of constant stencils (stencil_walk(), planned once), each
// box a call of the row form or of kernels::combine per line (operators/host/stencil_kernels.cpp
// and stencil_walk_kernels.cpp). Cuda (operators/cuda/stencil_kernels.cu; built with the CUDA
// backend only): the whole local block in one launch, each thread evaluating its output point's
// stencils with stencil::at. Both read the neighbours across the block's faces, along every cut
// axis, from the face blocks of a GhostExchange (GhostRegion::faces).
#include <concepts>
#include <cstddef>
#include <limits>
#include <vector>

#include "distlops/core/detail/instruction_set.hpp"
#include "distlops/core/detail/streaming_stores.hpp"
#include "distlops/core/memory_space.hpp"
#include "distlops/core/types.hpp"
#include "distlops/operators/derivative/stencil.hpp"

namespace distlops::kernels {

inline constexpr int max_stencil_dimensions = 16;
inline constexpr int max_stencil_terms = 16;

/// The geometry and the terms, passed by value to the kernel.
template <class R>
struct StencilPoints {
  int ndim = 0;
  int count = 0;                               // terms
  Index extent[max_stencil_dimensions] = {};   // of the local block
  Index strides[max_stencil_dimensions] = {};  // of the local block
  // Global index of the block's plane 0 along each axis.
  Index block_start[max_stencil_dimensions] = {};
  // Ghost planes before and after the block along each axis (0 along axes that are not cut):
  // C-order face blocks of the local shape with that axis's extent replaced by the width, at
  // these element offsets of the ghost buffer (GhostExchange::face_offset).
  Index front_width[max_stencil_dimensions] = {};
  Index back_width[max_stencil_dimensions] = {};
  Index front_offset[max_stencil_dimensions] = {};
  Index back_offset[max_stencil_dimensions] = {};
  int axis[max_stencil_terms] = {};
  Index length[max_stencil_terms] = {};  // global length along the term's axis
  stencil::Spec<R> spec[max_stencil_terms] = {};
};

/// The host's plan of one direction (forward or adjoint) of a stencil: the local block cut into
/// boxes in which every term has one stencil (the interior, or one boundary row), the taps of
/// all terms merged per box, the boxes that read no ghost cell first. Where a term reads other
/// planes (an axis before the last two) and those planes do not fit `tile_bytes`, the interior
/// rows of the second-to-last axis are cut into tiles, one box each, so that a row read for one
/// plane is still in the cache when the next planes read it (stencil_tile_rows()); the planes
/// are then cut into chunks and walked tile by tile, in each chunk the lines' interior before
/// the single points at their ends, which so find their rows in the cache.
struct StencilWalk {
  struct Tap {
    int axis;  // -1: the point itself, whatever the term's axis
    Index offset;
    double weight;
  };
  struct Segment {
    Index start;
    Index count;
    bool interior;  // every term along this axis uses its interior stencil, all sources local
  };
  struct Box {
    std::vector<std::size_t> segment;  // one segment index per axis
    std::vector<Tap> taps;
    bool needs_ghosts = false;
  };
  bool adjoint = false;
  std::vector<std::vector<Segment>> segments;  // per axis
  std::vector<Box> boxes;
};
/// The bytes of its input and output planes a tile of the host's walk keeps in the cache: half
/// of 512 KiB, the smallest per-core L2 cache of today's server cores (AMD Zen 2 and 3; Zen 4,
/// Intel's since Skylake-SP and Arm's Neoverse have 1 to 2 MiB), the other half left to CG's
/// other streams and the prefetchers. The L1 (32 to 48 KiB) holds too few rows of a plane.
inline constexpr std::size_t stencil_tile_bytes = std::size_t(256) << 10;
/// The rows of the second-to-last axis in one tile of the walk of `points` (elements of
/// `element_bytes`), or 0 for no tiles: tiles where some term reads other planes, rows enough
/// that the 2 reach + 1 input planes a tile row is read from and its output plane fit
/// `tile_bytes`, and not fewer than 4 (a tile re-reads the rows beside it).
Index stencil_tile_rows(const StencilPoints<double>& points, bool adjoint,
                        std::size_t element_bytes, std::size_t tile_bytes = stencil_tile_bytes);
/// Plans the walk of the block `points` describes (weights in double, as the host applies them)
/// for elements of `element_bytes`, in tiles of stencil_tile_rows(points, adjoint, element_bytes,
/// tile_bytes) rows.
StencilWalk stencil_walk(Host, const StencilPoints<double>& points, bool adjoint,
                         std::size_t element_bytes, std::size_t tile_bytes = stencil_tile_bytes);
/// The Cuda kernel needs no walk.
inline StencilWalk stencil_walk(Cuda, const StencilPoints<double>&, bool adjoint, std::size_t,
                                std::size_t = stencil_tile_bytes) {
  StencilWalk walk;
  walk.adjoint = adjoint;
  return walk;
}

/// Which part of the block an apply computes: split around the ghost exchange, `inner` while
/// the ghost cells travel and `edges` after they arrived. Host: the boxes that read no ghost
/// cell, then the others. Cuda: nothing, then the whole block (one launch).
enum class StencilPart { inner, edges, all };

/// Where a fused forward (alpha 1, beta 0) adds Re and Im of in^H out over the block (memory of
/// the space; im may be null; no fusion when re is null), and its scratch of
/// stencil_vdot_scratch() doubles. The part `inner` or `all` starts the sum, `edges` or `all`
/// adds it to *re and *im.
struct StencilVdot {
  double* re = nullptr;
  double* im = nullptr;
  double* scratch = nullptr;
};

/// out = alpha * sum_t D_t in + beta * out (out not read when beta == 0) over `part` of the
/// block, with the adjoint stencils (columns) when the walk is the adjoint's; the ghost cells
/// from `ghosts`. On the host an output of beta == 0 larger than the cache is written with
/// streaming stores (kernels::stores_for_output), except in a fused apply (CG's q = A c, read
/// back at once: measured slower).
template <Scalar T>
void stencil_apply(Host, const StencilWalk& walk, const StencilPoints<real_type_t<T>>& points,
                   StencilPart part, T alpha, const T* in, const T* ghosts, T beta, T* out,
                   StencilVdot vdot);
/// Doubles of scratch a fused host apply needs.
inline Index stencil_vdot_scratch(Host, Index) {
  return 2;
}
/// The most points of a block a fused apply takes.
inline Index fused_stencil_points_limit(Host) {
  return std::numeric_limits<Index>::max();
}

/// The row form of a stencil on the host: y[i] = (sum_{o=-reach}^{reach} row_weights[o + reach] *
/// row[i + o] + sum_k coefficients[k] * sources[k][i]) + beta * y[i] for i < n, summed in that
/// order, y not read when beta == 0. The 2 reach + 1 taps along the row share one input row,
/// loaded once per vector and shifted in registers (row[i + o] must be valid for every i < n and
/// |o| <= reach); the sources are whole rows of the other axes. Only the shapes of
/// stencil_row_supported() (reach 1 or 2 with 0, 2 or 4 sources: the 2-d and 3-d stencils);
/// others throw InvalidArgument. Real types: complex stencils go through kernels::combine.
/// Stores::streaming writes y around the cache where beta == 0 (the caller fences,
/// streaming_fence()); y's values are the same either way.
bool stencil_row_supported(int reach, int count);
/// The same with the kernel compiled for `level` (tests; InvalidArgument where the processor
/// lacks it); the form above runs the best level of the processor.
template <std::floating_point T>
void stencil_row(Host, InstructionSet level, Index n, int reach, const T* row_weights, const T* row,
                 int count, const T* coefficients, const T* const* sources, T beta, T* y,
                 Stores stores = Stores::cached);
template <std::floating_point T>
void stencil_row(Host, Index n, int reach, const T* row_weights, const T* row, int count,
                 const T* coefficients, const T* const* sources, T beta, T* y,
                 Stores stores = Stores::cached);

/// stencil_row with beta = 0 that also returns sum_i row[i] * y[i] over the points it wrote:
/// this row's part of x^H (A x) for StencilOperator::forward_vdot. Each input value is already
/// in a register when its output is formed, so the sum costs no memory traffic. It stores
/// through the cache: its caller, CG, reads y back at once.
template <std::floating_point T>
T stencil_row_vdot(Host, InstructionSet level, Index n, int reach, const T* row_weights,
                   const T* row, int count, const T* coefficients, const T* const* sources, T* y);
template <std::floating_point T>
T stencil_row_vdot(Host, Index n, int reach, const T* row_weights, const T* row, int count,
                   const T* coefficients, const T* const* sources, T* y);

/// stencil_row over `lines` lines of one length at once: line k reads rows[k] and the `count`
/// sources sources[k * count] ... sources[k * count + count - 1] and writes ys[k]. The values
/// are those of `lines` calls of stencil_row, bit for bit; interleaving the lines keeps several
/// input rows streaming from memory at once (a 2-d or 3-d box passes its lines in batches).
template <std::floating_point T>
void stencil_rows(Host, InstructionSet level, Index n, int lines, int reach, const T* row_weights,
                  const T* const* rows, int count, const T* coefficients, const T* const* sources,
                  T beta, T* const* ys, Stores stores = Stores::cached);
template <std::floating_point T>
void stencil_rows(Host, Index n, int lines, int reach, const T* row_weights, const T* const* rows,
                  int count, const T* coefficients, const T* const* sources, T beta, T* const* ys,
                  Stores stores = Stores::cached);
/// stencil_row_vdot over `lines` lines at once: partials[k] = sum_i rows[k][i] * ys[k][i], each
/// as stencil_row_vdot returns it for that line alone. The kernels start their vectors where y
/// is aligned: the values of y do not depend on its address, the order of this sum's terms does
/// (by the last bits; the same arrays give the same sums).
template <std::floating_point T>
void stencil_rows_vdot(Host, InstructionSet level, Index n, int lines, int reach,
                       const T* row_weights, const T* const* rows, int count, const T* coefficients,
                       const T* const* sources, T* const* ys, T* partials);
template <std::floating_point T>
void stencil_rows_vdot(Host, Index n, int lines, int reach, const T* row_weights,
                       const T* const* rows, int count, const T* coefficients,
                       const T* const* sources, T* const* ys, T* partials);

/// out = alpha * sum_t D_t in + beta * out (out not read when beta == 0) over the local block,
/// with the adjoint stencils (columns) when `adjoint`.
template <Scalar T>
void stencil(Cuda, const StencilPoints<real_type_t<T>>& points, bool adjoint, T alpha, const T* in,
             const T* ghosts, T beta, T* out);

/// The most points of a block stencil_vdot takes (its kernel indexes with 32 bits).
inline constexpr Index max_fused_stencil_points = 4294967295;
inline Index fused_stencil_points_limit(Cuda) {
  return max_fused_stencil_points;
}
/// Doubles of device scratch stencil_vdot needs for a block of n points (two per thread block).
Index stencil_vdot_scratch(Cuda, Index n);
/// out = sum_t D_t in (the forward) and *re += Re(in^H out), *im += Im(in^H out) (im may be
/// null; both device memory) in the same launch: each thread block sums its points' terms into
/// `scratch`, then one block adds those sums in a fixed order. At most
/// max_fused_stencil_points points.
template <Scalar T>
void stencil_vdot(Cuda, const StencilPoints<real_type_t<T>>& points, const T* in, const T* ghosts,
                  T* out, double* scratch, double* re, double* im);

/// The Cuda form of stencil_apply: the whole block in the part `edges` (or `all`).
template <Scalar T>
void stencil_apply(Cuda, const StencilWalk& walk, const StencilPoints<real_type_t<T>>& points,
                   StencilPart part, T alpha, const T* in, const T* ghosts, T beta, T* out,
                   StencilVdot vdot) {
  if (part == StencilPart::inner) return;
  if (vdot.re) {
    stencil_vdot(Cuda{}, points, in, ghosts, out, vdot.scratch, vdot.re, vdot.im);
  } else {
    stencil(Cuda{}, points, walk.adjoint, alpha, in, ghosts, beta, out);
  }
}

}  // namespace distlops::kernels
