// SPDX-License-Identifier: BSD-3-Clause
// Copyright (c) 2026 The distlops authors
#pragma once
/// \file memory_space.hpp
/// Memory spaces: where an array's data live. `Host` is CPU memory; `Cuda` is the memory of
/// the CUDA device of the calling rank. Algorithms are written once for both; only the
/// kernels (kernels.hpp) and the allocation and copy functions below differ.

#include <concepts>
#include <cstddef>
#include <cstdint>

namespace distlops {

/// The host memory space: CPU memory, host kernels (loops, Eigen, OpenBLAS, FFTW).
struct Host {
  static constexpr const char* name = "host";  ///< For messages and test names.
};
/// The CUDA memory space: the device memory of the rank's GPU (cudaMalloc, never managed
/// memory), CUDA kernels, cuBLAS, cuFFT and NCCL. In builds without the CUDA backend every use
/// raises DeviceError.
struct Cuda {
  static constexpr const char* name = "cuda";  ///< For messages and test names.
};

/// A memory space tag: Host or Cuda.
template <class Space>
concept MemorySpace = std::same_as<Space, Host> || std::same_as<Space, Cuda>;

/// True when the library was built with the CUDA backend.
bool cuda_built();
/// Number of CUDA devices visible to this process (0 without the CUDA backend or a device).
int cuda_device_count();

/// Raw, untyped memory of a space, under Buffer.
namespace memory {

/// Raw allocation in a space: 64-byte aligned host memory or cudaMalloc'ed device memory,
/// uninitialised. Zero bytes gives nullptr. Throws on failure.
template <MemorySpace Space>
void* allocate(std::size_t bytes);
/// Frees memory from allocate<Space>(); nullptr is a no-op.
template <MemorySpace Space>
void deallocate(void* pointer) noexcept;

/// Copies `bytes` from `source` in space From to `destination` in space To. Copies from or to
/// the host return when the data have arrived; copies within device memory are ordered on the
/// library's stream (cuda_context.hpp) like its kernels.
template <MemorySpace To, MemorySpace From>
void copy_bytes(void* destination, const void* source, std::size_t bytes);

/// Number of allocations made through allocate() so far in this process (both spaces). Tests
/// use it to prove that a code path allocates nothing.
std::uint64_t allocation_count();

}  // namespace memory
}  // namespace distlops
