// SPDX-License-Identifier: BSD-3-Clause
// Copyright (c) 2026 The distlops authors
// Layout: PyLops-MPI's default split, custom local shapes, masks, derived layouts, and the
// validation of bad or inconsistent arguments (same exception on every rank).
#include "test_support.hpp"

using namespace distlops;
using distlops::testing::world;

TEST_CASE("the default split gives n/P + 1 items to the first n % P ranks", "[layout]") {
  const Communicator comm = world();
  const int size = comm.size();
  for (Index n : {0, 1, 2, 3, 5, 7, 10, 11, 100}) {
    INFO("n = " << n);
    const Layout layout(comm, {n});
    Index expected_offset = 0;
    for (int r = 0; r < size; ++r) {
      const Index expected = n / size + (r < n % size ? 1 : 0);
      CHECK(layout.local_extent(r) == expected);
      CHECK(layout.offset(r) == expected_offset);
      expected_offset += expected;
    }
    CHECK(layout.offsets().back() == n);
    CHECK(layout.local_size() == layout.local_extent(comm.rank()));
    CHECK(layout.global_size() == n);
  }
  CHECK(default_split(10, 4) == std::vector<Index>{3, 3, 2, 2});
  CHECK(default_split(2, 4) == std::vector<Index>{1, 1, 0, 0});
}

TEST_CASE("N-d layouts split along the chosen axis", "[layout]") {
  const Communicator comm = world();
  const Layout layout(comm, {4, 9, 2}, Partition::SCATTER, 1);
  CHECK(layout.axis() == 1);
  CHECK(layout.ndim() == 3);
  Index total = 0;
  for (int r = 0; r < comm.size(); ++r) {
    const Shape local = layout.local_shape(r);
    CHECK(local[0] == 4);
    CHECK(local[2] == 2);
    CHECK(layout.local_size(r) == 8 * local[1]);
    total += local[1];
  }
  CHECK(total == 9);

  const Layout last_axis(comm, {4, 9, 2}, Partition::SCATTER, -1);
  CHECK(last_axis.axis() == 2);

  const Layout replicated(comm, {4, 9}, Partition::BROADCAST, 1);
  CHECK(replicated.replicated());
  CHECK(replicated.local_shape() == Shape{4, 9});
  CHECK(replicated.offset(comm.rank()) == 0);
  CHECK(replicated.describe().find("BROADCAST") != std::string::npos);
}

TEST_CASE("custom local shapes and local-shape construction", "[layout]") {
  const Communicator comm = world();
  const int size = comm.size();
  // Rank r owns r planes (rank 0 none).
  std::vector<Shape> shapes;
  Index total = 0;
  for (int r = 0; r < size; ++r) {
    shapes.push_back({r, 3});
    total += r;
  }
  const Layout custom(comm, {total, 3}, LayoutOptions{.local_shapes = shapes});
  for (int r = 0; r < size; ++r)
    CHECK(custom.local_extent(r) == r);
  CHECK(custom.local_shapes() == shapes);

  const Layout from_local = Layout::from_local_shape(comm, {comm.rank(), 3});
  CHECK(from_local == custom);
  CHECK(from_local.global_shape() == Shape{total, 3});

  const Layout other_axis = custom.with_axis(1);
  CHECK(other_axis.axis() == 1);
  CHECK(other_axis.local_extent(0) == default_split(3, size)[0]);
  CHECK(other_axis != custom);
  CHECK(custom.with_partition(Partition::BROADCAST).replicated());
}

TEST_CASE("a mask groups ranks into sub-communicators", "[layout]") {
  const Communicator comm = world();
  std::vector<int> mask(comm.size());
  for (int r = 0; r < comm.size(); ++r)
    mask[r] = r % 2;
  const Layout layout(comm, {12}, LayoutOptions{.mask = mask});
  CHECK(layout.masked());
  CHECK(layout.sub_communicator().size() == (comm.size() + 1 - comm.rank() % 2) / 2);
  CHECK(layout.describe().find("mask") != std::string::npos);
  const Layout unmasked(comm, {12});
  CHECK(unmasked.sub_communicator().size() == comm.size());
  CHECK(layout != unmasked);
}

TEST_CASE("layouts compare by content", "[layout]") {
  const Communicator comm = world();
  const Layout a(comm, {10, 2});
  const Layout b(comm, {10, 2});
  CHECK(a == b);
  CHECK(a != Layout(comm, {10, 2}, Partition::BROADCAST));
  CHECK(a != Layout(comm, {10, 3}));
  CHECK(a != Layout(comm, {10, 2}, Partition::SCATTER, 1));
  CHECK(a == Layout(comm.duplicate(), {10, 2}));
}

