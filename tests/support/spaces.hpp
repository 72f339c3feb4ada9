// SPDX-License-Identifier: BSD-3-Clause
// Copyright (c) 2026 The distlops authors
#pragma once
// Tests written once and run in every memory space of the build (Ginkgo's "common" tests are the
// model). A scenario is written against `Space` and compared with the same independent reference
// in every space:
//
//     DISTLOPS_SPACE_TEMPLATE_TEST_CASE("Pad places the model inside zeros", "[local][pad]",
//                                       DISTLOPS_SCALAR_TYPES) {
//       using T = TestType;
//       check_local_operator(local::Pad<T, Space>(dims, widths), reference, dims, padded);
//     }
//
// The Host instance keeps the name and tags given. In builds with the CUDA backend a Cuda instance
// named "cuda: <name>" and tagged [.cuda] follows: the leading dot hides it from a plain run, so
// the Host runs never touch a device, and `--space cuda` (mpi_catch_main.cpp) selects it. CTest
// registers both kinds of runs (distlops_add_mpi_test's SPACES in cmake/DistlopsTesting.cmake).
//
// Only scenarios that exercise device code (arrays, kernels, transports, operators, solvers) need
// the Cuda instance: each costs the compile time of its body once more.
#include <concepts>
#include <cstdint>
#include <span>
#include <vector>

#include "distlops/config.hpp"
#include "distlops/core/buffer.hpp"
#include "distlops/core/distributed_array.hpp"
#include "distlops/core/gpu_collectives.hpp"
#include "distlops/core/local_array.hpp"
#include "distlops/core/memory_space.hpp"
#include "distlops/operators/dottest.hpp"
#include "test_support.hpp"

#define DISTLOPS_DETAIL_TEST_CAT2(a, b) a##b
#define DISTLOPS_DETAIL_TEST_CAT(a, b) DISTLOPS_DETAIL_TEST_CAT2(a, b)

// DISTLOPS_TEST_CUDA_INSTANCES (the CMake option of the same name, default ON) says whether the
// space-generic cases get their Cuda instance; scripts/test.sh turns it off where no GPU is
// visible, whose Cuda runs are reported Skipped without a program to run.
#ifndef DISTLOPS_TEST_CUDA_INSTANCES
#define DISTLOPS_TEST_CUDA_INSTANCES DISTLOPS_WITH_CUDA
#endif
#if DISTLOPS_WITH_CUDA
/// A test case of the Cuda space only (builds with the CUDA backend).
#define DISTLOPS_CUDA_TEST_CASE(name, tags) TEST_CASE("cuda: " name, "[.cuda]" tags)
#endif
#if DISTLOPS_WITH_CUDA && DISTLOPS_TEST_CUDA_INSTANCES
#define DISTLOPS_DETAIL_CUDA_INSTANCE(...) __VA_ARGS__
#else
#define DISTLOPS_DETAIL_CUDA_INSTANCE(...)
#endif

#define DISTLOPS_DETAIL_SPACE_TEMPLATE_TEST_CASE(body, name, tags, ...)                          \
  template <class TestType, class Space>                                                         \
  static void body();                                                                            \
  TEMPLATE_TEST_CASE(name, tags, __VA_ARGS__) {                                                  \
    body<TestType, ::distlops::Host>();                                                          \
  }                                                                                              \
  DISTLOPS_DETAIL_CUDA_INSTANCE(TEMPLATE_TEST_CASE("cuda: " name, "[.cuda]" tags, __VA_ARGS__) { \
    body<TestType, ::distlops::Cuda>();                                                          \
  })                                                                                             \
  template <class TestType, class Space>                                                         \
  static void body()

#define DISTLOPS_DETAIL_SPACE_TEST_CASE(body, name, tags)                     \
  template <class Space>                                                      \
  static void body();                                                         \
  TEST_CASE(name, tags) {                                                     \
    body<::distlops::Host>();                                                 \
  }                                                                           \
  DISTLOPS_DETAIL_CUDA_INSTANCE(                                              \
      TEST_CASE("cuda: " name, "[.cuda]" tags) { body<::distlops::Cuda>(); }) \
  template <class Space>                                                      \
  static void body()

/// A TEMPLATE_TEST_CASE over the scalar types given, instantiated for every memory space of the
/// build; the body sees `TestType` and `Space`.
#define DISTLOPS_SPACE_TEMPLATE_TEST_CASE(name, tags, ...) \
  DISTLOPS_DETAIL_SPACE_TEMPLATE_TEST_CASE(                \
      DISTLOPS_DETAIL_TEST_CAT(distlops_space_case_, __LINE__), name, tags, __VA_ARGS__)

