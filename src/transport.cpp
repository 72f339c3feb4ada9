// SPDX-License-Identifier: BSD-3-Clause
// Copyright (c) 2026 The distlops authors
#include "distlops/core/transport.hpp"

#include <algorithm>
#include <atomic>
#include <climits>
#include <cstdlib>
#include <string>
#include <string_view>

#include "box_copy_plan.hpp"
#include "distlops/core/detail/enum_names.hpp"
#include "distlops/core/error.hpp"
#include "distlops/core/log_view.hpp"
#include "message_datatype.hpp"

namespace distlops {

namespace {

// What the packed exchange keeps: byte counts and displacements per rank, and whether every
// box is contiguous in its block, so that the messages read the source or fill the destination
// in place (a split along axis 0 to another along axis 0, the receiving side of a transpose).
struct PackedBoxExchange final : PreparedBoxExchange {
  TransportKind kind = TransportKind::mpi;
  std::size_t element_size = 0;
  // MpiTransport: the message limit its datatypes were nested for, one contiguous block
  // datatype per rank and side at its displacement (in the block or the workspace), counts.
  std::size_t limit_bytes = 0;
  std::vector<detail::MessageDatatype> types;
  std::vector<MPI_Datatype> send_types, receive_types;
  std::vector<int> send_ones, receive_ones, zeros;
  std::vector<Index> send_counts, send_displacements, receive_counts, receive_displacements;
  bool send_in_place = true, receive_in_place = true;
  Index send_bytes = 0, receive_bytes = 0;  // workspace sizes
  Shape origin;
};

std::unique_ptr<PackedBoxExchange> pack_plan(const BoxExchange& exchange, TransportKind kind,
                                             std::size_t element_size, int me) {
  auto plan = std::make_unique<PackedBoxExchange>();
  plan->kind = kind;
  plan->element_size = element_size;
  plan->origin.assign(exchange.source_block.size(), 0);
  const std::size_t ranks = exchange.sends.size();
  const auto es = static_cast<Index>(element_size);
  plan->send_counts.assign(ranks, 0);
  plan->send_displacements.assign(ranks, 0);
  plan->receive_counts.assign(ranks, 0);
  plan->receive_displacements.assign(ranks, 0);
  // A side moves in place when every box of it is contiguous in its block.
  auto in_place = [&](const std::vector<BlockBox>& boxes, const Shape& block) {
    for (std::size_t r = 0; r < ranks; ++r) {
      if (static_cast<int>(r) != me && boxes[r].count > 0 &&
          kernels::detail::contiguous_offset_in_block(block, boxes[r].corner, boxes[r].extent) <
              0) {
        return false;
      }
    }
    return true;
  };
  plan->send_in_place = in_place(exchange.sends, exchange.source_block);
  plan->receive_in_place = in_place(exchange.receives, exchange.destination_block);
  // Byte counts, and displacements: in the block where in place, in the workspace otherwise.
  auto place = [&](const std::vector<BlockBox>& boxes, const Shape& block, bool here,
                   std::vector<Index>& counts, std::vector<Index>& displacements, Index& packed) {
    for (std::size_t r = 0; r < ranks; ++r) {
      const BlockBox& box = boxes[r];
      if (static_cast<int>(r) == me) continue;  // copied locally
      counts[r] = box.count * es;
      if (!here) {
        displacements[r] = packed;
        packed += box.count * es;
      } else if (box.count > 0) {
        displacements[r] =
            kernels::detail::contiguous_offset_in_block(block, box.corner, box.extent) * es;
      }
    }
  };
  place(exchange.sends, exchange.source_block, plan->send_in_place, plan->send_counts,
        plan->send_displacements, plan->send_bytes);
  place(exchange.receives, exchange.destination_block, plan->receive_in_place, plan->receive_counts,
        plan->receive_displacements, plan->receive_bytes);
  return plan;
}

// The calling rank's own box of an exchange, copied through `transport`.
void copy_own_box(Transport& transport, const BoxExchange& exchange, std::size_t element_size,
                  const void* source, void* destination) {
  const auto me = static_cast<std::size_t>(transport.communicator().rank());
  const BlockBox& own = exchange.sends[me];
  if (own.count == 0) return;
  transport.copy_box(element_size, source, {exchange.source_block, own.corner}, destination,
                     {exchange.destination_block, exchange.receives[me].corner}, own.extent);
}

}  // namespace

namespace {

// The packed exchange: the non-contiguous side(s) packed into (and unpacked from) the
// transport's workspaces, the own box copied, `move(outgoing, incoming)` moving the blocks.
template <class Move>
void run_packed(Transport& transport, const BoxExchange& exchange, const PackedBoxExchange& plan,
                std::size_t element_size, const void* source, void* destination, Move&& move) {
  const int me = transport.communicator().rank();
  const std::size_t ranks = exchange.sends.size();
  const auto* from = static_cast<const std::byte*>(source);
  auto* to = static_cast<std::byte*>(destination);
  std::byte* outgoing =
      plan.send_in_place
          ? const_cast<std::byte*>(from)
          : transport.workspace(WorkspaceSlot::outgoing, static_cast<std::size_t>(plan.send_bytes));
  std::byte* incoming = plan.receive_in_place
                            ? to
                            : transport.workspace(WorkspaceSlot::incoming,
                                                  static_cast<std::size_t>(plan.receive_bytes));
  if (!plan.send_in_place) {
    for (std::size_t r = 0; r < ranks; ++r) {
      const BlockBox& box = exchange.sends[r];
      if (static_cast<int>(r) == me || box.count == 0) continue;
      transport.copy_box(element_size, source, {exchange.source_block, box.corner},
                         outgoing + plan.send_displacements[r], {box.extent, plan.origin},
                         box.extent);
    }
  }
  copy_own_box(transport, exchange, element_size, source, destination);
  move(outgoing, incoming);
  if (!plan.receive_in_place) {
    for (std::size_t r = 0; r < ranks; ++r) {
      const BlockBox& box = exchange.receives[r];
      if (static_cast<int>(r) == me || box.count == 0) continue;
      transport.copy_box(element_size, incoming + plan.receive_displacements[r],
                         {box.extent, plan.origin}, destination,
                         {exchange.destination_block, box.corner}, box.extent);
    }
  }
}

// The packed plan `prepared` holds, made anew when it was made for another kind, element size
// or (`limit_bytes`, MpiTransport's datatypes) message limit.
PackedBoxExchange& packed_plan(std::unique_ptr<PreparedBoxExchange>& prepared,
                               const BoxExchange& exchange, TransportKind kind,
                               std::size_t element_size, int me, std::size_t limit_bytes = 0) {
  auto* plan = dynamic_cast<PackedBoxExchange*>(prepared.get());
  if (!plan || plan->kind != kind || plan->element_size != element_size ||
      plan->limit_bytes != limit_bytes) {
    prepared.reset();
    auto made = pack_plan(exchange, kind, element_size, me);
    made->limit_bytes = limit_bytes;
    plan = made.get();
    prepared = std::move(made);
  }
  return *plan;
}

}  // namespace

void Transport::exchange_boxes(const BoxExchange& exchange, std::size_t element_size,
                               const void* source, void* destination,
                               std::unique_ptr<PreparedBoxExchange>& prepared) {
  const PackedBoxExchange& plan =
      packed_plan(prepared, exchange, kind(), element_size, communicator().rank());
  run_packed(*this, exchange, plan, element_size, source, destination,
             [&](const std::byte* outgoing, std::byte* incoming) {
               alltoallv(outgoing, plan.send_counts, plan.send_displacements, incoming,
                         plan.receive_counts, plan.receive_displacements);
             });
}

const char* to_string(TransportKind kind) {
  return detail::enum_name(kind, std::array{"mpi", "nccl", "staged"});
}

void MpiTransport::allreduce(float* data, Index count, ReduceOp op) {
  comm_.allreduce(data, data, count, op);
}

void MpiTransport::allreduce(double* data, Index count, ReduceOp op) {
  comm_.allreduce(data, data, count, op);
}

void MpiTransport::allgather(const std::byte* send, Index bytes, std::byte* recv) {
  comm_.allgather(send, bytes, recv);
}

void MpiTransport::copy_box(std::size_t element_size, const void* source,
                            kernels::BoxView source_box, void* destination,
                            kernels::BoxView destination_box, std::span<const Index> extent) {
  kernels::copy_box(Host{}, element_size, source, source_box, destination, destination_box, extent);
}

std::byte* MpiTransport::workspace(int slot, std::size_t bytes) {
  if (slot < 0) throw InvalidArgument("MpiTransport: negative workspace slot");
  if (slot == WorkspaceSlot::reduction && bytes <= reduction_slot_.size()) {
    return reduction_slot_.data();
  }
  const auto index = static_cast<std::size_t>(slot);
  if (workspaces_.size() <= index) workspaces_.resize(index + 1);
  if (workspaces_[index].size() < bytes) workspaces_[index].resize(bytes);
  return workspaces_[index].data();
}

void MpiTransport::allgatherv(const std::byte* send, Index send_bytes, std::byte* recv,
                              std::span<const Index> counts, std::span<const Index> displacements) {
  comm_.allgatherv(send, send_bytes, recv, counts, displacements);
}

void MpiTransport::alltoallv(const std::byte* send, std::span<const Index> send_counts,
                             std::span<const Index> send_displacements, std::byte* recv,
                             std::span<const Index> recv_counts,
                             std::span<const Index> recv_displacements) {
  comm_.alltoallv(send, send_counts, send_displacements, recv, recv_counts, recv_displacements);
}

namespace {

// What MpiTransport keeps per exchange: one datatype per box that moves, in place in its block.
struct TypedBoxExchange final : PreparedBoxExchange {
  std::size_t element_size = 0;
  std::size_t limit_bytes = 0;  // the message limit the types were nested for
  std::vector<detail::MessageDatatype> types;
  std::vector<MPI_Datatype> send_types, receive_types;
  std::vector<int> send_counts, receive_counts, displacements;
};

std::unique_ptr<TypedBoxExchange> typed_plan(const BoxExchange& exchange, std::size_t element_size,
                                             Index limit, int me) {
  auto plan = std::make_unique<TypedBoxExchange>();
  plan->element_size = element_size;
  plan->limit_bytes = message_chunk_bytes();
  const std::size_t ranks = exchange.sends.size();
  plan->send_types.assign(ranks, MPI_BYTE);
  plan->receive_types.assign(ranks, MPI_BYTE);
  plan->send_counts.assign(ranks, 0);
  plan->receive_counts.assign(ranks, 0);
  plan->displacements.assign(ranks, 0);
  plan->types.reserve(2 * ranks);
  // Elements as opaque bytes: a contiguous type of element_size bytes.
  MPI_Datatype element = MPI_DATATYPE_NULL;
  detail::check_mpi(MPI_Type_contiguous(static_cast<int>(element_size), MPI_BYTE, &element),
                    "MPI_Type_contiguous");
  const detail::MessageDatatype element_type(element);
  auto describe = [&](const Shape& block, const BlockBox& box, MPI_Datatype& type, int& count) {
    plan->types.push_back(detail::box_datatype(block, box.corner, box.extent, element_type.get(),
                                               element_size, limit));
    type = plan->types.back().get();
    count = 1;
  };
  for (std::size_t r = 0; r < ranks; ++r) {
    if (static_cast<int>(r) == me) continue;  // copied locally
    if (exchange.sends[r].count > 0) {
      describe(exchange.source_block, exchange.sends[r], plan->send_types[r], plan->send_counts[r]);
    }
    if (exchange.receives[r].count > 0) {
      describe(exchange.destination_block, exchange.receives[r], plan->receive_types[r],
               plan->receive_counts[r]);
    }
  }
  return plan;
}

// The boxes of an all-to-all addressed to ranks other than `me`, as the event log counts them:
// one message per non-empty box, their bytes.
log_view::Traffic boxes_to_others(const BoxExchange& exchange, int me, std::size_t element_size) {
  log_view::Traffic traffic;
  for (std::size_t r = 0; r < exchange.sends.size(); ++r) {
    if (static_cast<int>(r) == me || exchange.sends[r].count == 0) continue;
    ++traffic.messages;
    traffic.bytes += exchange.sends[r].count * static_cast<Index>(element_size);
  }
  return traffic;
}

}  // namespace

void MpiTransport::exchange_boxes(const BoxExchange& exchange, std::size_t element_size,
                                  const void* source, void* destination,
                                  std::unique_ptr<PreparedBoxExchange>& prepared) {
  const std::size_t limit_bytes = message_chunk_bytes();
  const Index limit = static_cast<Index>(std::min<std::size_t>(limit_bytes, INT_MAX) /
                                         std::max<std::size_t>(element_size, 1));
  if (limit < 2) {
    // Datatypes need two elements per nesting level: the packed path's chunked messages.
    Transport::exchange_boxes(exchange, element_size, source, destination, prepared);
    return;
  }
  const int me = comm_.rank();
  // A side that moves nothing may have no buffer; MPI still wants valid pointers.
  static std::byte nothing_sent, nothing_received;
  auto alltoallw = [&](const void* send, const int* send_counts, const MPI_Datatype* send_types,
                       void* recv, const int* recv_counts, const MPI_Datatype* recv_types,
                       const int* zeros) {
    if (comm_.size() == 1) return;
    const log_view::ScopedEvent event(log_view::EventKind::collective, "MPI_Alltoallw",
                                      boxes_to_others(exchange, me, element_size));
    detail::check_mpi(MPI_Alltoallw(send != nullptr ? send : &nothing_sent, send_counts, zeros,
                                    send_types, recv != nullptr ? recv : &nothing_received,
                                    recv_counts, zeros, recv_types, comm_.native()),
                      "MPI_Alltoallw");
  };
  if (host_box_transfer() == HostBoxTransfer::datatypes) {
    auto* plan = dynamic_cast<TypedBoxExchange*>(prepared.get());
    if (!plan || plan->element_size != element_size || plan->limit_bytes != limit_bytes) {
      prepared.reset();
      auto made = typed_plan(exchange, element_size, limit, me);
      plan = made.get();
      prepared = std::move(made);
    }
    copy_own_box(*this, exchange, element_size, source, destination);
    alltoallw(source, plan->send_counts.data(), plan->send_types.data(), destination,
              plan->receive_counts.data(), plan->receive_types.data(), plan->displacements.data());
    return;
  }
  PackedBoxExchange& plan = packed_plan(prepared, exchange, kind(), element_size, me, limit_bytes);
  if (plan.send_types.empty()) {
    // Each rank's part of the contiguous blocks as one datatype at its displacement (nested
    // above the message limit), so that one MPI_Alltoallw moves messages of any size.
    const std::size_t ranks = exchange.sends.size();
    plan.send_types.assign(ranks, MPI_BYTE);
    plan.receive_types.assign(ranks, MPI_BYTE);
    plan.send_ones.assign(ranks, 0);
    plan.receive_ones.assign(ranks, 0);
    plan.zeros.assign(ranks, 0);
    plan.types.reserve(2 * ranks);
    const auto byte_limit = static_cast<Index>(std::min<std::size_t>(limit_bytes, INT_MAX));
    auto describe = [&](Index bytes, Index displacement, MPI_Datatype& type, int& count) {
      if (bytes == 0) return;
      plan.types.push_back(detail::block_datatype(bytes, MPI_BYTE, 1, byte_limit, displacement));
      type = plan.types.back().get();
      count = 1;
    };
    for (std::size_t r = 0; r < ranks; ++r) {
      describe(plan.send_counts[r], plan.send_displacements[r], plan.send_types[r],
               plan.send_ones[r]);
      describe(plan.receive_counts[r], plan.receive_displacements[r], plan.receive_types[r],
               plan.receive_ones[r]);
    }
  }
  run_packed(*this, exchange, plan, element_size, source, destination,
             [&](const std::byte* outgoing, std::byte* incoming) {
               alltoallw(outgoing, plan.send_ones.data(), plan.send_types.data(), incoming,
                         plan.receive_ones.data(), plan.receive_types.data(), plan.zeros.data());
             });
}

namespace {

// The process's choice of HostBoxTransfer: DISTLOPS_HOST_BOX_TRANSFER (packed or datatypes)
// until set_host_box_transfer() is called.
std::atomic<int>& host_box_transfer_setting() {
  static std::atomic<int> setting = [] {
    const char* value = std::getenv("DISTLOPS_HOST_BOX_TRANSFER");
    return value != nullptr && std::string_view(value) == "datatypes"
               ? static_cast<int>(HostBoxTransfer::datatypes)
               : static_cast<int>(HostBoxTransfer::packed);
  }();
  return setting;
}

}  // namespace

void set_host_box_transfer(HostBoxTransfer transfer) {
  host_box_transfer_setting().store(static_cast<int>(transfer));
}

HostBoxTransfer host_box_transfer() {
  return static_cast<HostBoxTransfer>(host_box_transfer_setting().load());
}

Request MpiTransport::start(std::span<const ReceiveMessage> receives,
                            std::span<const SendMessage> sends) {
  Request all;
  for (const ReceiveMessage& message : receives)
    all.merge(comm_.irecv(message.data, message.bytes, message.peer, message.tag));
  for (const SendMessage& message : sends)
    all.merge(comm_.isend(message.data, message.bytes, message.peer, message.tag));
  return all;
}

}  // namespace distlops

namespace distlops {

template <>
TransportKind transport_kind<Host>(const Communicator&) {
  return TransportKind::mpi;
}

template <>
std::unique_ptr<Transport> make_transport<Host>(const Communicator& comm) {
  return std::make_unique<MpiTransport>(comm);
}

template <>
std::shared_ptr<Transport> transport_for<Host>(const Communicator& comm) {
  return std::make_shared<MpiTransport>(comm);
}

}  // namespace distlops
