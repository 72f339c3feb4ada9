// SPDX-License-Identifier: BSD-3-Clause
// Copyright (c) 2026 The distlops authors
// The host's walk of a stencil over its local block (stencil_kernels.hpp), whatever the layout:
// the block cut into boxes in which every term has one stencil, each box one row-form or
// kernels::combine call per line of its last axis, summing all terms at once; where a term reads
// other planes and a plane does not fit the cache, the interior is walked in tiles of rows, each
// through all its planes, so that a row is read from memory once (stencil_tile_rows). Taps that
// leave the block along a cut axis read the face block of that axis and side; the boxes that need
// none are computed while the ghost cells travel.
#include <algorithm>
#include <array>
#include <complex>
#include <cstdlib>
#include <map>
#include <utility>
#include <vector>

#include "../derivative/stencil_kernels.hpp"
#include "distlops/core/instantiate.hpp"
#include "distlops/core/kernels.hpp"

namespace distlops::kernels {

namespace {

// Most taps one output point combines: every term's points, none merged.
constexpr int max_taps = max_stencil_terms * stencil::max_points;

// The rows of one term along its axis of global length n (its columns for the adjoint): the
// rows within `width` of either end have their own stencils; those between share one,
// translated (stencil::edge_width).
struct AxisStencil {
  AxisStencil(const stencil::Spec<double>& term_spec, bool columns, Index n)
      : spec(term_spec), adjoint(columns), length(n), width(stencil::edge_width(columns)) {}

  bool has_interior() const { return length > 2 * width; }
  stencil::Stencil<double> at(Index g) const { return stencil::at(spec, adjoint, g, length); }
  stencil::Stencil<double> interior() const { return at(width); }

