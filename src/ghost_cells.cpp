// SPDX-License-Identifier: BSD-3-Clause
// Copyright (c) 2026 The distlops authors
#include "distlops/core/ghost_cells.hpp"

#include <algorithm>

#include "box_copy_plan.hpp"
#include "distlops/core/error.hpp"
#include "distlops/core/kernels.hpp"
#include "distlops/core/log_view.hpp"

namespace distlops {

namespace {
constexpr int front_tag = 32011;
constexpr int back_tag = 32012;
constexpr int box_tag = 32013;
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
  if (!layout.is_slab()) {
    throw InvalidArgument("ghost cells: the layout (" + layout.describe() +
                          ") is cut along several axes or in boxes; ask for ghost cells on every "
                          "axis with per-axis widths (GhostExchange with GhostWidths)");
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
  widths_.assign(static_cast<std::size_t>(layout.ndim()), GhostWidths{});
  widths_[static_cast<std::size_t>(axis)] = {front_, back_};

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
  if (box_) throw InvalidArgument("ghost cells: front_shape() describes slab exchanges");
  Shape shape = layout_.local_shape();
  shape[static_cast<std::size_t>(layout_.axis())] = front_;
  return shape;
}

Shape GhostExchange::back_shape() const {
  if (box_) throw InvalidArgument("ghost cells: back_shape() describes slab exchanges");
  Shape shape = layout_.local_shape();
  shape[static_cast<std::size_t>(layout_.axis())] = back_;
  return shape;
}

Shape GhostExchange::interior_corner() const {
  Shape corner;
  for (const GhostWidths& w : widths_)
    corner.push_back(w.front);
  return corner;
}

Shape GhostExchange::face_shape(int axis, bool back) const {
  if (!box_ || !faces_) {
    throw InvalidArgument(
        "ghost cells: face_shape() describes box exchanges across faces (GhostRegion::faces)");
  }
  if (axis < 0 || axis >= static_cast<int>(local_shape_.size())) {
    throw InvalidArgument("ghost cells: face_shape(): axis " + std::to_string(axis) +
                          " out of range for " + std::to_string(local_shape_.size()) + " axes");
  }
  Shape shape = local_shape_;
  const GhostWidths& w = widths_[static_cast<std::size_t>(axis)];
  shape[static_cast<std::size_t>(axis)] = back ? w.back : w.front;
  return shape;
}

Index GhostExchange::face_offset(int axis, bool back) const {
  (void)face_shape(axis, back);  // the checks
  return face_offsets_[2 * static_cast<std::size_t>(axis) + (back ? 1 : 0)];
}

Shape GhostExchange::ghosted_shape() const {
  if (box_) return ghosted_shape_;
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
  if (box_) {
    end_box(pending);
    return;
  }
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

// ---- box exchanges ------------------------------------------------------------------------

namespace {

// A box of the global array: [lower, upper) along every axis.
struct GhostBox {
  Shape lower, upper;
};

// The ghost region of a block [lower, upper) with widths `front` and `back` per axis, as
// disjoint boxes in a fixed order: along each axis k, the planes before and after the block;
// across faces only, the block's own range on the other axes; for the full region, the own
// range on the axes before k and the extended range on those after it (edges and corners
// then belong to the first axis along which they lie outside the block).
std::vector<GhostBox> ghost_pieces(const Shape& lower, const Shape& upper, const Shape& front,
                                   const Shape& back, GhostRegion region) {
  const std::size_t ndim = lower.size();
  std::vector<GhostBox> pieces;
  for (std::size_t k = 0; k < ndim; ++k) {
    for (int side = 0; side < 2; ++side) {
      GhostBox piece{lower, upper};
      piece.lower[k] = side == 0 ? lower[k] - front[k] : upper[k];
      piece.upper[k] = side == 0 ? lower[k] : upper[k] + back[k];
      if (piece.lower[k] >= piece.upper[k]) continue;
      if (region == GhostRegion::full) {
        for (std::size_t j = k + 1; j < ndim; ++j) {
          piece.lower[j] = lower[j] - front[j];
          piece.upper[j] = upper[j] + back[j];
        }
      }
      pieces.push_back(std::move(piece));
    }
  }
  return pieces;
}

// The part of `piece` inside `rank`'s box of `layout`; empty extent when there is none.
GhostBox ghost_overlap(const GhostBox& piece, const Layout& layout, int rank, Index& count) {
  GhostBox part{piece.lower, piece.upper};
  count = 1;
  for (std::size_t k = 0; k < piece.lower.size(); ++k) {
    part.lower[k] = std::max(piece.lower[k], layout.box_lower(rank, static_cast<int>(k)));
    part.upper[k] = std::min(piece.upper[k], layout.box_upper(rank, static_cast<int>(k)));
    count *= std::max<Index>(0, part.upper[k] - part.lower[k]);
  }
  return part;
}

}  // namespace

GhostExchange::GhostExchange(const Layout& layout, std::span<const GhostWidths> widths,
                             GhostReach reach, GhostRegion region)
    : layout_(layout), box_(true), host_transport_(ghost_communicator_of(layout)) {
  const Communicator& comm = layout.communicator();
  const int size = comm.size();
  const int me = comm.rank();
  const int ndim = layout.ndim();
  // Every rank's widths (and whether it gave one pair per axis), reach and region, on every
  // rank.
  const auto words = static_cast<std::size_t>(2 * ndim + 3);
  std::vector<Index> mine(words, 0);
  mine[0] = static_cast<Index>(widths.size());
  for (std::size_t k = 0; k < widths.size() && k < static_cast<std::size_t>(ndim); ++k) {
    mine[1 + 2 * k] = widths[k].front;
    mine[2 + 2 * k] = widths[k].back;
  }
  mine[words - 2] = static_cast<Index>(reach);
  mine[words - 1] = static_cast<Index>(region);
  std::vector<Index> all(words * static_cast<std::size_t>(size));
  comm.allgather(mine.data(), static_cast<Index>(words), all.data());
  if (layout.replicated()) {
    throw InvalidArgument(std::string("ghost cells: need a SCATTER layout, got ") +
                          to_string(layout.partition()));
  }
  if (reach == GhostReach::neighbours && !layout.has_grid()) {
    throw InvalidArgument("ghost cells: the boxes of the layout (" + layout.describe() +
                          ") form no grid, so ranks have no neighbours along an axis; let the "
                          "cells come from any rank (GhostReach::any)");
  }
  // Every rank's clipped widths, validated alike on every rank.
  std::vector<Shape> front_of(static_cast<std::size_t>(size), Shape(ndim, 0));
  std::vector<Shape> back_of(front_of);
  for (int r = 0; r < size; ++r) {
    const Index* given = all.data() + words * static_cast<std::size_t>(r);
    if (given[words - 2] != all[words - 2] || given[words - 1] != all[words - 1]) {
      throw InvalidArgument("ghost cells: rank " + std::to_string(r) +
                            " asks for another reach or region than rank 0");
    }
    if (given[0] != ndim) {
      throw InvalidArgument("ghost cells: rank " + std::to_string(r) + " gives widths for " +
                            std::to_string(given[0]) + " axes, the array has " +
                            std::to_string(ndim));
    }
    for (int k = 0; k < ndim; ++k) {
      const Index f = given[1 + 2 * k], b = given[2 + 2 * k];
      if (f < 0 || b < 0) {
        throw InvalidArgument("ghost cells: rank " + std::to_string(r) +
                              " asks for a negative number of ghost planes along axis " +
                              std::to_string(k) + " (front " + std::to_string(f) + ", back " +
                              std::to_string(b) + ")");
      }
      const Index lo = layout.box_lower(r, k), hi = layout.box_upper(r, k);
      if (reach == GhostReach::any) {
        front_of[r][k] = std::min(f, lo);
        back_of[r][k] = std::min(b, layout.global_shape()[k] - hi);
        continue;
      }
      // The grid neighbours along k, which must own the planes asked of them.
      const std::span<const Index> cuts = layout.grid_offsets(k);
      const int parts = static_cast<int>(cuts.size()) - 1;
      std::vector<int> at = layout.grid_coordinates(r);
      const int c = at[static_cast<std::size_t>(k)];
      front_of[r][k] = c == 0 ? 0 : f;
      back_of[r][k] = c == parts - 1 ? 0 : b;
      auto check = [&](const char* side, Index width, int neighbour_coordinate) {
        const Index owned = cuts[neighbour_coordinate + 1] - cuts[neighbour_coordinate];
        if (width <= owned) return;
        at[static_cast<std::size_t>(k)] = neighbour_coordinate;
        throw InvalidArgument(
            "ghost cells: rank " + std::to_string(r) + " asks for " + std::to_string(width) +
            " ghost plane(s) " + side + " along axis " + std::to_string(k) +
            ", but its neighbour rank " + std::to_string(layout.grid_rank(at)) + " owns " +
            std::to_string(owned) + " (the grid cuts the axis of " +
            std::to_string(layout.global_shape()[k]) + " planes into " + std::to_string(parts) +
            " parts); request fewer planes, cut the axis into fewer parts, or let cells come "
            "from further ranks (GhostReach::any)");
      };
      if (front_of[r][k] > 0) check("in front", front_of[r][k], c - 1);
      if (back_of[r][k] > 0) check("behind", back_of[r][k], c + 1);
    }
  }
  const ArrayBox own = layout.box(me);
  local_shape_ = own.extent();
  origin_.assign(static_cast<std::size_t>(ndim), 0);
  widths_.resize(static_cast<std::size_t>(ndim));
  ghosted_shape_ = local_shape_;
  for (int k = 0; k < ndim; ++k) {
    widths_[k] = {front_of[me][k], back_of[me][k]};
    ghosted_shape_[k] += front_of[me][k] + back_of[me][k];
  }
  // The transfer of `part` (global coordinates) to or from `peer`, placed in a block of shape
  // `block` whose first element is at `origin`; in a workspace where it is not contiguous there.
  auto transfer_of = [&](int peer, const GhostBox& part, Index count, const Shape& origin,
                         const Shape& block, Index& workspace) {
    BoxTransfer transfer{peer, Shape(ndim), Shape(ndim), count, -1, 0, {}, 0};
    for (int k = 0; k < ndim; ++k) {
      transfer.corner[k] = part.lower[k] - origin[k];
      transfer.extent[k] = part.upper[k] - part.lower[k];
    }
    transfer.direct =
        kernels::detail::contiguous_offset_in_block(block, transfer.corner, transfer.extent);
    if (transfer.direct < 0) {
      transfer.workspace_offset = workspace;
      workspace += count;
    }
    return transfer;
  };
  // What this rank receives: its pieces, each from the ranks that own a part of it, in order.
  Shape ghosted_origin = own.lower;
  for (int k = 0; k < ndim; ++k)
    ghosted_origin[k] -= front_of[me][k];
  for (const GhostBox& piece :
       ghost_pieces(own.lower, own.upper, front_of[me], back_of[me], region)) {
    for (int q = 0; q < size; ++q) {
      Index count = 0;
      const GhostBox part = ghost_overlap(piece, layout, q, count);
      if (count == 0 || q == me) continue;
      box_receives_.push_back(
          transfer_of(q, part, count, ghosted_origin, ghosted_shape_, box_unpack_elements_));
    }
  }
  // The same receives placed in separate face blocks (faces only: each piece lies across one
  // face, along the axis it extends).
  faces_ = region == GhostRegion::faces;
  if (faces_) {
    face_offsets_.assign(2 * static_cast<std::size_t>(ndim), 0);
    for (int k = 0; k < ndim; ++k) {
      for (int side = 0; side < 2; ++side) {
        face_offsets_[2 * k + side] = faces_size_;
        faces_size_ += element_count(face_shape(k, side == 1));
      }
    }
    for (int k = 0; k < ndim; ++k) {
      for (int side = 0; side < 2; ++side) {
        const Shape block = face_shape(k, side == 1);
        if (element_count(block) == 0) continue;
        Shape block_origin = own.lower;
        block_origin[k] = side == 0 ? own.lower[k] - front_of[me][k] : own.upper[k];
        GhostBox piece{own.lower, own.upper};
        piece.lower[k] = block_origin[k];
        piece.upper[k] = block_origin[k] + block[k];
        for (int q = 0; q < size; ++q) {
          Index count = 0;
          const GhostBox part = ghost_overlap(piece, layout, q, count);
          if (count == 0 || q == me) continue;
          BoxTransfer transfer =
              transfer_of(q, part, count, block_origin, block, face_unpack_elements_);
          transfer.block = block;
          transfer.block_offset = face_offsets_[2 * k + side];
          if (transfer.direct >= 0) transfer.direct += transfer.block_offset;
          face_receives_.push_back(std::move(transfer));
        }
      }
    }
  }
  // What it sends: the parts of the other ranks' pieces that it owns, in their order.
  for (int r = 0; r < size; ++r) {
    if (r == me) continue;
    const ArrayBox theirs = layout.box(r);
    for (const GhostBox& piece :
         ghost_pieces(theirs.lower, theirs.upper, front_of[r], back_of[r], region)) {
      Index count = 0;
      const GhostBox part = ghost_overlap(piece, layout, me, count);
      if (count == 0) continue;
      box_sends_.push_back(
          transfer_of(r, part, count, own.lower, local_shape_, box_pack_elements_));
    }
  }
  box_send_messages_.reserve(box_sends_.size());
  box_receive_messages_.reserve(box_receives_.size());
}

GhostExchange::Pending GhostExchange::begin_box_bytes(Transport& transport,
                                                      std::size_t element_size, const void* local,
                                                      void* ghosted) const {
  if (!box_) {
    throw InvalidArgument(
        "ghost cells: a slab exchange fills front and back ghost blocks; "
        "begin(transport, local, front_ghosts, back_ghosts)");
  }
  return post_box(transport, element_size, local, ghosted, box_receives_, box_unpack_elements_);
}

GhostExchange::Pending GhostExchange::begin_faces_bytes(Transport& transport,
                                                        std::size_t element_size, const void* local,
                                                        void* faces) const {
  if (!faces_) {
    throw InvalidArgument(
        "ghost cells: face blocks belong to box exchanges across faces (GhostWidths per axis, "
        "GhostRegion::faces)");
  }
  Pending pending =
      post_box(transport, element_size, local, faces, face_receives_, face_unpack_elements_);
  pending.faces = true;
  return pending;
}

// Posts the sends of this rank's cells and the receives of `receives` into `target`.
GhostExchange::Pending GhostExchange::post_box(Transport& transport, std::size_t element_size,
                                               const void* local, void* target,
                                               const std::vector<BoxTransfer>& receives,
                                               Index unpack_elements) const {
  const log_view::ScopedEvent event(log_view::EventKind::exchange, "ghost cells");
  if (!transport.communicator().congruent(layout_.communicator())) {
    throw InvalidArgument("ghost cells: the transport's communicator is not the layout's");
  }
  const auto es = static_cast<Index>(element_size);
  std::byte* pack_workspace =
      transport.workspace(pack_slot, static_cast<std::size_t>(box_pack_elements_ * es));
  std::byte* unpack_workspace =
      transport.workspace(unpack_slot, static_cast<std::size_t>(unpack_elements * es));
  box_receive_messages_.clear();
  for (const BoxTransfer& t : receives) {
    std::byte* into = t.direct >= 0 ? static_cast<std::byte*>(target) + t.direct * es
                                    : unpack_workspace + t.workspace_offset * es;
    box_receive_messages_.push_back({into, t.count * es, t.peer, box_tag});
  }
  box_send_messages_.clear();
  for (const BoxTransfer& t : box_sends_) {
    const std::byte* source =
        static_cast<const std::byte*>(local) + std::max<Index>(t.direct, 0) * es;
    if (t.direct < 0) {
      std::byte* packed = pack_workspace + t.workspace_offset * es;
      transport.copy_box(element_size, local, {local_shape_, t.corner}, packed, {t.extent, origin_},
                         t.extent);
      source = packed;
    }
    box_send_messages_.push_back({source, t.count * es, t.peer, box_tag});
  }
  Pending pending;
  pending.transport = &transport;
  pending.front_ghosts = target;
  pending.element_size = element_size;
  pending.request = transport.start(box_receive_messages_, box_send_messages_);
  return pending;
}

void GhostExchange::end_box(Pending& pending) const {
  pending.request.wait();
  const auto es = static_cast<Index>(pending.element_size);
  const std::vector<BoxTransfer>& receives = pending.faces ? face_receives_ : box_receives_;
  const Index unpack_elements = pending.faces ? face_unpack_elements_ : box_unpack_elements_;
  std::byte* unpack_workspace =
      pending.transport->workspace(unpack_slot, static_cast<std::size_t>(unpack_elements * es));
  for (const BoxTransfer& t : receives) {
    if (t.direct >= 0) continue;
    std::byte* block = static_cast<std::byte*>(pending.front_ghosts) + t.block_offset * es;
    pending.transport->copy_box(pending.element_size, unpack_workspace + t.workspace_offset * es,
                                {t.extent, origin_}, block,
                                {pending.faces ? t.block : ghosted_shape_, t.corner}, t.extent);
  }
  pending.transport = nullptr;
}

}  // namespace distlops
