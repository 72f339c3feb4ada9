// SPDX-License-Identifier: BSD-3-Clause
// Copyright (c) 2026 The distlops authors
#include "distlops/core/ghost_cells.hpp"

#include <algorithm>

#include "distlops/core/error.hpp"
#include "distlops/core/kernels.hpp"
#include "distlops/core/log_view.hpp"

namespace distlops {

namespace {
constexpr int front_tag = 32011;
constexpr int back_tag = 32012;
constexpr int pack_slot = WorkspaceSlot::outgoing;
constexpr int unpack_slot = WorkspaceSlot::incoming;

Communicator ghost_communicator_of(const Layout& layout) {
  if (!layout.valid()) throw InvalidArgument("ghost cells: empty layout");
  return layout.communicator();
}
}  // namespace

GhostExchange::GhostExchange(const Layout& layout, Index front, Index back, GhostReach reach)
    : layout_(layout), host_transport_(ghost_communicator_of(layout)) {
  if (layout.replicated()) {
    throw InvalidArgument(std::string("ghost cells: need a SCATTER layout, got ") +
                          to_string(layout.partition()));
  }
  const Communicator& comm = layout.communicator();
  const int size = comm.size();
  const int me = comm.rank();
  const int axis = layout.axis();
  Index requested[2] = {front, back};
  std::vector<Index> all(2 * static_cast<std::size_t>(size));
  comm.allgather(requested, 2, all.data());

  const Index n = layout.global_shape()[static_cast<std::size_t>(axis)];
  std::vector<Index> front_of(size), back_of(size);
  for (int r = 0; r < size; ++r) {
    const Index f = all[2 * r], b = all[2 * r + 1];
    if (f < 0 || b < 0) {
      throw InvalidArgument("ghost cells: rank " + std::to_string(r) +
                            " asks for a negative number of ghost planes (front " +
                            std::to_string(f) + ", back " + std::to_string(b) + ")");
    }
    const Index lo = layout.offset(r), hi = lo + layout.local_extent(r);
    if (reach == GhostReach::any) {
      // Clip at the ends of the array: there is nothing before plane 0 or after plane n-1.
      front_of[r] = std::min(f, lo);
      back_of[r] = std::min(b, n - hi);
      continue;
    }
    // PyLops-MPI's rule: the first rank has no front ghosts, the last no back ghosts, and the
    // others get theirs from the adjacent rank, which must own enough planes.
    front_of[r] = r == 0 ? 0 : f;
    back_of[r] = r == size - 1 ? 0 : b;
    auto too_many = [&](const char* side, Index width, int neighbour) {
      const Index owned = layout.local_extent(neighbour);
      throw InvalidArgument("ghost cells: rank " + std::to_string(r) + " asks for " +
                            std::to_string(width) + " ghost plane(s) " + side + " along axis " +
                            std::to_string(axis) + ", but its neighbour rank " +
                            std::to_string(neighbour) + " owns " + std::to_string(owned) +
                            "; request fewer planes, use at most " +
                            std::to_string(std::max<Index>(1, n / std::max<Index>(width, 1))) +
                            " ranks, or let planes come from further ranks (GhostReach::any)");
    };
    if (front_of[r] > 0 && layout.local_extent(r - 1) < front_of[r])
      too_many("in front", front_of[r], r - 1);
    if (back_of[r] > 0 && layout.local_extent(r + 1) < back_of[r])
      too_many("behind", back_of[r], r + 1);
  }
  front_ = front_of[me];
  back_ = back_of[me];

  const Shape local = layout.local_shape();
  plane_size_ = 1;
  Index before_axis = 1;
  for (int k = 0; k < layout.ndim(); ++k) {
    if (k != axis) plane_size_ *= local[k];
    if (k < axis) before_axis *= local[k];
  }
  contiguous_planes_ = before_axis == 1;

  // Which planes travel where: the front range of rank r is [lo_r - front_r, lo_r), its back
  // range [hi_r, hi_r + back_r); every owner of a part of them sends that part.
  Index send_workspace = 0, receive_workspace = 0;
  for (int r = 0; r < size; ++r) {
    const Index lo = layout.offset(r), hi = lo + layout.local_extent(r);
    const Index ranges[2][2] = {{lo - front_of[r], lo}, {hi, hi + back_of[r]}};
    for (int side = 0; side < 2; ++side) {
      const Index first = ranges[side][0], last = ranges[side][1];
      if (first >= last) continue;
      const Index block_width = last - first;
      for (int q = 0; q < size; ++q) {
        const Index owner_lo = layout.offset(q), owner_hi = owner_lo + layout.local_extent(q);
        const Index start = std::max(first, owner_lo), stop = std::min(last, owner_hi);
        if (start >= stop || q == r) continue;
        Transfer transfer;
        transfer.planes = stop - start;
        transfer.front = side == 0;
        if (q == me) {
          transfer.peer = r;
          transfer.first_plane = start - owner_lo;
          transfer.staged = !contiguous_planes_;
          if (transfer.staged) {
            transfer.workspace_offset = send_workspace;
            send_workspace += transfer.planes * plane_size_;
          }
          sends_.push_back(transfer);
        }
        if (r == me) {
          transfer.peer = q;
          transfer.first_plane = start - first;
          transfer.staged = !contiguous_planes_ && transfer.planes != block_width;
          if (transfer.staged) {
            transfer.workspace_offset = receive_workspace;
            receive_workspace += transfer.planes * plane_size_;
          }
          receives_.push_back(transfer);
        }
      }
    }
  }
  pack_elements_ = send_workspace;
  unpack_elements_ = receive_workspace;
}

Shape GhostExchange::front_shape() const {
  Shape shape = layout_.local_shape();
  shape[static_cast<std::size_t>(layout_.axis())] = front_;
  return shape;
}

Shape GhostExchange::back_shape() const {
  Shape shape = layout_.local_shape();
  shape[static_cast<std::size_t>(layout_.axis())] = back_;
  return shape;
}

Shape GhostExchange::ghosted_shape() const {
  Shape shape = layout_.local_shape();
  shape[static_cast<std::size_t>(layout_.axis())] += front_ + back_;
  return shape;
}

GhostExchange::Pending GhostExchange::begin_bytes(Transport& transport, std::size_t element_size,
                                                  const void* local, void* front_ghosts,
                                                  void* back_ghosts) const {
  const log_view::ScopedEvent event(log_view::EventKind::exchange, "ghost cells");
  if (!transport.communicator().congruent(layout_.communicator())) {
    throw InvalidArgument("ghost cells: the transport's communicator is not the layout's");
  }
  const auto es = static_cast<Index>(element_size);
  const std::size_t axis = static_cast<std::size_t>(layout_.axis());
  Pending pending;
  pending.transport = &transport;
  pending.front_ghosts = front_ghosts;
  pending.back_ghosts = back_ghosts;
  pending.element_size = element_size;
  // Workspaces hold bytes and the element size is known only now.
  std::byte* pack_workspace =
      transport.workspace(pack_slot, static_cast<std::size_t>(pack_elements_ * es));
  std::byte* unpack_workspace =
      transport.workspace(unpack_slot, static_cast<std::size_t>(unpack_elements_ * es));
  std::vector<ReceiveMessage> receives;
  receives.reserve(receives_.size());
  for (const Transfer& t : receives_) {
    auto* block = static_cast<std::byte*>(t.front ? front_ghosts : back_ghosts);
    std::byte* target = t.staged
                            ? unpack_workspace + t.workspace_offset * es
                            : block + (contiguous_planes_ ? t.first_plane * plane_size_ * es : 0);
    receives.push_back(
        {target, t.planes * plane_size_ * es, t.peer, t.front ? front_tag : back_tag});
  }
  const Shape local_shape = layout_.local_shape();
  const Shape zero(local_shape.size(), 0);
  std::vector<SendMessage> sends;
  sends.reserve(sends_.size());
  for (const Transfer& t : sends_) {
    const std::byte* source =
        static_cast<const std::byte*>(local) + t.first_plane * plane_size_ * es;
    if (t.staged) {
      Shape corner(local_shape.size(), 0), extent = local_shape;
      corner[axis] = t.first_plane;
      extent[axis] = t.planes;
      std::byte* packed = pack_workspace + t.workspace_offset * es;
      transport.copy_box(element_size, local, {local_shape, corner}, packed, {extent, zero},
                         extent);
      source = packed;
    }
    sends.push_back({source, t.planes * plane_size_ * es, t.peer, t.front ? front_tag : back_tag});
  }
  pending.request = transport.start(receives, sends);
  return pending;
}

void GhostExchange::end(Pending& pending) const {
  if (!pending.transport) return;
  // The wait and the unpacking belong to the exchange begun above: time, not a second count.
  const std::int64_t start = log_view::enabled() ? log_view::detail::now_ns() : 0;
  struct Timed {
    std::int64_t start;
    ~Timed() {
      if (start != 0)
        log_view::detail::record(log_view::EventKind::exchange, "ghost cells",
                                 log_view::detail::now_ns() - start, 0);
    }
  } timed{start};
  pending.request.wait();
  const auto es = static_cast<Index>(pending.element_size);
  const std::size_t axis = static_cast<std::size_t>(layout_.axis());
  // The unpack workspace still holds what begin() received into it.
  std::byte* unpack_workspace =
      pending.transport->workspace(unpack_slot, static_cast<std::size_t>(unpack_elements_ * es));
  for (const Transfer& t : receives_) {
    if (!t.staged) continue;
    Shape block = t.front ? front_shape() : back_shape();
    Shape extent = block, corner(block.size(), 0), zero(block.size(), 0);
    extent[axis] = t.planes;
    corner[axis] = t.first_plane;
    pending.transport->copy_box(
        pending.element_size, unpack_workspace + t.workspace_offset * es, {extent, zero},
        t.front ? pending.front_ghosts : pending.back_ghosts, {block, corner}, extent);
  }
  pending.transport = nullptr;
}

}  // namespace distlops
