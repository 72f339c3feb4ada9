// SPDX-License-Identifier: BSD-3-Clause
// Copyright (c) 2026 The distlops authors
#pragma once
/// \file nccl_communicator.hpp
/// `NcclCommunicator`: typed NCCL collectives and point-to-point transfers on device memory
/// over the ranks of a Communicator (builds with NCCL only). It is built collectively from the
/// Communicator: rank 0 creates the unique id, which is broadcast over MPI. Operations are
/// enqueued on the library's stream (cuda_context.hpp) and complete in its order; they return
/// without waiting. Complex values travel as pairs of reals (reductions: sum only). Zero-size
/// transfers are never issued. Failures raise CommunicationError naming the NCCL call.
///
/// A failed peer shows as an asynchronous NCCL error: while a communicator of several ranks is
/// alive, waits on the library's stream poll for it (cuda::Context::set_wait_check), abort the
/// communicator that reports one (ncclCommAbort) and raise CommunicationError, instead of
/// waiting forever. An aborted communicator is dead: every later operation on it raises.
///
/// `NcclTransport` is the transport (transport.hpp) of device memory over NCCL.

#include "distlops/config.hpp"

#if !DISTLOPS_WITH_NCCL
#error \
    "distlops/core/nccl_communicator.hpp needs a build of distlops with the CUDA backend and NCCL"
#endif

#include <complex>
#include <cstddef>
#include <memory>
#include <span>
#include <type_traits>
#include <vector>

#include "distlops/core/buffer.hpp"
#include "distlops/core/communicator.hpp"
#include "distlops/core/device_transport.hpp"

namespace distlops {

namespace detail {

/// NCCL's element types used here.
enum class NcclElement { int8, uint8, int32, uint32, int64, uint64, float32, float64 };

/// What a typed call forwards: pointer, count in NCCL elements (two per complex value), the
/// element type, whether the values are complex, and the bytes of one value.
struct NcclBuffer {
  const void* data;
  std::size_t count;
  NcclElement element;
  bool complex;
  std::size_t value_size;
};

template <class T>
concept NcclTransferable = std::is_same_v<T, float> || std::is_same_v<T, double> ||
    std::is_same_v<T, std::complex<float>> || std::is_same_v<T, std::complex<double>> ||
    std::is_same_v<T, std::byte> ||(std::is_integral_v<T> && !std::is_same_v<T, bool> &&
                                    (sizeof(T) == 1 || sizeof(T) == 4 || sizeof(T) == 8));

template <NcclTransferable T>
constexpr NcclElement nccl_element() {
  using R = real_type_t<T>;
  if constexpr (std::is_same_v<R, float>) {
    return NcclElement::float32;
  } else if constexpr (std::is_same_v<R, double>) {
    return NcclElement::float64;
  } else if constexpr (std::is_same_v<T, std::byte>) {
    return NcclElement::uint8;
  } else if constexpr (sizeof(T) == 1) {
    return std::is_signed_v<T> ? NcclElement::int8 : NcclElement::uint8;
  } else if constexpr (sizeof(T) == 4) {
    return std::is_signed_v<T> ? NcclElement::int32 : NcclElement::uint32;
  } else {
    return std::is_signed_v<T> ? NcclElement::int64 : NcclElement::uint64;
  }
}

template <NcclTransferable T>
NcclBuffer nccl_typed(const T* data, Index count) {
  constexpr bool complex = is_complex_v<T>;
  return {data, static_cast<std::size_t>(count < 0 ? 0 : count) * (complex ? 2 : 1),
          nccl_element<T>(), complex, sizeof(T)};
}

}  // namespace detail

/// Typed NCCL collectives and point-to-point transfers on device memory over the ranks of a
/// Communicator. A cheap-to-copy handle: copies share the NCCL communicator.
class NcclCommunicator {
 public:
  /// Collective over `comm`: every rank makes sure it has its device (a rank without one makes
  /// every rank raise DeviceError), then the NCCL communicator is created with comm's ranks.
  /// A communicator of one rank needs no NCCL communicator: its operations are local copies.
  explicit NcclCommunicator(const Communicator& comm);

  /// The version of the NCCL library loaded (ncclGetVersion's code, 22809 for 2.28.9).
  static int library_version();

  /// Whether the communicator was aborted after an asynchronous error (its operations raise).
  bool aborted() const;

  /// The MPI communicator it was built from.
  const Communicator& mpi() const;
  /// This process's rank (that of mpi()).
  int rank() const;
  /// Number of ranks (that of mpi()).
  int size() const;

