// SPDX-License-Identifier: BSD-3-Clause
// Copyright (c) 2026 The distlops authors
// Layout: PyLops-MPI's default split, custom local shapes, masks, derived layouts, and the
// validation of bad or inconsistent arguments (same exception on every rank).
#include "box_layouts.hpp"
#include "expect_everywhere.hpp"
#include "test_support.hpp"

using namespace distlops;
using distlops::testing::box_test_grids;
using distlops::testing::expect_everywhere;
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

// ---- box layouts ----------------------------------------------------------------------------

namespace {

// Rank r's box under `grid` over `shape`, from first principles: r's row-major coordinates
// and, along each axis, the first n % p parts one longer.
ArrayBox expected_box(const Shape& shape, const std::vector<int>& grid, int rank) {
  ArrayBox box{Shape(shape.size()), Shape(shape.size())};
  int rest = rank;
  for (std::size_t k = shape.size(); k-- > 0;) {
    const int c = rest % grid[k];
    rest /= grid[k];
    const Index n = shape[k], p = grid[k];
    Index lower = 0;
    for (int i = 0; i < c; ++i)
      lower += n / p + (i < n % p ? 1 : 0);
    box.lower[k] = lower;
    box.upper[k] = lower + n / p + (c < n % p ? 1 : 0);
  }
  return box;
}

// Every element of `shape` owned by exactly one rank's box of `layout`.
bool tiles_exactly(const Layout& layout) {
  std::vector<int> owners(static_cast<std::size_t>(layout.global_size()), 0);
  for (int r = 0; r < layout.size(); ++r) {
    distlops::testing::for_each_in_box(layout.global_shape(), layout.box(r),
                                       [&](Index i) { ++owners[static_cast<std::size_t>(i)]; });
  }
  return std::all_of(owners.begin(), owners.end(), [](int n) { return n == 1; });
}

}  // namespace

TEST_CASE("the default grid cuts the longest axes by the largest factors first", "[layout][box]") {
  // One rank: nothing is cut.
  CHECK(default_grid({512, 512, 512}, 1) == std::vector<int>{1, 1, 1});
  // 4 = 2 * 2 over a cube: the first two axes (ties go to the earlier axis).
  CHECK(default_grid({512, 512, 512}, 4) == std::vector<int>{2, 2, 1});
  CHECK(default_grid({512, 512, 512}, 8) == std::vector<int>{2, 2, 2});
  // 6 = 3 * 2 over a square: 3 to the first axis, then 2 to the second (100/3 < 100).
  CHECK(default_grid({100, 100}, 6) == std::vector<int>{3, 2});
  // A prime rank count goes to the longest axis.
  CHECK(default_grid({10, 1000}, 7) == std::vector<int>{1, 7});
  // 12 = 3 * 2 * 2 over (60, 20): 3 -> axis 0 (20 per part), 2 -> axis 0 (60/3 = 20 ties
  // 20/1, earlier axis), 2 -> axis 1 (60/6 = 10 < 20).
  CHECK(default_grid({60, 20}, 12) == std::vector<int>{6, 2});
  // An axis is not cut into more parts than it has planes while another can take them.
  CHECK(default_grid({2, 3}, 4) == std::vector<int>{2, 2});
  CHECK(default_grid({1, 9}, 3) == std::vector<int>{1, 3});
  // Pencils: only the axes named are cut.
  CHECK(default_grid({64, 64, 64}, 4, std::vector<int>{1, 2}) == std::vector<int>{1, 2, 2});
  CHECK(default_grid({64, 64, 64}, 2, std::vector<int>{-1}) == std::vector<int>{1, 1, 2});
  // More ranks than elements: the product is still the rank count.
  CHECK(default_grid({2}, 5) == std::vector<int>{5});
  CHECK_THROWS_AS(default_grid({4}, 0), InvalidArgument);
  CHECK_THROWS_AS(default_grid({}, 2), InvalidArgument);
  CHECK_THROWS_AS(default_grid({4, 4}, 2, std::vector<int>{2}), InvalidArgument);
  CHECK_THROWS_AS(default_grid({4, 4}, 2, std::vector<int>{0, -2}), InvalidArgument);
}

