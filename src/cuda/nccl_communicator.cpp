// SPDX-License-Identifier: BSD-3-Clause
// Copyright (c) 2026 The distlops authors
// NCCL collectives on device memory, and the transport of the plans over them.
#include "distlops/core/nccl_communicator.hpp"

#include <cuda_runtime_api.h>
#include <nccl.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstdint>
#include <map>
#include <mutex>
#include <set>
#include <string>
#include <thread>

#include "distlops/core/collective_check.hpp"
#include "distlops/core/cuda_context.hpp"
#include "distlops/core/detail/cuda_check.hpp"
#include "distlops/core/detail/device_sharing.hpp"
#include "distlops/core/detail/enum_names.hpp"
#include "distlops/core/detail/group_key.hpp"
#include "distlops/core/detail/uniform_gather.hpp"
#include "distlops/core/error.hpp"
#include "distlops/core/gpu_collectives.hpp"
#include "distlops/core/kernels.hpp"
#include "distlops/core/log_view.hpp"

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
  // NCCL has no logical reductions: logical_and and logical_or fall outside the table.
  const ncclRedOp_t native =
      detail::enum_value(op, std::array{ncclSum, ncclProd, ncclMax, ncclMin}, ncclNumOps);
  if (native != ncclNumOps) return native;
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

void check_nccl_rank_count(std::span<const Index> values, int size, const char* call) {
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

// The channel limit of this rank's NCCL communicator (0: NCCL's choice), from how its ranks
// share devices.
int channel_limit(const detail::DeviceSharing& sharing) {
  if (sharing.most_ranks_on_one_device <= 1) return 0;
  int multiprocessors = 0;
  cuda::check_cuda(cudaDeviceGetAttribute(&multiprocessors, cudaDevAttrMultiProcessorCount,
                                          cuda::Context::get().device()),
                   "cudaDeviceGetAttribute (multiprocessors)");
  return detail::nccl_channel_limit(multiprocessors, sharing.most_ranks_on_one_device);
}

void copy_on_device(void* destination, const void* source, std::size_t bytes, cudaStream_t stream) {
  if (bytes == 0 || destination == source) return;
  cuda::check_cuda(cudaMemcpyAsync(destination, source, bytes, cudaMemcpyDeviceToDevice, stream),
                   "cudaMemcpyAsync (NCCL local part)");
}

// The bytes of a buffer's values, as the event log counts a collective's payload.
Index payload_bytes(const detail::NcclBuffer& data) {
  return static_cast<Index>(data.count / (data.complex ? 2 : 1) * data.value_size);
}

}  // namespace

// ---- the communicator and its failures ----------------------------------------------------
// NCCL reports a failed peer or network asynchronously: the operations in flight never complete
// and ncclCommGetAsyncError turns non-success. Waits on the library's stream therefore poll it
// (Context's wait check) and abort the communicator on an error. An aborted communicator is
// freed by NCCL: it is marked so, and never used or destroyed again.

struct NcclCommunicator::Impl {
  Communicator mpi;
  ncclComm_t comm = nullptr;  // null for a single rank
  cudaStream_t stream = nullptr;
  mutable std::atomic<bool> aborted{false};
  mutable std::string abort_reason;  // written once, before `aborted` is set
  // The symmetric window of small sums (symmetric_reductions(), gpu_collectives.hpp), made at
  // the first such sum: the same point on every rank, since sums are collective.
  enum class WindowState { untried, ready, unavailable };
  mutable WindowState reduction_window_state = WindowState::untried;
  mutable NcclCommunicator::SymmetricRegion reduction_window;

  Impl(const Impl&) = delete;
  Impl& operator=(const Impl&) = delete;
  explicit Impl(Communicator communicator) : mpi(std::move(communicator)) {}
  ~Impl();

