// Device memory of the Cuda space: cudaMalloc (never managed memory) and explicit copies.
#include <cuda_runtime.h>

#include "../memory_internal.hpp"
#include "cuda_check.hpp"
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
  if (bytes == 0) return nullptr;
  void* pointer = nullptr;
  cuda::check_cuda(cudaMalloc(&pointer, bytes), "cudaMalloc");
  detail::allocations.fetch_add(1, std::memory_order_relaxed);
  return pointer;
}

template <>
void deallocate<Cuda>(void* pointer) noexcept {
  cudaFree(pointer);
}

template <>
void copy_bytes<Cuda, Host>(void* destination, const void* source, std::size_t bytes) {
  if (bytes == 0) return;
  cuda::check_cuda(cudaMemcpy(destination, source, bytes, cudaMemcpyHostToDevice),
                   "cudaMemcpy (host to device)");
}

template <>
void copy_bytes<Host, Cuda>(void* destination, const void* source, std::size_t bytes) {
  if (bytes == 0) return;
  cuda::check_cuda(cudaMemcpy(destination, source, bytes, cudaMemcpyDeviceToHost),
                   "cudaMemcpy (device to host)");
}

template <>
void copy_bytes<Cuda, Cuda>(void* destination, const void* source, std::size_t bytes) {
  if (bytes == 0 || destination == source) return;
  cuda::check_cuda(cudaMemcpy(destination, source, bytes, cudaMemcpyDeviceToDevice),
                   "cudaMemcpy (device to device)");
}

}  // namespace memory
}  // namespace distlops
