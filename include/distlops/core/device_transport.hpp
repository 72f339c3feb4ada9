// SPDX-License-Identifier: BSD-3-Clause
// Copyright (c) 2026 The distlops authors
#pragma once
/// \file device_transport.hpp
/// The transports of device memory (builds with the CUDA backend only): `DeviceTransport`
/// holds what they share, box copies by the device kernels and workspaces in device memory kept
/// for reuse; `StagedTransport` moves the bytes through host buffers over MPI (the MPI may not
/// be CUDA-aware); `NcclTransport` (nccl_communicator.hpp) moves them over NCCL.
/// make_transport<Cuda>() (transport.hpp) chooses between them.

#include "distlops/config.hpp"

#if !DISTLOPS_WITH_CUDA
#error "distlops/core/device_transport.hpp needs a build of distlops with the CUDA backend"
#endif

#include <cstddef>
#include <span>
#include <vector>

#include "distlops/core/buffer.hpp"
#include "distlops/core/transport.hpp"

namespace distlops {

/// What the device transports share: box copies by the device kernels and device workspaces
/// kept for reuse.
class DeviceTransport : public Transport {
 public:
  void copy_box(std::size_t element_size, const void* source, kernels::BoxView source_box,
                void* destination, kernels::BoxView destination_box,
                std::span<const Index> extent) override;
  std::byte* workspace(int slot, std::size_t bytes) override;

 private:
  std::vector<Buffer<std::byte, Cuda>> workspaces_;
};

/// Device memory through host memory: every collective copies what this rank sends to host
/// buffers (kept between calls), runs the MPI call on them and copies what arrived back to the
/// device. A communicator of one rank copies on the device. Every call completes before it
/// returns: start() returns an empty request.
class StagedTransport final : public DeviceTransport {
 public:
  /// A transport over `comm`'s ranks; making it costs no communication.
  explicit StagedTransport(Communicator comm) : comm_(std::move(comm)) {}

  TransportKind kind() const override { return TransportKind::staged; }
  const Communicator& communicator() const override { return comm_; }
  void allreduce(float* data, Index count, ReduceOp op) override;
  void allreduce(double* data, Index count, ReduceOp op) override;
  void allgather(const std::byte* send, Index bytes, std::byte* recv) override;
  void allgatherv(const std::byte* send, Index send_bytes, std::byte* recv,
                  std::span<const Index> counts, std::span<const Index> displacements) override;
  void alltoallv(const std::byte* send, std::span<const Index> send_counts,
                 std::span<const Index> send_displacements, std::byte* recv,
                 std::span<const Index> recv_counts,
                 std::span<const Index> recv_displacements) override;
  [[nodiscard]] Request start(std::span<const ReceiveMessage> receives,
                              std::span<const SendMessage> sends) override;

 private:
  template <class R>
  void allreduce_staged(R* data, Index count, ReduceOp op);
  std::byte* host_send(std::size_t bytes);
  std::byte* host_receive(std::size_t bytes);

  Communicator comm_;
  std::vector<std::byte> send_stage_, receive_stage_;
};

namespace detail {
struct DeviceSharing;  // detail/device_sharing.hpp

/// How comm's ranks share devices (detail/device_sharing.hpp), from every rank's device and
/// NCCL version. Collective over comm the first time for its group of ranks, kept afterwards;
/// the same verdict on every rank.
DeviceSharing device_sharing_of(const Communicator& comm);

/// Whether NCCL can form a communicator over comm's ranks: false where two of them share a
/// device and NCCL is older than 2.30 or NCCL_MULTI_RANK_GPU_ENABLE=1 is missing on a rank.
/// Collective as device_sharing_of.
bool nccl_can_form_communicator(const Communicator& comm);
}  // namespace detail

}  // namespace distlops
