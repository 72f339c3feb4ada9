// SPDX-License-Identifier: BSD-3-Clause
// Copyright (c) 2026 The distlops authors
#include "distlops/operators/halo.hpp"

#include <algorithm>
#include <array>

#include "box_kernels.hpp"
#include "distlops/core/collective_check.hpp"
#include "distlops/core/instantiate.hpp"
#include "distlops/core/kernels.hpp"
#include "distlops/core/log_view.hpp"

namespace distlops {

namespace {

constexpr int halo_tag_to_minus = 32021;
constexpr int halo_tag_to_plus = 32022;

}  // namespace

HaloWidths HaloWidths::uniform(Index width, int ndim) {
  return {std::vector<Index>(static_cast<std::size_t>(ndim), width),
          std::vector<Index>(static_cast<std::size_t>(ndim), width), true};
}

HaloWidths HaloWidths::per_axis(const std::vector<Index>& widths) {
  return {widths, widths, false};
}

HaloWidths HaloWidths::per_side(const std::vector<Index>& widths) {
  if (widths.size() % 2 != 0) {
    throw InvalidArgument("Halo: per-side widths come in (minus, plus) pairs, got " +
                          std::to_string(widths.size()) + " values");
  }
  HaloWidths result{{}, {}, false};
  for (std::size_t i = 0; i < widths.size(); i += 2) {
    result.minus.push_back(widths[i]);
    result.plus.push_back(widths[i + 1]);
  }
  return result;
}

std::vector<Index> CartesianGrid::coordinates(int rank) const {
  std::vector<Index> result(shape.size());
  Index remainder = rank;
  for (std::size_t k = shape.size(); k-- > 0;) {
    result[k] = remainder % shape[k];
    remainder /= shape[k];
  }
  return result;
}

int CartesianGrid::rank_at(const std::vector<Index>& coordinates) const {
  Index rank = 0;
  for (std::size_t k = 0; k < shape.size(); ++k) {
    if (coordinates[k] < 0 || coordinates[k] >= shape[k]) return -1;
    rank = rank * shape[k] + coordinates[k];
  }
  return static_cast<int>(rank);
}

namespace {

struct HaloGeometry {
  Shape core_start, core_shape, extended_shape, minus, plus;
};

// `rank`'s block in the grid of `layout` and its ghost widths (trimmed or not at the array ends).
HaloGeometry geometry(const Layout& layout, const HaloWidths& widths, int rank) {
  HaloGeometry g;
  const ArrayBox box = layout.box(rank);
  const std::vector<int> coordinates = layout.grid_coordinates(rank);
  const std::span<const int> grid = layout.grid();
  for (std::size_t k = 0; k < box.lower.size(); ++k) {
    const Index extent = box.upper[k] - box.lower[k];
    const bool first = coordinates[k] == 0;
    const bool last = coordinates[k] == grid[k] - 1;
    const Index minus = widths.trim_at_boundaries && first ? 0 : widths.minus[k];
    const Index plus = widths.trim_at_boundaries && last ? 0 : widths.plus[k];
    g.core_start.push_back(box.lower[k]);
    g.core_shape.push_back(extent);
    g.minus.push_back(minus);
    g.plus.push_back(plus);
    g.extended_shape.push_back(minus + extent + plus);
  }
  return g;
}

// The widths' own checks against the parts of every axis (parts[k][c]: the planes of grid
// coordinate c along axis k): one entry per axis, non-negative, and one-hop exchanges, in which
// a neighbour's block must hold the planes it sends.
void halo_check_widths(const HaloWidths& widths, const std::vector<std::vector<Index>>& parts) {
  const auto ndim = static_cast<int>(parts.size());
  if (static_cast<int>(widths.minus.size()) != ndim ||
      static_cast<int>(widths.plus.size()) != ndim) {
    throw InvalidArgument("Halo: widths for " + std::to_string(widths.minus.size()) +
                          " axes given for an array of " + std::to_string(ndim));
  }
  for (int k = 0; k < ndim; ++k) {
    if (widths.minus[k] < 0 || widths.plus[k] < 0) {
      throw InvalidArgument("Halo: ghost widths must be non-negative");
    }
    const std::vector<Index>& split = parts[static_cast<std::size_t>(k)];
    for (std::size_t c = 0; c + 1 < split.size(); ++c) {
      const bool minus_side = split[c] < widths.minus[k];
      if (minus_side || split[c + 1] < widths.plus[k]) {
        throw InvalidArgument("Halo: a ghost width of " +
                              std::to_string(minus_side ? widths.minus[k] : widths.plus[k]) +
                              " along axis " + std::to_string(k) + " exceeds the block of " +
                              std::to_string(minus_side ? split[c] : split[c + 1]) +
                              " plane(s) of grid coordinate " +
                              std::to_string(minus_side ? c : c + 1) +
                              "; use fewer ranks along this axis or a narrower halo");
      }
    }
  }
}

Fingerprint halo_widths_fingerprint(const HaloWidths& widths) {
  Fingerprint fingerprint;
  fingerprint.add(std::span<const Index>(widths.minus))
      .add(std::span<const Index>(widths.plus))
      .add(widths.trim_at_boundaries);
  return fingerprint;
}

// Validates the arguments on every rank alike and returns the layout of the blocks: the grid
// (every rank along the last axis when empty) with the default split on every axis.
Layout halo_block_layout(const Communicator& comm, const Shape& dims, const HaloWidths& widths,
                         Shape grid) {
  const int ndim = static_cast<int>(dims.size());
  if (grid.empty() && ndim > 0) {
    grid.assign(static_cast<std::size_t>(ndim), 1);
    grid.back() = comm.size();
  }
  Fingerprint fingerprint = halo_widths_fingerprint(widths);
  fingerprint.add(std::span<const Index>(dims)).add(std::span<const Index>(grid));
  collective_check(comm, fingerprint, "Halo: dims, grid or widths", [&] {
    if (ndim == 0) throw InvalidArgument("Halo: dims must have at least one axis");
    for (Index d : dims) {
      if (d < 0) throw InvalidArgument("Halo: negative extent in dims " + to_string(dims));
    }
    if (static_cast<int>(grid.size()) != ndim) {
      throw InvalidArgument("Halo: the process grid " + to_string(grid) + " must have " +
                            std::to_string(ndim) + " axes like dims " + to_string(dims));
    }
    for (Index g : grid) {
      if (g <= 0)
        throw InvalidArgument("Halo: the process grid " + to_string(grid) +
                              " has a non-positive extent");
    }
    if (element_count(grid) != comm.size()) {
      throw InvalidArgument("Halo: the process grid " + to_string(grid) + " holds " +
                            std::to_string(element_count(grid)) + " ranks, the communicator " +
                            std::to_string(comm.size()));
    }
    std::vector<std::vector<Index>> parts;
    for (int k = 0; k < ndim; ++k)
      parts.push_back(default_split(dims[k], static_cast<int>(grid[k])));
    halo_check_widths(widths, parts);
  });
  return Layout(comm, dims, LayoutOptions{.grid = std::vector<int>(grid.begin(), grid.end())});
}

// Validates `layout` (SCATTER, with a process grid) and the widths on every rank alike.
const Layout& halo_grid_layout(const Layout& layout, const HaloWidths& widths) {
  if (!layout.valid()) throw InvalidArgument("Halo: the layout is empty");
  // The layout and the widths are each rank's input: the same on every rank.
  Fingerprint fingerprint = halo_widths_fingerprint(widths);
  fingerprint.add(layout.fingerprint());
  collective_check(layout.communicator(), fingerprint, "Halo: layout or widths", [&] {
    if (layout.partition() != Partition::SCATTER) {
      throw InvalidArgument("Halo: needs a SCATTER layout with a process grid, got " +
                            layout.describe());
    }
    if (!layout.has_grid()) {
      throw InvalidArgument("Halo: the boxes of the layout (" + layout.describe() +
                            ") form no process grid, so blocks have no neighbours along an "
                            "axis; use a slab or a grid (LayoutOptions::grid, grid_extents)");
    }
    std::vector<std::vector<Index>> parts;
    for (int k = 0; k < layout.ndim(); ++k) {
      const std::span<const Index> cuts = layout.grid_offsets(k);
      std::vector<Index> extents;
      for (std::size_t c = 0; c + 1 < cuts.size(); ++c)
        extents.push_back(cuts[c + 1] - cuts[c]);
      parts.push_back(std::move(extents));
    }
    halo_check_widths(widths, parts);
  });
  return layout;
}

// The flat layout of every rank's extended block.
Layout halo_extended_layout(const Layout& layout, const HaloWidths& widths) {
  return Layout::from_local_shape(
      layout.communicator(),
      {element_count(geometry(layout, widths, layout.rank()).extended_shape)}, Partition::SCATTER,
      0, layout.mask());
}

}  // namespace

template <Scalar T, MemorySpace Space>
HaloOperator<T, Space>::HaloOperator(const Communicator& comm, Shape dims, HaloWidths widths,
                                     Shape grid)
    : HaloOperator(halo_block_layout(comm, dims, widths, grid), widths, false) {}

template <Scalar T, MemorySpace Space>
HaloOperator<T, Space>::HaloOperator(const Layout& layout, HaloWidths widths)
    : HaloOperator(halo_grid_layout(layout, widths), widths, true) {}

template <Scalar T, MemorySpace Space>
HaloOperator<T, Space>::HaloOperator(const Layout& layout, const HaloWidths& widths,
                                     bool box_domain)
    : LinearOperatorBase<Array>(
          box_domain ? layout
                     : Layout::from_local_shape(layout.communicator(), {layout.local_size()},
                                                Partition::SCATTER, 0, layout.mask()),
          halo_extended_layout(layout, widths), "Halo"),
      block_layout_(layout),
      dims_(layout.global_shape()) {
  const std::span<const int> grid = layout.grid();
  grid_.shape.assign(grid.begin(), grid.end());
  const HaloGeometry g = geometry(layout, widths, layout.rank());
  core_start_ = g.core_start;
  core_shape_ = g.core_shape;
  extended_shape_ = g.extended_shape;
  minus_ = g.minus;
  plus_ = g.plus;
  const std::vector<int> coordinates = layout.grid_coordinates(layout.rank());
  auto rank_at = [&](std::vector<int> at) {
    for (std::size_t k = 0; k < at.size(); ++k) {
      if (at[k] < 0 || at[k] >= grid[k]) return -1;
    }
    return layout.grid_rank(at);
  };
  for (std::size_t k = 0; k < dims_.size(); ++k) {
    std::vector<int> neighbour = coordinates;
    --neighbour[k];
    minus_neighbour_.push_back(rank_at(neighbour));
    neighbour[k] += 2;
    plus_neighbour_.push_back(rank_at(neighbour));
    // A neighbour is never at the array end on the side facing this rank: untrimmed widths.
    neighbour_plus_width_.push_back(minus_neighbour_.back() >= 0 ? widths.plus[k] : 0);
    neighbour_minus_width_.push_back(plus_neighbour_.back() >= 0 ? widths.minus[k] : 0);
  }
}

template <Scalar T, MemorySpace Space>
void HaloOperator<T, Space>::forward(const Array& x, Array& y) const {
  T* extended = y.data();
  kernels::fill(Space{}, element_count(extended_shape_), T(0), extended);
  kernels::copy_box(Space{}, sizeof(T), x.data(), {core_shape_, Shape(core_shape_.size(), 0)},
                    extended, {extended_shape_, minus_}, core_shape_);
  exchange(extended, false);
}

template <Scalar T, MemorySpace Space>
void HaloOperator<T, Space>::adjoint(const Array& y, Array& x) const {
  const Index size = element_count(extended_shape_);
  if (workspace_.size() < size) workspace_ = Buffer<T, Space>(size);
  T* extended = workspace_.data();
  memory::copy_bytes<Space, Space>(extended, y.data(), static_cast<std::size_t>(size) * sizeof(T));
  exchange(extended, true);
  kernels::copy_box(Space{}, sizeof(T), extended, {extended_shape_, minus_}, x.data(),
                    {core_shape_, Shape(core_shape_.size(), 0)}, core_shape_);
}

// Named rather than anonymous: the exchange's local types hold these, and a unity build, which
// includes this file into another, would see types of external linkage holding ones of internal
// linkage (-Wsubobject-linkage).
namespace halo_slab {

// A slab of the extended block: its corner and extent.
struct Slab {
  Shape corner;
  Shape extent;
};

// extended[slab] += source (contiguous, C order), or extended[slab] = 0 when source is null:
// one box kernel, y = 1 * source + 1 * y or y = 0 * nothing + 0 * y.
template <Scalar T, MemorySpace Space>
void add_or_clear(Space space, const Shape& extended_shape, T* extended, const Slab& slab,
                  const T* source) {
  const std::size_t ndim = extended_shape.size();
  kernels::BoxAxpby box{slab.extent, Shape(ndim, 1), Shape(ndim, 1), Shape(ndim, 0), slab.extent};
  for (std::size_t k = ndim - 1; k-- > 0;) {
    box.out_strides[k] = box.out_strides[k + 1] * extended_shape[k + 1];
    box.in_strides[k] = box.in_strides[k + 1] * slab.extent[k + 1];
  }
  for (std::size_t k = 0; k < ndim; ++k)
    box.out_offset += slab.corner[k] * box.out_strides[k];
  const T one = source == nullptr ? T(0) : T(1);
  kernels::box_axpby(space, box, one, source, one, extended);
}

}  // namespace halo_slab

using halo_slab::add_or_clear;
using halo_slab::Slab;

// One axis at a time: pack the planes the neighbours need, move them through the space's
// transport, then copy (forward) or add (adjoint) what arrived.
template <Scalar T, MemorySpace Space>
void HaloOperator<T, Space>::exchange(T* extended, bool accumulate) const {
  const log_view::ScopedEvent event(log_view::EventKind::exchange, "halo");
  const int ndim = static_cast<int>(dims_.size());
  const Communicator& comm = this->domain().communicator();
  const Shape zero(static_cast<std::size_t>(ndim), 0);
  // A slab: planes [first, first + count) along axis k, the whole extended block otherwise.
  auto slab = [&](int k, Index first, Index count) {
    Slab result{Shape(static_cast<std::size_t>(ndim), 0), extended_shape_};
    result.corner[k] = first;
    result.extent[k] = count;
    return result;
  };
  auto ensure = [&](Buffer<T, Space>& buffer, Index size) {
    if (buffer.size() < size) buffer = Buffer<T, Space>(size);
  };
  auto pack = [&](const Slab& box, Buffer<T, Space>& buffer) {
    ensure(buffer, element_count(box.extent));
    kernels::copy_box(Space{}, sizeof(T), extended, {extended_shape_, box.corner}, buffer.data(),
                      {box.extent, zero}, box.extent);
  };
  auto unpack = [&](const Buffer<T, Space>& buffer, const Slab& box) {
    if (accumulate) {
      add_or_clear(Space{}, extended_shape_, extended, box, buffer.data());
    } else {
      kernels::copy_box(Space{}, sizeof(T), buffer.data(), {box.extent, zero}, extended,
                        {extended_shape_, box.corner}, box.extent);
    }
  };
  auto clear = [&](const Slab& box) {
    add_or_clear(Space{}, extended_shape_, extended, box, static_cast<const T*>(nullptr));
  };

  for (int step = 0; step < ndim; ++step) {
    // Forward: axes in order, each slab carrying the ghost cells of the axes before it (so
    // corners arrive). Adjoint: the transpose, axes in reverse order.
    const int k = accumulate ? ndim - 1 - step : step;
    const Index core = core_shape_[k], minus = minus_[k], plus = plus_[k];
    // Where this rank's ghost cells are, and which of its planes its neighbours hold.
    const Slab minus_ghosts = slab(k, 0, minus);
    const Slab plus_ghosts = slab(k, minus + core, plus);
    const Slab first_planes = slab(k, minus, neighbour_plus_width_[k]);
    const Slab last_planes =
        slab(k, minus + core - neighbour_minus_width_[k], neighbour_minus_width_[k]);
    // Forward: ghosts <- neighbours' planes. Adjoint: neighbours' planes += ghosts.
    struct Side {
      int neighbour;
      const Slab& receive_into;
      const Slab& send_from;
      Buffer<T, Space>& receive;
      Buffer<T, Space>& send;
      int receive_tag;
      int send_tag;
    };
    const std::array<Side, 2> sides = {
        Side{minus_neighbour_[k], accumulate ? first_planes : minus_ghosts,
             accumulate ? minus_ghosts : first_planes, receive_minus_, send_minus_,
             halo_tag_to_plus, halo_tag_to_minus},
        Side{plus_neighbour_[k], accumulate ? last_planes : plus_ghosts,
             accumulate ? plus_ghosts : last_planes, receive_plus_, send_plus_, halo_tag_to_minus,
             halo_tag_to_plus}};

    // One batch of messages per axis through the space's transport; messages of no bytes are
    // not sent (a neighbour's matching message has no bytes either).
    std::array<ReceiveMessage, 2> receives{};
    std::array<SendMessage, 2> sends{};
    std::size_t receive_count = 0, send_count = 0;
    for (const Side& side : sides) {
      if (side.neighbour < 0) continue;
      const Index receive_size = element_count(side.receive_into.extent);
      ensure(side.receive, receive_size);
      pack(side.send_from, side.send);
      const Index receive_bytes = receive_size * Index(sizeof(T));
      const Index send_bytes = element_count(side.send_from.extent) * Index(sizeof(T));
      if (receive_bytes > 0) {
        receives[receive_count++] = {reinterpret_cast<std::byte*>(side.receive.data()),
                                     receive_bytes, side.neighbour, side.receive_tag};
      }
      if (send_bytes > 0) {
        sends[send_count++] = {reinterpret_cast<const std::byte*>(side.send.data()), send_bytes,
                               side.neighbour, side.send_tag};
      }
    }
    Request done =
        transport_(comm).start(std::span<const ReceiveMessage>(receives.data(), receive_count),
                               std::span<const SendMessage>(sends.data(), send_count));
    if (accumulate) {
      // The ghost cells are consumed: they must not travel again along earlier axes. The
      // sends read the packed copies, not the ghosts, so this may overlap the messages.
      clear(minus_ghosts);
      clear(plus_ghosts);
    }
    done.wait();
    for (const Side& side : sides) {
      if (side.neighbour >= 0) unpack(side.receive, side.receive_into);
    }
  }
}

DISTLOPS_INSTANTIATE_TEMPLATE_CLASS(HaloOperator)

}  // namespace distlops
