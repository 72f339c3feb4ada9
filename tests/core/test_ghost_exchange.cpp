// SPDX-License-Identifier: BSD-3-Clause
// Copyright (c) 2026 The distlops authors
// GhostExchange on every axis of a layout (slabs, grids, uneven grids with empty ranks, explicit
// boxes): the cells around each rank's block against the global array, across faces only and
// with edges and corners, from grid neighbours and from any rank, in every memory space; and the
// requests that cannot be met raising the same error on every rank.
#include <algorithm>

#include "box_layouts.hpp"
#include "distlops/core/ghost_cells.hpp"
#include "expect_everywhere.hpp"
#include "spaces.hpp"
#include "test_support.hpp"

using namespace distlops;
using namespace distlops::testing;

namespace {

// What the ghosted block of this rank must hold: the global values on the cells of the region
// (outside the block on exactly one axis for faces, on at least one for the full region), and
// `untouched` on the block itself and the cells outside the region.
template <class T>
std::vector<T> expected_ghosted(const std::vector<T>& global, const Layout& layout,
                                const GhostExchange& exchange, GhostRegion region, T untouched) {
  const Shape& shape = layout.global_shape();
  const ArrayBox own = layout.box();
  const Shape ghosted = exchange.ghosted_shape();
  const Shape corner = exchange.interior_corner();
  const std::size_t ndim = shape.size();
  std::vector<T> values(static_cast<std::size_t>(element_count(ghosted)), untouched);
  Shape index(ndim, 0);
  for (T& value : values) {
    Index flat = 0;
    int outside = 0;
    for (std::size_t k = 0; k < ndim; ++k) {
      const Index at = own.lower[k] - corner[k] + index[k];
      outside += at < own.lower[k] || at >= own.upper[k];
      flat = flat * shape[k] + at;
    }
    const bool filled = region == GhostRegion::faces ? outside == 1 : outside >= 1;
    if (filled) value = global[static_cast<std::size_t>(flat)];
    for (std::size_t k = ndim; k-- > 0;) {
      if (++index[k] < ghosted[k]) break;
      index[k] = 0;
    }
  }
  return values;
}

// Whether every grid neighbour asked for ghosts owns that many planes along its axis.
bool neighbours_can_serve(const Layout& layout, const std::vector<GhostWidths>& widths) {
  for (int k = 0; k < layout.ndim(); ++k) {
    const std::span<const Index> cuts = layout.grid_offsets(k);
    for (std::size_t c = 0; c + 1 < cuts.size(); ++c) {
      const Index owned = cuts[c + 1] - cuts[c];
      if (c + 2 < cuts.size() && owned < widths[k].front) return false;  // front of c + 1
      if (c > 0 && owned < widths[k].back) return false;                 // back of c - 1
    }
  }
  return true;
}

// The face blocks of begin_faces() cut out of the ghosted block that begin() fills.
template <class T>
std::vector<T> faces_of(const std::vector<T>& ghosted_values, const GhostExchange& exchange) {
  const Shape ghosted = exchange.ghosted_shape();
  const Shape corner = exchange.interior_corner();
  const Shape local = exchange.layout().local_shape();
  const std::size_t ndim = ghosted.size();
  std::vector<T> values(static_cast<std::size_t>(exchange.faces_size()));
  for (std::size_t axis = 0; axis < ndim; ++axis) {
    for (bool back : {false, true}) {
      const Shape block = exchange.face_shape(static_cast<int>(axis), back);
      Index at = exchange.face_offset(static_cast<int>(axis), back);
      Shape index(ndim, 0);
      for (Index i = 0; i < element_count(block); ++i) {
        Index flat = 0;
        for (std::size_t k = 0; k < ndim; ++k) {
          const Index shift = k != axis ? corner[k] : (back ? corner[k] + local[k] : 0);
          flat = flat * ghosted[k] + shift + index[k];
        }
        values[static_cast<std::size_t>(at++)] = ghosted_values[static_cast<std::size_t>(flat)];
        for (std::size_t k = ndim; k-- > 0;) {
          if (++index[k] < block[k]) break;
          index[k] = 0;
        }
      }
    }
  }
  return values;
}

}  // namespace

