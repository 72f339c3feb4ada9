// SPDX-License-Identifier: BSD-3-Clause
// Copyright (c) 2026 The distlops authors
// Bad input raises the same clear exception on every rank and never leaves a rank waiting:
// each case is fed at every rank count, including input that is bad on one rank only. A hang
// would exceed the test's timeout and fail it. Device memory in a process without a device
// raises DeviceError on every rank.
#include <fstream>
#include <limits>
#include <string>

#include "distlops/config.hpp"
#include "distlops/core/buffer.hpp"
#include "distlops/core/collective_check.hpp"
#include "distlops/core/ghost_cells.hpp"
#include "distlops/core/kernels.hpp"
#include "distlops/core/memory_space.hpp"
#include "expect_everywhere.hpp"
#include "test_support.hpp"
#if DISTLOPS_WITH_CUDA
#include "distlops/core/detail/cublas_library.hpp"
#include "distlops/core/detail/cufft_library.hpp"
#include "distlops/core/detail/dynamic_library.hpp"
#endif
#if DISTLOPS_WITH_NCCL
#include "distlops/core/nccl_communicator.hpp"
#endif

using namespace distlops;
using namespace distlops::testing;

namespace {

// Without a device, `f` raises DeviceError on every rank; with one, it succeeds on every rank.
template <class F>
void expect_device_error(const Communicator& comm, bool device, F&& f) {
  if (device) {
    CHECK_NOTHROW(f());
  } else {
    try {
      f();
      FAIL("no exception");
    } catch (const DeviceError& error) {
      const std::string message = error.what();
      INFO("message: " << message);
      CHECK((message.find("no CUDA device") != std::string::npos ||
             message.find("without the CUDA backend") != std::string::npos));
    }
  }
  expect_in_step(comm);
}

}  // namespace

TEMPLATE_TEST_CASE("operations on arrays of different layouts", "[errors]", DISTLOPS_SCALAR_TYPES) {
  using T = TestType;
  const Communicator comm = world();
  const DistributedArray<T> x(Layout(comm, {8, 3}), T(1));
  const std::vector<Layout> others = {
      Layout(comm, {8, 4}), Layout(comm, {8, 3}, Partition::BROADCAST),
      Layout(comm, {8, 3}, Partition::SCATTER, 1),
      Layout(comm, {8, 3}, LayoutOptions{.mask = std::vector<int>(comm.size(), 0)})};
  for (const Layout& layout : others) {
    DistributedArray<T> y(layout, T(2));
    INFO(layout.describe());
    expect_everywhere<ShapeMismatch>(
        comm, [&] { (void)(x + y); }, "layouts differ");
    expect_everywhere<ShapeMismatch>(
        comm, [&] { y.axpy(T(1), x); }, "axpy");
    expect_everywhere<ShapeMismatch>(
        comm, [&] { (void)x.dot(y); }, "dot");
    expect_everywhere<ShapeMismatch>(
        comm, [&] { y.copy_from(x); }, "copy_from");
  }
  DistributedArray<T> empty;
  expect_everywhere<InvalidArgument>(
      comm, [&] { (void)x.vdot(empty); }, "empty");
}