TEST_CASE("grid layouts give every rank its box of the grid", "[layout][box]") {
  const Communicator comm = world();
  const int size = comm.size();
  for (const Shape& shape : {Shape{7, 5}, Shape{2, 9}, Shape{1, 3}, Shape{0, 4}}) {
    for (const std::vector<int>& grid : box_test_grids(size, 2)) {
      INFO("shape " << to_string(shape) << " grid " << grid[0] << "x" << grid[1]);
      const Layout layout(comm, shape, LayoutOptions{.grid = grid});
      CHECK(layout.has_grid());
      CHECK(std::vector<int>(layout.grid().begin(), layout.grid().end()) == grid);
      Index total = 0;
      for (int r = 0; r < size; ++r) {
        const ArrayBox expected = expected_box(shape, grid, r);
        CHECK(layout.box(r) == expected);
        CHECK(layout.local_shape(r) == expected.extent());
        CHECK(layout.local_size(r) == expected.size());
        const std::vector<int> at = layout.grid_coordinates(r);
        CHECK(layout.grid_rank(at) == r);
        total += layout.local_size(r);
      }
      CHECK(total == element_count(shape));
      CHECK(tiles_exactly(layout));
      const int cut = (grid[0] > 1) + (grid[1] > 1);
      CHECK(layout.is_slab() == (cut <= 1));
      CHECK(static_cast<int>(layout.cut_axes().size()) == cut);
    }
  }
  for (const std::vector<int>& grid : box_test_grids(size, 3)) {
    const Shape shape{5, 3, 4};
    INFO("3-d grid " << grid[0] << "x" << grid[1] << "x" << grid[2]);
    const Layout layout(comm, shape, LayoutOptions{.grid = grid});
    for (int r = 0; r < size; ++r)
      CHECK(layout.box(r) == expected_box(shape, grid, r));
    CHECK(tiles_exactly(layout));
  }
}

TEST_CASE("a grid with one axis cut is the slab along that axis", "[layout][box]") {
  const Communicator comm = world();
  const int size = comm.size();
  const Layout slab(comm, {6, 9, 2}, Partition::SCATTER, 1);
  // (On one rank the grid cuts nothing and the axis given decides, as for every slab.)
  const Layout grid(comm, {6, 9, 2}, LayoutOptions{.axis = 1, .grid = {1, size, 1}});
  CHECK(grid == slab);
  CHECK(grid.fingerprint() == slab.fingerprint());
  CHECK(grid.is_slab());
  CHECK(grid.axis() == 1);
  CHECK(std::vector<Index>(grid.local_extents().begin(), grid.local_extents().end()) ==
        default_split(9, size));
  CHECK(grid.describe() == slab.describe());
  // The slab's own grid queries.
  CHECK(std::vector<int>(slab.grid().begin(), slab.grid().end()) == std::vector<int>{1, size, 1});
  const std::span<const Index> offsets = slab.grid_offsets(1);
  CHECK(std::vector<Index>(offsets.begin(), offsets.end()) ==
        std::vector<Index>(slab.offsets().begin(), slab.offsets().end()));
  // A grid of ones keeps the axis it is given.
  if (size == 1) {
    const Layout ones(comm, {6, 9}, LayoutOptions{.axis = 1, .grid = {1, 1}});
    CHECK(ones == Layout(comm, {6, 9}, Partition::SCATTER, 1));
  }
  // Custom extents along the one cut axis are a slab's custom local shapes.
  // One column per rank while they last (none after), the last rank the rest.
  std::vector<Index> extents(static_cast<std::size_t>(size), 0);
  Index columns = 9;
  for (int r = 0; r + 1 < size && columns > 1; ++r, --columns)
    extents[static_cast<std::size_t>(r)] = 1;
  extents.back() = columns;
  std::vector<Shape> local_shapes;
  for (Index e : extents)
    local_shapes.push_back({6, e});
  CHECK(Layout(comm, {6, 9},
               LayoutOptions{.axis = 1, .grid = {1, size}, .grid_extents = {{6}, extents}}) ==
        Layout(comm, {6, 9}, LayoutOptions{.axis = 1, .local_shapes = local_shapes}));
}

TEST_CASE("box layouts answer the slab queries with an error", "[layout][box]") {
  const Communicator comm = world();
  if (comm.size() != 4) return;
  const Layout layout(comm, {8, 6}, LayoutOptions{.grid = {2, 2}});
  CHECK_FALSE(layout.is_slab());
  CHECK_THROWS_AS(layout.axis(), InvalidArgument);
  CHECK_THROWS_AS(layout.local_extents(), InvalidArgument);
  CHECK_THROWS_AS(layout.offsets(), InvalidArgument);
  try {
    (void)layout.axis();
    FAIL("no exception");
  } catch (const InvalidArgument& error) {
    CHECK(std::string(error.what()).find("over grid (2, 2)") != std::string::npos);
  }
  CHECK(layout.describe() == "shape (8, 6), SCATTER over grid (2, 2), parts [4, 4] x [3, 3]");
  CHECK(layout.cut_axes() == std::vector<int>{0, 1});
}

