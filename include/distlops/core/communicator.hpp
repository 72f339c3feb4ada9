// SPDX-License-Identifier: BSD-3-Clause
// Copyright (c) 2026 The distlops authors
#pragma once
/// \file communicator.hpp
/// `Communicator`: a cheap-to-copy handle to an MPI communicator with typed collectives whose
/// failures become exceptions. Transfers of any size work: a block above the per-call limit
/// (2^31-1 bytes by default, see set_message_chunk_bytes) is described by one derived datatype
/// and moves in one MPI message (the vector collectives: one per block); only
/// reductions, and limits below two elements, split a message into several calls.

#include <mpi.h>

#include <complex>
#include <cstddef>
#include <cstdint>
#include <memory>
#include <span>
#include <type_traits>
#include <vector>

#include "distlops/core/types.hpp"

namespace distlops {

/// Reduction operations of allreduce.
enum class ReduceOp {
  sum,          ///< MPI_SUM.
  prod,         ///< MPI_PROD.
  max,          ///< MPI_MAX (real types only).
  min,          ///< MPI_MIN (real types only).
  logical_and,  ///< MPI_LAND.
  logical_or,   ///< MPI_LOR.
};

namespace detail {

/// Throws CommunicationError naming `call` when `code` is not MPI_SUCCESS.
void check_mpi(int code, const char* call);

template <class T>
inline MPI_Datatype mpi_datatype() {
  using U = std::remove_cv_t<T>;
  if constexpr (std::is_same_v<U, float>)
    return MPI_FLOAT;
  else if constexpr (std::is_same_v<U, double>)
    return MPI_DOUBLE;
  else if constexpr (std::is_same_v<U, std::complex<float>>)
    return MPI_C_FLOAT_COMPLEX;
  else if constexpr (std::is_same_v<U, std::complex<double>>)
    return MPI_C_DOUBLE_COMPLEX;
  else if constexpr (std::is_same_v<U, char>)
    return MPI_CHAR;
  else if constexpr (std::is_same_v<U, signed char>)
    return MPI_SIGNED_CHAR;
  else if constexpr (std::is_same_v<U, unsigned char>)
    return MPI_UNSIGNED_CHAR;
  else if constexpr (std::is_same_v<U, std::byte>)
    return MPI_BYTE;
  else if constexpr (std::is_same_v<U, int>)
    return MPI_INT;
  else if constexpr (std::is_same_v<U, unsigned>)
    return MPI_UNSIGNED;
  else if constexpr (std::is_same_v<U, long>)
    return MPI_LONG;
  else if constexpr (std::is_same_v<U, unsigned long>)
    return MPI_UNSIGNED_LONG;
  else if constexpr (std::is_same_v<U, long long>)
    return MPI_LONG_LONG;
  else if constexpr (std::is_same_v<U, unsigned long long>)
    return MPI_UNSIGNED_LONG_LONG;
  else
    static_assert(sizeof(U) == 0, "no MPI datatype for this type");
}

/// A type with an MPI datatype: the four scalars, characters, bytes and integers.
template <class T>
concept Transferable = std::is_arithmetic_v<T> || std::is_same_v<T, std::byte> ||
    std::is_same_v<T, std::complex<float>> || std::is_same_v<T, std::complex<double>>;

/// What every typed call forwards: pointer, count in elements, datatype and element size.
struct TypedBuffer {
  const void* data;
  Index count;
  MPI_Datatype type;
  std::size_t element_size;
};

template <class T>
TypedBuffer typed(const T* data, Index count) {
  return {data, count, mpi_datatype<T>(), sizeof(T)};
}

}  // namespace detail

/// Largest number of elements' bytes that one count given to MPI may cover. A larger block is
/// sent as one instance of a derived datatype nesting blocks of at most this size (reductions,
/// which MPI's built-in operations allow on built-in types only, go in several calls; so does
/// every transfer when the limit is below two elements).
/// Default: 2^31 - 1 (MPI counts and Open MPI's internal byte counts are 32-bit ints).
/// Tests lower it to exercise the large-message paths on small data.
/// Per process, not collective: every rank should set the same value.
void set_message_chunk_bytes(std::size_t bytes);
/// The current chunk limit in bytes (set_message_chunk_bytes()).
std::size_t message_chunk_bytes();

/// A set of non-blocking operations (several when a message is chunked). Destruction waits.
class Request {
 public:
  /// A set with no operation.
  Request() = default;
  /// Takes `other`'s operations; `other` becomes empty.
  Request(Request&& other) noexcept;
  /// Waits for this set's operations, then takes `other`'s.
  Request& operator=(Request&& other) noexcept;
  Request(const Request&) = delete;             ///< Move-only: one owner waits.
  Request& operator=(const Request&) = delete;  ///< Move-only: one owner waits.
  /// Waits for the operations still pending (errors are not thrown from here).
  ~Request();

