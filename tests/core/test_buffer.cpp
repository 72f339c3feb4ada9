// SPDX-License-Identifier: BSD-3-Clause
// Copyright (c) 2026 The distlops authors
// Buffers in every memory space: allocation, clones, the count of allocations, and copies to
// and from host memory. (Device buffers in a process without a device: test_errors.)
#include "spaces.hpp"
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

DISTLOPS_SPACE_TEST_CASE("buffers round-trip through host memory", "[buffer]") {
  Buffer<std::complex<double>> host(1000);
  for (Index i = 0; i < 1000; ++i)
    host.data()[i] = {double(i), -double(i)};
  const auto in_space = to_space<Space>(host);
  const auto clone = in_space.clone();
  CHECK(clone.data() != in_space.data());
  Buffer<std::complex<double>> back(1000);
  copy(clone, back);
  CHECK(std::equal(back.span().begin(), back.span().end(), host.span().begin()));
  Buffer<std::complex<double>> too_small(3);
  CHECK_THROWS_AS(copy(in_space, too_small), ShapeMismatch);
}
