// NCCL collectives on device memory, and the transport of the plans over them.
#include "distlops/core/nccl_communicator.hpp"

#include <cuda_runtime_api.h>
#include <nccl.h>

#include <algorithm>
#include <map>
#include <mutex>
#include <string>

#include "distlops/core/collective_check.hpp"
#include "distlops/core/cuda_context.hpp"
#include "distlops/core/detail/cuda_check.hpp"
#include "distlops/core/error.hpp"
#include "distlops/core/kernels.hpp"

namespace distlops {

namespace {

void check_nccl(ncclResult_t code, const char* call) {
  if (code == ncclSuccess) return;
  std::string message = std::string(call) + " failed: " + ncclGetErrorString(code);
  if (code == ncclSystemError || code == ncclRemoteError || code == ncclInternalError) {
    message += " (set NCCL_DEBUG=WARN for details)";
  }
  throw CommunicationError(message);
}

ncclDataType_t native_type(detail::NcclElement element) {
  switch (element) {
    case detail::NcclElement::int8:
      return ncclInt8;
    case detail::NcclElement::uint8:
      return ncclUint8;
    case detail::NcclElement::int32:
      return ncclInt32;
    case detail::NcclElement::uint32:
      return ncclUint32;
    case detail::NcclElement::int64:
      return ncclInt64;
    case detail::NcclElement::uint64:
      return ncclUint64;
    case detail::NcclElement::float32:
      return ncclFloat32;
    case detail::NcclElement::float64:
      return ncclFloat64;
  }
  throw InvalidArgument("NcclCommunicator: unknown element type");
}

ncclRedOp_t native_op(ReduceOp op, bool complex) {
  if (complex && op != ReduceOp::sum) {
    throw InvalidArgument(
        "NcclCommunicator::allreduce: complex values (pairs of reals) can only be summed");
  }
  switch (op) {
    case ReduceOp::sum:
      return ncclSum;
    case ReduceOp::prod:
      return ncclProd;
    case ReduceOp::max:
      return ncclMax;
    case ReduceOp::min:
      return ncclMin;
    case ReduceOp::logical_and:
    case ReduceOp::logical_or:
      break;
  }
  throw InvalidArgument(
      "NcclCommunicator::allreduce: NCCL has no logical reductions; use the MPI Communicator");
}

// Operations issued between ncclGroupStart and ncclGroupEnd. The group is closed even when an
// operation fails, so that NCCL's per-thread group state stays consistent.
class Group {
 public:
  Group() { check_nccl(ncclGroupStart(), "ncclGroupStart"); }
  Group(const Group&) = delete;
  Group& operator=(const Group&) = delete;
  ~Group() {
    if (open_) ncclGroupEnd();
  }
  void end() {
    open_ = false;
    check_nccl(ncclGroupEnd(), "ncclGroupEnd");
  }

 private:
  bool open_ = true;
};

void check_rank_count(std::span<const Index> values, int size, const char* call) {
  if (static_cast<int>(values.size()) != size) {
    throw InvalidArgument(std::string(call) + ": expected " + std::to_string(size) +
                          " counts or displacements (one per rank), got " +
                          std::to_string(values.size()));
  }
}

void check_peer(int peer, int size, const char* call) {
  if (peer < 0 || peer >= size) {
    throw InvalidArgument(std::string(call) + ": rank " + std::to_string(peer) +
                          " is not a rank of a communicator of size " + std::to_string(size));
  }
}

std::byte* at(void* base, Index values, std::size_t value_size) {
  return static_cast<std::byte*>(base) + static_cast<std::size_t>(values) * value_size;
}
const std::byte* at(const void* base, Index values, std::size_t value_size) {
  return static_cast<const std::byte*>(base) + static_cast<std::size_t>(values) * value_size;
}

void copy_on_device(void* destination, const void* source, std::size_t bytes, cudaStream_t stream) {
  if (bytes == 0 || destination == source) return;
  cuda::check_cuda(cudaMemcpyAsync(destination, source, bytes, cudaMemcpyDeviceToDevice, stream),
                   "cudaMemcpyAsync (NCCL local part)");
}

}  // namespace

struct NcclCommunicator::Impl {
  Communicator mpi;
  ncclComm_t comm = nullptr;  // null for a single rank
  cudaStream_t stream = nullptr;