  /// Blocks until every operation has completed.
  void wait();
  /// Moves the operations of `other` into this set.
  void merge(Request&& other);
  /// True when no operation is pending.
  bool empty() const { return requests_.empty(); }
  /// The MPI requests of the set, for MPI calls of the caller's own (wait_all() gathers them).
  std::vector<MPI_Request>& native() { return requests_; }

 private:
  std::vector<MPI_Request> requests_;
};

/// Waits for every request of `requests` (each becomes empty); throws CommunicationError on
/// failure.
void wait_all(std::span<Request> requests);

/// Handle to an MPI communicator. Copies share the communicator; a communicator created by
/// split() or duplicate() is freed when its last handle goes (unless MPI is already finalized).
/// Every call that fails raises CommunicationError naming the MPI call.
class Communicator {
 public:
  /// MPI_COMM_WORLD.
  Communicator();
  /// Borrows `comm` (never freed here). Installs MPI_ERRORS_RETURN on it so that errors
  /// are reported as exceptions rather than aborting.
  explicit Communicator(MPI_Comm comm);

  /// MPI_COMM_WORLD, borrowed.
  static Communicator world();
  /// MPI_COMM_SELF, borrowed: this process alone.
  static Communicator self();
  /// Takes ownership of `comm`: it is freed with the last handle.
  static Communicator adopt(MPI_Comm comm);

  /// The MPI communicator, for calls of the application's own.
  MPI_Comm native() const { return handle_->comm; }
  /// This process's rank in the communicator.
  int rank() const { return handle_->rank; }
  /// Number of ranks.
  int size() const { return handle_->size; }

  /// Ranks with the same colour form a new communicator, ordered by `key`. Collective.
  Communicator split(int colour, int key) const;
  /// A new communicator with the same group. Collective.
  Communicator duplicate() const;
  /// True when both handles refer to communicators with the same ranks in the same order.
  bool congruent(const Communicator& other) const;
  /// The ranks in MPI_COMM_WORLD of this communicator's ranks, in its order: a key that
  /// communicators over the same ranks share.
  std::vector<int> world_ranks() const;

  /// MPI_Barrier. Collective.
  void barrier() const;

  // ---- reductions -------------------------------------------------------------------------
  /// recv[i] = op over ranks of send[i] for i < count; send == recv reduces in place.
  /// Collective; the result is on every rank.
  template <detail::Transferable T>
  void allreduce(const T* send, T* recv, Index count, ReduceOp op) const {
    allreduce_bytes(detail::typed(send, count), recv, op);
  }
  /// One value: `op` over the ranks' `value`, returned on every rank. Collective.
  template <detail::Transferable T>
  T allreduce(T value, ReduceOp op) const {
    T result{};
    allreduce(&value, &result, 1, op);
    return result;
  }

  // ---- one to all, all to one -------------------------------------------------------------
  /// Copies rank `root`'s `count` elements at `data` into `data` on every rank. Collective.
  template <detail::Transferable T>
  void broadcast(T* data, Index count, int root) const {
    broadcast_bytes(detail::typed(data, count), root);
  }
  /// Copies rank `root`'s `count` elements at `source` into `target` on every rank, the root
  /// included; `source` is read on the root only (other ranks may pass nullptr). On large
  /// counts the root's own copy runs while the message is in flight. Collective.
  template <detail::Transferable T>
  void broadcast(const T* source, T* target, Index count, int root) const {
    broadcast_copy_bytes(source, detail::typed(target, count), root);
  }
  /// Rank `root`'s `value`, returned on every rank. Collective.
  template <detail::Transferable T>
  T broadcast(T value, int root) const {
    broadcast(&value, 1, root);
    return value;
  }
  /// Every rank sends `count` elements; rank `root` receives rank r's `counts[r]` elements at
  /// `recv + displacements[r]` (counts and displacements are read on the root only). Collective.
  template <detail::Transferable T>
  void gatherv(const T* send, Index count, T* recv, std::span<const Index> counts,
               std::span<const Index> displacements, int root) const {
    gatherv_bytes(detail::typed(send, count), recv, counts, displacements, root);
  }
  /// Rank `root` sends `counts[r]` elements at `send + displacements[r]` to rank r, which
  /// receives `count` of them at `recv` (send, counts, displacements: root only). Collective.
  template <detail::Transferable T>
  void scatterv(const T* send, std::span<const Index> counts, std::span<const Index> displacements,
                T* recv, Index count, int root) const {
    scatterv_bytes(send, counts, displacements, detail::typed(recv, count), root);
  }