/// A TEST_CASE instantiated for every memory space of the build; the body sees `Space`.
#define DISTLOPS_SPACE_TEST_CASE(name, tags)                                                      \
  DISTLOPS_DETAIL_SPACE_TEST_CASE(DISTLOPS_DETAIL_TEST_CAT(distlops_space_case_, __LINE__), name, \
                                  tags)

namespace distlops::testing {

template <MemorySpace Space>
constexpr bool on_device = !std::same_as<Space, Host>;

/// How much looser than on the host a tolerance is for results computed in `Space`: the device
/// contracts products into fused multiply-adds, sums in another order and uses cuBLAS' and
/// cuFFT's algorithms.
template <MemorySpace Space>
constexpr double space_factor() {
  return on_device<Space> ? 50.0 : 1.0;
}

/// tolerance<T>() for results computed in `Space`.
template <class T, MemorySpace Space>
constexpr double space_tolerance() {
  return space_factor<Space>() * tolerance<T>();
}

/// The dot test's tolerance in `Space`: both of its sides are reductions in that space.
template <class T, MemorySpace Space>
constexpr double space_dottest_tolerance() {
  return 2 * space_factor<Space>() * dottest_tolerance<T>();
}

/// The values of a local array of any space, on the host.
template <class T, MemorySpace Space>
std::vector<T> values_of(const LocalArray<T, Space>& array) {
  std::vector<T> values(static_cast<std::size_t>(array.size()));
  memory::copy_bytes<Host, Space>(values.data(), array.data(), values.size() * sizeof(T));
  return values;
}

/// The values of a buffer of any space, on the host.
template <class T, MemorySpace Space>
std::vector<T> values_of(const Buffer<T, Space>& buffer) {
  std::vector<T> values(static_cast<std::size_t>(buffer.size()));
  memory::copy_bytes<Host, Space>(values.data(), buffer.data(), values.size() * sizeof(T));
  return values;
}

/// This rank's block of a distributed array of any space, on the host.
template <class T, MemorySpace Space>
std::vector<T> local_values(const DistributedArray<T, Space>& array) {
  std::vector<T> values(static_cast<std::size_t>(array.local_size()));
  memory::copy_bytes<Host, Space>(values.data(), array.data(), values.size() * sizeof(T));
  return values;
}

/// Host values copied into memory of `Space` (a buffer, or this rank's block of an array).
template <MemorySpace Space, class T>
Buffer<T, Space> buffer_of(const std::vector<T>& values) {
  Buffer<T, Space> buffer(static_cast<Index>(values.size()));
  memory::copy_bytes<Space, Host>(buffer.data(), values.data(), values.size() * sizeof(T));
  return buffer;
}
template <class T, MemorySpace Space>
void assign_local(DistributedArray<T, Space>& array, std::span<const T> values) {
  REQUIRE(static_cast<Index>(values.size()) == array.local_size());
  memory::copy_bytes<Space, Host>(array.data(), values.data(), values.size() * sizeof(T));
}
/// A local array of `Space` with the given shape and values.
template <MemorySpace Space, class T>
LocalArray<T, Space> local_array_of(const Shape& shape, const std::vector<T>& values) {
  LocalArray<T, Space> array(shape);
  REQUIRE(array.size() == static_cast<Index>(values.size()));
  memory::copy_bytes<Space, Host>(array.data(), values.data(), values.size() * sizeof(T));
  return array;
}

/// Runs `body` once for every way `Space` moves data between ranks: once for Host (MPI); for
/// Cuda over MPI with copies staged through host memory and, in builds with NCCL, over NCCL
/// where the library takes it for the ranks of the world (gpu_collectives_for: not where ranks
/// share a device that NCCL cannot serve, whose collectives are staged anyway). Collective.
/// The process's choice of device collectives is restored afterwards.
template <MemorySpace Space, class Body>
void for_each_collective_path(Body&& body) {
  if constexpr (!on_device<Space>) {
    body();
  } else {
    struct Restore {
      GpuCollectives saved = gpu_collectives();
      ~Restore() { set_gpu_collectives(saved); }
    } restore;
    std::vector<GpuCollectives> paths{GpuCollectives::mpi};
    if (nccl_built()) paths.push_back(GpuCollectives::nccl);
    for (GpuCollectives path : paths) {
      set_gpu_collectives(path);
      if (gpu_collectives_for(Communicator::world()) != path) continue;
      INFO("device collectives over " << to_string(path));
      body();
    }
  }
}

}  // namespace distlops::testing
