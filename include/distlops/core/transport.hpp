// SPDX-License-Identifier: BSD-3-Clause
// Copyright (c) 2026 The distlops authors
#pragma once
/// \file transport.hpp
/// `Transport`: the one object that moves a memory space's data between ranks. Plans
/// (reshape_plan.hpp, ghost_cells.hpp), operators and solvers describe what goes where; a
/// transport provides the memory space of the buffers (box copies, scratch memory), the
/// collectives and the messages. Every algorithm is thus written once for every space, and
/// none of them decides how the bytes travel:
///
/// | kind     | memory | how                                                            |
/// |----------|--------|----------------------------------------------------------------|
/// | `mpi`    | host   | MPI on the buffers (`MpiTransport`)                             |
/// | `nccl`   | device | NCCL on the device buffers (`NcclTransport`, CUDA backend)      |
/// | `staged` | device | copies through host memory and MPI (the MPI may not be CUDA-aware) |
///
/// `make_transport<Space>(comm)` is the one place that chooses: host memory always goes over
/// MPI; device memory goes over NCCL when gpu_collectives_for(comm) says so (the setting,
/// unless comm's ranks share a device NCCL cannot serve), staged otherwise.

#include <array>
#include <cstddef>
#include <span>
#include <utility>
#include <vector>

#include <memory>

#include "distlops/core/communicator.hpp"
#include "distlops/core/error.hpp"
#include "distlops/core/kernels.hpp"
#include "distlops/core/memory_space.hpp"
#include "distlops/core/types.hpp"

namespace distlops {

/// A point-to-point message of a batch: `bytes` bytes to or from `peer`. Messages between two
/// ranks are matched in the order they are posted; MPI transports also match the tag.
struct SendMessage {
  const std::byte* data;  ///< The bytes to send, in the transport's memory space.
  Index bytes;            ///< How many.
  int peer;               ///< The receiving rank of the transport's communicator.
  int tag;                ///< The MPI tag (ignored by NCCL).
};
/// A receive of a batch: `bytes` bytes from `peer` into `data` (see SendMessage).
struct ReceiveMessage {
  std::byte* data;  ///< Where the bytes go, in the transport's memory space.
  Index bytes;      ///< How many.
  int peer;         ///< The sending rank of the transport's communicator.
  int tag;          ///< The MPI tag (ignored by NCCL).
};

/// The workspace slots (Transport::workspace) the library's own code takes: a plan's outgoing
/// and incoming buffers (reshape_plan.hpp, ghost_cells.hpp) and the one-element reductions of
/// arrays. Code sharing one transport (transport_for) thus never takes another's slot.
struct WorkspaceSlot {
  static constexpr int outgoing = 0;   ///< Data packed for sending.
  static constexpr int incoming = 1;   ///< Data received before unpacking.
  static constexpr int reduction = 2;  ///< One-element reductions of arrays.
};

/// A box of a rank's local block: its corner in the block's coordinates, its extent, and its
/// number of elements (0: nothing).
struct BlockBox {
  Shape corner;     ///< First index along every axis of the block.
  Shape extent;     ///< Extent along every axis.
  Index count = 0;  ///< Product of the extents.
};

/// What one all-to-all of boxes moves (a reshape's, ReshapePlan): this rank's source and
/// destination blocks (C order), and per rank q of the communicator the box of the source block
/// that goes to q and the box of the destination block that comes from q. The calling rank's own
/// pair is copied locally.
struct BoxExchange {
  Shape source_block;              ///< Shape of this rank's source block.
  Shape destination_block;         ///< Shape of this rank's destination block.
  std::vector<BlockBox> sends;     ///< Per rank: the box of the source block that goes there.
  std::vector<BlockBox> receives;  ///< Per rank: the box of the destination block it fills.
};

/// What a transport derives once from a BoxExchange for one element size and keeps for the next
/// exchanges of the same boxes (MPI datatypes, message sizes): owned by the caller, opaque.
class PreparedBoxExchange {
 public:
  /// Frees what the transport derived (datatypes, counts).
  virtual ~PreparedBoxExchange() = default;
};

/// How a transport moves its bytes (see the table above).
enum class TransportKind {
  mpi,     ///< Host memory over MPI.
  nccl,    ///< Device memory over NCCL.
  staged,  ///< Device memory copied through host memory and sent over MPI.
};

/// "mpi", "nccl" or "staged".
const char* to_string(TransportKind kind);

/// Moves one memory space's data between the ranks of one communicator: box copies, scratch
/// memory, collectives and point-to-point batches. Made by make_transport(); not thread-safe.
class Transport {
 public:
  /// Frees the transport's workspaces (and buffers of its own).
  virtual ~Transport() = default;

