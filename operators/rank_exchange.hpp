#pragma once
// RankExchange: the collectives of the operators that move their own data between ranks (the
// distributed MatrixMult, Fredholm1), in the memory space of that data. Host memory goes over
// MPI with the Communicator's calls. Device memory goes over NCCL through a Transport
// (nccl_transport) or, when gpu_collectives() says mpi, is staged through host buffers and
// goes over MPI: the MPI here is not CUDA-aware. The path is read at every call, so one
// operator follows set_gpu_collectives() between applies.
//
// Pointers are memory of Space. Every rank of the communicator makes each call, with the same
// counts where a count is one number: zero counts return at once on every rank, so nothing of
// size zero reaches NCCL. The NCCL transport and the staging buffers are made on first use and
// kept: a second call of the same sizes allocates nothing.
#include <algorithm>
#include <memory>
#include <span>
#include <utility>
#include <vector>

#include "../src/device_collectives.hpp"
#include "distlops/core/buffer.hpp"
#include "distlops/core/communicator.hpp"
#include "distlops/core/gpu_collectives.hpp"
#include "distlops/core/memory_space.hpp"

namespace distlops::detail {

template <Scalar T, MemorySpace Space>
class RankExchange {
 public:
  RankExchange() = default;
  explicit RankExchange(Communicator comm) : comm_(std::move(comm)) {}

  const Communicator& communicator() const { return comm_; }

  /// Every rank's `count` values, in rank order, into recv (size() * count values).
  void allgather(const T* send, Index count, T* recv) const {
    if (count == 0) return;
    if constexpr (std::same_as<Space, Host>) {
      comm_.allgather(send, count, recv);
    } else {
      if (comm_.size() == 1) return device_copy(recv, send, count);
      if (nccl()) {
        uniform_bytes(count);
        transport().allgatherv(bytes_of(send), bytes(count), bytes_of(recv), byte_counts_,
                               byte_displacements_);
        return;
      }
      T* host_send = staging(send_stage_, count);
      T* host_recv = staging(receive_stage_, comm_.size() * count);
      memory::copy_bytes<Host, Space>(host_send, send, bytes(count));
      comm_.allgather(host_send, count, host_recv);
      memory::copy_bytes<Space, Host>(recv, host_recv, bytes(comm_.size() * count));
    }
  }

  /// Rank r's counts[r] values at displacements[r] of recv on every rank; this rank sends
  /// counts[rank()] values from send.
  void allgatherv(const T* send, T* recv, std::span<const Index> counts,
                  std::span<const Index> displacements) const {
    Index total = 0;
    for (Index count : counts)
      total += count;
    if (total == 0) return;
    const auto me = static_cast<std::size_t>(comm_.rank());
    if constexpr (std::same_as<Space, Host>) {
      comm_.allgatherv(send, counts[me], recv, counts, displacements);
    } else {
      if (comm_.size() == 1) return device_copy(recv + displacements[0], send, counts[0]);
      if (nccl()) {
        byte_counts_.assign(counts.begin(), counts.end());
        byte_displacements_.assign(displacements.begin(), displacements.end());
        for (std::size_t r = 0; r < byte_counts_.size(); ++r) {
          byte_counts_[r] *= Index(sizeof(T));
          byte_displacements_[r] *= Index(sizeof(T));
        }
        transport().allgatherv(bytes_of(send), byte_counts_[me], bytes_of(recv), byte_counts_,
                               byte_displacements_);
        return;
      }
      Index extent = 0;
      for (std::size_t r = 0; r < counts.size(); ++r)
        extent = std::max(extent, displacements[r] + counts[r]);
      T* host_send = staging(send_stage_, counts[me]);
      T* host_recv = staging(receive_stage_, extent);
      memory::copy_bytes<Host, Space>(host_send, send, bytes(counts[me]));
      comm_.allgatherv(host_send, counts[me], host_recv, counts, displacements);
      // Only the gathered regions: the rest of recv is not this call's to write.
      for (std::size_t r = 0; r < counts.size(); ++r) {
        memory::copy_bytes<Space, Host>(recv + displacements[r], host_recv + displacements[r],
                                        bytes(counts[r]));
      }
    }
  }

