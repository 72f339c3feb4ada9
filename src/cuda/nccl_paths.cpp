// The NCCL paths of the Cuda arrays (declared in src/device_collectives.hpp).
#include <algorithm>

#include "../device_collectives.hpp"
#include "distlops/core/buffer.hpp"
#include "distlops/core/cuda_context.hpp"
#include "distlops/core/gpu_collectives.hpp"
#include "distlops/core/nccl_communicator.hpp"

namespace distlops::detail {

bool use_nccl(const Communicator&) {
  return gpu_collectives() == GpuCollectives::nccl;
}

template <Scalar T>
T nccl_dot(const Communicator& comm, Index n, const T* x, const T* y, bool conjugate) {
  const cuda::Context& context = cuda::Context::get();
  T* value = static_cast<T*>(context.device_value());
  if (conjugate) {
    kernels::vdot_into(Cuda{}, n, x, y, value);
  } else {
    kernels::dot_into(Cuda{}, n, x, y, value);
  }
  nccl_of(comm).allreduce(value, value, 1, ReduceOp::sum);
  T result;
  context.read_back(&result, value, sizeof(T));
  return result;
}

template <Scalar T>
real_type_t<T> nccl_norm_reduce(const Communicator& comm, kernels::NormKind kind, real_type_t<T> p,
                                Index n, const T* x, ReduceOp op) {
  using R = real_type_t<T>;
  const cuda::Context& context = cuda::Context::get();
  R* value = static_cast<R*>(context.device_value());
  kernels::norm_reduce_into(Cuda{}, kind, p, n, x, value);
  nccl_of(comm).allreduce(value, value, 1, op);
  R result;
  context.read_back(&result, value, sizeof(R));
  return result;
}

template <class R>
void nccl_allreduce(const Communicator& comm, R* data, Index count, ReduceOp op) {
  nccl_of(comm).allreduce(data, data, count, op);
}

template <Scalar T>
void nccl_allgatherv_to_host(const Communicator& comm, const T* local, Index count, T* host,
                             std::span<const Index> counts, std::span<const Index> displacements) {
  Index total = 0;
  for (std::size_t r = 0; r < counts.size(); ++r)
    total = std::max(total, displacements[r] + counts[r]);
  Buffer<T, Cuda> gathered(total);
  nccl_of(comm).allgatherv(local, count, gathered.data(), counts, displacements);
  memory::copy_bytes<Host, Cuda>(host, gathered.data(), gathered.bytes());
}

std::unique_ptr<Transport> nccl_transport(const Communicator& comm) {
  return std::make_unique<NcclTransport>(nccl_of(comm));
}

#define DISTLOPS_INSTANTIATE_NCCL_PATHS(T)                                                \
  template T nccl_dot<T>(const Communicator&, Index, const T*, const T*, bool);           \
  template real_type_t<T> nccl_norm_reduce<T>(const Communicator&, kernels::NormKind,     \
                                              real_type_t<T>, Index, const T*, ReduceOp); \
  template void nccl_allgatherv_to_host<T>(const Communicator&, const T*, Index, T*,      \
                                           std::span<const Index>, std::span<const Index>);

DISTLOPS_INSTANTIATE_NCCL_PATHS(float)
DISTLOPS_INSTANTIATE_NCCL_PATHS(double)
DISTLOPS_INSTANTIATE_NCCL_PATHS(std::complex<float>)
DISTLOPS_INSTANTIATE_NCCL_PATHS(std::complex<double>)
template void nccl_allreduce<float>(const Communicator&, float*, Index, ReduceOp);
template void nccl_allreduce<double>(const Communicator&, double*, Index, ReduceOp);

}  // namespace distlops::detail