  // ---- all to all -------------------------------------------------------------------------
  /// Every rank contributes `count` elements; recv holds size() * count, in rank order, on every
  /// rank. Collective.
  template <detail::Transferable T>
  void allgather(const T* send, Index count, T* recv) const {
    allgather_bytes(detail::typed(send, count), recv);
  }
  /// Every rank's `value`, in rank order, on every rank. Collective.
  template <detail::Transferable T>
  std::vector<T> allgather(T value) const {
    std::vector<T> result(static_cast<std::size_t>(size()));
    allgather(&value, 1, result.data());
    return result;
  }
  /// Rank r contributes counts[r] elements (its `count`), placed at displacements[r] of recv on
  /// every rank. Collective.
  template <detail::Transferable T>
  void allgatherv(const T* send, Index count, T* recv, std::span<const Index> counts,
                  std::span<const Index> displacements) const {
    allgatherv_bytes(detail::typed(send, count), recv, counts, displacements);
  }
  /// Sends count_per_rank elements to every rank (block r of `send` to rank r); receives as many
  /// from every rank (block r of `recv` from rank r). Collective.
  template <detail::Transferable T>
  void alltoall(const T* send, Index count_per_rank, T* recv) const {
    alltoall_bytes(detail::typed(send, count_per_rank), recv);
  }
  /// Sends `send_counts[r]` elements at `send + send_displacements[r]` to rank r and receives
  /// `recv_counts[r]` from rank r at `recv + recv_displacements[r]`. Collective.
  template <detail::Transferable T>
  void alltoallv(const T* send, std::span<const Index> send_counts,
                 std::span<const Index> send_displacements, T* recv,
                 std::span<const Index> recv_counts,
                 std::span<const Index> recv_displacements) const {
    alltoallv_bytes(detail::typed(send, 0), send_counts, send_displacements, recv, recv_counts,
                    recv_displacements);
  }

  // ---- point to point ---------------------------------------------------------------------
  /// Blocking send of `count` elements to rank `destination` with `tag`.
  template <detail::Transferable T>
  void send(const T* data, Index count, int destination, int tag) const {
    send_bytes(detail::typed(data, count), destination, tag);
  }
  /// Blocking receive of `count` elements from rank `source` with `tag`.
  template <detail::Transferable T>
  void recv(T* data, Index count, int source, int tag) const {
    recv_bytes(detail::typed(data, count), source, tag);
  }
  /// Sends to `destination` and receives from `source` at once (both with `tag`), without
  /// deadlock when ranks exchange in a ring; returns when both have completed.
  template <detail::Transferable T>
  void sendrecv(const T* send_data, Index send_count, int destination, T* recv_data,
                Index recv_count, int source, int tag) const {
    Request receiving = irecv(recv_data, recv_count, source, tag);
    Request sending = isend(send_data, send_count, destination, tag);
    receiving.wait();
    sending.wait();
  }
  /// Non-blocking send; `data` must stay valid and unchanged until the request completes.
  template <detail::Transferable T>
  [[nodiscard]] Request isend(const T* data, Index count, int destination, int tag) const {
    return isend_bytes(detail::typed(data, count), destination, tag);
  }
  /// Non-blocking receive; `data` may be read once the request completes.
  template <detail::Transferable T>
  [[nodiscard]] Request irecv(T* data, Index count, int source, int tag) const {
    return irecv_bytes(detail::typed(data, count), source, tag);
  }

 private:
  struct Handle {
    MPI_Comm comm = MPI_COMM_NULL;
    bool owned = false;
    int rank = 0;
    int size = 1;
    ~Handle();
  };
  explicit Communicator(std::shared_ptr<const Handle> handle) : handle_(std::move(handle)) {}
  static std::shared_ptr<const Handle> make_handle(MPI_Comm comm, bool owned);

  void allreduce_bytes(detail::TypedBuffer send, void* recv, ReduceOp op) const;
  void broadcast_bytes(detail::TypedBuffer data, int root) const;
  void broadcast_copy_bytes(const void* source, detail::TypedBuffer target, int root) const;
  void gatherv_bytes(detail::TypedBuffer send, void* recv, std::span<const Index> counts,
                     std::span<const Index> displacements, int root) const;
  void scatterv_bytes(const void* send, std::span<const Index> counts,
                      std::span<const Index> displacements, detail::TypedBuffer recv,
                      int root) const;
  void allgather_bytes(detail::TypedBuffer send, void* recv) const;
  void allgatherv_bytes(detail::TypedBuffer send, void* recv, std::span<const Index> counts,
                        std::span<const Index> displacements) const;
  void alltoall_bytes(detail::TypedBuffer send, void* recv) const;
  void alltoallv_bytes(detail::TypedBuffer send, std::span<const Index> send_counts,
                       std::span<const Index> send_displacements, void* recv,
                       std::span<const Index> recv_counts,
                       std::span<const Index> recv_displacements) const;
  void send_bytes(detail::TypedBuffer data, int destination, int tag) const;
  void recv_bytes(detail::TypedBuffer data, int source, int tag) const;
  Request isend_bytes(detail::TypedBuffer data, int destination, int tag) const;
  Request irecv_bytes(detail::TypedBuffer data, int source, int tag) const;

  std::shared_ptr<const Handle> handle_;
};

}  // namespace distlops