  /// How this transport moves its bytes.
  virtual TransportKind kind() const = 0;

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

  /// Collective, in place: data[i] = op over the ranks of data[i], for `count` reals in this
  /// transport's memory space.
  virtual void allreduce(float* data, Index count, ReduceOp op) = 0;
  /// As allreduce(float*, Index, ReduceOp), for doubles.
  virtual void allreduce(double* data, Index count, ReduceOp op) = 0;

  /// Collective: every rank contributes `bytes` bytes; recv holds size() * bytes, in rank order.
  virtual void allgather(const std::byte* send, Index bytes, std::byte* recv) = 0;

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

  /// Collective: every rank sends its exchange.sends[q] box of `source` (a block of
  /// exchange.source_block) to rank q, which receives it into its exchange.receives[r] box of
  /// `destination` (a block of exchange.destination_block), in one all-to-all; the calling
  /// rank's own box is copied. `prepared` keeps what this transport derives from `exchange` for
  /// elements of `element_size` bytes: made on the first call (and again when it was made by a
  /// transport of another kind, for another element size or another message limit), so that
  /// later calls allocate nothing. The default packs the boxes into workspaces, runs
  /// alltoallv() and unpacks (boxes contiguous in their blocks move in place); MpiTransport
  /// describes them with MPI datatypes instead and packs nothing. `source` and `destination`
  /// must not overlap.
  virtual void exchange_boxes(const BoxExchange& exchange, std::size_t element_size,
                              const void* source, void* destination,
                              std::unique_ptr<PreparedBoxExchange>& prepared);

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
  /// A transport over `comm`'s ranks; making it costs no communication.
  explicit MpiTransport(Communicator comm) : comm_(std::move(comm)) {}

  TransportKind kind() const override { return TransportKind::mpi; }
  const Communicator& communicator() const override { return comm_; }
  void allreduce(float* data, Index count, ReduceOp op) override;
  void allreduce(double* data, Index count, ReduceOp op) override;
  void allgather(const std::byte* send, Index bytes, std::byte* recv) override;
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
  /// One MPI_Alltoallw. As host_box_transfer() says: boxes not contiguous in their blocks are
  /// packed into workspaces around it (the default), or every box is described in place by a
  /// datatype (offsets as MPI_Aint, blocks above the message limit nested,
  /// message_datatype.hpp). With a message limit below two elements, the default's packed
  /// path through alltoallv().
  void exchange_boxes(const BoxExchange& exchange, std::size_t element_size, const void* source,
                      void* destination, std::unique_ptr<PreparedBoxExchange>& prepared) override;

