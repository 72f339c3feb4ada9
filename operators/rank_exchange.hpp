// SPDX-License-Identifier: BSD-3-Clause
// Copyright (c) 2026 The distlops authors
#pragma once
// RankExchange: the collectives of the operators that move their own data between ranks (the
// distributed MatrixMult, Fredholm1), typed, in the memory space of that data. The bytes travel
// through the space's transport (transport.hpp), kept between calls and made anew when the
// collective setting changes (set_gpu_collectives() between applies).
//
// Pointers are memory of Space. Every rank of the communicator makes each call, with the same
// counts where a count is one number: zero counts return at once on every rank, so nothing of
// size zero reaches a transport. A second call of the same sizes allocates nothing.
#include <memory>
#include <span>
#include <utility>
#include <vector>

#include "distlops/core/communicator.hpp"
#include "distlops/core/memory_space.hpp"
#include "distlops/core/transport.hpp"

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
    transport().allgather(bytes_of(send), bytes(count), bytes_of(recv));
  }

  /// Rank r's counts[r] values at displacements[r] of recv on every rank; this rank sends
  /// counts[rank()] values from send. The rest of recv is left as it is.
  void allgatherv(const T* send, T* recv, std::span<const Index> counts,
                  std::span<const Index> displacements) const {
    Index total = 0;
    for (Index count : counts)
      total += count;
    if (total == 0) return;
    byte_counts_.assign(counts.begin(), counts.end());
    byte_displacements_.assign(displacements.begin(), displacements.end());
    for (std::size_t r = 0; r < byte_counts_.size(); ++r) {
      byte_counts_[r] *= Index(sizeof(T));
      byte_displacements_[r] *= Index(sizeof(T));
    }
    const auto me = static_cast<std::size_t>(comm_.rank());
    transport().allgatherv(bytes_of(send), byte_counts_[me], bytes_of(recv), byte_counts_,
                           byte_displacements_);
  }

  /// Block q of `count` values of send goes to rank q; block q of recv comes from rank q.
  void alltoall(const T* send, Index count, T* recv) const {
    if (count == 0) return;
    const auto size = static_cast<std::size_t>(comm_.size());
    byte_counts_.assign(size, bytes(count));
    byte_displacements_.resize(size);
    for (std::size_t r = 0; r < size; ++r)
      byte_displacements_[r] = Index(r) * bytes(count);
    transport().alltoallv(bytes_of(send), byte_counts_, byte_displacements_, bytes_of(recv),
                          byte_counts_, byte_displacements_);
  }

  /// Sends `count` values to `partner` and receives as many from it (a copy when the partner
  /// is this rank).
  void swap(const T* send, T* recv, Index count, int partner) const {
    if (count == 0) return;
    // Made on every rank, partners or not: an NCCL transport is created collectively.
    Transport& channel = transport();
    if (partner == comm_.rank()) {
      memory::copy_bytes<Space, Space>(recv, send, static_cast<std::size_t>(bytes(count)));
      return;
    }
    const ReceiveMessage receive{bytes_of(recv), bytes(count), partner, 0};
    const SendMessage message{bytes_of(send), bytes(count), partner, 0};
    channel.start({&receive, 1}, {&message, 1}).wait();
  }

  /// data = the sum over the ranks of data (`count` values).
  void sum_in_place(T* data, Index count) const {
    if (count == 0) return;
    allreduce_in_place(transport(), data, count, ReduceOp::sum);
  }

 private:
  static Index bytes(Index count) { return count * Index(sizeof(T)); }
  static const std::byte* bytes_of(const T* data) {
    return reinterpret_cast<const std::byte*>(data);
  }
  static std::byte* bytes_of(T* data) { return reinterpret_cast<std::byte*>(data); }
  Transport& transport() const { return transport_(comm_); }

  Communicator comm_;
  KeptTransport<Space> transport_;
  mutable std::vector<Index> byte_counts_, byte_displacements_;
};

}  // namespace distlops::detail
