// SPDX-License-Identifier: BSD-3-Clause
// Copyright (c) 2026 The distlops authors
#include "distlops/core/redistribute.hpp"

#include <algorithm>
#include <cstring>

#include "distlops/core/error.hpp"
#include "distlops/core/kernels.hpp"
#include "distlops/core/log_view.hpp"

namespace distlops {

namespace {

// The half-open range [lo, hi) that `rank` covers along each axis of the global array.
void block_bounds(const Layout& layout, int rank, Shape& lo, Shape& hi) {
  const Shape& shape = layout.global_shape();
  lo.assign(shape.size(), 0);
  hi = shape;
  if (layout.replicated()) return;
  const auto a = static_cast<std::size_t>(layout.axis());
  lo[a] = layout.offset(rank);
  hi[a] = layout.offset(rank) + layout.local_extent(rank);
}

}  // namespace

namespace {

constexpr int send_slot = WorkspaceSlot::outgoing;
constexpr int recv_slot = WorkspaceSlot::incoming;
constexpr int redistribute_tag = 32021;

// The offset in elements of the box (corner, extent) in a row-major block of shape `block` when
// its elements are contiguous there: every axis after the first one of extent > 1 is whole.
// -1 otherwise.
Index contiguous_offset_in_block(const Shape& block, const Shape& corner, const Shape& extent) {
  std::size_t first = 0;
  while (first < block.size() && extent[first] == 1)
    ++first;
  for (std::size_t k = first + 1; k < block.size(); ++k) {
    if (extent[k] != block[k]) return -1;
  }
  Index offset = 0;
  for (std::size_t k = 0; k < block.size(); ++k)
    offset = offset * block[k] + corner[k];
  return offset;
}

Communicator redistribution_communicator_of(const Layout& layout) {
  if (!layout.valid()) throw InvalidArgument("redistribute: empty layout");
  return layout.communicator();
}

}  // namespace

RedistributePlan::RedistributePlan(const Layout& source, const Layout& destination)
    : source_(source),
      destination_(destination),
      host_transport_(redistribution_communicator_of(source)) {
  if (!source.valid() || !destination.valid()) {
    throw InvalidArgument("redistribute: empty layout");
  }
  if (source.global_shape() != destination.global_shape()) {
    throw ShapeMismatch("redistribute: the global shapes differ: " + source.describe() + " vs " +
                        destination.describe());
  }
  if (!source.communicator().congruent(destination.communicator())) {
    throw ShapeMismatch("redistribute: the layouts live on different communicators");
  }
  const int size = source.size();
  const int me = source.rank();
  if (source.replicated()) {
    mode_ = Mode::local_copy;
    return;
  }
  const Shape& shape = source.global_shape();
  if (destination.replicated()) {
    Index before_axis = 1;
    for (int k = 0; k < source.axis(); ++k)
      before_axis *= shape[k];
    mode_ = before_axis == 1 ? Mode::gather_contiguous : Mode::gather_boxes;
    recv_counts_.resize(size);
    recv_displacements_.resize(size);
    Index position = 0;
    for (int r = 0; r < size; ++r) {
      recv_counts_[r] = source.local_size(r);
      recv_displacements_[r] = position;
      position += recv_counts_[r];
    }
    return;
  }
  mode_ = Mode::exchange;
  Shape my_source_lo, my_source_hi, my_destination_lo, my_destination_hi;
  block_bounds(source, me, my_source_lo, my_source_hi);
  block_bounds(destination, me, my_destination_lo, my_destination_hi);
  // Intersection of block `a` (lo_a, hi_a) with block `b`, corner relative to `relative_to`.
  auto intersect = [&](const Shape& lo_a, const Shape& hi_a, const Shape& lo_b, const Shape& hi_b,
                       const Shape& relative_to) {
    Box box;
    box.corner.resize(shape.size());
    box.extent.resize(shape.size());
    box.count = 1;
    for (std::size_t k = 0; k < shape.size(); ++k) {
      const Index lo = std::max(lo_a[k], lo_b[k]);
      const Index hi = std::min(hi_a[k], hi_b[k]);
      box.extent[k] = std::max<Index>(0, hi - lo);
      box.corner[k] = lo - relative_to[k];
      box.count *= box.extent[k];
    }
    return box;
  };
  send_boxes_.resize(size);
  recv_boxes_.resize(size);
  send_counts_.assign(size, 0);
  recv_counts_.assign(size, 0);
  send_direct_.assign(size, -1);
  recv_direct_.assign(size, -1);
  send_displacements_.assign(size, 0);
  recv_displacements_.assign(size, 0);
  source_block_ = source.local_shape();
  destination_block_ = destination.local_shape();
  origin_.assign(shape.size(), 0);
  for (int r = 0; r < size; ++r) {
    Shape lo, hi;
    block_bounds(destination, r, lo, hi);
    send_boxes_[r] = intersect(my_source_lo, my_source_hi, lo, hi, my_source_lo);
    block_bounds(source, r, lo, hi);
    recv_boxes_[r] = intersect(lo, hi, my_destination_lo, my_destination_hi, my_destination_lo);
    // This rank's own part is copied directly, never sent.
    if (r == me) continue;
    const Box& out = send_boxes_[r];
    const Box& in = recv_boxes_[r];
    send_counts_[r] = out.count;
    recv_counts_[r] = in.count;
    // A box contiguous in its block needs no copy: the message reads or writes it in place
    // (a split along axis 0 to one along axis 0, or the receiving side of a transpose).
    if (out.count > 0) {
      send_direct_[r] = contiguous_offset_in_block(source_block_, out.corner, out.extent);
      if (send_direct_[r] < 0) {
        send_displacements_[r] = send_packed_;
        send_packed_ += out.count;
      }
    }
    if (in.count > 0) {
      recv_direct_[r] = contiguous_offset_in_block(destination_block_, in.corner, in.extent);
      if (recv_direct_[r] < 0) {
        recv_displacements_[r] = recv_packed_;
        recv_packed_ += in.count;
      }
    }
  }
  sends_.reserve(static_cast<std::size_t>(size));
  receives_.reserve(static_cast<std::size_t>(size));
}

Index RedistributePlan::bytes_sent(std::size_t element_size) const {
  const int me = source_.rank();
  Index elements = 0;
  switch (mode_) {
    case Mode::local_copy:
      return 0;
    case Mode::gather_contiguous:
    case Mode::gather_boxes:
      elements = source_.local_size() * (source_.size() - 1);
      break;
    case Mode::exchange:
      for (int r = 0; r < source_.size(); ++r) {
        if (r != me) elements += send_counts_[r];
      }
      break;
  }
  return elements * static_cast<Index>(element_size);
}

void RedistributePlan::execute_bytes(Transport& transport, std::size_t element_size,
                                     const void* source, void* destination) const {
  const log_view::ScopedEvent event(log_view::EventKind::exchange, "redistribute");
  if (!transport.communicator().congruent(source_.communicator())) {
    throw InvalidArgument("redistribute: the transport's communicator is not the layouts'");
  }
  const Shape& shape = source_.global_shape();
  const int me = source_.rank();
  const auto es = static_cast<Index>(element_size);
  auto scaled = [&](const std::vector<Index>& values) {
    std::vector<Index> bytes(values.size());
    for (std::size_t i = 0; i < values.size(); ++i)
      bytes[i] = values[i] * es;
    return bytes;
  };
  switch (mode_) {
    case Mode::local_copy: {
      // Every rank holds the whole array: copy out this rank's destination block.
      const Shape block = destination_.local_shape();
      Shape corner(shape.size(), 0), zero(shape.size(), 0);
      if (!destination_.replicated()) corner[destination_.axis()] = destination_.offset(me);
      transport.copy_box(element_size, source, {shape, corner}, destination, {block, zero}, block);
      return;
    }
    case Mode::gather_contiguous: {
      transport.allgatherv(static_cast<const std::byte*>(source), source_.local_size() * es,
                           static_cast<std::byte*>(destination), scaled(recv_counts_),
                           scaled(recv_displacements_));
      return;
    }
    case Mode::gather_boxes: {
      std::byte* gathered =
          transport.workspace(recv_slot, static_cast<std::size_t>(source_.global_size() * es));
      transport.allgatherv(static_cast<const std::byte*>(source), source_.local_size() * es,
                           gathered, scaled(recv_counts_), scaled(recv_displacements_));
      Shape zero(shape.size(), 0);
      for (int r = 0; r < source_.size(); ++r) {
        const Shape block = source_.local_shape(r);
        Shape corner(shape.size(), 0);
        corner[source_.axis()] = source_.offset(r);
        transport.copy_box(element_size, gathered + recv_displacements_[r] * es, {block, zero},
                           destination, {shape, corner}, block);
      }
      return;
    }
    case Mode::exchange: {
      // The plan's shapes: an execution inside a solver loop allocates nothing.
      const Shape& source_block = source_block_;
      const Shape& destination_block = destination_block_;
      const Shape& zero = origin_;
      const auto* from = static_cast<const std::byte*>(source);
      auto* to = static_cast<std::byte*>(destination);
      std::byte* send_workspace =
          send_packed_ > 0
              ? transport.workspace(send_slot, static_cast<std::size_t>(send_packed_ * es))
              : nullptr;
      std::byte* recv_workspace =
          recv_packed_ > 0
              ? transport.workspace(recv_slot, static_cast<std::size_t>(recv_packed_ * es))
              : nullptr;
      sends_.clear();
      receives_.clear();
      for (int r = 0; r < source_.size(); ++r) {
        if (r == me) continue;
        if (recv_counts_[r] > 0) {
          std::byte* into = recv_direct_[r] >= 0 ? to + recv_direct_[r] * es
                                                 : recv_workspace + recv_displacements_[r] * es;
          receives_.push_back({into, recv_counts_[r] * es, r, redistribute_tag});
        }
        if (send_counts_[r] > 0) {
          const std::byte* out = nullptr;
          if (send_direct_[r] >= 0) {
            out = from + send_direct_[r] * es;
          } else {
            const Box& box = send_boxes_[r];
            std::byte* packed = send_workspace + send_displacements_[r] * es;
            transport.copy_box(element_size, source, {source_block, box.corner}, packed,
                               {box.extent, zero}, box.extent);
            out = packed;
          }
          sends_.push_back({out, send_counts_[r] * es, r, redistribute_tag});
        }
      }
      Request pending = transport.start(receives_, sends_);
      // This rank's own part meanwhile.
      if (send_boxes_[me].count > 0) {
        transport.copy_box(element_size, source, {source_block, send_boxes_[me].corner},
                           destination, {destination_block, recv_boxes_[me].corner},
                           send_boxes_[me].extent);
      }
      pending.wait();
      for (int r = 0; r < source_.size(); ++r) {
        const Box& box = recv_boxes_[r];
        if (r == me || box.count == 0 || recv_direct_[r] >= 0) continue;
        transport.copy_box(element_size, recv_workspace + recv_displacements_[r] * es,
                           {box.extent, zero}, destination, {destination_block, box.corner},
                           box.extent);
      }
      return;
    }
  }
}

}  // namespace distlops
