// SPDX-License-Identifier: BSD-3-Clause
// Copyright (c) 2026 The distlops authors
#pragma once
/// \file gpu_collectives.hpp
/// Which path collectives on device data take: NCCL on the device buffers, or MPI on copies
/// staged through host memory (the MPI here is not CUDA-aware). Metadata always go over MPI.
///
/// The choice is made once per process from the environment variable
/// DISTLOPS_GPU_COLLECTIVES (`nccl` or `mpi`), defaulting to NCCL when the library was built
/// with it; set_gpu_collectives() overrides it. Every rank must make the same choice.
///
/// NCCL cannot form a communicator over ranks that share a device (NCCL older than 2.30, or
/// without NCCL_MULTI_RANK_GPU_ENABLE=1): collectives over such ranks are staged through host
/// memory whatever the choice, and rank 0 says so once on stderr. gpu_collectives_for() tells
/// which path a communicator's collectives take.

#include "distlops/core/communicator.hpp"
#include "distlops/core/memory_space.hpp"
#include "distlops/core/types.hpp"

namespace distlops {

/// The path of collectives on device data.
enum class GpuCollectives {
  nccl,  ///< NCCL on the device buffers.
  mpi,   ///< MPI on copies staged through host memory.
};

/// True when the library was built with NCCL.
bool nccl_built();

/// The current choice. Raises InvalidArgument when DISTLOPS_GPU_COLLECTIVES holds another
/// value than `nccl` or `mpi`, or asks for NCCL in a build without it.
GpuCollectives gpu_collectives();

/// Overrides the choice for the rest of the process (every rank alike). Raises
/// InvalidArgument when asked for NCCL in a build without it.
void set_gpu_collectives(GpuCollectives choice);

/// "nccl" or "mpi".
const char* to_string(GpuCollectives choice);

/// Whether NCCL sums of at most `symmetric_reduction_bytes` (the solvers' batched scalars,
/// norms, dot products) run in a symmetric window of the communicator: a small region of NCCL
/// symmetric memory (NcclCommunicator::allocate_symmetric, the memory behind SymmetricArray)
/// that each NCCL communicator allocates and registers at its first such sum and keeps; the
/// values are copied into it and back on the device, and NCCL's symmetric-memory kernels, of
/// lower latency than its general ones between devices linked peer to peer, combine them.
/// Without window support (NCCL older than 2.27, ranks on several nodes, NCCL_WIN_ENABLE=0) the
/// plain path runs. Read from DISTLOPS_SYMMETRIC_REDUCTIONS (`on`, the default, or `off`);
/// every rank must make the same choice (the window's creation is collective).
constexpr Index symmetric_reduction_bytes = 4096;
/// The current choice of symmetric-window sums (see symmetric_reduction_bytes).
bool symmetric_reductions();
/// Overrides the choice for the rest of the process (every rank alike).
void set_symmetric_reductions(bool enabled);

/// The path that collectives on device data over `comm` take now: gpu_collectives(), except
/// that NCCL gives way to `mpi` where two ranks of comm share a device and NCCL cannot form a
/// communicator over them. The same on every rank of comm. Collective over comm the first
/// time NCCL is chosen for its group of ranks (every rank's device identity is gathered over
/// MPI; a rank without a device makes every rank raise DeviceError); kept for the group
/// afterwards, so later calls cost a lookup.
GpuCollectives gpu_collectives_for(const Communicator& comm);

/// Sums `count` elements at `data` (memory of Space) over the ranks of `comm`, in place: one
/// allreduce through the space's transport for comm (transport_for: MPI for host memory; NCCL,
/// or staged through host memory, for device memory). Collective; one rank returns at once.
template <Scalar T, MemorySpace Space>
void allreduce_sum_in_place(const Communicator& comm, T* data, Index count);

}  // namespace distlops
