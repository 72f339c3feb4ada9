// SPDX-License-Identifier: BSD-3-Clause
// Copyright (c) 2026 The distlops authors
#include "distlops/core/transport.hpp"

#include <algorithm>
#include <climits>
#include <string>

#include "box_copy_plan.hpp"
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

void Transport::exchange_boxes(const BoxExchange& exchange, std::size_t element_size,
                               const void* source, void* destination,
                               std::unique_ptr<PreparedBoxExchange>& prepared) {
  const int me = communicator().rank();
  auto* plan = dynamic_cast<PackedBoxExchange*>(prepared.get());
  if (!plan || plan->kind != kind() || plan->element_size != element_size) {
    prepared.reset();
    auto made = pack_plan(exchange, kind(), element_size, me);
    plan = made.get();
    prepared = std::move(made);
  }
  const std::size_t ranks = exchange.sends.size();
  const auto* from = static_cast<const std::byte*>(source);
  auto* to = static_cast<std::byte*>(destination);
  std::byte* outgoing = plan->send_in_place ? const_cast<std::byte*>(from)
                                            : workspace(WorkspaceSlot::outgoing,
                                                        static_cast<std::size_t>(plan->send_bytes));
  std::byte* incoming =
      plan->receive_in_place
          ? to
          : workspace(WorkspaceSlot::incoming, static_cast<std::size_t>(plan->receive_bytes));
  if (!plan->send_in_place) {
    for (std::size_t r = 0; r < ranks; ++r) {
      const BlockBox& box = exchange.sends[r];
      if (static_cast<int>(r) == me || box.count == 0) continue;
      copy_box(element_size, source, {exchange.source_block, box.corner},
               outgoing + plan->send_displacements[r], {box.extent, plan->origin}, box.extent);
    }
  }
  copy_own_box(*this, exchange, element_size, source, destination);
  alltoallv(outgoing, plan->send_counts, plan->send_displacements, incoming, plan->receive_counts,
            plan->receive_displacements);
  if (!plan->receive_in_place) {
    for (std::size_t r = 0; r < ranks; ++r) {
      const BlockBox& box = exchange.receives[r];
      if (static_cast<int>(r) == me || box.count == 0) continue;
      copy_box(element_size, incoming + plan->receive_displacements[r], {box.extent, plan->origin},
               destination, {exchange.destination_block, box.corner}, box.extent);
    }
  }
}

const char* to_string(TransportKind kind) {
  switch (kind) {
    case TransportKind::mpi:
      return "mpi";
    case TransportKind::nccl:
      return "nccl";
    case TransportKind::staged:
      return "staged";
  }
  return "unknown";
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

}  // namespace

void MpiTransport::exchange_boxes(const BoxExchange& exchange, std::size_t element_size,
                                  const void* source, void* destination,
                                  std::unique_ptr<PreparedBoxExchange>& prepared) {
  const Index limit = static_cast<Index>(std::min<std::size_t>(message_chunk_bytes(), INT_MAX) /
                                         std::max<std::size_t>(element_size, 1));
  if (limit < 2) {
    // Datatypes need two elements per nesting level: the packed path's chunked messages.
    Transport::exchange_boxes(exchange, element_size, source, destination, prepared);
    return;
  }
  auto* plan = dynamic_cast<TypedBoxExchange*>(prepared.get());
  if (!plan || plan->element_size != element_size || plan->limit_bytes != message_chunk_bytes()) {
    prepared.reset();
    auto made = typed_plan(exchange, element_size, limit, comm_.rank());
    plan = made.get();
    prepared = std::move(made);
  }
  copy_own_box(*this, exchange, element_size, source, destination);
  if (comm_.size() == 1) return;
  const log_view::ScopedEvent event(log_view::EventKind::collective, "MPI_Alltoallw");
  // A side that moves nothing may have no buffer; MPI still wants valid pointers.
  static std::byte nothing_sent, nothing_received;
  detail::check_mpi(
      MPI_Alltoallw(source != nullptr ? source : &nothing_sent, plan->send_counts.data(),
                    plan->displacements.data(), plan->send_types.data(),
                    destination != nullptr ? destination : &nothing_received,
                    plan->receive_counts.data(), plan->displacements.data(),
                    plan->receive_types.data(), comm_.native()),
      "MPI_Alltoallw");
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