  /// recv[i] = op over ranks of send[i] (device memory; send == recv reduces in place).
  /// Complex values: sum only. Logical operations: none in NCCL (InvalidArgument).
  template <detail::NcclTransferable T>
  void allreduce(const T* send, T* recv, Index count, ReduceOp op) const {
    allreduce_raw(detail::nccl_typed(send, count), recv, op);
  }
  /// Copies rank `root`'s `count` values at `data` (device memory) into `data` on every rank.
  template <detail::NcclTransferable T>
  void broadcast(T* data, Index count, int root) const {
    broadcast_raw(detail::nccl_typed(data, count), root);
  }
  /// Every rank contributes `count` values; recv holds size() * count, in rank order.
  template <detail::NcclTransferable T>
  void allgather(const T* send, Index count, T* recv) const {
    allgather_raw(detail::nccl_typed(send, count), recv);
  }
  /// Rank r contributes counts[r] values (`count` on this rank), placed at displacements[r] of
  /// recv on every rank: one ncclAllGather where every rank contributes the same count in rank
  /// order, else one group of broadcasts, one per rank that contributes something.
  template <detail::NcclTransferable T>
  void allgatherv(const T* send, Index count, T* recv, std::span<const Index> counts,
                  std::span<const Index> displacements) const {
    allgatherv_raw(detail::nccl_typed(send, count), recv, counts, displacements);
  }
  /// One group of sends and receives (this rank's own part is copied on the device).
  template <detail::NcclTransferable T>
  void alltoallv(const T* send, std::span<const Index> send_counts,
                 std::span<const Index> send_displacements, T* recv,
                 std::span<const Index> recv_counts,
                 std::span<const Index> recv_displacements) const {
    alltoallv_raw(detail::nccl_typed(send, 0), send_counts, send_displacements, recv, recv_counts,
                  recv_displacements);
  }
  /// Sends `count` values of device memory to rank `peer` (ncclSend), enqueued on the stream;
  /// the peer must post the matching recv().
  template <detail::NcclTransferable T>
  void send(const T* data, Index count, int peer) const {
    send_raw(detail::nccl_typed(data, count), peer);
  }
  /// Receives `count` values from rank `peer` into device memory (ncclRecv), enqueued on the
  /// stream.
  template <detail::NcclTransferable T>
  void recv(T* data, Index count, int peer) const {
    recv_raw(detail::nccl_typed(data, count), peer);
  }
  /// A batch of point-to-point messages (bytes) in one NCCL group. Messages between two ranks
  /// match in posting order; messages of a rank to itself pair up in order and are copies.
  void exchange(std::span<const ReceiveMessage> receives, std::span<const SendMessage> sends) const;

  /// Device memory for symmetric collectives from ncclMemAlloc (NCCL >= 2.19), registered on
  /// this communicator as a window (ncclCommWindowRegister with NCCL_WIN_COLL_SYMMETRIC,
  /// NCCL >= 2.27). Every rank allocates and registers the same size, the largest `bytes` over
  /// the ranks (windows are symmetric; uneven splits pad). `registered` says whether the window
  /// is symmetric on every rank: false without windows, for a single rank, and where NCCL fell
  /// back to a local registration. Collective: the ranks agree on every step's success, so
  /// that a failure on one rank raises on every rank. Release with free_symmetric,
  /// collectively, before the process tears NCCL down.
  struct SymmetricRegion {
    void* data = nullptr;     ///< The device memory; null for an empty region.
    void* window = nullptr;   ///< Whatever NCCL registered, symmetric or not.
    std::size_t bytes = 0;    ///< Allocated and registered: the largest request over the ranks.
    bool registered = false;  ///< Whether the window is symmetric on every rank.
  };
  /// Allocates and registers a SymmetricRegion of at least `bytes` bytes (see SymmetricRegion).
  /// Collective.
  SymmetricRegion allocate_symmetric(std::size_t bytes) const;
  /// Collective: deregisters the window and frees the memory (a no-op on an empty region).
  void free_symmetric(SymmetricRegion& region) const;
  /// Whether the NCCL this library was built with offers ncclMemAlloc and symmetric windows.
  static bool symmetric_windows_available();
  /// The communicator's window of small sums (symmetric_reductions(), gpu_collectives.hpp):
  /// symmetric_reduction_bytes of symmetric memory, allocated and registered at the first call
  /// and kept for the communicator's life; null without symmetric windows (the same on every
  /// rank). Collective at the first call.
  void* reduction_window() const;

  /// The NCCL state the handles share (opaque, defined in the library).
  struct Impl;

 private:
  void allreduce_raw(detail::NcclBuffer send, void* recv, ReduceOp op) const;
  void broadcast_raw(detail::NcclBuffer data, int root) const;
  void allgather_raw(detail::NcclBuffer send, void* recv) const;
  void allgatherv_raw(detail::NcclBuffer send, void* recv, std::span<const Index> counts,
                      std::span<const Index> displacements) const;
  void alltoallv_raw(detail::NcclBuffer type, std::span<const Index> send_counts,
                     std::span<const Index> send_displacements, void* recv,
                     std::span<const Index> recv_counts,
                     std::span<const Index> recv_displacements) const;
  void send_raw(detail::NcclBuffer data, int peer) const;
  void recv_raw(detail::NcclBuffer data, int peer) const;

  std::shared_ptr<const Impl> impl_;
};

/// Device memory over NCCL, in the order of the library's stream (device_transport.hpp).
class NcclTransport final : public DeviceTransport {
 public:
  /// A transport over the ranks of `nccl`; costs no communication.
  explicit NcclTransport(NcclCommunicator nccl) : nccl_(std::move(nccl)) {}

  /// The NCCL communicator the transport uses.
  const NcclCommunicator& nccl() const { return nccl_; }
  TransportKind kind() const override { return TransportKind::nccl; }
  const Communicator& communicator() const override { return nccl_.mpi(); }
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
  NcclCommunicator nccl_;
};

namespace detail {
/// The NCCL communicator of `comm`'s group of ranks, created collectively over comm on the
/// first request for that group and kept for the rest of the process (communicators with the
/// same ranks in the same order share it; one per mask group). Raises CommunicationError on
/// every rank where NCCL cannot form one (ranks sharing a device, see gpu_collectives_for).
const NcclCommunicator& nccl_of(const Communicator& comm);
}  // namespace detail

}  // namespace distlops
