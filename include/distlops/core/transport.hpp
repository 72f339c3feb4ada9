#pragma once
/// \file transport.hpp
/// `Transport`: how the plans of redistribute.hpp and ghost_cells.hpp carry out their data
/// movement. A plan computes once which boxes of which block go to which rank; a transport
/// provides the memory space of the buffers (box copies, scratch memory) and the messages
/// between ranks. The plans' algorithms are thus written once for every space:
/// `MpiTransport` moves host memory over MPI; the CUDA backend's `NcclTransport`
/// (nccl_communicator.hpp) moves device memory over NCCL.

#include <cstddef>
#include <span>
#include <utility>
#include <vector>

#include "distlops/core/communicator.hpp"
#include "distlops/core/kernels.hpp"
#include "distlops/core/types.hpp"

namespace distlops {

/// A point-to-point message of a batch: `bytes` bytes to or from `peer`. Messages between two
/// ranks are matched in the order they are posted; MPI transports also match the tag.
struct SendMessage {
  const std::byte* data;
  Index bytes;
  int peer;
  int tag;
};
struct ReceiveMessage {
  std::byte* data;
  Index bytes;
  int peer;
  int tag;
};

class Transport {
 public:
  virtual ~Transport() = default;

  /// The communicator whose ranks the peers, counts and displacements refer to.
  virtual const Communicator& communicator() const = 0;

  /// kernels::copy_box in this transport's memory space.
  virtual void copy_box(std::size_t element_size, const void* source, kernels::BoxView source_box,
                        void* destination, kernels::BoxView destination_box,
                        std::span<const Index> extent) = 0;

  /// At least `bytes` bytes of scratch memory in this transport's space, owned by the
  /// transport. Slots are independent; a slot's memory grows on demand, and a request for no
  /// more bytes than it holds returns the same memory with its content.
  virtual std::byte* workspace(int slot, std::size_t bytes) = 0;

  /// Collective: rank r contributes `send_bytes` bytes (counts[r] on every rank), placed at
  /// byte offset displacements[r] of `recv` on every rank.
  virtual void allgatherv(const std::byte* send, Index send_bytes, std::byte* recv,
                          std::span<const Index> counts, std::span<const Index> displacements) = 0;

  /// Collective: rank r sends send_counts[q] bytes at send_displacements[q] to rank q and
  /// receives recv_counts[q] bytes from rank q at recv_displacements[q].
  virtual void alltoallv(const std::byte* send, std::span<const Index> send_counts,
                         std::span<const Index> send_displacements, std::byte* recv,
                         std::span<const Index> recv_counts,
                         std::span<const Index> recv_displacements) = 0;

  /// Starts a batch of receives and sends: every message of this rank for one exchange. The
  /// returned request completes the batch: MPI transports return the pending operations;
  /// device transports complete in the order of their stream (all later work on it sees the
  /// data) and return an empty request. Buffers must stay untouched until completion.
  [[nodiscard]] virtual Request start(std::span<const ReceiveMessage> receives,
                                      std::span<const SendMessage> sends) = 0;
};

/// Host memory over MPI (the communicator's typed calls, chunked above the message limit).
class MpiTransport final : public Transport {
 public:
  explicit MpiTransport(Communicator comm) : comm_(std::move(comm)) {}

  const Communicator& communicator() const override { return comm_; }
  void copy_box(std::size_t element_size, const void* source, kernels::BoxView source_box,
                void* destination, kernels::BoxView destination_box,
                std::span<const Index> extent) override;
  std::byte* workspace(int slot, std::size_t bytes) override;
  void allgatherv(const std::byte* send, Index send_bytes, std::byte* recv,
                  std::span<const Index> counts, std::span<const Index> displacements) override;
  void alltoallv(const std::byte* send, std::span<const Index> send_counts,
                 std::span<const Index> send_displacements, std::byte* recv,
                 std::span<const Index> recv_counts,
                 std::span<const Index> recv_displacements) override;
  [[nodiscard]] Request start(std::span<const ReceiveMessage> receives,
                              std::span<const SendMessage> sends) override;

 private:
  Communicator comm_;
  std::vector<std::vector<std::byte>> workspaces_;
};

}  // namespace distlops
