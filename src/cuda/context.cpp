// SPDX-License-Identifier: BSD-3-Clause
// Copyright (c) 2026 The distlops authors
// The process's CUDA context: device selection, the library's stream, cuBLAS and scratch.
#include "distlops/core/cuda_context.hpp"

#include <chrono>
#include <cstdlib>
#include <cstring>
#include <mutex>
#include <string>
#include <thread>

#include "distlops/core/detail/cublas_library.hpp"
#include "distlops/core/detail/cuda_check.hpp"
#include "distlops/core/environment.hpp"

namespace distlops::cuda {

namespace {

// The rank among the processes of the node. An Environment records it collectively; without
// one (MPI initialised by the application only), the launchers' variables tell, else 0.
int rank_on_node() {
  const int recorded = node_local_rank();
  if (recorded >= 0) return recorded;
  for (const char* name : {"OMPI_COMM_WORLD_LOCAL_RANK", "MPI_LOCALRANKID",
                           "MV2_COMM_WORLD_LOCAL_RANK", "SLURM_LOCALID", "PMI_LOCAL_RANK"}) {
    const char* value = std::getenv(name);
    if (!value) continue;
    char* end = nullptr;
    const long parsed = std::strtol(value, &end, 10);
    if (end != value && *end == '\0' && parsed >= 0) return static_cast<int>(parsed);
  }
  return 0;
}

std::once_flag blas_created;

}  // namespace

Context::Context() {
  int count = 0;
  const cudaError_t code = cudaGetDeviceCount(&count);
  if (code != cudaSuccess || count == 0) {
    cudaGetLastError();  // clear the error of a machine without a driver or device
    throw DeviceError(
        std::string("no CUDA device is visible to this process (cudaGetDeviceCount: ") +
        (code == cudaSuccess ? "0 devices" : cudaGetErrorString(code)) + ")");
  }
  device_ = rank_on_node() % count;
  try {
    check_cuda(cudaSetDevice(device_), "cudaSetDevice");
    check_cuda(cudaStreamCreate(&stream_), "cudaStreamCreate");
    check_cuda(cudaMalloc(&device_scratch_, scratch_bytes), "cudaMalloc (reduction scratch)");
    check_cuda(cudaMalloc(&device_value_, value_bytes), "cudaMalloc (reduction result)");
    check_cuda(cudaMallocHost(&pinned_value_, value_bytes), "cudaMallocHost (reduction result)");
  } catch (...) {
    if (pinned_value_) cudaFreeHost(pinned_value_);
    if (device_value_) cudaFree(device_value_);
    if (device_scratch_) cudaFree(device_scratch_);
    if (stream_) cudaStreamDestroy(stream_);
    throw;
  }
}

Context& Context::get() {
  // Never destroyed: see the header. A failed creation is retried by the next call.
  static Context* const context = new Context();
  context->make_current();
  return *context;
}

void Context::make_current() const {
  int current = -1;
  check_cuda(cudaGetDevice(&current), "cudaGetDevice");
  if (current != device_) check_cuda(cudaSetDevice(device_), "cudaSetDevice");
}

cublasHandle_t Context::blas() {
  std::call_once(blas_created, [this] {
    cublasHandle_t handle = nullptr;
    // Loads cuBLAS on this first use (cublas_library.hpp).
    const CublasLibrary& cublas = cublas_library();
    check_cublas(cublas.create(&handle), "cublasCreate");
    const cublasStatus_t bound = cublas.set_stream(handle, stream_);
    if (bound != CUBLAS_STATUS_SUCCESS) cublas.destroy(handle);
    check_cublas(bound, "cublasSetStream");
    blas_ = handle;
  });
  return blas_;
}

std::atomic<Context::WaitCheck> Context::wait_check_{nullptr};

void Context::set_wait_check(WaitCheck check) {
  wait_check_.store(check);
}

void Context::synchronize() const {
  synchronizations_.fetch_add(1, std::memory_order_relaxed);
  const WaitCheck check = wait_check_.load();
  if (!check) {
    check_cuda(cudaStreamSynchronize(stream_), "cudaStreamSynchronize");
    return;
  }
  poll(check);
}

void Context::settle() const noexcept {
  const WaitCheck check = wait_check_.load();
  if (!check) return;
  try {
    poll(check);
  } catch (...) {
    // Reported by the next use of the aborted communicator.
  }
}

void Context::poll(WaitCheck check) const {
  // Short waits (a solver's reductions) yield between polls and return as soon as the work is
  // done; long ones sleep, so that ranks sharing the cores leave them to the others.
  constexpr int polls_before_sleeping = 2000;
  for (int poll = 0;; ++poll) {
    const cudaError_t state = cudaStreamQuery(stream_);
    if (state == cudaSuccess) return;
    if (state != cudaErrorNotReady) check_cuda(state, "cudaStreamQuery");
    check();
    if (poll < polls_before_sleeping) {
      std::this_thread::yield();
    } else {
      std::this_thread::sleep_for(std::chrono::microseconds(100));
    }
  }
}

void Context::read_back(void* host, const void* device, std::size_t bytes) const {
  if (bytes > value_bytes) {
    throw InvalidArgument("cuda::Context::read_back: " + std::to_string(bytes) +
                          " bytes, at most " + std::to_string(value_bytes));
  }
  check_cuda(cudaMemcpyAsync(pinned_value_, device, bytes, cudaMemcpyDeviceToHost, stream_),
             "cudaMemcpyAsync (device to host)");
  synchronize();
  std::memcpy(host, pinned_value_, bytes);
}

}  // namespace distlops::cuda
