// SPDX-License-Identifier: BSD-3-Clause
// Copyright (c) 2026 The distlops authors
// The transports of device memory and the Cuda space's transport factory (transport.hpp): the
// one place that decides whether device data go over NCCL or through host memory.
#include "distlops/core/device_transport.hpp"

#include <algorithm>
#include <atomic>
#include <cstdint>
#include <cstring>
#include <iostream>
#include <map>
#include <mutex>
#include <string>
#include <utility>

#include "distlops/core/collective_check.hpp"
#include "distlops/core/cuda_context.hpp"
#include "distlops/core/detail/cuda_check.hpp"
#include "distlops/core/detail/device_sharing.hpp"
#include "distlops/core/detail/group_key.hpp"
#include "distlops/core/gpu_collectives.hpp"
#if DISTLOPS_WITH_NCCL
#include "distlops/core/nccl_communicator.hpp"
#endif

namespace distlops {

// ---- what device transports share ------------------------------------------------------------

void DeviceTransport::copy_box(std::size_t element_size, const void* source,
                               kernels::BoxView source_box, void* destination,
                               kernels::BoxView destination_box, std::span<const Index> extent) {
  kernels::copy_box(Cuda{}, element_size, source, source_box, destination, destination_box, extent);
}

std::byte* DeviceTransport::workspace(int slot, std::size_t bytes) {
  if (slot < 0) throw InvalidArgument("device transport: negative workspace slot");
  const auto index = static_cast<std::size_t>(slot);
  if (workspaces_.size() <= index) workspaces_.resize(index + 1);
  if (workspaces_[index].bytes() < bytes) {
    // The old buffer is freed first: cudaFree waits for the work that may still use it.
    workspaces_[index] = Buffer<std::byte, Cuda>();
    workspaces_[index] = Buffer<std::byte, Cuda>(static_cast<Index>(bytes));
  }
  return workspaces_[index].data();
}

// ---- staged through host memory ----------------------------------------------------------------

namespace {

std::byte* grown(std::vector<std::byte>& stage, std::size_t bytes) {
  if (stage.size() < bytes) stage.resize(bytes);
  return stage.data();
}

void to_host(std::byte* host, const std::byte* device, Index bytes) {
  memory::copy_bytes<Host, Cuda>(host, device, static_cast<std::size_t>(bytes));
}

void to_device(std::byte* device, const std::byte* host, Index bytes) {
  memory::copy_bytes<Cuda, Host>(device, host, static_cast<std::size_t>(bytes));
}

// The bytes a set of (count, displacement) regions spans from the start of its buffer.
Index extent_of(std::span<const Index> counts, std::span<const Index> displacements) {
  Index extent = 0;
  for (std::size_t r = 0; r < counts.size(); ++r) {
    if (counts[r] > 0) extent = std::max(extent, displacements[r] + counts[r]);
  }
  return extent;
}

}  // namespace

std::byte* StagedTransport::host_send(std::size_t bytes) {
  return grown(send_stage_, bytes);
}

std::byte* StagedTransport::host_receive(std::size_t bytes) {
  return grown(receive_stage_, bytes);
}

template <class R>
void StagedTransport::allreduce_staged(R* data, Index count, ReduceOp op) {
  if (count == 0 || comm_.size() == 1) return;
  const Index bytes = count * Index(sizeof(R));
  R* host = reinterpret_cast<R*>(host_send(static_cast<std::size_t>(bytes)));
  to_host(reinterpret_cast<std::byte*>(host), reinterpret_cast<const std::byte*>(data), bytes);
  comm_.allreduce(host, host, count, op);
  to_device(reinterpret_cast<std::byte*>(data), reinterpret_cast<const std::byte*>(host), bytes);
}

void StagedTransport::allreduce(float* data, Index count, ReduceOp op) {
  allreduce_staged(data, count, op);
}

void StagedTransport::allreduce(double* data, Index count, ReduceOp op) {
  allreduce_staged(data, count, op);
}

void StagedTransport::allgather(const std::byte* send, Index bytes, std::byte* recv) {
  if (bytes == 0) return;
  if (comm_.size() == 1) {
    memory::copy_bytes<Cuda, Cuda>(recv, send, static_cast<std::size_t>(bytes));
    return;
  }
  std::byte* staged = host_send(static_cast<std::size_t>(bytes));
  std::byte* gathered = host_receive(static_cast<std::size_t>(bytes * comm_.size()));
  to_host(staged, send, bytes);
  comm_.allgather(staged, bytes, gathered);
  to_device(recv, gathered, bytes * comm_.size());
}

void StagedTransport::allgatherv(const std::byte* send, Index send_bytes, std::byte* recv,
                                 std::span<const Index> counts,
                                 std::span<const Index> displacements) {
  if (comm_.size() == 1) {
    if (counts[0] > 0) {
      memory::copy_bytes<Cuda, Cuda>(recv + displacements[0], send,
                                     static_cast<std::size_t>(counts[0]));
    }
    return;
  }
  const Index extent = extent_of(counts, displacements);
  std::byte* staged = host_send(static_cast<std::size_t>(send_bytes));
  std::byte* gathered = host_receive(static_cast<std::size_t>(extent));
  to_host(staged, send, send_bytes);
  comm_.allgatherv(staged, send_bytes, gathered, counts, displacements);
  // Only the gathered regions: the rest of recv is not this call's to write.
  for (std::size_t r = 0; r < counts.size(); ++r) {
    if (counts[r] > 0) to_device(recv + displacements[r], gathered + displacements[r], counts[r]);
  }
}

void StagedTransport::alltoallv(const std::byte* send, std::span<const Index> send_counts,
                                std::span<const Index> send_displacements, std::byte* recv,
                                std::span<const Index> recv_counts,
                                std::span<const Index> recv_displacements) {
  if (comm_.size() == 1) {
    if (send_counts[0] > 0) {
      memory::copy_bytes<Cuda, Cuda>(recv + recv_displacements[0], send + send_displacements[0],
                                     static_cast<std::size_t>(send_counts[0]));
    }
    return;
  }
  const Index send_extent = extent_of(send_counts, send_displacements);
  const Index recv_extent = extent_of(recv_counts, recv_displacements);
  std::byte* staged = host_send(static_cast<std::size_t>(send_extent));
  std::byte* arrived = host_receive(static_cast<std::size_t>(recv_extent));
  to_host(staged, send, send_extent);
  comm_.alltoallv(staged, send_counts, send_displacements, arrived, recv_counts,
                  recv_displacements);
  for (std::size_t r = 0; r < recv_counts.size(); ++r) {
    if (recv_counts[r] > 0)
      to_device(recv + recv_displacements[r], arrived + recv_displacements[r], recv_counts[r]);
  }
}

Request StagedTransport::start(std::span<const ReceiveMessage> receives,
                               std::span<const SendMessage> sends) {
  // One host buffer for the sends and one for the receives, each message at its own offset.
  Index send_total = 0, receive_total = 0;
  for (const SendMessage& message : sends)
    send_total += message.bytes;
  for (const ReceiveMessage& message : receives)
    receive_total += message.bytes;
  std::byte* staged = host_send(static_cast<std::size_t>(send_total));
  std::byte* arrived = host_receive(static_cast<std::size_t>(receive_total));
  Request all;
  Index offset = 0;
  for (const ReceiveMessage& message : receives) {
    if (message.bytes > 0)
      all.merge(comm_.irecv(arrived + offset, message.bytes, message.peer, message.tag));
    offset += message.bytes;
  }
  offset = 0;
  for (const SendMessage& message : sends) {
    if (message.bytes > 0) {
      to_host(staged + offset, message.data, message.bytes);
      all.merge(comm_.isend(staged + offset, message.bytes, message.peer, message.tag));
    }
    offset += message.bytes;
  }
  all.wait();
  offset = 0;
  for (const ReceiveMessage& message : receives) {
    if (message.bytes > 0) to_device(message.data, arrived + offset, message.bytes);
    offset += message.bytes;
  }
  return Request();
}

// ---- which path: ranks that share a device -----------------------------------------------------

namespace {

// This rank's report on its device, for the verdict on shared devices.
detail::DeviceReport own_device_report() {
  detail::DeviceReport report;
  cudaDeviceProp properties{};
  cuda::check_cuda(cudaGetDeviceProperties(&properties, cuda::Context::get().device()),
                   "cudaGetDeviceProperties");
  static_assert(sizeof properties.uuid.bytes == sizeof report.uuid);
  std::memcpy(report.uuid.data(), properties.uuid.bytes, report.uuid.size());
#if DISTLOPS_WITH_NCCL
  report.nccl_version = NcclCommunicator::library_version();
#endif
  report.multi_rank_gpu_enabled = detail::multi_rank_gpu_enabled_in_environment() ? 1 : 0;
  return report;
}

std::string version_text(int code) {
  return std::to_string(code / 10000) + "." + std::to_string(code / 100 % 100) + "." +
         std::to_string(code % 100);
}

// Rank 0 of the first communicator that falls back says so, once per process.
void tell_about_fallback(const Communicator& comm, const detail::DeviceSharing& verdict,
                         const detail::DeviceReport& mine) {
  static std::atomic<bool> told{false};
  if (verdict.nccl_possible || comm.rank() != 0 || told.exchange(true)) return;
  const bool recent = mine.nccl_version >= detail::nccl_multi_rank_gpu_version;
  std::cerr << "distlops: ranks " << verdict.first_rank << " and " << verdict.second_rank
            << " of a communicator of " << comm.size() << " ranks share one GPU, which NCCL "
            << version_text(mine.nccl_version)
            << (recent
                    ? " serves only with NCCL_MULTI_RANK_GPU_ENABLE=1 on every rank"
                    : " cannot serve (NCCL 2.30 or newer can, with NCCL_MULTI_RANK_GPU_ENABLE=1)")
            << ": collectives on device data over such ranks are staged through host memory and "
               "MPI instead\n";
}

// How comm's ranks share devices. Decided once per group of ranks from every rank's report,
// gathered over comm: every rank of the group reaches the same verdict.
detail::DeviceSharing sharing_of(const Communicator& comm) {
  if (comm.size() == 1) return {};
  static auto* const verdicts = new std::map<int, detail::DeviceSharing>();  // never destroyed
  static std::mutex mutex;
  const int key = detail::group_key(comm);
  {
    const std::lock_guard<std::mutex> lock(mutex);
    const auto found = verdicts->find(key);
    if (found != verdicts->end()) return found->second;
  }
  detail::DeviceReport mine;
  collective_check(comm, [&] { mine = own_device_report(); });
  std::vector<detail::DeviceReport> reports(static_cast<std::size_t>(comm.size()));
  comm.allgather(reinterpret_cast<const std::uint8_t*>(&mine), Index(sizeof mine),
                 reinterpret_cast<std::uint8_t*>(reports.data()));
  const detail::DeviceSharing verdict = detail::assess_device_sharing(reports);
  tell_about_fallback(comm, verdict, mine);
  const std::lock_guard<std::mutex> lock(mutex);
  return verdicts->try_emplace(key, verdict).first->second;
}

}  // namespace

GpuCollectives gpu_collectives_for(const Communicator& comm) {
  if (gpu_collectives() == GpuCollectives::mpi) return GpuCollectives::mpi;
  return sharing_of(comm).nccl_possible ? GpuCollectives::nccl : GpuCollectives::mpi;
}

namespace detail {
DeviceSharing device_sharing_of(const Communicator& comm) {
  return sharing_of(comm);
}

bool nccl_can_form_communicator(const Communicator& comm) {
  return sharing_of(comm).nccl_possible;
}
}  // namespace detail

// ---- the factory --------------------------------------------------------------------------------

template <>
TransportKind transport_kind<Cuda>(const Communicator& comm) {
  return gpu_collectives_for(comm) == GpuCollectives::nccl ? TransportKind::nccl
                                                           : TransportKind::staged;
}

template <>
std::unique_ptr<Transport> make_transport<Cuda>(const Communicator& comm) {
#if DISTLOPS_WITH_NCCL
  if (transport_kind<Cuda>(comm) == TransportKind::nccl)
    return std::make_unique<NcclTransport>(detail::nccl_of(comm));
#endif
  return std::make_unique<StagedTransport>(comm);
}

template <>
std::shared_ptr<Transport> transport_for<Cuda>(const Communicator& comm) {
  // Never destroyed: device memory and NCCL communicators are not released during static
  // destruction, after which the CUDA runtime may be gone. Kept per kind and group of ranks
  // (group_key: one attribute lookup per call, no group calls).
  using Key = std::pair<TransportKind, int>;
  static auto* const kept = new std::map<Key, std::shared_ptr<Transport>>();
  static std::mutex mutex;
  const Key key{transport_kind<Cuda>(comm), detail::group_key(comm)};
  {
    const std::lock_guard<std::mutex> lock(mutex);
    const auto found = kept->find(key);
    if (found != kept->end()) return found->second;
  }
  // The kept transport outlives `comm`, which may be a handle the application frees: it works
  // on a duplicate of its own (collective, as the first use of a group is).
  std::shared_ptr<Transport> made(make_transport<Cuda>(comm.duplicate()));
  const std::lock_guard<std::mutex> lock(mutex);
  return kept->try_emplace(key, std::move(made)).first->second;
}

}  // namespace distlops
