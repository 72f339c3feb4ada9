// Buffers in both memory spaces: host allocation and copies; device buffers and host<->device
// copies where a CUDA device is visible (skipped with a message otherwise).
#include "test_support.hpp"

using namespace distlops;

TEST_CASE("host buffers allocate, clone and count allocations", "[buffer]") {
  const std::uint64_t before = memory::allocation_count();
  Buffer<double> buffer(100);
  CHECK(memory::allocation_count() == before + 1);
  CHECK(reinterpret_cast<std::uintptr_t>(buffer.data()) % 64 == 0);
  for (Index i = 0; i < 100; ++i)
    buffer.data()[i] = double(i);
  Buffer<double> copy = buffer.clone();
  CHECK(copy.data() != buffer.data());
  CHECK(std::equal(copy.span().begin(), copy.span().end(), buffer.span().begin()));
  Buffer<double> moved = std::move(copy);
  CHECK(copy.empty());
  CHECK(moved.size() == 100);
  CHECK(Buffer<float>(0).data() == nullptr);
  CHECK_THROWS_AS(Buffer<float>(-1), InvalidArgument);
}

TEST_CASE("device buffers round-trip through host memory", "[buffer][gpu]") {
  if (!cuda_built()) {
    WARN("skipped: distlops was built without the CUDA backend");
    CHECK_THROWS_AS((Buffer<float, Cuda>(4)), DeviceError);
    return;
  }
  if (cuda_device_count() == 0) {
    WARN("skipped: no CUDA device is visible");
    CHECK_THROWS_AS((Buffer<float, Cuda>(4)), DeviceError);
    return;
  }
  Buffer<std::complex<double>> host(1000);
  for (Index i = 0; i < 1000; ++i)
    host.data()[i] = {double(i), -double(i)};
  const auto device = to_space<Cuda>(host);
  const auto device_copy = device.clone();
  Buffer<std::complex<double>> back(1000);
  copy(device_copy, back);
  CHECK(std::equal(back.span().begin(), back.span().end(), host.span().begin()));
  Buffer<std::complex<double>> too_small(3);
  CHECK_THROWS_AS(copy(device, too_small), ShapeMismatch);
}