 private:
  Communicator comm_;
  std::vector<std::vector<std::byte>> workspaces_;
  // The reduction slot of one-element reductions: in the object, so that the per-call host
  // transport of an array's dot or norm allocates nothing beyond itself.
  alignas(std::max_align_t) std::array<std::byte, 64> reduction_slot_{};
};

/// How MpiTransport moves the boxes of a reshape (Transport::exchange_boxes) that are not
/// contiguous in their blocks. Either way the reshape is one MPI_Alltoallw, and boxes that are
/// contiguous move in place.
enum class HostBoxTransfer {
  /// Packed into (and unpacked from) contiguous workspaces by the library's box copies, so that
  /// MPI moves contiguous blocks: Open MPI's shared-memory transport then copies each block
  /// once (its single-copy path), where it moves derived datatypes in 32 KiB fragments. The
  /// default: 512^3 float64 slabs to pencils at 2 ranks took 1.2 to 1.35 times one
  /// MPI_Alltoallv of the same bytes packed, 2.1 to 2.6 times with datatypes
  /// (docs/benchmarks.md).
  packed,
  /// Described in place by MPI derived datatypes: no copy of the library's, for MPIs and
  /// networks whose datatype engines move strided data at full speed.
  datatypes,
};

/// Sets how MpiTransport moves boxes that are not contiguous (every rank must set the same).
/// The default is DISTLOPS_HOST_BOX_TRANSFER (`packed` or `datatypes`), else packed.
void set_host_box_transfer(HostBoxTransfer transfer);
/// The current HostBoxTransfer.
HostBoxTransfer host_box_transfer();

/// In-place sum (or another `op`) over the ranks of `count` values at `data`, memory of the
/// transport's space. Complex values are reduced as pairs of reals, which only a sum allows.
template <Scalar T>
void allreduce_in_place(Transport& transport, T* data, Index count, ReduceOp op) {
  using R = real_type_t<T>;
  if constexpr (is_complex_v<T>) {
    if (op != ReduceOp::sum)
      throw InvalidArgument("allreduce: complex values can only be summed across ranks");
  }
  if (count == 0) return;
  transport.allreduce(reinterpret_cast<R*>(data), count * Index(sizeof(T) / sizeof(R)), op);
}

/// The kind of transport that carries data of Space over `comm` now: mpi for host memory; for
/// device memory nccl when gpu_collectives_for(comm) says so, staged otherwise. The same on
/// every rank of comm; collective the first time NCCL is asked for on comm's group of ranks.
template <MemorySpace Space>
TransportKind transport_kind(const Communicator& comm);
/// Host memory: always TransportKind::mpi.
template <>
TransportKind transport_kind<Host>(const Communicator& comm);
/// Device memory: TransportKind::nccl or TransportKind::staged (see the primary template).
template <>
TransportKind transport_kind<Cuda>(const Communicator& comm);

/// A new transport of that kind for comm's ranks. Collective when it creates an NCCL
/// communicator (the first time for comm's group of ranks).
template <MemorySpace Space>
std::unique_ptr<Transport> make_transport(const Communicator& comm);
/// Host memory: an MpiTransport.
template <>
std::unique_ptr<Transport> make_transport<Host>(const Communicator& comm);
/// Device memory: an NcclTransport or a StagedTransport, as transport_kind<Cuda>() says.
template <>
std::unique_ptr<Transport> make_transport<Cuda>(const Communicator& comm);

/// The transport the process keeps for one-shot collectives on comm (an array's
/// redistribution, ghost cells, sums): device transports are made once per group of ranks and
/// kind (on a duplicate of comm, collectively), so that repeated calls allocate nothing and
/// look up their transport without MPI group calls; host transports are made per call, as they
/// cost nothing to make and should keep no scratch memory after it.
template <MemorySpace Space>
std::shared_ptr<Transport> transport_for(const Communicator& comm);
/// Host memory: a new MpiTransport per call.
template <>
std::shared_ptr<Transport> transport_for<Host>(const Communicator& comm);
/// Device memory: the kept transport of comm's group of ranks and the current kind.
template <>
std::shared_ptr<Transport> transport_for<Cuda>(const Communicator& comm);

/// The transport an object keeps between calls (an operator's exchanges): made on first use and
/// made anew when transport_kind() changes (set_gpu_collectives() between applies). Not
/// thread-safe, like the objects that hold it.
template <MemorySpace Space>
class KeptTransport {
 public:
  /// The kept transport over `comm`, made (collectively, for NCCL) when there is none yet or
  /// its kind is no longer the one transport_kind<Space>(comm) asks for.
  Transport& operator()(const Communicator& comm) const {
    if (!transport_ || transport_->kind() != transport_kind<Space>(comm)) {
      transport_.reset();  // first: device workspaces are freed before new ones are made
      transport_ = make_transport<Space>(comm);
    }
    return *transport_;
  }

 private:
  mutable std::unique_ptr<Transport> transport_;
};

}  // namespace distlops
