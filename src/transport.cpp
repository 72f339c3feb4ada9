// SPDX-License-Identifier: BSD-3-Clause
// Copyright (c) 2026 The distlops authors
#include "distlops/core/transport.hpp"

#include <string>

#include "distlops/core/detail/enum_names.hpp"
#include "distlops/core/error.hpp"

namespace distlops {

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