  // The communicator for `call`; raises CommunicationError once it was aborted.
  ncclComm_t live(const char* call) const {
    if (aborted.load()) {
      throw CommunicationError(std::string(call) + ": the NCCL communicator of " +
                               std::to_string(mpi.size()) + " ranks was aborted after " +
                               abort_reason + "; it cannot be used again");
    }
    return comm;
  }
  // The asynchronous error NCCL holds for the communicator (ncclSuccess while healthy).
  ncclResult_t async_error() const {
    if (!comm || aborted.load()) return ncclSuccess;
    ncclResult_t state = ncclSuccess;
    const ncclResult_t queried = ncclCommGetAsyncError(comm, &state);
    if (queried != ncclSuccess) return queried;
    return state == ncclInProgress ? ncclSuccess : state;
  }
  // Aborts the communicator after `error`: its operations in flight end, NCCL frees it.
  void abort(ncclResult_t error) const {
    std::string reason = std::string("an asynchronous error (") + ncclGetErrorString(error);
    if (const char* last = ncclGetLastError(comm); last && *last)
      reason += std::string(": ") + last;
    reason += ")";
    abort_reason = std::move(reason);
    aborted.store(true);
    ncclCommAbort(comm);
  }

  // Elements of the given count of values of `buffer`'s type.
  static std::size_t elements(const detail::NcclBuffer& buffer, Index values) {
    return static_cast<std::size_t>(values) * (buffer.complex ? 2 : 1);
  }
};

namespace {

// The communicators of several ranks alive in this process, whose errors waits look for.
std::mutex live_mutex;
std::set<const NcclCommunicator::Impl*>& live_communicators() {
  static auto* const live = new std::set<const NcclCommunicator::Impl*>();
  return *live;
}

// Context's wait check: raises CommunicationError for the first communicator with an
// asynchronous error, after aborting it.
void check_asynchronous_errors() {
  const std::lock_guard<std::mutex> lock(live_mutex);
  for (const NcclCommunicator::Impl* impl : live_communicators()) {
    const ncclResult_t error = impl->async_error();
    if (error == ncclSuccess) continue;
    impl->abort(error);
    throw CommunicationError("NCCL communicator of " + std::to_string(impl->mpi.size()) +
                             " ranks: " + impl->abort_reason +
                             "; it was aborted (set NCCL_DEBUG=WARN for details)");
  }
}

void watch(const NcclCommunicator::Impl* impl) {
  const std::lock_guard<std::mutex> lock(live_mutex);
  live_communicators().insert(impl);
  cuda::Context::set_wait_check(&check_asynchronous_errors);
}

void unwatch(const NcclCommunicator::Impl* impl) {
  const std::lock_guard<std::mutex> lock(live_mutex);
  live_communicators().erase(impl);
}

}  // namespace

NcclCommunicator::Impl::~Impl() {
  if (!comm) return;
  unwatch(this);
  if (aborted.load()) return;
  // Operations still in flight use the communicator: wait for them, unless NCCL reports an
  // error, after which only an abort ends them.
  for (;;) {
    const cudaError_t state = cudaStreamQuery(stream);
    if (state != cudaErrorNotReady) break;
    if (const ncclResult_t error = async_error(); error != ncclSuccess) {
      abort(error);
      return;
    }
    std::this_thread::sleep_for(std::chrono::microseconds(100));
  }
  ncclCommDestroy(comm);  // also releases the windows still registered on it
#if defined(NCCL_VERSION_CODE) && NCCL_VERSION_CODE >= NCCL_VERSION(2, 19, 0)
  if (reduction_window.data) ncclMemFree(reduction_window.data);
#endif
}

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
    // Ranks that share a device (NCCL's multi-rank mode) each get a share of its
    // multiprocessors for their channels (NCCL_MAX_CTAS, where set, overrides it).
    const int channels = channel_limit(detail::device_sharing_of(comm));
#if defined(NCCL_VERSION_CODE) && NCCL_VERSION_CODE >= NCCL_VERSION(2, 17, 0)
    ncclConfig_t config = NCCL_CONFIG_INITIALIZER;
    if (channels > 0) config.maxCTAs = channels;
    check_nccl(ncclCommInitRankConfig(&impl->comm, comm.size(), id, comm.rank(), &config),
               "ncclCommInitRankConfig");
#else
    (void)channels;
    check_nccl(ncclCommInitRank(&impl->comm, comm.size(), id, comm.rank()), "ncclCommInitRank");
#endif
    watch(impl.get());
  }
  impl_ = std::move(impl);
}

int NcclCommunicator::library_version() {
  int version = 0;
  if (ncclGetVersion(&version) != ncclSuccess) version = NCCL_VERSION_CODE;
  return version;
}