TEMPLATE_TEST_CASE("global and local data of the wrong size", "[errors]", DISTLOPS_SCALAR_TYPES) {
  using T = TestType;
  const Communicator comm = world();
  const int last = comm.size() - 1;
  const Layout layout(comm, {7, 2});
  // Wrong global size on the last rank only.
  std::vector<T> global(comm.rank() == last ? 13 : 14, T(1));
  expect_everywhere<ShapeMismatch>(
      comm, [&] { (void)DistributedArray<T>::from_global(layout, global); }, "needs 14");
  // The root's array is wrong; other ranks pass nothing.
  expect_everywhere<ShapeMismatch>(
      comm,
      [&] {
        (void)DistributedArray<T>::from_root(
            layout, comm.rank() == last ? std::span<const T>(global) : std::span<const T>(), last);
      },
      "root");
  expect_everywhere<InvalidArgument>(
      comm, [&] { (void)DistributedArray<T>::from_root(layout, global, comm.size()); }, "root");
  // Local memory of the wrong size on the last rank only.
  std::vector<T> local(
      static_cast<std::size_t>(layout.local_size() + (comm.rank() == last ? 1 : 0)));
  expect_everywhere<ShapeMismatch>(
      comm, [&] { (void)DistributedArray<T>::wrap(layout, local); }, "rank");
  // A view whose local size differs on some rank.
  DistributedArray<T> x(layout, T(0));
  const Layout flat(comm, {14});
  bool same_everywhere = true;
  for (int r = 0; r < comm.size(); ++r)
    same_everywhere &= layout.local_size(r) == flat.local_size(r);
  if (!same_everywhere) {
    expect_everywhere<ShapeMismatch>(
        comm, [&] { (void)x.view(flat); }, "view");
  }
  expect_everywhere<InvalidArgument>(
      comm, [&] { (void)x.gather_to(-1); }, "root");
  expect_everywhere<ShapeMismatch>(
      comm,
      [&] {
        (void)x.redistribute(Layout(comm, {2, 7}));
      },
      "global shapes");
  expect_everywhere<InvalidArgument>(
      comm, [&] { (void)x.norm(2, 5); }, "axis 5");
  expect_everywhere<InvalidArgument>(
      comm, [&] { (void)x.norm(std::numeric_limits<double>::quiet_NaN()); }, "NaN");
  expect_everywhere<InvalidArgument>(
      comm, [&] { (void)x.redistribute(4); }, "axis 4");
}

TEMPLATE_TEST_CASE("ghost requests larger than the neighbour's block", "[errors][ghost]",
                   DISTLOPS_SCALAR_TYPES) {
  using T = TestType;
  const Communicator comm = world();
  const int size = comm.size();
  if (size == 1) return;  // a single rank has no neighbours
  // Every rank owns 2 planes; the last rank alone asks for 3 planes in front.
  const Layout layout(comm, {Index(2 * size), 4});
  const DistributedArray<T> x(layout, T(1));
  const bool last = comm.rank() == size - 1;
  expect_everywhere<InvalidArgument>(
      comm, [&] { (void)x.add_ghost_cells(last ? 3 : 1, 0); }, "owns 2");
  // The first rank alone asks for 3 planes behind.
  expect_everywhere<InvalidArgument>(
      comm, [&] { (void)x.add_ghost_cells(0, comm.rank() == 0 ? 3 : 1); }, "owns 2");
  // A negative width on one rank.
  expect_everywhere<InvalidArgument>(
      comm, [&] { (void)x.add_ghost_cells(last ? -1 : 1, 1); }, "negative");
  // Ghost cells of a replicated array.
  const DistributedArray<T> y(Layout(comm, {4}, Partition::BROADCAST), T(1));
  expect_everywhere<InvalidArgument>(
      comm, [&] { (void)y.add_ghost_cells(1, 1); }, "SCATTER");
  // The same widths work when planes may come from further ranks.
  const GhostExchange far(layout, last ? 3 : 1, 0, GhostReach::any);
  CHECK(far.front() == std::min<Index>(last ? 3 : 1, layout.offset(comm.rank())));
  expect_in_step(comm);
}