DISTLOPS_SPACE_TEMPLATE_TEST_CASE("box ghost exchanges fill the cells around every block",
                                  "[ghost][box]", float, std::complex<double>) {
  using T = TestType;
  const Communicator comm = world();
  const T untouched(-77);
  for_each_collective_path<Space>([&] {
    const std::unique_ptr<Transport> transport = make_transport<Space>(comm);
    for (const Shape& shape : {Shape{7, 6}, Shape{5, 4, 6}}) {
      const std::vector<T> global = random_values<T>(element_count(shape), 51);
      for (const NamedLayout& named : box_test_layouts(comm, shape, false)) {
        const Layout& layout = named.layout;
        const auto x = DistributedArray<T, Space>::from_global(layout, global);
        const int ndim = layout.ndim();
        for (const std::vector<GhostWidths>& widths :
             {std::vector<GhostWidths>(ndim, {1, 1}), std::vector<GhostWidths>(ndim, {2, 0}),
              std::vector<GhostWidths>(ndim, {0, 3})}) {
          for (GhostReach reach : {GhostReach::neighbours, GhostReach::any}) {
            if (reach == GhostReach::neighbours &&
                (!layout.has_grid() || !neighbours_can_serve(layout, widths))) {
              continue;
            }
            for (GhostRegion region : {GhostRegion::faces, GhostRegion::full}) {
              INFO(named.name << ", widths " << widths[0].front << "/" << widths[0].back
                              << (reach == GhostReach::any ? ", any rank" : ", neighbours")
                              << (region == GhostRegion::full ? ", full" : ", faces"));
              const GhostExchange exchange(layout, widths, reach, region);
              const std::vector<T> expected =
                  expected_ghosted(global, layout, exchange, region, untouched);
              // Twice through the caller's transport, split in two phases.
              for (int repeat = 0; repeat < 2; ++repeat) {
                Buffer<T, Space> ghosted = buffer_of<Space>(std::vector<T>(
                    static_cast<std::size_t>(element_count(exchange.ghosted_shape())), untouched));
                GhostExchange::Pending pending =
                    exchange.begin(*transport, x.data(), ghosted.data());
                exchange.end(pending);
                CHECK(values_of(ghosted) == expected);
              }
              if (region == GhostRegion::faces) {
                // Into separate face blocks: the same cells, nothing of the block copied.
                Buffer<T, Space> faces = buffer_of<Space>(
                    std::vector<T>(static_cast<std::size_t>(exchange.faces_size()), untouched));
                GhostExchange::Pending pending =
                    exchange.begin_faces(*transport, x.data(), faces.data());
                exchange.end(pending);
                CHECK(values_of(faces) == faces_of(expected, exchange));
              } else {
                CHECK_THROWS_AS(exchange.face_shape(0, false), InvalidArgument);
              }
            }
          }
        }
      }
    }
  });
}

TEST_CASE("box ghost exchanges clip at the array's ends and the grid's", "[ghost][box]") {
  const Communicator comm = world();
  const int size = comm.size();
  // Two planes per part at least, for the back width of 2 from grid neighbours (16 ranks).
  const Shape shape{std::max<Index>(6, 2 * size), std::max<Index>(8, 2 * size)};
  const Layout layout(comm, shape, LayoutOptions{.grid = default_grid(shape, size)});
  const std::vector<GhostWidths> widths(2, {1, 2});
  const GhostExchange exchange(layout, widths, GhostReach::neighbours);
  const std::vector<int> at = layout.grid_coordinates(comm.rank());
  Shape expected = layout.local_shape();
  for (int k = 0; k < 2; ++k) {
    const Index front = at[k] > 0 ? 1 : 0, back = at[k] + 1 < layout.grid()[k] ? 2 : 0;
    CHECK(exchange.widths()[k].front == front);
    CHECK(exchange.widths()[k].back == back);
    expected[k] += front + back;
  }
  CHECK(exchange.ghosted_shape() == expected);
  CHECK(exchange.is_box());
  CHECK_THROWS_AS(exchange.front_shape(), InvalidArgument);
}

TEST_CASE("box ghost requests that cannot be met raise on every rank", "[ghost][box][errors]") {
  const Communicator comm = world();
  const int size = comm.size();
  const bool odd_one = comm.rank() == size - 1;
  const Layout layout(comm, {6, 8}, LayoutOptions{.grid = default_grid({6, 8}, size)});
  // A width per axis, on every rank; none negative.
  expect_everywhere<InvalidArgument>(
      comm,
      [&] {
        (void)GhostExchange(layout, std::vector<GhostWidths>(odd_one ? 1 : 2, {1, 1}));
      },
      "gives widths for");
  expect_everywhere<InvalidArgument>(
      comm,
      [&] {
        (void)GhostExchange(layout, std::vector<GhostWidths>(2, {odd_one ? -1 : 1, 1}));
      },
      "negative");
  // A grid cut into more parts than the axis has planes: a neighbour that owns nothing.
  if (size == 4) {
    const Layout thin(comm, {3, 2}, LayoutOptions{.grid = {1, 4}});
    expect_everywhere<InvalidArgument>(
        comm,
        [&] {
          (void)GhostExchange(thin, std::vector<GhostWidths>(2, {1, 1}));
        },
        "owns 0");
    // From any rank the cells that exist arrive, whoever holds them.
    CHECK_NOTHROW(GhostExchange(thin, std::vector<GhostWidths>(2, {1, 1}), GhostReach::any));
  }
  // Explicit boxes have no grid neighbours; replicated layouts no ghosts.
  if (size > 1) {
    Layout boxed;
    for (const NamedLayout& named : box_test_layouts(comm, {6, 8}, false)) {
      if (named.name == "boxes in reverse rank order") boxed = named.layout;
    }
    REQUIRE_FALSE(boxed.has_grid());
    expect_everywhere<InvalidArgument>(
        comm,
        [&] {
          (void)GhostExchange(boxed, std::vector<GhostWidths>(2, {1, 1}));
        },
        "GhostReach::any");
    // The slab exchange is not for box layouts.
    expect_everywhere<InvalidArgument>(
        comm, [&] { (void)GhostExchange(boxed, 1, 1); }, "per-axis widths");
  }
  expect_everywhere<InvalidArgument>(
      comm,
      [&] {
        (void)GhostExchange(Layout(comm, {6, 8}, Partition::BROADCAST),
                            std::vector<GhostWidths>(2, {1, 1}));
      },
      "SCATTER");
}
