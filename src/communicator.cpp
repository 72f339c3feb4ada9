// SPDX-License-Identifier: BSD-3-Clause
// Copyright (c) 2026 The distlops authors
#include "distlops/core/communicator.hpp"

#include <algorithm>
#include <atomic>
#include <climits>
#include <cstring>
#include <string>

#include "distlops/core/detail/enum_names.hpp"
#include "distlops/core/error.hpp"
#include "distlops/core/log_view.hpp"
#include "message_datatype.hpp"

namespace distlops {

namespace {

std::atomic<std::size_t> chunk_bytes_limit{static_cast<std::size_t>(INT_MAX)};

// Point-to-point messages that implement a collective in pieces use a tag of their own so
// that they never match a user's messages on the same communicator.
constexpr int chunked_collective_tag = 32001;

MPI_Op native_op(ReduceOp op) {
  const MPI_Op native = detail::enum_value(
      op, std::array{MPI_SUM, MPI_PROD, MPI_MAX, MPI_MIN, MPI_LAND, MPI_LOR}, MPI_OP_NULL);
  if (native == MPI_OP_NULL) throw InvalidArgument("allreduce: unknown reduction operation");
  return native;
}

// Elements of `element_size` bytes that one MPI call may carry.
Index chunk_elements(std::size_t element_size) {
  const std::size_t limit = std::min<std::size_t>(chunk_bytes_limit.load(), INT_MAX);
  return static_cast<Index>(std::max<std::size_t>(1, limit / element_size));
}

const std::byte* byte_offset(const void* base, Index elements, std::size_t element_size) {
  return static_cast<const std::byte*>(base) + static_cast<std::size_t>(elements) * element_size;
}
std::byte* byte_offset(void* base, Index elements, std::size_t element_size) {
  return static_cast<std::byte*>(base) + static_cast<std::size_t>(elements) * element_size;
}

// True when every count and every end offset fits in one MPI call.
bool fits_one_call(std::span<const Index> counts, std::span<const Index> displacements,
                   Index chunk) {
  for (std::size_t r = 0; r < counts.size(); ++r) {
    if (counts[r] < 0 || displacements[r] < 0) {
      throw InvalidArgument("MPI transfer: negative count or displacement");
    }
    if (displacements[r] + counts[r] > chunk) return false;
  }
  return true;
}

// A block above the per-call limit is described by nested derived types (message_datatype.hpp)
// and moves in one call; nesting needs at least two elements per level, so limits below two
// elements fall back to one call per chunk.
bool one_datatype_per_block(Index chunk) {
  return chunk >= 2;
}

// How a vector collective moves its blocks, decided alike on every rank.
enum class VectorPath : int {
  plain = 0,    // counts and displacements fit the MPI call's ints
  derived = 1,  // one MPI_Alltoallw with a derived datatype per block
  chunked = 2,  // point-to-point messages of at most a chunk each
};

VectorPath vector_path(bool fits, Index chunk) {
  if (fits) return VectorPath::plain;
  return one_datatype_per_block(chunk) ? VectorPath::derived : VectorPath::chunked;
}

// `count` elements `offset` elements into a buffer.
struct Block {
  Index offset = 0;
  Index count = 0;
};

// Sends send_blocks[r] of `send` to rank r and receives recv_blocks[r] from rank r into `recv`,
// in one MPI_Alltoallw whose per-rank datatypes carry each block whole, offset included (its
// displacements are C ints, the types' are MPI_Aint). Callers copy the calling rank's own block.
void exchange_blocks(MPI_Comm comm, const void* send, std::span<const Block> send_blocks,
                     void* recv, std::span<const Block> recv_blocks, MPI_Datatype element,
                     std::size_t element_size, Index chunk) {
  const log_view::ScopedEvent event(log_view::EventKind::collective, "MPI_Alltoallw");
  const std::size_t ranks = send_blocks.size();
  std::vector<detail::MessageDatatype> types;
  types.reserve(2 * ranks);
  std::vector<MPI_Datatype> send_types(ranks, MPI_BYTE), recv_types(ranks, MPI_BYTE);
  std::vector<int> send_counts(ranks, 0), recv_counts(ranks, 0);
  const std::vector<int> send_displacements(ranks, 0), recv_displacements(ranks, 0);
  auto describe = [&](std::span<const Block> blocks, std::vector<MPI_Datatype>& native_types,
                      std::vector<int>& counts) {
    for (std::size_t r = 0; r < ranks; ++r) {
      if (blocks[r].count == 0) continue;
      types.push_back(detail::block_datatype(
          blocks[r].count, element, element_size, chunk,
          static_cast<Index>(static_cast<std::size_t>(blocks[r].offset) * element_size)));
      native_types[r] = types.back().get();
      counts[r] = 1;
    }
  };
  describe(send_blocks, send_types, send_counts);
  describe(recv_blocks, recv_types, recv_counts);
  // A side that moves nothing may have no buffer; MPI still wants distinct, valid pointers.
  static std::byte nothing_sent, nothing_received;
  const void* send_base = send != nullptr ? send : &nothing_sent;
  void* recv_base = recv != nullptr ? recv : &nothing_received;
  detail::check_mpi(MPI_Alltoallw(send_base, send_counts.data(), send_displacements.data(),
                                  send_types.data(), recv_base, recv_counts.data(),
                                  recv_displacements.data(), recv_types.data(), comm),
                    "MPI_Alltoallw");
}

std::vector<int> to_int(std::span<const Index> values) {
  return {values.begin(), values.end()};
}

void check_rank_count(std::span<const Index> values, int size, const char* call) {
  if (static_cast<int>(values.size()) != size) {
    throw InvalidArgument(std::string(call) + ": expected " + std::to_string(size) +
                          " counts or displacements (one per rank), got " +
                          std::to_string(values.size()));
  }
}

// Point-to-point transfers of any size. The Communicator's send and receive members record the
// sends as messages of the event log; the collectives' paths above the per-call limit call
// these directly, since their bytes are the collective's.
// Calls `transfer(address, count, datatype)` over `data`: once with a datatype of blocks when
// that is how messages above the per-call limit go, else once per chunk of at most the limit,
// and once with nothing for an empty buffer (its message still has to match the peer's).
template <typename Transfer>
void for_each_chunk(detail::TypedBuffer data, Transfer&& transfer) {
  const Index chunk = chunk_elements(data.element_size);
  void* base = const_cast<void*>(data.data);
  if (data.count > chunk && one_datatype_per_block(chunk)) {
    const detail::MessageDatatype block =
        detail::block_datatype(data.count, data.type, data.element_size, chunk);
    transfer(base, 1, block.get());
    return;
  }
  Index offset = 0;
  do {
    const int count = static_cast<int>(std::min(chunk, data.count - offset));
    transfer(byte_offset(base, offset, data.element_size), count, data.type);
    offset += chunk;
  } while (offset < data.count);
}

void blocking_send(MPI_Comm comm, detail::TypedBuffer data, int destination, int tag) {
  for_each_chunk(data, [&](void* address, int count, MPI_Datatype type) {
    detail::check_mpi(MPI_Send(address, count, type, destination, tag, comm), "MPI_Send");
  });
}

void blocking_receive(MPI_Comm comm, detail::TypedBuffer data, int source, int tag) {
  for_each_chunk(data, [&](void* address, int count, MPI_Datatype type) {
    detail::check_mpi(MPI_Recv(address, count, type, source, tag, comm, MPI_STATUS_IGNORE),
                      "MPI_Recv");
  });
}

Request post_send(MPI_Comm comm, detail::TypedBuffer data, int destination, int tag) {
  Request request;
  for_each_chunk(data, [&](void* address, int count, MPI_Datatype type) {
    MPI_Request native_request = MPI_REQUEST_NULL;
    detail::check_mpi(MPI_Isend(address, count, type, destination, tag, comm, &native_request),
                      "MPI_Isend");
    request.native().push_back(native_request);
  });
  return request;
}

Request post_receive(MPI_Comm comm, detail::TypedBuffer data, int source, int tag) {
  Request request;
  for_each_chunk(data, [&](void* address, int count, MPI_Datatype type) {
    MPI_Request native_request = MPI_REQUEST_NULL;
    detail::check_mpi(MPI_Irecv(address, count, type, source, tag, comm, &native_request),
                      "MPI_Irecv");
    request.native().push_back(native_request);
  });
  return request;
}

// The bytes of a buffer.
Index buffer_bytes(const detail::TypedBuffer& data) {
  return data.count * static_cast<Index>(data.element_size);
}

// The blocks of a scatter or an all-to-all addressed to ranks other than `me`, as the event log
// counts them: one message per non-empty block, their bytes.
log_view::Traffic blocks_to_others(std::span<const Index> counts, int me,
                                   std::size_t element_size) {
  log_view::Traffic traffic;
  for (std::size_t r = 0; r < counts.size(); ++r) {
    if (static_cast<int>(r) == me || counts[r] <= 0) continue;
    ++traffic.messages;
    traffic.bytes += counts[r] * static_cast<Index>(element_size);
  }
  return traffic;
}

// A send to another rank as the event log counts it: one message of the block's bytes.
log_view::Traffic one_message(const detail::TypedBuffer& data) {
  return {1, buffer_bytes(data)};
}

// The path of a vector collective with a root (gatherv, scatterv): the root, which alone knows
// the counts, checks them, chooses and tells the others. Collective.
VectorPath rooted_vector_path(const Communicator& comm, std::span<const Index> counts,
                              std::span<const Index> displacements, Index chunk, int root,
                              const char* call) {
  int path = 0;
  if (comm.rank() == root) {
    check_rank_count(counts, comm.size(), call);
    check_rank_count(displacements, comm.size(), call);
    path = static_cast<int>(vector_path(fits_one_call(counts, displacements, chunk), chunk));
  }
  detail::check_mpi(MPI_Bcast(&path, 1, MPI_INT, root, comm.native()), "MPI_Bcast");
  return static_cast<VectorPath>(path);
}

}  // namespace

void set_message_chunk_bytes(std::size_t bytes) {
  if (bytes == 0) throw InvalidArgument("set_message_chunk_bytes: the limit must be positive");
  chunk_bytes_limit.store(bytes);
}

std::size_t message_chunk_bytes() {
  return chunk_bytes_limit.load();
}

namespace detail {
void check_mpi(int code, const char* call) {
  if (code == MPI_SUCCESS) return;
  char text[MPI_MAX_ERROR_STRING];
  int length = 0;
  if (MPI_Error_string(code, text, &length) != MPI_SUCCESS) length = 0;
  throw CommunicationError(std::string(call) + " failed: " + std::string(text, length));
}
}  // namespace detail

using detail::check_mpi;

// ---- Request ------------------------------------------------------------------------------

Request::Request(Request&& other) noexcept : requests_(std::move(other.requests_)) {
  other.requests_.clear();
}

Request& Request::operator=(Request&& other) noexcept {
  if (this != &other) {
    try {
      wait();
    } catch (...) {
    }
    requests_ = std::move(other.requests_);
    other.requests_.clear();
  }
  return *this;
}

Request::~Request() {
  try {
    wait();
  } catch (...) {
    // A destructor must not throw; the error was already reported if wait() was called.
  }
}

void Request::wait() {
  if (requests_.empty()) return;
  const int code =
      MPI_Waitall(static_cast<int>(requests_.size()), requests_.data(), MPI_STATUSES_IGNORE);
  requests_.clear();
  check_mpi(code, "MPI_Waitall");
}

void Request::merge(Request&& other) {
  requests_.insert(requests_.end(), other.requests_.begin(), other.requests_.end());
  other.requests_.clear();
}

void wait_all(std::span<Request> requests) {
  std::vector<MPI_Request> all;
  for (Request& request : requests) {
    all.insert(all.end(), request.native().begin(), request.native().end());
    request.native().clear();
  }
  if (all.empty()) return;
  check_mpi(MPI_Waitall(static_cast<int>(all.size()), all.data(), MPI_STATUSES_IGNORE),
            "MPI_Waitall");
}

// ---- Communicator -------------------------------------------------------------------------

Communicator::Handle::~Handle() {
  if (!owned || comm == MPI_COMM_NULL) return;
  int finalized = 0;
  MPI_Finalized(&finalized);
  if (!finalized) MPI_Comm_free(&comm);
}

std::shared_ptr<const Communicator::Handle> Communicator::make_handle(MPI_Comm comm, bool owned) {
  auto handle = std::make_shared<Handle>();
  handle->comm = comm;
  handle->owned = owned;
  if (comm == MPI_COMM_NULL) throw InvalidArgument("Communicator: MPI_COMM_NULL is not usable");
  int initialized = 0;
  MPI_Initialized(&initialized);
  if (!initialized) {
    throw CommunicationError(
        "Communicator: MPI is not initialised (create a distlops::Environment first)");
  }
  check_mpi(MPI_Comm_set_errhandler(comm, MPI_ERRORS_RETURN), "MPI_Comm_set_errhandler");
  check_mpi(MPI_Comm_rank(comm, &handle->rank), "MPI_Comm_rank");
  check_mpi(MPI_Comm_size(comm, &handle->size), "MPI_Comm_size");
  return handle;
}

Communicator::Communicator() : Communicator(MPI_COMM_WORLD) {}

Communicator::Communicator(MPI_Comm comm) : handle_(make_handle(comm, false)) {}

Communicator Communicator::world() {
  return Communicator(MPI_COMM_WORLD);
}

Communicator Communicator::self() {
  return Communicator(MPI_COMM_SELF);
}

Communicator Communicator::adopt(MPI_Comm comm) {
  return Communicator(make_handle(comm, true));
}

Communicator Communicator::split(int colour, int key) const {
  if (colour < 0) throw InvalidArgument("Communicator::split: colour must be non-negative");
  MPI_Comm result = MPI_COMM_NULL;
  check_mpi(MPI_Comm_split(native(), colour, key, &result), "MPI_Comm_split");
  return adopt(result);
}

Communicator Communicator::duplicate() const {
  MPI_Comm result = MPI_COMM_NULL;
  check_mpi(MPI_Comm_dup(native(), &result), "MPI_Comm_dup");
  return adopt(result);
}

bool Communicator::congruent(const Communicator& other) const {
  if (handle_ == other.handle_ || native() == other.native()) return true;
  int verdict = MPI_UNEQUAL;
  check_mpi(MPI_Comm_compare(native(), other.native(), &verdict), "MPI_Comm_compare");
  return verdict == MPI_IDENT || verdict == MPI_CONGRUENT;
}

std::vector<int> Communicator::world_ranks() const {
  MPI_Group group = MPI_GROUP_NULL, world = MPI_GROUP_NULL;
  check_mpi(MPI_Comm_group(native(), &group), "MPI_Comm_group");
  const int code = MPI_Comm_group(MPI_COMM_WORLD, &world);
  if (code != MPI_SUCCESS) MPI_Group_free(&group);
  check_mpi(code, "MPI_Comm_group");
  std::vector<int> ranks(static_cast<std::size_t>(size())), translated(ranks.size());
  for (std::size_t r = 0; r < ranks.size(); ++r)
    ranks[r] = static_cast<int>(r);
  const int translated_code =
      MPI_Group_translate_ranks(group, size(), ranks.data(), world, translated.data());
  MPI_Group_free(&group);
  MPI_Group_free(&world);
  check_mpi(translated_code, "MPI_Group_translate_ranks");
  return translated;
}

void Communicator::barrier() const {
  const log_view::ScopedEvent event(log_view::EventKind::collective, "MPI_Barrier");
  check_mpi(MPI_Barrier(native()), "MPI_Barrier");
}

void Communicator::allreduce_bytes(detail::TypedBuffer send, void* recv, ReduceOp op) const {
  const log_view::ScopedEvent event(log_view::EventKind::collective, "MPI_Allreduce",
                                    {0, buffer_bytes(send)});
  const Index chunk = chunk_elements(send.element_size);
  const bool in_place = send.data == recv;
  for (Index offset = 0; offset < send.count; offset += chunk) {
    const int count = static_cast<int>(std::min(chunk, send.count - offset));
    const void* source =
        in_place ? MPI_IN_PLACE : byte_offset(send.data, offset, send.element_size);
    check_mpi(MPI_Allreduce(source, byte_offset(recv, offset, send.element_size), count, send.type,
                            native_op(op), native()),
              "MPI_Allreduce");
  }
}

void Communicator::broadcast_bytes(detail::TypedBuffer data, int root) const {
  const log_view::ScopedEvent event(log_view::EventKind::collective, "MPI_Bcast",
                                    {0, buffer_bytes(data)});
  const Index chunk = chunk_elements(data.element_size);
  void* base = const_cast<void*>(data.data);
  if (data.count > chunk && one_datatype_per_block(chunk)) {
    const detail::MessageDatatype block =
        detail::block_datatype(data.count, data.type, data.element_size, chunk);
    check_mpi(MPI_Bcast(base, 1, block.get(), root, native()), "MPI_Bcast");
    return;
  }
  for (Index offset = 0; offset < data.count; offset += chunk) {
    const int count = static_cast<int>(std::min(chunk, data.count - offset));
    check_mpi(
        MPI_Bcast(byte_offset(base, offset, data.element_size), count, data.type, root, native()),
        "MPI_Bcast");
  }
}

void Communicator::broadcast_copy_bytes(const void* source, detail::TypedBuffer target,
                                        int root) const {
  const bool is_root = rank() == root;
  const std::size_t bytes = static_cast<std::size_t>(target.count) * target.element_size;
  const Index chunk = chunk_elements(target.element_size);
  // Below this size (and within one call) the root's copy is cheap next to the broadcast's
  // latency: copy, then one blocking broadcast. `count` is the same on every rank, so is the path.
  constexpr std::size_t overlap_bytes = std::size_t(8) << 20;
  if (bytes < overlap_bytes && target.count <= chunk) {
    if (is_root && target.count > 0 && source != target.data) {
      std::memmove(const_cast<void*>(target.data), source, bytes);
    }
    broadcast_bytes(target, root);
    return;
  }
  const log_view::ScopedEvent event(log_view::EventKind::collective, "MPI_Ibcast",
                                    {0, buffer_bytes(target)});
  // The root sends from `source` (MPI only reads the root's buffer) and copies it into `target`
  // in slices, letting the broadcast progress between them.
  void* buffer = is_root ? const_cast<void*>(source) : const_cast<void*>(target.data);
  Request request;
  detail::MessageDatatype block;
  if (target.count > chunk && one_datatype_per_block(chunk)) {
    block = detail::block_datatype(target.count, target.type, target.element_size, chunk);
    MPI_Request native_request = MPI_REQUEST_NULL;
    check_mpi(MPI_Ibcast(buffer, 1, block.get(), root, native(), &native_request), "MPI_Ibcast");
    request.native().push_back(native_request);
  } else {
    for (Index offset = 0; offset < target.count; offset += chunk) {
      const int count = static_cast<int>(std::min(chunk, target.count - offset));
      MPI_Request native_request = MPI_REQUEST_NULL;
      check_mpi(MPI_Ibcast(byte_offset(buffer, offset, target.element_size), count, target.type,
                           root, native(), &native_request),
                "MPI_Ibcast");
      request.native().push_back(native_request);
    }
  }
  if (is_root && source != target.data) {
    constexpr std::size_t slice = std::size_t(16) << 20;
    auto* to = static_cast<std::byte*>(const_cast<void*>(target.data));
    const auto* from = static_cast<const std::byte*>(source);
    for (std::size_t offset = 0; offset < bytes; offset += slice) {
      std::memcpy(to + offset, from + offset, std::min(slice, bytes - offset));
      int done = 0;
      check_mpi(MPI_Testall(static_cast<int>(request.native().size()), request.native().data(),
                            &done, MPI_STATUSES_IGNORE),
                "MPI_Testall");
    }
  }
  request.wait();
}

void Communicator::send_bytes(detail::TypedBuffer data, int destination, int tag) const {
  if (destination == rank()) return blocking_send(native(), data, destination, tag);
  const log_view::ScopedEvent event(log_view::EventKind::message, "MPI_Send", one_message(data));
  blocking_send(native(), data, destination, tag);
}

void Communicator::recv_bytes(detail::TypedBuffer data, int source, int tag) const {
  blocking_receive(native(), data, source, tag);
}

Request Communicator::isend_bytes(detail::TypedBuffer data, int destination, int tag) const {
  if (destination == rank()) return post_send(native(), data, destination, tag);
  const log_view::ScopedEvent event(log_view::EventKind::message, "MPI_Isend", one_message(data));
  return post_send(native(), data, destination, tag);
}

Request Communicator::irecv_bytes(detail::TypedBuffer data, int source, int tag) const {
  return post_receive(native(), data, source, tag);
}

void Communicator::gatherv_bytes(detail::TypedBuffer send, void* recv,
                                 std::span<const Index> counts,
                                 std::span<const Index> displacements, int root) const {
  const log_view::ScopedEvent event(log_view::EventKind::collective, "MPI_Gatherv",
                                    {0, buffer_bytes(send)});
  const bool is_root = rank() == root;
  const Index chunk = chunk_elements(send.element_size);
  const VectorPath path = rooted_vector_path(*this, counts, displacements, chunk, root, "gatherv");
  if (path == VectorPath::plain && send.count <= chunk) {
    std::vector<int> native_counts, native_displacements;
    if (is_root) {
      native_counts = to_int(counts);
      native_displacements = to_int(displacements);
    }
    check_mpi(
        MPI_Gatherv(send.data, static_cast<int>(send.count), send.type, recv, native_counts.data(),
                    native_displacements.data(), send.type, root, native()),
        "MPI_Gatherv");
    return;
  }
  // Above the per-call limit: one message per block (a derived datatype, or chunks below two
  // elements per call), the root's own block copied while the others are in flight.
  if (!is_root) {
    blocking_send(native(), send, root, chunked_collective_tag);
    return;
  }
  std::vector<Request> receives;
  for (int r = 0; r < size(); ++r) {
    if (r == root) continue;
    receives.push_back(post_receive(native(),
                                    {byte_offset(recv, displacements[r], send.element_size),
                                     counts[r], send.type, send.element_size},
                                    r, chunked_collective_tag));
  }
  std::byte* own = byte_offset(recv, displacements[root], send.element_size);
  if (counts[root] > 0 && own != send.data) {
    std::memmove(own, send.data, static_cast<std::size_t>(counts[root]) * send.element_size);
  }
  wait_all(receives);
}

void Communicator::scatterv_bytes(const void* send, std::span<const Index> counts,
                                  std::span<const Index> displacements, detail::TypedBuffer recv,
                                  int root) const {
  const bool is_root = rank() == root;
  const log_view::ScopedEvent event(
      log_view::EventKind::collective, "MPI_Scatterv",
      is_root ? blocks_to_others(counts, rank(), recv.element_size) : log_view::Traffic{});
  const Index chunk = chunk_elements(recv.element_size);
  const VectorPath path = rooted_vector_path(*this, counts, displacements, chunk, root, "scatterv");
  void* target = const_cast<void*>(recv.data);
  if (path == VectorPath::plain) {
    std::vector<int> native_counts, native_displacements;
    if (is_root) {
      native_counts = to_int(counts);
      native_displacements = to_int(displacements);
    }
    check_mpi(MPI_Scatterv(send, native_counts.data(), native_displacements.data(), recv.type,
                           target, static_cast<int>(recv.count), recv.type, root, native()),
              "MPI_Scatterv");
    return;
  }
  // Above the per-call limit: one message per block (a derived datatype, or chunks below two
  // elements per call), the root's own block copied while the others are in flight.
  if (!is_root) {
    blocking_receive(native(), recv, root, chunked_collective_tag);
    return;
  }
  std::vector<Request> sends;
  for (int r = 0; r < size(); ++r) {
    if (r == root) continue;
    sends.push_back(post_send(native(),
                              {byte_offset(send, displacements[r], recv.element_size), counts[r],
                               recv.type, recv.element_size},
                              r, chunked_collective_tag));
  }
  const std::byte* own = byte_offset(send, displacements[root], recv.element_size);
  if (counts[root] > 0 && own != target) {
    std::memmove(target, own, static_cast<std::size_t>(counts[root]) * recv.element_size);
  }
  wait_all(sends);
}

void Communicator::allgather_bytes(detail::TypedBuffer send, void* recv) const {
  const log_view::ScopedEvent event(log_view::EventKind::collective, "MPI_Allgather",
                                    {0, buffer_bytes(send)});
  const Index chunk = chunk_elements(send.element_size);
  if (send.count * size() <= chunk) {
    const std::byte* own_slot = byte_offset(recv, send.count * rank(), send.element_size);
    const void* source = send.data == own_slot ? MPI_IN_PLACE : send.data;
    check_mpi(MPI_Allgather(source, static_cast<int>(send.count), send.type, recv,
                            static_cast<int>(send.count), send.type, native()),
              "MPI_Allgather");
    return;
  }
  std::vector<Index> counts(static_cast<std::size_t>(size()), send.count);
  std::vector<Index> displacements(counts.size());
  for (std::size_t r = 0; r < counts.size(); ++r)
    displacements[r] = send.count * Index(r);
  allgatherv_bytes(send, recv, counts, displacements);
}

void Communicator::allgatherv_bytes(detail::TypedBuffer send, void* recv,
                                    std::span<const Index> counts,
                                    std::span<const Index> displacements) const {
  const log_view::ScopedEvent event(log_view::EventKind::collective, "MPI_Allgatherv",
                                    {0, buffer_bytes(send)});
  check_rank_count(counts, size(), "allgatherv");
  check_rank_count(displacements, size(), "allgatherv");
  if (counts[rank()] != send.count) {
    throw InvalidArgument("allgatherv: this rank sends " + std::to_string(send.count) +
                          " elements but counts[" + std::to_string(rank()) + "] is " +
                          std::to_string(counts[rank()]));
  }
  const Index chunk = chunk_elements(send.element_size);
  std::byte* own_slot = byte_offset(recv, displacements[rank()], send.element_size);
  const VectorPath path = vector_path(fits_one_call(counts, displacements, chunk), chunk);
  if (path == VectorPath::plain) {
    const std::vector<int> native_counts = to_int(counts);
    const std::vector<int> native_displacements = to_int(displacements);
    const void* source = send.data == own_slot ? MPI_IN_PLACE : send.data;
    check_mpi(
        MPI_Allgatherv(source, static_cast<int>(send.count), send.type, recv, native_counts.data(),
                       native_displacements.data(), send.type, native()),
        "MPI_Allgatherv");
    return;
  }
  // Above the per-call limit: this rank's block goes to every other rank from the caller's
  // buffer, one message each (a derived datatype, or chunks below two elements per call), and is
  // copied into its own slot while the messages are in flight.
  std::vector<Request> requests;
  for (int r = 0; r < size(); ++r) {
    if (r == rank()) continue;
    requests.push_back(post_receive(native(),
                                    {byte_offset(recv, displacements[r], send.element_size),
                                     counts[r], send.type, send.element_size},
                                    r, chunked_collective_tag));
  }
  for (int r = 0; r < size(); ++r) {
    if (r == rank()) continue;
    requests.push_back(post_send(native(), send, r, chunked_collective_tag));
  }
  if (send.count > 0 && send.data != own_slot) {
    std::memmove(own_slot, send.data, static_cast<std::size_t>(send.count) * send.element_size);
  }
  wait_all(requests);
}

void Communicator::alltoall_bytes(detail::TypedBuffer send, void* recv) const {
  const Index others = size() - 1;
  const log_view::ScopedEvent event(log_view::EventKind::collective, "MPI_Alltoall",
                                    {send.count > 0 ? others : 0, others * buffer_bytes(send)});
  const Index chunk = chunk_elements(send.element_size);
  if (send.count * size() <= chunk) {
    check_mpi(MPI_Alltoall(send.data, static_cast<int>(send.count), send.type, recv,
                           static_cast<int>(send.count), send.type, native()),
              "MPI_Alltoall");
    return;
  }
  std::vector<Index> counts(static_cast<std::size_t>(size()), send.count);
  std::vector<Index> displacements(counts.size());
  for (std::size_t r = 0; r < counts.size(); ++r)
    displacements[r] = send.count * Index(r);
  alltoallv_bytes(send, counts, displacements, recv, counts, displacements);
}

void Communicator::alltoallv_bytes(detail::TypedBuffer send, std::span<const Index> send_counts,
                                   std::span<const Index> send_displacements, void* recv,
                                   std::span<const Index> recv_counts,
                                   std::span<const Index> recv_displacements) const {
  const log_view::ScopedEvent event(log_view::EventKind::collective, "MPI_Alltoallv",
                                    blocks_to_others(send_counts, rank(), send.element_size));
  check_rank_count(send_counts, size(), "alltoallv");
  check_rank_count(send_displacements, size(), "alltoallv");
  check_rank_count(recv_counts, size(), "alltoallv");
  check_rank_count(recv_displacements, size(), "alltoallv");
  if (send_counts[rank()] != recv_counts[rank()]) {
    throw InvalidArgument("alltoallv: a rank's count to itself differs from its count from itself");
  }
  const Index chunk = chunk_elements(send.element_size);
  // Every rank must take the same path; each decides on its own counts, so agree first.
  int local_fits = static_cast<int>(fits_one_call(send_counts, send_displacements, chunk) &&
                                    fits_one_call(recv_counts, recv_displacements, chunk));
  int all_fit = 0;
  check_mpi(MPI_Allreduce(&local_fits, &all_fit, 1, MPI_INT, MPI_MIN, native()), "MPI_Allreduce");
  const VectorPath path = vector_path(all_fit != 0, chunk);
  if (path == VectorPath::plain) {
    const std::vector<int> sc = to_int(send_counts), sd = to_int(send_displacements);
    const std::vector<int> rc = to_int(recv_counts), rd = to_int(recv_displacements);
    check_mpi(MPI_Alltoallv(send.data, sc.data(), sd.data(), send.type, recv, rc.data(), rd.data(),
                            send.type, native()),
              "MPI_Alltoallv");
    return;
  }
  if (send_counts[rank()] > 0) {
    std::memmove(byte_offset(recv, recv_displacements[rank()], send.element_size),
                 byte_offset(send.data, send_displacements[rank()], send.element_size),
                 static_cast<std::size_t>(send_counts[rank()]) * send.element_size);
  }
  if (path == VectorPath::derived) {
    std::vector<Block> send_blocks(static_cast<std::size_t>(size()));
    std::vector<Block> recv_blocks(send_blocks.size());
    for (int r = 0; r < size(); ++r) {
      if (r == rank()) continue;
      send_blocks[r] = {send_displacements[r], send_counts[r]};
      recv_blocks[r] = {recv_displacements[r], recv_counts[r]};
    }
    exchange_blocks(native(), send.data, send_blocks, recv, recv_blocks, send.type,
                    send.element_size, chunk);
    return;
  }
  std::vector<Request> requests;
  for (int r = 0; r < size(); ++r) {
    if (r == rank() || recv_counts[r] == 0) continue;
    requests.push_back(post_receive(native(),
                                    {byte_offset(recv, recv_displacements[r], send.element_size),
                                     recv_counts[r], send.type, send.element_size},
                                    r, chunked_collective_tag));
  }
  for (int r = 0; r < size(); ++r) {
    if (r == rank() || send_counts[r] == 0) continue;
    requests.push_back(post_send(native(),
                                 {byte_offset(send.data, send_displacements[r], send.element_size),
                                  send_counts[r], send.type, send.element_size},
                                 r, chunked_collective_tag));
  }
  wait_all(requests);
}

}  // namespace distlops