TEST_CASE("an exception on one rank reaches every rank with its type and message", "[errors]") {
  const Communicator comm = world();
  const int last = comm.size() - 1;
  try {
    collective_check(comm, [&] {
      if (comm.rank() == last) throw IoError("disk full on rank " + std::to_string(last));
    });
    FAIL("no exception");
  } catch (const IoError& error) {
    // Where other ranks passed, the message also names the rank that raised.
    const std::string where =
        comm.size() > 1 ? " (raised on rank " + std::to_string(last) + ")" : "";
    CHECK(std::string(error.what()) == "disk full on rank " + std::to_string(last) + where);
  }
  // The lowest failing rank wins when several fail.
  try {
    collective_check(comm, [&] {
      if (comm.rank() >= last / 2) throw ShapeMismatch("from rank " + std::to_string(comm.rank()));
    });
    FAIL("no exception");
  } catch (const ShapeMismatch& error) {
    const std::string where =
        last / 2 > 0 ? " (raised on rank " + std::to_string(last / 2) + ")" : "";
    CHECK(std::string(error.what()) == "from rank " + std::to_string(last / 2) + where);
  }
  // A standard exception becomes a distlops::Error everywhere.
  try {
    collective_check(comm, [&] {
      if (comm.rank() == 0) throw std::runtime_error("plain");
    });
    FAIL("no exception");
  } catch (const Error& error) {
    CHECK(std::string(error.what()) == (comm.size() > 1 ? "plain (raised on rank 0)" : "plain"));
  }
  // Values that must agree but do not.
  Fingerprint fingerprint;
  fingerprint.add(comm.rank() == last ? 1 : 0);
  if (comm.size() > 1) {
    CHECK_THROWS_WITH(collective_check(comm, fingerprint, "the setting", [] {}),
                      "the setting differs between ranks (rank " + std::to_string(last) +
                          "'s differs from rank 0's)");
  }
  expect_in_step(comm);
}

TEST_CASE("ranks in different checks raise the same error on every rank", "[errors]") {
  // Ranks that left each other's path (an assertion that failed on one rank only, in a
  // program that goes on) meet in the allreduces of different checks: every rank raises, none
  // goes on into the collectives the others never reach.
  const Communicator comm = world();
  if (comm.size() == 1) {
    Fingerprint fingerprint;
    CHECK_NOTHROW(collective_check(comm, fingerprint, "the setting", [] {}));
    CHECK_NOTHROW(collective_check(comm, [] {}));
    return;
  }
  Fingerprint fingerprint;
  fingerprint.add(7);
  // Rank 0 agrees on values, the others check rank-local input only (an apply's check).
  expect_everywhere<InvalidArgument>(
      comm,
      [&] {
        if (comm.rank() == 0) {
          collective_check(comm, fingerprint, "the setting", [] {});
        } else {
          collective_check(comm, [] {});
        }
      },
      "the ranks are in different collective calls (rank 1's differs from rank 0's): rank 0 "
      "checks the setting, rank 1 checks rank-local input only");
  // Different values under subjects that name rank-local things: rank 0's subject, everywhere.
  Fingerprint mine;
  mine.add(comm.rank() == 0 ? 1 : 2);
  expect_everywhere<InvalidArgument>(
      comm, [&] { collective_check(comm, mine, comm.rank() == 0 ? "file a" : "file b", [] {}); },
      "file a differs between ranks (rank 1's differs from rank 0's)");
  // Equal values under such subjects pass.
  CHECK_NOTHROW(collective_check(comm, fingerprint, comm.rank() == 0 ? "file a" : "file b", [] {}));
  // The same check on every rank with the same values passes.
  CHECK_NOTHROW(collective_check(comm, fingerprint, "the setting", [] {}));
  expect_in_step(comm);
}

// The Host runs hide every device (cmake/DistlopsTesting.cmake) and builds without the CUDA
// backend have none, so this runs without a device wherever CTest runs it.
TEMPLATE_TEST_CASE("the Cuda space without a device raises DeviceError on every rank",
                   "[errors][device]", DISTLOPS_SCALAR_TYPES) {
  using T = TestType;
  const Communicator comm = world();
  const bool device = comm.allreduce(cuda_device_count(), ReduceOp::min) > 0;
  expect_device_error(comm, device, [] { (void)Buffer<T, Cuda>(4); });
#if DISTLOPS_WITH_CUDA
  // Every rank holds elements, and some ranks none: both need the device.
  for (const Shape& shape : {Shape{4 * comm.size()}, Shape{1}}) {
    const Layout layout(comm, shape);
    INFO(layout.describe());
    const std::vector<T> global = random_values<T>(element_count(shape), 1);
    expect_device_error(comm, device, [&] { (void)DistributedArray<T, Cuda>(layout); });
    expect_device_error(comm, device,
                        [&] { (void)DistributedArray<T, Cuda>::from_global(layout, global); });
    expect_device_error(comm, device, [&] { (void)DistributedArray<T, Cuda>(layout, T(1)); });
  }
  if (!device) {
    CHECK_THROWS_AS(
        kernels::dot(Cuda{}, 4, static_cast<const T*>(nullptr), static_cast<const T*>(nullptr)),
        DeviceError);
  }
  // An empty array needs no device.
  const DistributedArray<T, Cuda> empty;
  CHECK(empty.empty());
#endif
#if DISTLOPS_WITH_NCCL
  // Ranks sharing a device cannot form an NCCL communicator: only the device-less case here.
  if (!device) expect_device_error(comm, device, [&] { (void)NcclCommunicator(comm); });
#endif
}