  Impl(const Impl&) = delete;
  Impl& operator=(const Impl&) = delete;
  explicit Impl(Communicator communicator) : mpi(std::move(communicator)) {}
  ~Impl() {
    if (!comm) return;
    // Operations still in flight use the communicator.
    cudaStreamSynchronize(stream);
    ncclCommDestroy(comm);
  }
  // Elements of the given count of values of `buffer`'s type.
  static std::size_t elements(const detail::NcclBuffer& buffer, Index values) {
    return static_cast<std::size_t>(values) * (buffer.complex ? 2 : 1);
  }
};

NcclCommunicator::NcclCommunicator(const Communicator& comm) {
  auto impl = std::make_shared<Impl>(comm);
  // A rank without a device must not leave the others waiting in ncclCommInitRank.
  collective_check(comm, [&] { impl->stream = cuda::Context::get().stream(); });
  if (comm.size() > 1) {
    ncclUniqueId id{};
    collective_check(comm, [&] {
      if (comm.rank() == 0) check_nccl(ncclGetUniqueId(&id), "ncclGetUniqueId");
    });
    comm.broadcast(reinterpret_cast<unsigned char*>(&id), static_cast<Index>(sizeof id), 0);
    check_nccl(ncclCommInitRank(&impl->comm, comm.size(), id, comm.rank()), "ncclCommInitRank");
  }
  impl_ = std::move(impl);
}

// ---- symmetric memory ------------------------------------------------------------------------
// ncclMemAlloc appeared in NCCL 2.19, window registration (symmetric kernels) in 2.27.
#if defined(NCCL_VERSION_CODE) && NCCL_VERSION_CODE >= NCCL_VERSION(2, 19, 0)
#define DISTLOPS_NCCL_MEM_ALLOC 1
#else
#define DISTLOPS_NCCL_MEM_ALLOC 0
#endif
#if defined(NCCL_VERSION_CODE) && NCCL_VERSION_CODE >= NCCL_VERSION(2, 27, 0) && \
    defined(NCCL_WIN_COLL_SYMMETRIC)
#define DISTLOPS_NCCL_WINDOWS 1
#else
#define DISTLOPS_NCCL_WINDOWS 0
#endif

bool NcclCommunicator::symmetric_windows_available() {
  return DISTLOPS_NCCL_WINDOWS != 0;
}

NcclCommunicator::SymmetricRegion NcclCommunicator::allocate_symmetric(std::size_t bytes) const {
  SymmetricRegion region;
  region.bytes = bytes;
#if DISTLOPS_NCCL_MEM_ALLOC
  // Every rank takes part in the registration, also with zero bytes of its own.
  const std::size_t request = std::max<std::size_t>(bytes, 1);
  cuda::Context::get();  // the device is current
  const ncclResult_t allocated = ncclMemAlloc(&region.data, request);
  int ok = allocated == ncclSuccess ? 1 : 0, all_ok = 0;
  impl_->mpi.allreduce(&ok, &all_ok, 1, ReduceOp::min);
  if (!all_ok) {
    if (allocated == ncclSuccess) ncclMemFree(region.data);
    throw CommunicationError(std::string("ncclMemAlloc failed on at least one rank") +
                             (allocated != ncclSuccess
                                  ? std::string(" (here: ") + ncclGetErrorString(allocated) + ")"
                                  : std::string()));
  }
#if DISTLOPS_NCCL_WINDOWS
  if (impl_->comm) {
    ncclWindow_t window = nullptr;
    const ncclResult_t registered =
        ncclCommWindowRegister(impl_->comm, region.data, request, &window, NCCL_WIN_COLL_SYMMETRIC);
    if (registered != ncclSuccess) {
      ncclMemFree(region.data);
      check_nccl(registered, "ncclCommWindowRegister");
    }
    region.window = window;
    region.registered = true;
  }
#endif
  return region;
#else
  (void)bytes;
  throw InvalidArgument("symmetric memory needs NCCL 2.19 or newer (ncclMemAlloc)");
#endif
}

void NcclCommunicator::free_symmetric(SymmetricRegion& region) const {
  if (!region.data) return;
#if DISTLOPS_NCCL_MEM_ALLOC
  // Collectives still in flight may use the memory.
  cuda::Context::get().synchronize();
#if DISTLOPS_NCCL_WINDOWS
  if (region.registered && impl_->comm) {
    check_nccl(ncclCommWindowDeregister(impl_->comm, static_cast<ncclWindow_t>(region.window)),
               "ncclCommWindowDeregister");
  }
#endif
  check_nccl(ncclMemFree(region.data), "ncclMemFree");
#endif
  region = SymmetricRegion{};
}

const Communicator& NcclCommunicator::mpi() const {
  return impl_->mpi;
}
int NcclCommunicator::rank() const {
  return impl_->mpi.rank();
}
int NcclCommunicator::size() const {
  return impl_->mpi.size();
}

void NcclCommunicator::allreduce_raw(detail::NcclBuffer send, void* recv, ReduceOp op) const {
  const ncclRedOp_t native = native_op(op, send.complex);
  if (send.count == 0) return;
  const cudaStream_t stream = cuda::Context::get().stream();
  if (!impl_->comm) {
    copy_on_device(recv, send.data, send.count / (send.complex ? 2 : 1) * send.value_size, stream);
    return;
  }
  check_nccl(ncclAllReduce(send.data, recv, send.count, native_type(send.element), native,
                           impl_->comm, stream),
             "ncclAllReduce");
}

void NcclCommunicator::broadcast_raw(detail::NcclBuffer data, int root) const {
  check_peer(root, size(), "NcclCommunicator::broadcast");
  if (data.count == 0 || !impl_->comm) return;
  void* buffer = const_cast<void*>(data.data);
  check_nccl(ncclBroadcast(buffer, buffer, data.count, native_type(data.element), root, impl_->comm,
                           cuda::Context::get().stream()),
             "ncclBroadcast");
}

void NcclCommunicator::allgather_raw(detail::NcclBuffer send, void* recv) const {
  if (send.count == 0) return;
  const cudaStream_t stream = cuda::Context::get().stream();
  if (!impl_->comm) {
    copy_on_device(recv, send.data, send.count / (send.complex ? 2 : 1) * send.value_size, stream);
    return;
  }
  check_nccl(
      ncclAllGather(send.data, recv, send.count, native_type(send.element), impl_->comm, stream),
      "ncclAllGather");
}

void NcclCommunicator::allgatherv_raw(detail::NcclBuffer send, void* recv,
                                      std::span<const Index> counts,
                                      std::span<const Index> displacements) const {
  const int n = size();
  const int me = rank();
  check_rank_count(counts, n, "NcclCommunicator::allgatherv");
  check_rank_count(displacements, n, "NcclCommunicator::allgatherv");
  const Index my_count = static_cast<Index>(send.count / (send.complex ? 2 : 1));
  if (counts[static_cast<std::size_t>(me)] != my_count) {
    throw InvalidArgument("NcclCommunicator::allgatherv: this rank sends " +
                          std::to_string(my_count) + " values, counts says " +
                          std::to_string(counts[static_cast<std::size_t>(me)]));
  }
  const cudaStream_t stream = cuda::Context::get().stream();
  if (!impl_->comm) {
    copy_on_device(at(recv, displacements[0], send.value_size), send.data,
                   static_cast<std::size_t>(my_count) * send.value_size, stream);
    return;
  }
  const ncclDataType_t type = native_type(send.element);
  Group group;
  for (int r = 0; r < n; ++r) {
    const auto index = static_cast<std::size_t>(r);
    if (counts[index] <= 0) continue;
    std::byte* target = at(recv, displacements[index], send.value_size);
    const void* source = r == me ? send.data : target;
    check_nccl(ncclBroadcast(source, target, Impl::elements(send, counts[index]), type, r,
                             impl_->comm, stream),
               "ncclBroadcast (allgatherv)");
  }
  group.end();
}

void NcclCommunicator::alltoallv_raw(detail::NcclBuffer type, std::span<const Index> send_counts,
                                     std::span<const Index> send_displacements, void* recv,
                                     std::span<const Index> recv_counts,
                                     std::span<const Index> recv_displacements) const {
  const int n = size();
  const int me = rank();
  for (auto values : {send_counts, send_displacements, recv_counts, recv_displacements})
    check_rank_count(values, n, "NcclCommunicator::alltoallv");
  const auto mine = static_cast<std::size_t>(me);
  if (send_counts[mine] != recv_counts[mine]) {
    throw InvalidArgument("NcclCommunicator::alltoallv: this rank sends itself " +
                          std::to_string(send_counts[mine]) + " values but expects " +
                          std::to_string(recv_counts[mine]));
  }
  const cudaStream_t stream = cuda::Context::get().stream();
  copy_on_device(at(recv, recv_displacements[mine], type.value_size),
                 at(type.data, send_displacements[mine], type.value_size),
                 static_cast<std::size_t>(send_counts[mine]) * type.value_size, stream);
  if (!impl_->comm) return;
  const ncclDataType_t native = native_type(type.element);
  Group group;
  for (int r = 0; r < n; ++r) {
    const auto index = static_cast<std::size_t>(r);
    if (r == me) continue;
    if (recv_counts[index] > 0) {
      check_nccl(ncclRecv(at(recv, recv_displacements[index], type.value_size),
                          Impl::elements(type, recv_counts[index]), native, r, impl_->comm, stream),
                 "ncclRecv (alltoallv)");
    }
    if (send_counts[index] > 0) {
      check_nccl(ncclSend(at(type.data, send_displacements[index], type.value_size),
                          Impl::elements(type, send_counts[index]), native, r, impl_->comm, stream),
                 "ncclSend (alltoallv)");
    }
  }
  group.end();
}

void NcclCommunicator::send_raw(detail::NcclBuffer data, int peer) const {
  check_peer(peer, size(), "NcclCommunicator::send");
  if (peer == rank()) {
    throw InvalidArgument(
        "NcclCommunicator::send: a rank cannot send to itself outside exchange()");
  }
  if (data.count == 0) return;
  check_nccl(ncclSend(data.data, data.count, native_type(data.element), peer, impl_->comm,
                      cuda::Context::get().stream()),
             "ncclSend");
}

void NcclCommunicator::recv_raw(detail::NcclBuffer data, int peer) const {
  check_peer(peer, size(), "NcclCommunicator::recv");
  if (peer == rank()) {
    throw InvalidArgument(
        "NcclCommunicator::recv: a rank cannot receive from itself outside exchange()");
  }
  if (data.count == 0) return;
  check_nccl(ncclRecv(const_cast<void*>(data.data), data.count, native_type(data.element), peer,
                      impl_->comm, cuda::Context::get().stream()),
             "ncclRecv");
}

void NcclCommunicator::exchange(std::span<const ReceiveMessage> receives,
                                std::span<const SendMessage> sends) const {
  const int n = size();
  const int me = rank();
  for (const ReceiveMessage& message : receives)
    check_peer(message.peer, n, "NcclCommunicator::exchange");
  for (const SendMessage& message : sends)
    check_peer(message.peer, n, "NcclCommunicator::exchange");
  const cudaStream_t stream = cuda::Context::get().stream();
  // Messages to this rank itself: the k-th send pairs with the k-th receive.
  std::vector<const SendMessage*> to_self;
  for (const SendMessage& message : sends) {
    if (message.peer == me) to_self.push_back(&message);
  }
  std::size_t next_to_self = 0;
  for (const ReceiveMessage& message : receives) {
    if (message.peer != me) continue;
    if (next_to_self == to_self.size() || to_self[next_to_self]->bytes != message.bytes) {
      throw InvalidArgument(
          "NcclCommunicator::exchange: this rank's messages to itself do not "
          "pair up with its receives from itself");
    }
    copy_on_device(message.data, to_self[next_to_self++]->data,
                   static_cast<std::size_t>(message.bytes), stream);
  }
  if (next_to_self != to_self.size()) {
    throw InvalidArgument(
        "NcclCommunicator::exchange: this rank sends itself more messages than "
        "it receives from itself");
  }
  if (!impl_->comm) return;
  Group group;
  for (const ReceiveMessage& message : receives) {
    if (message.peer == me || message.bytes <= 0) continue;
    check_nccl(ncclRecv(message.data, static_cast<std::size_t>(message.bytes), ncclUint8,
                        message.peer, impl_->comm, stream),
               "ncclRecv");
  }
  for (const SendMessage& message : sends) {
    if (message.peer == me || message.bytes <= 0) continue;
    check_nccl(ncclSend(message.data, static_cast<std::size_t>(message.bytes), ncclUint8,
                        message.peer, impl_->comm, stream),
               "ncclSend");
  }
  group.end();
}

// ---- transport ------------------------------------------------------------------------------

void NcclTransport::allreduce(float* data, Index count, ReduceOp op) {
  nccl_.allreduce(data, data, count, op);
}

void NcclTransport::allreduce(double* data, Index count, ReduceOp op) {
  nccl_.allreduce(data, data, count, op);
}

void NcclTransport::allgather(const std::byte* send, Index bytes, std::byte* recv) {
  nccl_.allgather(send, bytes, recv);
}

void NcclTransport::allgatherv(const std::byte* send, Index send_bytes, std::byte* recv,
                               std::span<const Index> counts,
                               std::span<const Index> displacements) {
  nccl_.allgatherv(send, send_bytes, recv, counts, displacements);
}

void NcclTransport::alltoallv(const std::byte* send, std::span<const Index> send_counts,
                              std::span<const Index> send_displacements, std::byte* recv,
                              std::span<const Index> recv_counts,
                              std::span<const Index> recv_displacements) {
  nccl_.alltoallv(send, send_counts, send_displacements, recv, recv_counts, recv_displacements);
}

Request NcclTransport::start(std::span<const ReceiveMessage> receives,
                             std::span<const SendMessage> sends) {
  nccl_.exchange(receives, sends);
  return Request();
}

// ---- one NCCL communicator per group of ranks -----------------------------------------------

namespace detail {

const NcclCommunicator& nccl_of(const Communicator& comm) {
  // Never destroyed: NCCL communicators are not torn down during static destruction, after
  // which the CUDA runtime may be gone.
  static auto* const cache = new std::map<std::vector<int>, NcclCommunicator>();
  static std::mutex mutex;
  std::vector<int> key = comm.world_ranks();
  const std::lock_guard<std::mutex> lock(mutex);
  auto found = cache->find(key);
  if (found == cache->end()) {
    found = cache->emplace(std::move(key), NcclCommunicator(comm)).first;
  }
  return found->second;
}

}  // namespace detail

}  // namespace distlops