  /// Block q of `count` values of send goes to rank q; block q of recv comes from rank q.
  void alltoall(const T* send, Index count, T* recv) const {
    if (count == 0) return;
    if constexpr (std::same_as<Space, Host>) {
      comm_.alltoall(send, count, recv);
    } else {
      if (comm_.size() == 1) return device_copy(recv, send, count);
      if (nccl()) {
        uniform_bytes(count);
        transport().alltoallv(bytes_of(send), byte_counts_, byte_displacements_, bytes_of(recv),
                              byte_counts_, byte_displacements_);
        return;
      }
      const Index all = comm_.size() * count;
      T* host_send = staging(send_stage_, all);
      T* host_recv = staging(receive_stage_, all);
      memory::copy_bytes<Host, Space>(host_send, send, bytes(all));
      comm_.alltoall(host_send, count, host_recv);
      memory::copy_bytes<Space, Host>(recv, host_recv, bytes(all));
    }
  }

  /// Sends `count` values to `partner` and receives as many from it (a copy when the partner
  /// is this rank).
  void swap(const T* send, T* recv, Index count, int partner) const {
    if (count == 0) return;
    if constexpr (std::same_as<Space, Host>) {
      if (partner == comm_.rank()) {
        std::copy(send, send + count, recv);
      } else {
        comm_.sendrecv(send, count, partner, recv, count, partner, 0);
      }
    } else {
      if (nccl()) {
        // Made on every rank, partners or not: the NCCL communicator is created collectively.
        Transport& channel = transport();
        if (partner == comm_.rank()) return device_copy(recv, send, count);
        const ReceiveMessage receive{bytes_of(recv), bytes(count), partner, 0};
        const SendMessage message{bytes_of(send), bytes(count), partner, 0};
        channel.start({&receive, 1}, {&message, 1}).wait();
        return;
      }
      if (partner == comm_.rank()) return device_copy(recv, send, count);
      T* host_send = staging(send_stage_, count);
      T* host_recv = staging(receive_stage_, count);
      memory::copy_bytes<Host, Space>(host_send, send, bytes(count));
      comm_.sendrecv(host_send, count, partner, host_recv, count, partner, 0);
      memory::copy_bytes<Space, Host>(recv, host_recv, bytes(count));
    }
  }

  /// data = the sum over the ranks of data (`count` values).
  void sum_in_place(T* data, Index count) const {
    if (count == 0) return;
    allreduce_sum_in_place<T, Space>(comm_, data, count);
  }

 private:
  static Index bytes(Index count) { return count * Index(sizeof(T)); }
  static const std::byte* bytes_of(const T* data) {
    return reinterpret_cast<const std::byte*>(data);
  }
  static std::byte* bytes_of(T* data) { return reinterpret_cast<std::byte*>(data); }

  void device_copy(T* destination, const T* source, Index count) const {
    memory::copy_bytes<Space, Space>(destination, source, static_cast<std::size_t>(bytes(count)));
  }

  // Whether device data go over NCCL (gpu_collectives(); never for a single rank).
  bool nccl() const {
#if DISTLOPS_WITH_NCCL
    return comm_.size() > 1 && use_nccl(comm_);
#else
    return false;
#endif
  }

  Transport& transport() const {
#if DISTLOPS_WITH_NCCL
    if (!transport_) transport_ = nccl_transport(comm_);
#endif
    if (!transport_) throw DeviceError("RankExchange: this build has no NCCL");
    return *transport_;
  }

  // Byte counts and displacements of `count` values per rank, in rank order.
  void uniform_bytes(Index count) const {
    const auto size = static_cast<std::size_t>(comm_.size());
    byte_counts_.assign(size, bytes(count));
    byte_displacements_.resize(size);
    for (std::size_t r = 0; r < size; ++r)
      byte_displacements_[r] = Index(r) * bytes(count);
  }

  static T* staging(Buffer<T, Host>& buffer, Index count) {
    if (buffer.size() < count) buffer = Buffer<T, Host>(count);
    return buffer.data();
  }

  Communicator comm_;
  mutable std::unique_ptr<Transport> transport_;
  mutable Buffer<T, Host> send_stage_, receive_stage_;
  mutable std::vector<Index> byte_counts_, byte_displacements_;
};

}  // namespace distlops::detail
