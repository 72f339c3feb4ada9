// Without a CUDA device, creating device arrays raises DeviceError on every rank (and never
// crashes or leaves a rank waiting); the choice of device collectives is validated. With a
// device, the device-less cases skip.
#include "gpu_support.hpp"

using namespace distlops;
using namespace distlops::testing;

namespace {

void expect_in_step(const Communicator& comm) {
  CHECK(comm.allreduce(1, ReduceOp::sum) == comm.size());
}

}  // namespace

TEMPLATE_TEST_CASE("device arrays without a device raise DeviceError", "[gpu][errors]",
                   DISTLOPS_SCALAR_TYPES) {
  using T = TestType;
  const Communicator comm = world();
  if (cuda_device_count() > 0) {
    WARN("skipped: a CUDA device is visible");
    SUCCEED("skipped: a CUDA device is visible");
    return;
  }
  // Every rank holds elements, and some ranks none: both need the device.
  for (const Shape& shape : {Shape{4 * comm.size()}, Shape{1}}) {
    const Layout layout(comm, shape);
    INFO(layout.describe());
    try {
      const DistributedArray<T, Cuda> x(layout);
      FAIL("no exception");
    } catch (const DeviceError& error) {
      CHECK(std::string(error.what()).find("no CUDA device") != std::string::npos);
    }
    const std::vector<T> global = random_values<T>(element_count(shape), 1);
    CHECK_THROWS_AS((DistributedArray<T, Cuda>::from_global(layout, global)), DeviceError);
    CHECK_THROWS_AS((DistributedArray<T, Cuda>(layout, T(1))), DeviceError);
    expect_in_step(comm);
  }
  CHECK_THROWS_AS(
      kernels::dot(Cuda{}, 4, static_cast<const T*>(nullptr), static_cast<const T*>(nullptr)),
      DeviceError);
  // An empty array needs no device.
  const DistributedArray<T, Cuda> empty;
  CHECK(empty.empty());
}

#if DISTLOPS_WITH_NCCL
TEST_CASE("an NCCL communicator without a device raises DeviceError on every rank",
          "[gpu][errors][nccl]") {
  const Communicator comm = world();
  if (cuda_device_count() > 0) {
    WARN("skipped: a CUDA device is visible");
    SUCCEED("skipped: a CUDA device is visible");
    return;
  }
  CHECK_THROWS_AS(NcclCommunicator(comm), DeviceError);
  expect_in_step(comm);
}
#endif

TEST_CASE("the path of device collectives can be chosen", "[gpu][collectives]") {
  const GpuCollectives initial = gpu_collectives();
  CHECK(initial == (nccl_built() ? GpuCollectives::nccl : GpuCollectives::mpi));
  set_gpu_collectives(GpuCollectives::mpi);
  CHECK(gpu_collectives() == GpuCollectives::mpi);
  if (nccl_built()) {
    set_gpu_collectives(GpuCollectives::nccl);
    CHECK(gpu_collectives() == GpuCollectives::nccl);
  } else {
    CHECK_THROWS_AS(set_gpu_collectives(GpuCollectives::nccl), InvalidArgument);
  }
  CHECK(std::string(to_string(GpuCollectives::nccl)) == "nccl");
  set_gpu_collectives(initial);
}