TEST_CASE("uneven grids: custom extents, ranks that own nothing", "[layout][box]") {
  const Communicator comm = world();
  const int size = comm.size();
  // Axis 0 cut as the grid says, the last part empty; axis 1 whole.
  std::vector<Index> parts(static_cast<std::size_t>(size), 2);
  if (size > 1) parts.back() = 0;
  const Index rows = 2 * (size > 1 ? size - 1 : 1);
  const Layout layout(comm, {rows, 3}, LayoutOptions{.grid_extents = {parts, {3}}});
  CHECK(tiles_exactly(layout));
  CHECK(layout.local_size(size - 1) == (size > 1 ? 0 : rows * 3));
  // A 3-d grid cut more often than an axis is long: ranks beyond the end own nothing.
  if (size == 4) {
    const Layout thin(comm, {2, 3, 5}, LayoutOptions{.grid = {1, 4, 1}});
    CHECK(thin.local_size(3) == 0);
    CHECK(tiles_exactly(thin));
    const Layout both(comm, {1, 1, 7}, LayoutOptions{.grid = {2, 2, 1}});
    CHECK(both.local_size(0) == 7);
    CHECK(both.local_size(1) + both.local_size(2) + both.local_size(3) == 0);
    CHECK(tiles_exactly(both));
  }
}

TEST_CASE("explicit boxes: grids are recognised, others kept as given", "[layout][box]") {
  const Communicator comm = world();
  const int size = comm.size();
  // The boxes of a grid become that grid.
  for (const std::vector<int>& grid : box_test_grids(size, 2)) {
    const Shape shape{5, 7};
    std::vector<ArrayBox> boxes;
    for (int r = 0; r < size; ++r)
      boxes.push_back(expected_box(shape, grid, r));
    const Layout given(comm, shape, LayoutOptions{.boxes = boxes});
    CHECK(given == Layout(comm, shape, LayoutOptions{.grid = grid}));
    CHECK(given.has_grid());
  }
  // Rows in reverse rank order: a tiling, but no grid in rank order.
  std::vector<ArrayBox> reversed;
  for (int r = 0; r < size; ++r)
    reversed.push_back({{Index(size - 1 - r), 0}, {Index(size - r), 4}});
  const Layout backwards(comm, {Index(size), 4}, LayoutOptions{.boxes = reversed});
  CHECK(tiles_exactly(backwards));
  for (int r = 0; r < size; ++r)
    CHECK(backwards.box(r) == reversed[static_cast<std::size_t>(r)]);
  if (size > 1) {
    CHECK_FALSE(backwards.has_grid());
    CHECK_FALSE(backwards.is_slab());
    CHECK_THROWS_AS(backwards.grid(), InvalidArgument);
    CHECK(backwards.cut_axes() == std::vector<int>{0});
    CHECK(backwards.describe().find("in boxes [") != std::string::npos);
    CHECK(backwards != Layout(comm, {Index(size), 4}));
  }
  // Each rank passing its own box.
  const Layout mine = Layout::from_local_box(comm, {Index(size), 4},
                                             reversed[static_cast<std::size_t>(comm.rank())]);
  CHECK(mine == backwards);
  CHECK(mine.fingerprint() == backwards.fingerprint());
}

TEST_CASE("derived layouts of box layouts", "[layout][box]") {
  const Communicator comm = world();
  const int size = comm.size();
  const std::vector<int> grid = default_grid({6, 8}, size);
  const Layout layout(comm, {6, 8}, LayoutOptions{.grid = grid});
  CHECK(layout.with_grid(grid) == layout);
  CHECK(layout.with_partition(Partition::SCATTER) == layout);
  const Layout everywhere = layout.with_partition(Partition::BROADCAST);
  CHECK(everywhere.replicated());
  CHECK(everywhere.box(0) == ArrayBox{{0, 0}, {6, 8}});
  CHECK(layout.with_axis(1) == Layout(comm, {6, 8}, Partition::SCATTER, 1));
  CHECK(Layout(comm, {6, 8}).with_grid(grid) == layout);
}

