// SPDX-License-Identifier: BSD-3-Clause
// Copyright (c) 2026 The distlops authors
// ReshapePlan and DistributedArray::redistribute between any two layouts of a global shape
// (slabs along every axis, grids, uneven grids with empty ranks, explicit boxes, BROADCAST):
// every rank's block against the box of the global array, in every memory space and over
// every collective path, host boxes packed or as datatypes, with messages above the per-call
// limit, plans run again without allocating, and the errors of shapes and plans that do not fit.
#include <atomic>
#include <cstdlib>
#include <new>

#include "box_layouts.hpp"
#include "distlops/core/reshape_plan.hpp"
#include "distlops/core/transport.hpp"
#include "spaces.hpp"
#include "test_support.hpp"

// Counts the program's operator new calls while `counting` is set: a plan's second execution
// must make none (the library's own buffers are counted by memory::allocation_count).
namespace {
std::atomic<bool> counting{false};
std::atomic<std::uint64_t> news{0};
}  // namespace

void* operator new(std::size_t bytes) {
  if (counting.load(std::memory_order_relaxed)) news.fetch_add(1, std::memory_order_relaxed);
  if (void* data = std::malloc(bytes > 0 ? bytes : 1)) return data;
  throw std::bad_alloc();
}
void operator delete(void* data) noexcept {
  std::free(data);
}
void operator delete(void* data, std::size_t) noexcept {
  std::free(data);
}

using namespace distlops;
using namespace distlops::testing;

namespace {

// This rank's block of `layout` cut from the global array.
template <class T>
std::vector<T> expected_block(const std::vector<T>& global, const Layout& layout) {
  return box_of(global, layout.global_shape(), layout.box());
}

// Runs `body` with host boxes packed and with host boxes described by datatypes (the setting
// is restored afterwards).
template <class Body>
void for_each_host_box_transfer(Body&& body) {
  struct Restore {
    HostBoxTransfer saved = host_box_transfer();
    ~Restore() { set_host_box_transfer(saved); }
  } restore;
  for (HostBoxTransfer transfer : {HostBoxTransfer::packed, HostBoxTransfer::datatypes}) {
    INFO((transfer == HostBoxTransfer::packed ? "packed boxes" : "boxes as datatypes"));
    set_host_box_transfer(transfer);
    body();
  }
}

// Moves `global` from every layout of `layouts` to every other and checks every block.
template <class T, class Space>
void check_every_pair(const std::vector<NamedLayout>& layouts, const std::vector<T>& global) {
  for (const NamedLayout& source : layouts) {
    const auto x = DistributedArray<T, Space>::from_global(source.layout, global);
    for (const NamedLayout& target : layouts) {
      INFO("from " << source.name << " to " << target.name);
      const DistributedArray<T, Space> y = x.redistribute(target.layout);
      CHECK(y.layout() == target.layout);
      CHECK(local_values(y) == expected_block(global, target.layout));
    }
  }
}

}  // namespace

DISTLOPS_SPACE_TEMPLATE_TEST_CASE("reshapes move every block between any two layouts",
                                  "[reshape][box]", DISTLOPS_SCALAR_TYPES) {
  using T = TestType;
  const Communicator comm = world();
  for_each_host_box_transfer([&] {
    for_each_collective_path<Space>([&] {
      for (const Shape& shape : {Shape{5, 7}, Shape{4, 3, 5}}) {
        INFO("shape " << to_string(shape));
        const std::vector<T> global = random_values<T>(element_count(shape), 41);
        check_every_pair<T, Space>(box_test_layouts(comm, shape), global);
      }
    });
  });
}

DISTLOPS_SPACE_TEMPLATE_TEST_CASE("reshapes of messages above the per-call limit",
                                  "[reshape][box][big]", float, std::complex<double>) {
  using T = TestType;
  const Communicator comm = world();
  const Shape shape{6, 4, 5};
  const std::vector<T> global = random_values<T>(element_count(shape), 43);
  // Three elements per call: every box above it becomes nested datatypes. One element: the
  // packed path, whose messages go in chunks.
  for (std::size_t limit : {3 * sizeof(T) + 1, sizeof(T)}) {
    INFO("limit of " << limit << " bytes");
    const ChunkLimit chunk(limit);
    for_each_host_box_transfer([&] {
      for_each_collective_path<Space>(
          [&] { check_every_pair<T, Space>(box_test_layouts(comm, shape), global); });
    });
  }
}

