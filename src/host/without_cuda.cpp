// SPDX-License-Identifier: BSD-3-Clause
// Copyright (c) 2026 The distlops authors
// The Cuda space of a build without the CUDA backend: every use reports that clearly.
#include "distlops/core/error.hpp"
#include "distlops/core/gpu_collectives.hpp"
#include "distlops/core/memory_space.hpp"
#include "distlops/core/transport.hpp"

namespace distlops {

namespace {
[[noreturn]] void no_cuda(const char* what) {
  throw DeviceError(std::string(what) +
                    ": distlops was built without the CUDA backend (DISTLOPS_ENABLE_CUDA=OFF)");
}
}  // namespace

bool cuda_built() {
  return false;
}
int cuda_device_count() {
  return 0;
}

namespace memory {
template <>
void* allocate<Cuda>(std::size_t bytes) {
  if (bytes == 0) return nullptr;
  no_cuda("allocate<Cuda>");
}
template <>
void deallocate<Cuda>(void*) noexcept {}
template <>
void copy_bytes<Cuda, Host>(void*, const void*, std::size_t bytes) {
  if (bytes > 0) no_cuda("copy to device");
}
template <>
void copy_bytes<Host, Cuda>(void*, const void*, std::size_t bytes) {
  if (bytes > 0) no_cuda("copy from device");
}
template <>
void copy_bytes<Cuda, Cuda>(void*, const void*, std::size_t bytes) {
  if (bytes > 0) no_cuda("copy on device");
}
}  // namespace memory

// Without the CUDA backend there is no NCCL: the choice can only be mpi, and no device is shared.
GpuCollectives gpu_collectives_for(const Communicator&) {
  return gpu_collectives();
}

template <>
TransportKind transport_kind<Cuda>(const Communicator&) {
  no_cuda("transport_kind<Cuda>");
}
template <>
std::unique_ptr<Transport> make_transport<Cuda>(const Communicator&) {
  no_cuda("make_transport<Cuda>");
}
template <>
std::shared_ptr<Transport> transport_for<Cuda>(const Communicator&) {
  no_cuda("transport_for<Cuda>");
}

}  // namespace distlops
