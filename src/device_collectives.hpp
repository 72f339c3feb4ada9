#pragma once
// The NCCL paths of the arrays of the Cuda space. These declarations are visible everywhere
// so that src/distributed_array_impl.hpp reads the same for every space; they are used only
// where `nccl_space<Space>` holds (discarded otherwise, so builds without NCCL never need
// them) and defined in src/cuda/nccl_paths.cpp.
#include <concepts>
#include <memory>
#include <span>

#include "distlops/config.hpp"
#include "distlops/core/communicator.hpp"
#include "distlops/core/kernels.hpp"
#include "distlops/core/memory_space.hpp"
#include "distlops/core/transport.hpp"
#include "distlops/core/types.hpp"

namespace distlops::detail {

/// True for the spaces whose collectives may go over NCCL.
template <class Space>
inline constexpr bool nccl_space = DISTLOPS_WITH_NCCL&& std::same_as<Space, Cuda>;

/// Whether NCCL carries the collectives on device data over `comm` (gpu_collectives()). A
/// single rank then moves its data on the device, without NCCL and without host staging.
bool use_nccl(const Communicator& comm);

/// The sum over the ranks of comm of the local dot product (vdot when `conjugate`) of device
/// arrays: reduced on the device, one NCCL allreduce, one synchronisation.
template <Scalar T>
T nccl_dot(const Communicator& comm, Index n, const T* x, const T* y, bool conjugate);

/// The reduction over the ranks of comm (with `op`) of the local norm reduction of x.
template <Scalar T>
real_type_t<T> nccl_norm_reduce(const Communicator& comm, kernels::NormKind kind, real_type_t<T> p,
                                Index n, const T* x, ReduceOp op);

/// In-place allreduce of `count` reals in device memory.
template <class R>
void nccl_allreduce(const Communicator& comm, R* data, Index count, ReduceOp op);

/// Every rank's `count` values of device memory, gathered into `host` (counts[r] values of rank
/// r at displacements[r]) on every rank: an NCCL allgatherv into device memory, then one copy.
template <Scalar T>
void nccl_allgatherv_to_host(const Communicator& comm, const T* local, Index count, T* host,
                             std::span<const Index> counts, std::span<const Index> displacements);

/// A transport of device memory over NCCL for comm's ranks.
std::unique_ptr<Transport> nccl_transport(const Communicator& comm);

}  // namespace distlops::detail
