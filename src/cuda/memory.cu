// SPDX-License-Identifier: BSD-3-Clause
// Copyright (c) 2026 The distlops authors
// Device memory of the Cuda space: cudaMalloc (never managed memory) and copies ordered on the
// library's stream. Copies from or to the host return when the data have arrived.
#include <cuda_runtime.h>

#include "../memory_internal.hpp"
#include "distlops/core/cuda_context.hpp"
#include "distlops/core/detail/cuda_check.hpp"
#include "distlops/core/memory_space.hpp"

namespace distlops {

bool cuda_built() {
  return true;
}

int cuda_device_count() {
  int count = 0;
  if (cudaGetDeviceCount(&count) != cudaSuccess) {
    cudaGetLastError();  // clear the sticky error of a machine without a driver or device
    return 0;
  }
  return count;
}

namespace memory {

template <>
void* allocate<Cuda>(std::size_t bytes) {
  // Even an empty allocation needs the device: every rank holding a device array takes part in
  // device collectives on it.
  cuda::Context::get();
  if (bytes == 0) return nullptr;
  void* pointer = nullptr;
  cuda::check_cuda(cudaMalloc(&pointer, bytes), "cudaMalloc");
  detail::allocations.fetch_add(1, std::memory_order_relaxed);
  return pointer;
}

template <>
void deallocate<Cuda>(void* pointer) noexcept {
  // cudaFree waits for the device work in flight, which may still use the memory; settle()
  // first, so that collectives whose peer failed end (aborted) instead of blocking it forever.
  if (!pointer) return;
  try {
    cuda::Context::get().settle();
  } catch (...) {
    // No current device: cudaFree reports nothing either.
  }
  cudaFree(pointer);
}

template <>
void copy_bytes<Cuda, Host>(void* destination, const void* source, std::size_t bytes) {
  if (bytes == 0) return;
  const cuda::Context& context = cuda::Context::get();
  cuda::check_cuda(
      cudaMemcpyAsync(destination, source, bytes, cudaMemcpyHostToDevice, context.stream()),
      "cudaMemcpyAsync (host to device)");
  context.synchronize();
}

template <>
void copy_bytes<Host, Cuda>(void* destination, const void* source, std::size_t bytes) {
  if (bytes == 0) return;
  const cuda::Context& context = cuda::Context::get();
  cuda::check_cuda(
      cudaMemcpyAsync(destination, source, bytes, cudaMemcpyDeviceToHost, context.stream()),
      "cudaMemcpyAsync (device to host)");
  context.synchronize();
}

template <>
void copy_bytes<Cuda, Cuda>(void* destination, const void* source, std::size_t bytes) {
  if (bytes == 0 || destination == source) return;
  cuda::check_cuda(cudaMemcpyAsync(destination, source, bytes, cudaMemcpyDeviceToDevice,
                                   cuda::Context::get().stream()),
                   "cudaMemcpyAsync (device to device)");
}

}  // namespace memory
}  // namespace distlops
