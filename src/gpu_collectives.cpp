// SPDX-License-Identifier: BSD-3-Clause
// Copyright (c) 2026 The distlops authors
#include "distlops/core/gpu_collectives.hpp"

#include <algorithm>
#include <atomic>
#include <complex>
#include <cstdlib>
#include <string>

#include "distlops/config.hpp"
#include "distlops/core/detail/device_sharing.hpp"
#include "distlops/core/error.hpp"
#include "distlops/core/instantiate.hpp"
#include "distlops/core/transport.hpp"

namespace distlops {

namespace {

constexpr int unset = -1;
std::atomic<int> choice{unset};

void require_available(GpuCollectives requested, const std::string& origin) {
  if (requested == GpuCollectives::nccl && !nccl_built()) {
    throw InvalidArgument(origin +
                          " asks for NCCL, but distlops was built without it (use mpi, or "
                          "build with the CUDA backend and NCCL)");
  }
}

GpuCollectives from_environment() {
  const char* value = std::getenv("DISTLOPS_GPU_COLLECTIVES");
  if (!value || *value == '\0') return nccl_built() ? GpuCollectives::nccl : GpuCollectives::mpi;
  const std::string text(value);
  GpuCollectives parsed = GpuCollectives::mpi;
  if (text == "nccl") {
    parsed = GpuCollectives::nccl;
  } else if (text != "mpi") {
    throw InvalidArgument("DISTLOPS_GPU_COLLECTIVES=" + text + ": expected nccl or mpi");
  }
  require_available(parsed, "DISTLOPS_GPU_COLLECTIVES=" + text);
  return parsed;
}

std::atomic<int> symmetric_choice{unset};

bool symmetric_from_environment() {
  const char* value = std::getenv("DISTLOPS_SYMMETRIC_REDUCTIONS");
  if (!value || *value == '\0') return true;
  const std::string text(value);
  if (text == "on") return true;
  if (text == "off") return false;
  throw InvalidArgument("DISTLOPS_SYMMETRIC_REDUCTIONS=" + text + ": expected on or off");
}

}  // namespace

bool symmetric_reductions() {
  int current = symmetric_choice.load();
  if (current == unset) {
    const int read = symmetric_from_environment() ? 1 : 0;
    if (symmetric_choice.compare_exchange_strong(current, read)) current = read;
  }
  return current != 0;
}

void set_symmetric_reductions(bool enabled) {
  symmetric_choice.store(enabled ? 1 : 0);
}

bool nccl_built() {
  return DISTLOPS_WITH_NCCL != 0;
}

GpuCollectives gpu_collectives() {
  int current = choice.load();
  if (current == unset) {
    const int read = static_cast<int>(from_environment());
    // The first reader wins; a concurrent set_gpu_collectives() keeps its value.
    if (choice.compare_exchange_strong(current, read)) current = read;
  }
  return static_cast<GpuCollectives>(current);
}

void set_gpu_collectives(GpuCollectives requested) {
  require_available(requested, std::string("set_gpu_collectives(") + to_string(requested) + ")");
  choice.store(static_cast<int>(requested));
}

const char* to_string(GpuCollectives value) {
  return value == GpuCollectives::nccl ? "nccl" : "mpi";
}

namespace detail {

DeviceSharing assess_device_sharing(std::span<const DeviceReport> reports) {
  DeviceSharing verdict;
  const std::size_t n = reports.size();
  for (std::size_t a = 0; a < n; ++a) {
    int on_device = 1;
    for (std::size_t b = a + 1; b < n; ++b) {
      if (reports[a].uuid != reports[b].uuid) continue;
      ++on_device;
      if (!verdict.shared()) {
        verdict.first_rank = static_cast<int>(a);
        verdict.second_rank = static_cast<int>(b);
      }
    }
    verdict.most_ranks_on_one_device = std::max(verdict.most_ranks_on_one_device, on_device);
  }
  if (!verdict.shared()) return verdict;
  for (const DeviceReport& report : reports) {
    if (report.nccl_version < nccl_multi_rank_gpu_version || report.multi_rank_gpu_enabled == 0) {
      verdict.nccl_possible = false;
      break;
    }
  }
  return verdict;
}

int nccl_channel_limit(int multiprocessors, int ranks_on_device) {
  if (ranks_on_device <= 1) return 0;
  return std::max(1, multiprocessors / (2 * ranks_on_device));
}

bool multi_rank_gpu_enabled_in_environment() {
  const char* value = std::getenv("NCCL_MULTI_RANK_GPU_ENABLE");
  if (!value || *value == '\0') return false;
  char* end = nullptr;
  const long parsed = std::strtol(value, &end, 10);
  return *end == '\0' && parsed > 0;
}

}  // namespace detail

template <Scalar T, MemorySpace Space>
void allreduce_sum_in_place(const Communicator& comm, T* data, Index count) {
  // One rank's sum is its data: no call into MPI (a solver iteration makes two of these).
  if (comm.size() == 1 || count == 0) return;
  allreduce_in_place(*transport_for<Space>(comm), data, count, ReduceOp::sum);
}

#define DISTLOPS_INSTANTIATE_ALLREDUCE(T, S) \
  template void allreduce_sum_in_place<T, S>(const Communicator&, T*, Index);
DISTLOPS_FOR_EACH_SCALAR_AND_SPACE(DISTLOPS_INSTANTIATE_ALLREDUCE)
#undef DISTLOPS_INSTANTIATE_ALLREDUCE

}  // namespace distlops