TEST_CASE("bad layout arguments raise the same error on every rank", "[layout][errors]") {
  const Communicator comm = world();
  const int size = comm.size();
  CHECK_THROWS_AS(Layout(comm, {5, 4}, Partition::SCATTER, 2), InvalidArgument);
  CHECK_THROWS_AS(Layout(comm, {5, 4}, Partition::SCATTER, -3), InvalidArgument);
  CHECK_THROWS_AS(Layout(comm, Shape{}), InvalidArgument);
  CHECK_THROWS_AS(Layout(comm, {-1}), InvalidArgument);
  // local shapes that do not sum up to the global extent
  std::vector<Shape> shapes(size, Shape{1});
  CHECK_THROWS_AS(Layout(comm, {Index(size) + 1}, LayoutOptions{.local_shapes = shapes}),
                  InvalidArgument);
  // one local shape too many
  std::vector<Shape> too_many(size + 1, Shape{1});
  CHECK_THROWS_AS(Layout(comm, {Index(size) + 1}, LayoutOptions{.local_shapes = too_many}),
                  InvalidArgument);
  // a local shape that disagrees with the global shape off the distribution axis
  std::vector<Shape> off_axis(size, Shape{1, 2});
  CHECK_THROWS_AS(Layout(comm, {Index(size), 3}, LayoutOptions{.local_shapes = off_axis}),
                  InvalidArgument);
  // a mask of the wrong length
  CHECK_THROWS_AS(Layout(comm, {4}, LayoutOptions{.mask = std::vector<int>(size + 1, 0)}),
                  InvalidArgument);
  try {
    Layout(comm, {5, 4}, Partition::SCATTER, 7);
    FAIL("no exception");
  } catch (const InvalidArgument& error) {
    CHECK(std::string(error.what()).find("axis 7") != std::string::npos);
  }
}

TEST_CASE("arguments that differ between ranks are caught on every rank", "[layout][errors]") {
  const Communicator comm = world();
  if (comm.size() == 1) return;
  const int rank = comm.rank();
  // The last rank alone passes another global shape, axis or partition.
  const bool odd_one = rank == comm.size() - 1;
  CHECK_THROWS_AS(Layout(comm, {odd_one ? 9 : 8}), InvalidArgument);
  CHECK_THROWS_AS(Layout(comm, {8, 8}, Partition::SCATTER, odd_one ? 1 : 0), InvalidArgument);
  CHECK_THROWS_AS(Layout(comm, {8}, odd_one ? Partition::BROADCAST : Partition::SCATTER),
                  InvalidArgument);
  // An out-of-range axis on one rank only: its error wins on every rank.
  try {
    Layout(comm, {8, 8}, Partition::SCATTER, odd_one ? 5 : 0);
    FAIL("no exception");
  } catch (const InvalidArgument& error) {
    CHECK(std::string(error.what()).find("axis 5") != std::string::npos);
  }
  // from_local_shape with a malformed shape on one rank
  CHECK_THROWS_AS(Layout::from_local_shape(comm, odd_one ? Shape{2, 3, 1} : Shape{2, 3}),
                  InvalidArgument);
  CHECK_THROWS_AS(Layout::from_local_shape(comm, odd_one ? Shape{2, 4} : Shape{2, 3}),
                  InvalidArgument);
}

TEST_CASE("element counts are exact or refused, never overflowed", "[layout][overflow]") {
  constexpr Index max = std::numeric_limits<Index>::max();
  CHECK(element_count({}) == 1);
  CHECK(element_count({4, 5, 6}) == 120);
  CHECK(element_count({max}) == max);
  // A zero extent empties the array wherever it is, even after extents whose product overflows.
  CHECK(element_count({max, 4, 0}) == 0);
  CHECK(element_count({0, max}) == 0);
  CHECK_THROWS_AS(element_count({Index(1) << 32, Index(1) << 32}), InvalidArgument);
  try {
    (void)element_count({max, 2});
    FAIL("no exception for (max, 2)");
  } catch (const InvalidArgument& error) {
    CHECK(std::string(error.what()).find("(9223372036854775807, 2)") != std::string::npos);
  }
  CHECK_FALSE(extents_fit({max, 2}));
  CHECK(extents_fit({max, 0, 1}));
}