  stencil::Spec<double> spec;
  bool adjoint;
  Index length;
  Index width;
};

// Cuts every interior segment longer than `rows` into tiles of as even lengths as fit `rows`.
void cut_into_tiles(std::vector<StencilWalk::Segment>& segments, Index rows) {
  std::vector<StencilWalk::Segment> tiled;
  for (const StencilWalk::Segment& segment : segments) {
    if (!segment.interior || segment.count <= rows) {
      tiled.push_back(segment);
      continue;
    }
    const Index tiles = (segment.count + rows - 1) / rows;
    Index start = segment.start;
    for (Index k = 0; k < tiles; ++k) {
      const Index count = segment.count / tiles + (k < segment.count % tiles ? 1 : 0);
      tiled.push_back({start, count, true});
      start += count;
    }
  }
  segments = std::move(tiled);
}

}  // namespace

// A tile row is read as an input row by the planes within `reach` of its own along a term's
// axis a, from the first of those planes to the last: 2 reach + 1 input planes and the output
// plane pass through the cache meanwhile, each of the tile's rows times the extents of the axes
// between a and the tile's.
Index stencil_tile_rows(const StencilPoints<double>& points, bool adjoint,
                        std::size_t element_bytes, std::size_t tile_bytes) {
  const int ndim = points.ndim;
  if (ndim < 3) return 0;
  const int rows_axis = ndim - 2;
  Index rows_kept = 0;
  for (int t = 0; t < points.count; ++t) {
    const int a = points.axis[t];
    if (a >= rows_axis) continue;
    const AxisStencil rows(points.spec[t], adjoint, points.length[t]);
    Index reach = stencil::radius;
    if (rows.has_interior()) {
      const stencil::Stencil<double> inner = rows.interior();
      reach = 0;
      for (int s = 0; s < inner.count; ++s)
        reach = std::max<Index>(reach, std::abs(inner.offset[s]));
    }
    Index kept = 2 * reach + 2;
    for (int k = a + 1; k < rows_axis; ++k)
      kept *= std::max<Index>(points.extent[k], 1);
    rows_kept = std::max(rows_kept, kept);
  }
  const Index row_bytes = points.extent[ndim - 1] * static_cast<Index>(element_bytes);
  if (rows_kept == 0 || row_bytes == 0) return 0;
  const Index rows = static_cast<Index>(tile_bytes) / row_bytes / rows_kept;
  // Narrower tiles would re-read the rows beside them more often than they save a plane.
  return rows >= 4 ? rows : 0;
}

// Segments: along each axis, the interior rows (every term on the axis in its interior, every
// source in the block) form one segment, cut into tiles along the second-to-last axis; other rows
// are single. Boxes: every combination of one segment per axis, with the taps of all terms merged,
// in odometer order; with tiles, tile by tile through its chunks of planes.
StencilWalk stencil_walk(Host, const StencilPoints<double>& points, bool adjoint,
                         std::size_t element_bytes, std::size_t tile_bytes) {
  StencilWalk walk;
  walk.adjoint = adjoint;
  const int ndim = points.ndim;
  auto stencil_of = [&](int t) { return AxisStencil(points.spec[t], adjoint, points.length[t]); };
  walk.segments.resize(static_cast<std::size_t>(ndim));
  for (int k = 0; k < ndim; ++k) {
    const Index extent = points.extent[k];
    const Index shift = points.block_start[k];  // global index of local row 0
    Index first = 0, last = extent;             // candidate interior rows [first, last)
    bool has_terms = false;
    for (int t = 0; t < points.count; ++t) {
      if (points.axis[t] != k) continue;
      has_terms = true;
      const AxisStencil rows = stencil_of(t);
      first = std::max(first, rows.width - shift);
      last = std::min(last, rows.length - rows.width - shift);
      if (rows.has_interior()) {
        const stencil::Stencil<double> inner = rows.interior();
        for (int s = 0; s < inner.count; ++s) {
          first = std::max<Index>(first, -inner.offset[s]);
          last = std::min<Index>(last, extent - inner.offset[s]);
        }
      }
    }
    std::vector<StencilWalk::Segment>& segments = walk.segments[static_cast<std::size_t>(k)];
    if (!has_terms) {
      if (extent > 0) segments.push_back({0, extent, true});
      continue;
    }
    first = std::clamp<Index>(first, 0, extent);
    last = std::clamp<Index>(last, first, extent);
    for (Index p = 0; p < first; ++p)
      segments.push_back({p, 1, false});
    if (last > first) segments.push_back({first, last - first, true});
    for (Index p = last; p < extent; ++p)
      segments.push_back({p, 1, false});
  }

  // Blocks whose planes fit the budget keep the walk without tiles.
  const Index tile_rows = stencil_tile_rows(points, adjoint, element_bytes, tile_bytes);
  const auto rows_axis = static_cast<std::size_t>(ndim - 2);
  bool tiled = false;
  if (tile_rows > 0) {
    const std::size_t untiled = walk.segments[rows_axis].size();
    cut_into_tiles(walk.segments[rows_axis], tile_rows);
    tiled = walk.segments[rows_axis].size() > untiled;
  }
  if (tiled) {
    // The planes, in chunks of twice the tile's budget: the boxes of the single points at either
    // end of the lines, walked after a chunk's interior, find their rows still in the cache.
    const Index row_bytes = points.extent[ndim - 1] * static_cast<Index>(element_bytes);
    cut_into_tiles(
        walk.segments[rows_axis - 1],
        std::max<Index>(1, 2 * static_cast<Index>(tile_bytes) / (tile_rows * row_bytes)));
  }

  for (const auto& segments : walk.segments) {
    if (segments.empty()) return walk;  // this rank holds no data
  }
  std::vector<std::size_t> index(static_cast<std::size_t>(ndim), 0);
  while (true) {
    StencilWalk::Box box;
    box.segment = index;
    std::map<std::pair<int, Index>, double> merged;
    for (int t = 0; t < points.count; ++t) {
      const int axis = points.axis[t];
      const StencilWalk::Segment& segment = walk.segments[axis][index[axis]];
      const AxisStencil rows = stencil_of(t);
      const stencil::Stencil<double> taps =
          segment.interior ? rows.interior() : rows.at(segment.start + points.block_start[axis]);
      for (int s = 0; s < taps.count; ++s) {
        // Offset 0 is the same point whatever the axis.
        const Index offset = taps.offset[s];
        merged[{offset == 0 ? -1 : axis, offset}] += taps.weight[s];
        const Index source = segment.start + offset;
        if (!segment.interior && (source < 0 || source >= points.extent[axis]))
          box.needs_ghosts = true;
      }
    }
    for (const auto& [key, weight] : merged)
      box.taps.push_back({key.first, key.second, weight});
    walk.boxes.push_back(std::move(box));
    int k = ndim - 1;
    while (k >= 0 && ++index[k] == walk.segments[k].size())
      index[k--] = 0;
    if (k < 0) break;
  }
  if (tiled) {
    // Tile by tile, each through its chunks of planes; in a chunk the lines' interior first.
    auto order = [&](const StencilWalk::Box& box) {
      std::vector<std::size_t> key{box.segment[rows_axis]};
      for (std::size_t k = 0; k < rows_axis; ++k)
        key.push_back(box.segment[k]);
      const std::size_t last = box.segment.back();
      key.push_back(walk.segments.back()[last].interior ? 0 : 1 + last);
      return key;
    };
    std::stable_sort(
        walk.boxes.begin(), walk.boxes.end(),
        [&](const StencilWalk::Box& a, const StencilWalk::Box& b) { return order(a) < order(b); });
  }
  // Boxes that need ghost cells go last: the others are computed while the cells travel.
  std::stable_partition(walk.boxes.begin(), walk.boxes.end(),
                        [](const StencilWalk::Box& box) { return !box.needs_ghosts; });
  return walk;
}

namespace {

// One box of the walk: per line of its last axis, the row form where the taps allow (real
// types), kernels::combine otherwise. `partial` accumulates a fused apply's in^H out.
template <class T>
void walk_box(const StencilWalk& walk, const StencilWalk::Box& box,
              const StencilPoints<real_type_t<T>>& points, const T* in, const T* ghosts, T alpha,
              T beta, T* out, double* partial, Stores stores) {
  const int ndim = points.ndim;
  const int last_axis = ndim - 1;
  const StencilWalk::Segment& run = walk.segments[last_axis][box.segment[last_axis]];
  const int count = static_cast<int>(box.taps.size());

  // Per tap: a fixed element offset from the current point, or a plane of a face block.
  std::array<T, max_taps> coefficients;
  std::array<Index, max_taps> shift;
  std::array<const T*, max_taps> face;  // null: in the block
  std::array<Index, max_taps> face_plane;
  std::array<std::array<Index, max_stencil_dimensions>, max_taps> face_strides;
  for (int t = 0; t < count; ++t) {
    const StencilWalk::Tap& tap = box.taps[t];
    coefficients[t] = alpha * T(static_cast<real_type_t<T>>(tap.weight));
    face[t] = nullptr;
    shift[t] = tap.axis < 0 ? 0 : tap.offset * points.strides[tap.axis];
    if (!box.needs_ghosts || tap.axis < 0) continue;
    const int a = tap.axis;
    const StencilWalk::Segment& along = walk.segments[a][box.segment[a]];
    if (along.interior) continue;
    const Index source = along.start + tap.offset;  // the row, for single-row segments
    Index width = 0;
    if (source < 0) {
      face[t] = ghosts + points.front_offset[a];
      width = points.front_width[a];
      face_plane[t] = width + source;
    } else if (source >= points.extent[a]) {
      face[t] = ghosts + points.back_offset[a];
      width = points.back_width[a];
      face_plane[t] = source - points.extent[a];
    } else {
      continue;
    }
    // The face block: the local shape with axis a's extent replaced by the width.
    for (int k = 0; k < ndim; ++k) {
      face_strides[t][k] = k < a ? points.strides[k] / points.extent[a] * width : points.strides[k];
    }
  }
  // The row form (kernels::stencil_row): the taps along the last axis, the point's own included,
  // are the 2 reach + 1 neighbours in the point's input row; the others are whole rows.
  int reach = 0;
  std::array<T, 2 * stencil::radius + 1> row_weights{};
  std::array<int, max_taps> other_taps;
  int others = 0;
  if constexpr (!is_complex_v<T>) {
    int in_row = 0;
    for (int t = 0; t < count; ++t) {
      const StencilWalk::Tap& tap = box.taps[t];
      if (!face[t] && (tap.axis < 0 || tap.axis == last_axis)) {
        if (tap.offset < -stencil::radius || tap.offset > stencil::radius) {
          in_row = -1;  // not representable: combine
          break;
        }
        row_weights[tap.offset + stencil::radius] = coefficients[t];
        reach = std::max<int>(reach, static_cast<int>(std::abs(tap.offset)));
        ++in_row;
      } else {
        other_taps[others++] = t;
      }
    }
    // Every offset of [-reach, reach] present once (the taps are distinct).
    if (in_row != 2 * reach + 1 || !stencil_row_supported(reach, others)) reach = 0;
  }
  std::array<const T*, max_taps> sources;
  std::array<T, max_taps> other_coefficients;
  for (int j = 0; j < others; ++j)
    other_coefficients[j] = coefficients[other_taps[j]];
  // The row form takes the box's lines in batches (kernels::stencil_rows interleaves them).
  constexpr int batch = 8;
  std::array<const T*, batch> batch_rows;
  std::array<T*, batch> batch_outs;
  std::array<const T*, batch * max_taps> batch_sources;
  std::array<T, batch> batch_partials;
  int batched = 0;
  auto flush = [&] {
    if (batched == 0) return;
    if constexpr (!is_complex_v<T>) {  // complex types go through combine
      const T* weights = row_weights.data() + (stencil::radius - reach);
      if (partial) {
        stencil_rows_vdot(Host{}, run.count, batched, reach, weights, batch_rows.data(), others,
                          other_coefficients.data(), batch_sources.data(), batch_outs.data(),
                          batch_partials.data());
        // Added line by line, in the order of the lines, as one line at a time would.
        for (int k = 0; k < batched; ++k)
          partial[0] += static_cast<double>(batch_partials[k]);
      } else {
        stencil_rows(Host{}, run.count, batched, reach, weights, batch_rows.data(), others,
                     other_coefficients.data(), batch_sources.data(), beta, batch_outs.data(),
                     stores);
      }
    }
    batched = 0;
  };
  std::array<Index, max_stencil_dimensions> index;
  for (int k = 0; k < ndim; ++k)
    index[k] = walk.segments[k][box.segment[k]].start;
  while (true) {
    Index base = 0;
    for (int k = 0; k < ndim; ++k)
      base += index[k] * points.strides[k];
    for (int t = 0; t < count; ++t) {
      if (!face[t]) {
        sources[t] = in + base + shift[t];
        continue;
      }
      const int a = box.taps[t].axis;
      Index offset = face_plane[t] * face_strides[t][a];
      for (int k = 0; k < ndim; ++k) {
        if (k != a) offset += index[k] * face_strides[t][k];
      }
      sources[t] = face[t] + offset;
    }
    if (reach > 0) {
      batch_rows[batched] = in + base;
      batch_outs[batched] = out + base;
      for (int j = 0; j < others; ++j)
        batch_sources[batched * others + j] = sources[other_taps[j]];
      if (++batched == batch) flush();
    } else {
      // The vdot below reads the line back: it must stay in the cache.
      combine(Host{}, run.count, count, coefficients.data(), sources.data(), beta, out + base,
              partial ? Stores::cached : stores);
      if (partial) {
        // The line just written is still in cache: no second pass over memory.
        const T value = vdot(Host{}, run.count, in + base, out + base);
        partial[0] += static_cast<double>(std::real(value));
        partial[1] += static_cast<double>(std::imag(value));
      }
    }
    // Next line: odometer over every axis but the last.
    int k = last_axis - 1;
    for (; k >= 0; --k) {
      const StencilWalk::Segment& segment = walk.segments[k][box.segment[k]];
      if (++index[k] < segment.start + segment.count) break;
      index[k] = segment.start;
    }
    if (k < 0) break;
  }
  flush();
}

}  // namespace

template <Scalar T>
void stencil_apply(Host, const StencilWalk& walk, const StencilPoints<real_type_t<T>>& points,
                   StencilPart part, T alpha, const T* in, const T* ghosts, T beta, T* out,
                   StencilVdot vdot) {
  // An output larger than the cache is written around it: an ordinary store would read each
  // line of it first. With beta != 0 the kernel reads y anyway. The fused apply + vdot (CG's
  // q = A c) keeps ordinary stores: measured, streaming q made laplacian-cg 2048^2 slower per
  // iteration at 1 rank (docs/benchmarks.md), the next pass reading q right after.
  Index points_in_block = 1;
  for (int k = 0; k < points.ndim; ++k)
    points_in_block *= points.extent[k];
  const Stores stores =
      beta == T(0) && !vdot.re
          ? stores_for_output(sizeof(T) * static_cast<std::size_t>(points_in_block))
          : Stores::cached;
  double* partial = vdot.re ? vdot.scratch : nullptr;
  if (partial && part != StencilPart::edges) partial[0] = partial[1] = 0.0;
  for (const StencilWalk::Box& box : walk.boxes) {
    const bool wanted =
        part == StencilPart::all || (part == StencilPart::inner) == !box.needs_ghosts;
    if (wanted) walk_box(walk, box, points, in, ghosts, alpha, beta, out, partial, stores);
  }
  if (stores == Stores::streaming) streaming_fence();
  if (partial && part != StencilPart::inner) {
    *vdot.re += partial[0];
    if (vdot.im) *vdot.im += partial[1];
  }
}

#define DISTLOPS_INSTANTIATE_STENCIL_WALK(T)                                                     \
  template void stencil_apply<T>(Host, const StencilWalk&, const StencilPoints<real_type_t<T>>&, \
                                 StencilPart, T, const T*, const T*, T, T*, StencilVdot);
DISTLOPS_FOR_EACH_SCALAR(DISTLOPS_INSTANTIATE_STENCIL_WALK)
#undef DISTLOPS_INSTANTIATE_STENCIL_WALK

}  // namespace distlops::kernels
