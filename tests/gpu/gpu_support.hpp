#pragma once
// Helpers of the tests of the Cuda space: skipping without a device, running a test body for
// each path of device collectives, and reading device memory back.
// The GPU tests exercise the whole library on the device: all of it.
#include "distlops/distlops.hpp"
#include "spaces.hpp"
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

/// Tolerance of operators on the device against the host: results differ by fused
/// multiply-adds, the order of sums and the device libraries' algorithms.
template <class T>
constexpr double device_operator_tolerance() {
  return 50 * tolerance<T>();
}

/// The whole of a distributed array of either space, on every rank (local arrays: spaces.hpp).
template <class T, MemorySpace Space>
std::vector<T> values_of(const DistributedArray<T, Space>& a) {
  return a.gather();
}

/// The same local operator built in both spaces.
template <class T>
struct LocalPair {
  LocalOperator<T, Host> host;
  LocalOperator<T, Cuda> device;
};

/// Forward, adjoint and both accumulating applies (beta = 0 and beta != 0) agree between the
/// spaces; the device dot test passes; applying again into the same arrays allocates nothing.
template <class T>
void check_local_pair(const LocalPair<T>& op, std::uint64_t seed) {
  LocalArray<T, Host> hx(op.host.domain()), hy(op.host.range());
  LocalArray<T, Cuda> dx(op.device.domain()), dy(op.device.range());
  fill_random(hx, seed);
  fill_random(dx, seed);
  fill_random(hy, seed + 1);
  fill_random(dy, seed + 1);
  const double tol = device_operator_tolerance<T>();
  CHECK(all_close(values_of(op.device.apply(dx)), values_of(op.host.apply(hx)), tol));
  CHECK(
      all_close(values_of(op.device.apply_adjoint(dy)), values_of(op.host.apply_adjoint(hy)), tol));
  for (const T beta : {T(0), random_scalar<T>(seed + 3)}) {
    const T alpha = random_scalar<T>(seed + 2);
    LocalArray<T, Host> hz = hy;
    LocalArray<T, Cuda> dz = dy;
    op.host.apply_add(alpha, hx, beta, hz);
    op.device.apply_add(alpha, dx, beta, dz);
    CHECK(all_close(values_of(dz), values_of(hz), tol));
    LocalArray<T, Host> hw = hx;
    LocalArray<T, Cuda> dw = dx;
    op.host.apply_adjoint_add(alpha, hy, beta, hw);
    op.device.apply_adjoint_add(alpha, dy, beta, dw);
    CHECK(all_close(values_of(dw), values_of(hw), tol));
  }
  CHECK(dottest(op.device, seed + 4, 100 * dottest_tolerance<T>(), 0.0, false).passed);
  // Workspaces exist after the first applies: the next ones allocate nothing.
  LocalArray<T, Cuda> dz(op.device.range()), dw(op.device.domain());
  op.device.apply(dx, dz);
  op.device.apply_adjoint(dy, dw);
  const std::uint64_t before = memory::allocation_count();
  op.device.apply(dx, dz);
  op.device.apply_adjoint(dy, dw);
  op.device.apply_add(T(2), dx, T(1), dz);
  CHECK(memory::allocation_count() == before);
}

/// A distributed operator in both spaces: forward, adjoint and apply_add agree on the same
/// random input, the device dot test passes and a second apply allocates nothing.
template <class T>
void check_distributed_pair(const LinearOperator<T, Host>& host,
                            const LinearOperator<T, Cuda>& device, std::uint64_t seed) {
  DistributedArray<T, Host> hx(host.domain()), hy(host.range());
  DistributedArray<T, Cuda> dx(device.domain()), dy(device.range());
  fill_random(hx, seed);
  fill_random(dx, seed);
  fill_random(hy, seed + 1);
  fill_random(dy, seed + 1);
  const double tol = device_operator_tolerance<T>();
  CHECK(all_close(values_of(device.apply(dx)), values_of(host.apply(hx)), tol));
  CHECK(all_close(values_of(device.apply_adjoint(dy)), values_of(host.apply_adjoint(hy)), tol));
  const T alpha = random_scalar<T>(seed + 2), beta = random_scalar<T>(seed + 3);
  DistributedArray<T, Host> hz = hy;
  DistributedArray<T, Cuda> dz = dy;
  host.apply_add(alpha, hx, beta, hz);
  device.apply_add(alpha, dx, beta, dz);
  CHECK(all_close(values_of(dz), values_of(hz), tol));
  CHECK(dottest(device, seed + 4, 100 * dottest_tolerance<T>(), 0.0, false).passed);
  DistributedArray<T, Cuda> dy2(device.range()), dx2(device.domain());
  device.apply(dx, dy2);
  device.apply_adjoint(dy, dx2);
  const std::uint64_t before = memory::allocation_count();
  device.apply(dx, dy2);
  device.apply_adjoint(dy, dx2);
  CHECK(memory::allocation_count() == before);
}

}  // namespace distlops::testing