DISTLOPS_SPACE_TEST_CASE("a reshape plan runs again without allocating", "[reshape][box]") {
  using T = double;
  const Communicator comm = world();
  const int size = comm.size();
  const Shape shape{8, 6, 10};
  // Slabs across the first axis to pencils along it, as a 3-d FFT's transposes move them.
  const Layout slab(comm, shape);
  const Layout pencils(comm, shape,
                       LayoutOptions{.grid = default_grid(shape, size, std::vector<int>{1, 2})});
  for_each_host_box_transfer([&] {
    for_each_collective_path<Space>([&] {
      const ReshapePlan there(slab, pencils);
      const ReshapePlan back(pencils, slab);
      DistributedArray<T, Space> x(slab), y(pencils);
      for (std::uint64_t key : {1, 2, 3}) {
        fill_random(x, key);
        const std::vector<T> global = x.gather();
        const std::uint64_t buffers = memory::allocation_count();
        news = 0;
        counting = true;
        x.redistribute(there, y);
        y.redistribute(back, x);
        counting = false;
        // The first executions prepare their datatypes or workspaces; later ones take them.
        if (key > 1) {
          CHECK(news == 0);
          CHECK(memory::allocation_count() == buffers);
        }
        CHECK(local_values(y) == expected_block(global, pencils));
        CHECK(local_values(x) == expected_block(global, slab));
      }
    });
  });
}

TEST_CASE("a plan's counts add up over the ranks", "[reshape][box]") {
  const Communicator comm = world();
  const Shape shape{5, 7};
  for (const NamedLayout& source : box_test_layouts(comm, shape, false)) {
    for (const NamedLayout& target : box_test_layouts(comm, shape)) {
      INFO("from " << source.name << " to " << target.name);
      const ReshapePlan plan(source.layout, target.layout);
      const std::vector<Index> sends = plan.send_counts();
      const std::vector<Index> receives = plan.receive_counts();
      Index sent = 0, received = 0;
      for (Index count : sends)
        sent += count;
      for (Index count : receives)
        received += count;
      // A block goes out once per rank that holds it whole or in part (everyone when the
      // target is replicated), and the destination block comes in whole.
      CHECK(sent == source.layout.local_size() * (target.layout.replicated() ? comm.size() : 1));
      CHECK(received == target.layout.local_size());
      const Index me = comm.rank();
      CHECK(plan.bytes_sent(8) == 8 * (sent - sends[static_cast<std::size_t>(me)]));
      CHECK(plan.bytes_received(8) == 8 * (received - receives[static_cast<std::size_t>(me)]));
      CHECK(comm.allreduce(plan.bytes_sent(8), ReduceOp::sum) ==
            comm.allreduce(plan.bytes_received(8), ReduceOp::sum));
    }
  }
}

TEST_CASE("reshapes between other global shapes or with the wrong plan raise everywhere",
          "[reshape][box][errors]") {
  const Communicator comm = world();
  const Layout wide(comm, {4, 6}, LayoutOptions{.grid = default_grid({4, 6}, comm.size())});
  const Layout tall(comm, {6, 4}, LayoutOptions{.grid = default_grid({6, 4}, comm.size())});
  const DistributedArray<double> x(wide, 1.0);
  try {
    (void)x.redistribute(tall);
    FAIL("no exception");
  } catch (const ShapeMismatch& error) {
    CHECK(std::string(error.what()).find("global shapes differ") != std::string::npos);
  }
  CHECK_THROWS_AS(ReshapePlan(wide, tall), ShapeMismatch);
  const Layout everywhere(comm, {4, 6}, Partition::BROADCAST);
  const ReshapePlan plan(wide, everywhere);
  DistributedArray<double> wrong(wide), right(everywhere);
  CHECK_THROWS_AS(x.redistribute(plan, wrong), ShapeMismatch);
  CHECK_THROWS_AS(right.redistribute(plan, wrong), ShapeMismatch);
  x.redistribute(plan, right);
  CHECK(right.gather() == std::vector<double>(24, 1.0));
}
