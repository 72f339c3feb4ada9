#pragma once
// Helpers of the tests of the Cuda space: skipping without a device, running a test body for
// each path of device collectives, and reading device memory back.
#include "test_support.hpp"

/// Ends the test case with a warning (and a success) when no CUDA device is visible.
#define DISTLOPS_SKIP_WITHOUT_DEVICE()               \
  do {                                               \
    if (::distlops::cuda_device_count() == 0) {      \
      WARN("skipped: no CUDA device is visible");    \
      SUCCEED("skipped: no CUDA device is visible"); \
      return;                                        \
    }                                                \
  } while (false)

namespace distlops::testing {

/// The paths of device collectives this build offers: MPI with host staging, and NCCL.
inline std::vector<GpuCollectives> collective_paths() {
  std::vector<GpuCollectives> paths = {GpuCollectives::mpi};
  if (nccl_built()) paths.push_back(GpuCollectives::nccl);
  return paths;
}

/// Selects a path of device collectives and restores the previous one when it goes.
class CollectivesPath {
 public:
  explicit CollectivesPath(GpuCollectives path) : saved_(gpu_collectives()) {
    set_gpu_collectives(path);
  }
  ~CollectivesPath() { set_gpu_collectives(saved_); }
  CollectivesPath(const CollectivesPath&) = delete;
  CollectivesPath& operator=(const CollectivesPath&) = delete;

 private:
  GpuCollectives saved_;
};

/// `n` values of device memory, copied to the host.
template <class T>
std::vector<T> to_host(const T* device, Index n) {
  std::vector<T> values(static_cast<std::size_t>(n));
  memory::copy_bytes<Host, Cuda>(values.data(), device, values.size() * sizeof(T));
  return values;
}

/// This rank's block of an array, on the host.
template <class T, class Space>
std::vector<T> local_of(const DistributedArray<T, Space>& x) {
  if constexpr (std::same_as<Space, Host>) {
    return {x.local().begin(), x.local().end()};
  } else {
    return to_host(x.data(), x.local_size());
  }
}

/// The same array in both spaces.
template <class T>
struct Pair {
  DistributedArray<T, Host> host;
  DistributedArray<T, Cuda> device;
};
template <class T>
Pair<T> both_spaces(const Layout& layout, const std::vector<T>& global) {
  return {DistributedArray<T, Host>::from_global(layout, global),
          DistributedArray<T, Cuda>::from_global(layout, global)};
}

}  // namespace distlops::testing
