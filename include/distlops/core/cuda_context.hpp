// SPDX-License-Identifier: BSD-3-Clause
// Copyright (c) 2026 The distlops authors
#pragma once
/// \file cuda_context.hpp
/// `cuda::Context`: the CUDA state of this process (builds with the CUDA backend only). One GPU
/// per rank: the device is the node-local rank (node_local_rank(), environment.hpp) modulo the
/// number of visible devices. Every device operation of the library (kernels, copies, NCCL
/// collectives) is enqueued on the context's stream, so they run in program order without
/// host synchronisation; functions that return values to the host synchronise with it.
///
/// The stream is a blocking stream: work that callers put on the legacy default stream is
/// ordered with it. Work on other streams must be ordered by the caller (synchronize(), or
/// events). The context is created on first use and lives until the process exits (it is
/// never destroyed, so that no CUDA call runs after the runtime has shut down).

#include "distlops/config.hpp"

#if !DISTLOPS_WITH_CUDA
#error "distlops/core/cuda_context.hpp needs a build of distlops with the CUDA backend"
#endif

#include <cublas_v2.h>
#include <cuda_runtime_api.h>

#include <atomic>
#include <cstddef>
#include <cstdint>

/// The CUDA state of the process (builds with the CUDA backend only).
namespace distlops::cuda {

/// The process's device, stream, cuBLAS handle and reduction scratch memory: one per process,
/// reached through get().
class Context {
 public:
  /// The process's context, created on the first call: selects the device and creates the
  /// stream. Makes the device current in the calling thread. Throws DeviceError when no
  /// device is visible or a CUDA call fails.
  static Context& get();

  Context(const Context&) = delete;             ///< One per process.
  Context& operator=(const Context&) = delete;  ///< One per process.

  /// The CUDA device index of this rank (node-local rank modulo the visible devices).
  int device() const { return device_; }
  /// The blocking stream every device operation of the library is enqueued on.
  cudaStream_t stream() const { return stream_; }
  /// A cuBLAS handle bound to stream(), created on the first call, which loads cuBLAS
  /// (detail/cublas_library.hpp); throws DeviceError when it cannot be loaded.
  cublasHandle_t blas();
  /// Blocks until every operation enqueued on stream() has completed. With a wait check
  /// installed (set_wait_check) it polls the stream and runs the check between polls, so that
  /// work that can never complete raises instead of hanging.
  void synchronize() const;

  /// A function that raises when work on the stream can no longer complete (the NCCL layer
  /// installs one that looks for asynchronous NCCL errors, once it holds a communicator of
  /// several ranks). Null: synchronize() blocks in cudaStreamSynchronize.
  using WaitCheck = void (*)();
  /// Installs `check` (null removes it) for every later synchronize() and settle().
  static void set_wait_check(WaitCheck check);
  /// With a wait check installed, waits for stream() as synchronize() does, without counting and
  /// without raising (an error found aborts its communicator, whose next use raises): before
  /// cudaFree, which waits for all device work, and would wait forever for collectives whose
  /// peer failed. Without a check, returns at once.
  void settle() const noexcept;
  /// How many times synchronize() ran in this process (read_back() and the copies to or from
  /// the host included). Tests use it to count a solver's synchronisations per iteration.
  std::uint64_t synchronizations() const { return synchronizations_.load(); }

  /// Scratch memory of the reductions: `scratch_bytes` bytes of device memory for partial
  /// results, and a device slot of `value_bytes` bytes for a result that leaves the device
  /// (read back by the host, or reduced across ranks first). Their users run in stream order,
  /// one after the other.
  static constexpr std::size_t scratch_bytes = 64 * 1024;
  /// Size of device_value() in bytes (see scratch_bytes).
  static constexpr std::size_t value_bytes = 256;
  /// scratch_bytes of device memory for the partial results of reductions.
  void* device_scratch() const { return device_scratch_; }
  /// value_bytes of device memory for a result that leaves the device.
  void* device_value() const { return device_value_; }
  /// Copies `bytes` (at most value_bytes) of device memory to the host through page-locked
  /// memory once the stream's work is done: a single synchronisation.
  void read_back(void* host, const void* device, std::size_t bytes) const;

 private:
  Context();
  void make_current() const;
  // Polls stream() until its work is done, running `check` between polls.
  void poll(WaitCheck check) const;

  int device_ = 0;
  cudaStream_t stream_ = nullptr;
  cublasHandle_t blas_ = nullptr;
  void* device_scratch_ = nullptr;
  void* device_value_ = nullptr;
  void* pinned_value_ = nullptr;
  mutable std::atomic<std::uint64_t> synchronizations_{0};
  static std::atomic<WaitCheck> wait_check_;
};

}  // namespace distlops::cuda