TEST_CASE("views between box layouts need the same boxes", "[layout][box]") {
  const Communicator comm = world();
  const int size = comm.size();
  const std::vector<int> grid = default_grid({6, 8}, size);
  const Layout layout(comm, {6, 8}, LayoutOptions{.grid = grid});
  // Size-1 axes added: the same elements in the same order.
  std::vector<int> grid3{grid[0], 1, grid[1]};
  const Layout padded(comm, {6, 1, 8}, LayoutOptions{.grid = grid3});
  CHECK(views_alike(layout, padded));
  // A flat layout of the same local sizes reads each block in its C order.
  std::vector<Shape> flat_shapes;
  for (int r = 0; r < size; ++r)
    flat_shapes.push_back({layout.local_size(r)});
  const Layout flat(comm, {48}, LayoutOptions{.local_shapes = flat_shapes});
  CHECK(views_alike(layout, flat));
  // The transposed grid holds other elements (when both axes are cut).
  if (grid[0] > 1 && grid[1] > 1) {
    const Layout transposed(comm, {8, 6}, LayoutOptions{.grid = {grid[1], grid[0]}});
    CHECK_FALSE(views_alike(layout, transposed));
  }
}

TEST_CASE("bad grids and boxes raise the same error on every rank", "[layout][box][errors]") {
  const Communicator comm = world();
  const int size = comm.size();
  // A product other than the rank count.
  expect_everywhere<InvalidArgument>(
      comm,
      [&] {
        Layout(comm, {8, 8}, LayoutOptions{.grid = {size + 1, 1}});
      },
      "must be the rank count");
  // One entry per axis, each at least 1.
  expect_everywhere<InvalidArgument>(
      comm,
      [&] {
        Layout(comm, {8, 8}, LayoutOptions{.grid = {size}});
      },
      "has 1 entries");
  expect_everywhere<InvalidArgument>(
      comm,
      [&] {
        Layout(comm, {8, 8}, LayoutOptions{.grid = {size, 0}});
      },
      "entry below 1");
  // Extents that do not add up, or a grid with a replicated partition.
  expect_everywhere<InvalidArgument>(
      comm,
      [&] {
        Layout(comm, {8, 8}, LayoutOptions{.grid_extents = {default_split(7, size), {8}}});
      },
      "sum to 7");
  expect_everywhere<InvalidArgument>(
      comm,
      [&] {
        Layout(comm, {8, 8}, LayoutOptions{.partition = Partition::BROADCAST, .grid = {size, 1}});
      },
      "SCATTER");
  expect_everywhere<InvalidArgument>(
      comm,
      [&] {
        Layout(comm, {8, 8},
               LayoutOptions{.local_shapes = std::vector<Shape>(size, Shape{8, 8}),
                             .grid = {size, 1}});
      },
      "at most one");
  // Boxes: out of the shape, overlapping, leaving a gap, too few.
  std::vector<ArrayBox> rows;
  for (int r = 0; r < size; ++r)
    rows.push_back({{Index(r), 0}, {Index(r + 1), 4}});
  auto with = [&](int rank, ArrayBox box) {
    std::vector<ArrayBox> boxes = rows;
    boxes[static_cast<std::size_t>(rank)] = std::move(box);
    return boxes;
  };
  const Index n = size;
  expect_everywhere<InvalidArgument>(
      comm,
      [&] {
        Layout(comm, {n, 4}, LayoutOptions{.boxes = with(0, {{0, 0}, {1, 5}})});
      },
      "does not lie in");
  if (size > 1) {
    expect_everywhere<InvalidArgument>(
        comm,
        [&] {
          Layout(comm, {n, 4}, LayoutOptions{.boxes = with(1, {{0, 0}, {1, 4}})});
        },
        "overlap");
  }
  expect_everywhere<InvalidArgument>(
      comm,
      [&] {
        Layout(comm, {n, 4}, LayoutOptions{.boxes = with(0, {{0, 0}, {1, 3}})});
      },
      "leave a gap");
  if (size > 1) {
    expect_everywhere<InvalidArgument>(
        comm,
        [&] {
          Layout(comm, {n, 4},
                 LayoutOptions{.boxes = std::vector<ArrayBox>(rows.begin() + 1, rows.end())});
        },
        "boxes given for");
  }
  // A grid or boxes that differ between ranks.
  if (size > 1) {
    const bool odd_one = comm.rank() == size - 1;
    expect_everywhere<InvalidArgument>(
        comm,
        [&] {
          Layout(comm, {8, 8},
                 LayoutOptions{.grid = odd_one ? std::vector<int>{1, size}
                                               : std::vector<int>{size, 1}});
        },
        "differ");
    expect_everywhere<InvalidArgument>(
        comm,
        [&] {
          Layout(comm, {n, 4}, LayoutOptions{.boxes = odd_one ? with(0, {{0, 0}, {1, 3}}) : rows});
        },
        "leave a gap");
    CHECK_THROWS_AS(
        Layout::from_local_box(comm, {n, 4}, odd_one ? ArrayBox{{0}, {1}} : rows[comm.rank()]),
        InvalidArgument);
  }
}