bool NcclCommunicator::aborted() const {
  return impl_->aborted.load();
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

#if DISTLOPS_NCCL_WINDOWS
namespace {
// Without symmetric support on a communicator (ranks without CUDA P2P between them, on several
// nodes, NCCL_WIN_ENABLE=0), NCCL registers the buffer locally and returns that registration as
// the window (NCCL 2.27 and 2.28 do). A local registration of the same buffer then finds the
// same handle in NCCL's registration cache.
bool window_is_local_registration(ncclComm_t comm, void* data, std::size_t bytes,
                                  ncclWindow_t window) {
  void* local = nullptr;
  if (ncclCommRegister(comm, data, bytes, &local) != ncclSuccess || !local) return false;
  const bool same = local == static_cast<void*>(window);
  ncclCommDeregister(comm, local);
  return same;
}
}  // namespace
#endif

NcclCommunicator::SymmetricRegion NcclCommunicator::allocate_symmetric(std::size_t bytes) const {
  SymmetricRegion region;
#if DISTLOPS_NCCL_MEM_ALLOC
  const ncclComm_t comm = impl_->live("NcclCommunicator::allocate_symmetric");
  // A symmetric window has the same size on every rank: the largest request, so that uneven
  // splits pad the smaller blocks. Every rank takes part, also with zero bytes of its own.
  const auto mine = static_cast<unsigned long long>(bytes);
  unsigned long long largest = 0;
  impl_->mpi.allreduce(&mine, &largest, 1, ReduceOp::max);
  const std::size_t request = std::max<std::size_t>(static_cast<std::size_t>(largest), 1);
  region.bytes = request;
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
  if (comm) {
    ncclWindow_t window = nullptr;
    const ncclResult_t registered =
        ncclCommWindowRegister(comm, region.data, request, &window, NCCL_WIN_COLL_SYMMETRIC);
    ok = registered == ncclSuccess ? 1 : 0;
    impl_->mpi.allreduce(&ok, &all_ok, 1, ReduceOp::min);
    if (!all_ok) {
      if (registered == ncclSuccess && window) ncclCommWindowDeregister(comm, window);
      ncclMemFree(region.data);
      throw CommunicationError(std::string("ncclCommWindowRegister failed on at least one rank") +
                               (registered != ncclSuccess
                                    ? std::string(" (here: ") + ncclGetErrorString(registered) + ")"
                                    : std::string()));
    }
    region.window = window;
    // Symmetric only when every rank's window is: NCCL may fall back to a local registration.
    int symmetric =
        window && !window_is_local_registration(comm, region.data, request, window) ? 1 : 0;
    int all_symmetric = 0;
    impl_->mpi.allreduce(&symmetric, &all_symmetric, 1, ReduceOp::min);
    region.registered = all_symmetric != 0;
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
  const ncclComm_t comm = impl_->live("NcclCommunicator::free_symmetric");
  // Collectives still in flight may use the memory.
  cuda::Context::get().synchronize();
#if DISTLOPS_NCCL_WINDOWS
  if (region.window && comm) {
    check_nccl(ncclCommWindowDeregister(comm, static_cast<ncclWindow_t>(region.window)),
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

// The window of small sums, made on first use; null where symmetric windows are unavailable
// (then on every rank: allocate_symmetric agrees on each step's outcome).
void* NcclCommunicator::reduction_window() const {
  using State = Impl::WindowState;
  if (impl_->reduction_window_state == State::untried) {
    impl_->reduction_window_state = State::unavailable;
    if (symmetric_windows_available()) {
      try {
        impl_->reduction_window = allocate_symmetric(symmetric_reduction_bytes);
      } catch (const CommunicationError&) {
        return nullptr;  // the same on every rank; the plain path serves
      }
      if (impl_->reduction_window.registered) {
        impl_->reduction_window_state = State::ready;
      } else {
        free_symmetric(impl_->reduction_window);  // collective, as the allocation was
      }
    }
  }
  return impl_->reduction_window_state == State::ready ? impl_->reduction_window.data : nullptr;
}

void NcclCommunicator::allreduce_raw(detail::NcclBuffer send, void* recv, ReduceOp op) const {
  const log_view::ScopedEvent event(log_view::EventKind::collective, "ncclAllReduce",
                                    {0, payload_bytes(send)});
  const ncclComm_t comm = impl_->live("ncclAllReduce");
  const ncclRedOp_t native = native_op(op, send.complex);
  if (send.count == 0) return;
  const cudaStream_t stream = cuda::Context::get().stream();
  const std::size_t bytes = send.count / (send.complex ? 2 : 1) * send.value_size;
  if (!comm) {
    copy_on_device(recv, send.data, bytes, stream);
    return;
  }
  if (bytes <= static_cast<std::size_t>(symmetric_reduction_bytes) && symmetric_reductions()) {
    if (void* window = reduction_window()) {
      // Into the window, summed there by the symmetric kernels, and back: two device copies of
      // at most 4 KiB in the stream's order.
      copy_on_device(window, send.data, bytes, stream);
      check_nccl(ncclAllReduce(window, window, send.count, native_type(send.element), native, comm,
                               stream),
                 "ncclAllReduce");
      copy_on_device(recv, window, bytes, stream);
      return;
    }
  }
  check_nccl(
      ncclAllReduce(send.data, recv, send.count, native_type(send.element), native, comm, stream),
      "ncclAllReduce");
}

void NcclCommunicator::broadcast_raw(detail::NcclBuffer data, int root) const {
  const log_view::ScopedEvent event(log_view::EventKind::collective, "ncclBroadcast",
                                    {0, payload_bytes(data)});
  const ncclComm_t comm = impl_->live("ncclBroadcast");
  check_peer(root, size(), "NcclCommunicator::broadcast");
  if (data.count == 0 || !comm) return;
  void* buffer = const_cast<void*>(data.data);
  check_nccl(ncclBroadcast(buffer, buffer, data.count, native_type(data.element), root, comm,
                           cuda::Context::get().stream()),
             "ncclBroadcast");
}

void NcclCommunicator::allgather_raw(detail::NcclBuffer send, void* recv) const {
  const log_view::ScopedEvent event(log_view::EventKind::collective, "ncclAllGather",
                                    {0, payload_bytes(send)});
  const ncclComm_t comm = impl_->live("ncclAllGather");
  if (send.count == 0) return;
  const cudaStream_t stream = cuda::Context::get().stream();
  if (!comm) {
    copy_on_device(recv, send.data, send.count / (send.complex ? 2 : 1) * send.value_size, stream);
    return;
  }
  check_nccl(ncclAllGather(send.data, recv, send.count, native_type(send.element), comm, stream),
             "ncclAllGather");
}

void NcclCommunicator::allgatherv_raw(detail::NcclBuffer send, void* recv,
                                      std::span<const Index> counts,
                                      std::span<const Index> displacements) const {
  const log_view::ScopedEvent event(log_view::EventKind::collective, "ncclAllGatherv",
                                    {0, payload_bytes(send)});
  const ncclComm_t comm = impl_->live("NcclCommunicator::allgatherv");
  const int n = size();
  const int me = rank();
  check_nccl_rank_count(counts, n, "NcclCommunicator::allgatherv");
  check_nccl_rank_count(displacements, n, "NcclCommunicator::allgatherv");
  const Index my_count = static_cast<Index>(send.count / (send.complex ? 2 : 1));
  if (counts[static_cast<std::size_t>(me)] != my_count) {
    throw InvalidArgument("NcclCommunicator::allgatherv: this rank sends " +
                          std::to_string(my_count) + " values, counts says " +
                          std::to_string(counts[static_cast<std::size_t>(me)]));
  }
  const cudaStream_t stream = cuda::Context::get().stream();
  if (!comm) {
    copy_on_device(at(recv, displacements[0], send.value_size), send.data,
                   static_cast<std::size_t>(my_count) * send.value_size, stream);
    return;
  }
  const ncclDataType_t type = native_type(send.element);
  if (const Index uniform = detail::uniform_gather_count(counts, displacements); uniform > 0) {
    check_nccl(ncclAllGather(send.data, recv, Impl::elements(send, uniform), type, comm, stream),
               "ncclAllGather (allgatherv)");
    return;
  }
  Group group;
  for (int r = 0; r < n; ++r) {
    const auto index = static_cast<std::size_t>(r);
    if (counts[index] <= 0) continue;
    std::byte* target = at(recv, displacements[index], send.value_size);
    const void* source = r == me ? send.data : target;
    check_nccl(
        ncclBroadcast(source, target, Impl::elements(send, counts[index]), type, r, comm, stream),
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
  log_view::Traffic traffic;
  for (std::size_t r = 0; r < send_counts.size(); ++r) {
    if (static_cast<int>(r) == me || send_counts[r] <= 0) continue;
    ++traffic.messages;
    traffic.bytes += send_counts[r] * static_cast<Index>(type.value_size);
  }
  const log_view::ScopedEvent event(log_view::EventKind::collective, "ncclAlltoallv", traffic);
  const ncclComm_t comm = impl_->live("NcclCommunicator::alltoallv");
  for (auto values : {send_counts, send_displacements, recv_counts, recv_displacements})
    check_nccl_rank_count(values, n, "NcclCommunicator::alltoallv");
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
  if (!comm) return;
  const ncclDataType_t native = native_type(type.element);
  Group group;
  for (int r = 0; r < n; ++r) {
    const auto index = static_cast<std::size_t>(r);
    if (r == me) continue;
    if (recv_counts[index] > 0) {
      check_nccl(ncclRecv(at(recv, recv_displacements[index], type.value_size),
                          Impl::elements(type, recv_counts[index]), native, r, comm, stream),
                 "ncclRecv (alltoallv)");
    }
    if (send_counts[index] > 0) {
      check_nccl(ncclSend(at(type.data, send_displacements[index], type.value_size),
                          Impl::elements(type, send_counts[index]), native, r, comm, stream),
                 "ncclSend (alltoallv)");
    }
  }
  group.end();
}

void NcclCommunicator::send_raw(detail::NcclBuffer data, int peer) const {
  const ncclComm_t comm = impl_->live("ncclSend");
  check_peer(peer, size(), "NcclCommunicator::send");
  if (peer == rank()) {
    throw InvalidArgument(
        "NcclCommunicator::send: a rank cannot send to itself outside exchange()");
  }
  if (data.count == 0) return;
  const log_view::ScopedEvent event(log_view::EventKind::message, "ncclSend",
                                    {1, payload_bytes(data)});
  check_nccl(ncclSend(data.data, data.count, native_type(data.element), peer, comm,
                      cuda::Context::get().stream()),
             "ncclSend");
}

void NcclCommunicator::recv_raw(detail::NcclBuffer data, int peer) const {
  const ncclComm_t comm = impl_->live("ncclRecv");
  check_peer(peer, size(), "NcclCommunicator::recv");
  if (peer == rank()) {
    throw InvalidArgument(
        "NcclCommunicator::recv: a rank cannot receive from itself outside exchange()");
  }
  if (data.count == 0) return;
  check_nccl(ncclRecv(const_cast<void*>(data.data), data.count, native_type(data.element), peer,
                      comm, cuda::Context::get().stream()),
             "ncclRecv");
}

void NcclCommunicator::exchange(std::span<const ReceiveMessage> receives,
                                std::span<const SendMessage> sends) const {
  const ncclComm_t comm = impl_->live("NcclCommunicator::exchange");
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
  if (!comm) return;
  Group group;
  for (const ReceiveMessage& message : receives) {
    if (message.peer == me || message.bytes <= 0) continue;
    check_nccl(ncclRecv(message.data, static_cast<std::size_t>(message.bytes), ncclUint8,
                        message.peer, comm, stream),
               "ncclRecv");
  }
  for (const SendMessage& message : sends) {
    if (message.peer == me || message.bytes <= 0) continue;
    const log_view::ScopedEvent event(log_view::EventKind::message, "ncclSend", {1, message.bytes});
    check_nccl(ncclSend(message.data, static_cast<std::size_t>(message.bytes), ncclUint8,
                        message.peer, comm, stream),
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
  static auto* const cache = new std::map<int, NcclCommunicator>();
  static std::mutex mutex;
  const int key = group_key(comm);
  {
    const std::lock_guard<std::mutex> lock(mutex);
    const auto found = cache->find(key);
    if (found != cache->end()) return found->second;
  }
  // NCCL refuses ranks that share a device (the same verdict on every rank).
  if (!nccl_can_form_communicator(comm)) {
    throw CommunicationError(
        "NCCL cannot form a communicator over these " + std::to_string(comm.size()) +
        " ranks: some share a device (use the staged path, DISTLOPS_GPU_COLLECTIVES=mpi, or NCCL "
        "2.30 or newer with NCCL_MULTI_RANK_GPU_ENABLE=1)");
  }
  // The kept communicator outlives `comm`, which may be a handle the application frees: it
  // holds a duplicate of its own.
  NcclCommunicator made(comm.duplicate());
  const std::lock_guard<std::mutex> lock(mutex);
  return cache->try_emplace(key, std::move(made)).first->second;
}

}  // namespace detail

}  // namespace distlops