#if DISTLOPS_WITH_CUDA
namespace {

// Whether a file whose path contains `name` is mapped into this process.
bool process_maps(const std::string& name) {
  std::ifstream maps("/proc/self/maps");
  REQUIRE(maps.good());
  for (std::string line; std::getline(maps, line);) {
    if (line.find(name) != std::string::npos) return true;
  }
  return false;
}

}  // namespace

// cuBLAS and cuFFT are opened on first use (dlopen), not linked: a library that cannot be
// loaded, or lacks a function, raises DeviceError naming it when it is first needed.
TEST_CASE("a library opened on first use raises DeviceError naming what it lacks",
          "[errors][device]") {
  const std::string absent = "libdistlops-absent.so.0";
  const std::string absent_path = "/nonexistent/" + absent;
  try {
    const cuda::DynamicLibrary library("cuAbsent", {absent.c_str(), absent_path.c_str()});
    FAIL("opened " << library.loaded_from());
  } catch (const DeviceError& error) {
    const std::string message = error.what();
    INFO("message: " << message);
    CHECK(message.rfind("cuAbsent cannot be loaded (", 0) == 0);
    // Both candidates, each with the loader's reason.
    CHECK(message.find(absent + ": ") != std::string::npos);
    CHECK(message.find(absent_path + ": ") != std::string::npos);
  }
  // A library that loads but lacks the function asked for.
  const cuda::DynamicLibrary c_library("the C library", {absent.c_str(), "libc.so.6"});
  CHECK(c_library.loaded_from() == "libc.so.6");
  try {
    (void)c_library.symbol("distlops_absent_function");
    FAIL("resolved a function the C library does not have");
  } catch (const DeviceError& error) {
    const std::string message = error.what();
    INFO("message: " << message);
    CHECK(message.rfind("the C library (libc.so.6) lacks the function distlops_absent_function",
                        0) == 0);
  }
}

// The libraries the build found export every function the library resolves (their names after
// cublas_v2.h's macros), and calls through the pointers work; no device is needed to load them.
// Once, at one rank: loading cuBLAS costs a tenth of a second of CPU per process.
TEST_CASE("cuBLAS and cuFFT load on first use with every function distlops calls",
          "[errors][device]") {
  if (world().size() > 1) return;
  // Nothing in this program uses cuBLAS or cuFFT before: neither is mapped yet, which a link
  // to them would have done at start-up.
  CHECK_FALSE(process_maps("libcublas"));
  CHECK_FALSE(process_maps("libcufft"));
  const cuda::CublasLibrary* cublas = nullptr;
  REQUIRE_NOTHROW(cublas = &cuda::cublas_library());
  CHECK(std::string(cublas->get_status_name(CUBLAS_STATUS_NOT_INITIALIZED)) ==
        "CUBLAS_STATUS_NOT_INITIALIZED");
  CHECK(&cuda::cublas_library() == cublas);  // loaded once
  try {
    cuda::check_cublas(CUBLAS_STATUS_INVALID_VALUE, "cublasSgemm (test)");
    FAIL("no exception");
  } catch (const DeviceError& error) {
    CHECK(std::string(error.what())
              .rfind("cublasSgemm (test) failed: CUBLAS_STATUS_INVALID_VALUE: ", 0) == 0);
  }
  CHECK_NOTHROW(cuda::cufft_library());
  CHECK(process_maps("libcublas"));
  CHECK(process_maps("libcufft"));
}
#endif
