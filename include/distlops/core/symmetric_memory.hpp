// SPDX-License-Identifier: BSD-3-Clause
// Copyright (c) 2026 The distlops authors
#pragma once
/// \file symmetric_memory.hpp
/// `SymmetricArray<T>`: a DistributedArray of the Cuda space whose local block lives in NCCL
/// symmetric memory (ncclMemAlloc, registered with ncclCommWindowRegister as a symmetric window
/// where the NCCL version has it, 2.27 and newer), so that NCCL can use its symmetric-memory
/// kernels for the collectives on it. Builds with the CUDA backend only.
///
/// Allocation and release are collective over the layout's communicator and explicit: the
/// constructor allocates on every rank, `release()` must be called on every rank before the
/// object goes. A destructor cannot know whether the other ranks are in step, so it never
/// frees collectively: a SymmetricArray destroyed without release() leaks its memory (and says
/// so on stderr) rather than risk a hang.
///
///     SymmetricArray<float> buffer(layout);
///     DistributedArray<float, Cuda>& x = buffer.array();   // use like any device array
///     ...
///     buffer.release();                                    // every rank
///
/// Every rank's block is padded to the largest block of the layout, so that the windows have the
/// same size on every rank. Ranks that share a device (no NCCL communicator, see
/// gpu_collectives_for) get plain device memory, unregistered. Builds without NCCL, or with an
/// NCCL older than 2.19, raise InvalidArgument on every rank.

#include <memory>

#include "distlops/config.hpp"
#include "distlops/core/instantiate.hpp"

#if DISTLOPS_WITH_CUDA

#include "distlops/core/distributed_array.hpp"

namespace distlops {

/// True when symmetric windows are registered (NCCL >= 2.27); with NCCL 2.19 to 2.26 the
/// memory still comes from ncclMemAlloc, unregistered.
bool symmetric_memory_available();

/// A DistributedArray of the Cuda space over NCCL symmetric memory, allocated and released
/// collectively and explicitly (see the file's description).
template <Scalar T>
class SymmetricArray {
 public:
  /// Allocates (and registers) every rank's padded block. Collective over
  /// layout.communicator(); InvalidArgument on every rank without NCCL 2.19 or newer.
  explicit SymmetricArray(const Layout& layout);
  /// Takes over `other`'s memory, which `other` no longer releases.
  SymmetricArray(SymmetricArray&&) noexcept;
  SymmetricArray& operator=(SymmetricArray&&) = delete;       ///< Release is explicit.
  SymmetricArray(const SymmetricArray&) = delete;             ///< Release is explicit.
  SymmetricArray& operator=(const SymmetricArray&) = delete;  ///< Release is explicit.
  /// Frees nothing collectively: warns on stderr and leaks the memory when release() was not
  /// called.
  ~SymmetricArray();

  /// The array over the symmetric memory (InvalidArgument after release()).
  DistributedArray<T, Cuda>& array();
  /// The array over the symmetric memory, read-only (InvalidArgument after release()).
  const DistributedArray<T, Cuda>& array() const;
  /// Whether the memory is registered as a symmetric window on every rank (false where NCCL
  /// fell back to a local registration, or gave no window).
  bool registered() const;
  /// Collective: deregisters and frees the memory; the array is empty afterwards.
  void release();
  /// True once release() has run.
  bool released() const;

 private:
  struct State;
  std::unique_ptr<State> state_;
};

#define DISTLOPS_DETAIL_EXTERN_SYMMETRIC_ARRAY(T) extern template class SymmetricArray<T>;
DISTLOPS_FOR_EACH_SCALAR(DISTLOPS_DETAIL_EXTERN_SYMMETRIC_ARRAY)
#undef DISTLOPS_DETAIL_EXTERN_SYMMETRIC_ARRAY

}  // namespace distlops

#endif
