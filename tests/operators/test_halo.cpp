// SPDX-License-Identifier: BSD-3-Clause
// Copyright (c) 2026 The distlops authors
// Halo on Cartesian process grids (one- and two-dimensional, trimmed and zero ghost cells,
// per-side widths, blocks without data) against slices of the global array; on the grids of box
// layouts (2-d and 3-d grids, slabs, uneven parts and empty ones), whose arrays go in and out
// as they are, and PyLops-MPI's pattern on them (crop * BlockDiag(local Laplacians) * Halo)
// against the serial Laplacian; its exact adjoint; errors on every rank. NonStationaryConvolve1D,
// local and distributed, against PyLops' numbers and against the serial operator applied to the
// gathered array. The operators run in every memory space.
#include <algorithm>

#include "allocation_checks.hpp"
#include "box_layouts.hpp"
#include "dense_reference.hpp"
#include "distlops/operators/derivative/derivatives.hpp"
#include "distlops/operators/dottest.hpp"
#include "distlops/operators/halo.hpp"
#include "distlops/operators/local/pad.hpp"
#include "distlops/operators/reshape.hpp"
#include "distlops/operators/signal/nonstationary_convolve1d.hpp"
#include "distlops/operators/stack/block_diag.hpp"
#include "expect_everywhere.hpp"
#include "spaces.hpp"
#include "test_support.hpp"

using namespace distlops;
using namespace distlops::testing;

namespace {

// Grids for `size` ranks over arrays of `ndim` dimensions: all ranks along each axis, and a
// two-dimensional grid when the rank count allows it.
std::vector<Shape> grids_for(int size, int ndim) {
  std::vector<Shape> grids;
  for (int axis = 0; axis < ndim; ++axis) {
    Shape grid(static_cast<std::size_t>(ndim), 1);
    grid[axis] = size;
    grids.push_back(grid);
  }
  if (ndim >= 2 && size == 4) grids.push_back(Shape(static_cast<std::size_t>(ndim) - 2, 1));
  if (ndim >= 2 && size == 4) {
    grids.back().insert(grids.back().end(), {2, 2});
  }
  return grids;
}

}  // namespace

DISTLOPS_SPACE_TEMPLATE_TEST_CASE("Halo extends every block with its neighbours' cells", "[halo]",
                                  DISTLOPS_SCALAR_TYPES) {
  using T = TestType;
  const Communicator comm = world();
  for_each_collective_path<Space>([&] {
    for (const Shape& dims : std::vector<Shape>{{13}, {9, 7}, {5, 6, 7}, {2, 7}}) {
      const int ndim = static_cast<int>(dims.size());
      const std::vector<T> global = random_values<T>(element_count(dims), 2);
      for (const Shape& grid : grids_for(comm.size(), ndim)) {
        std::vector<HaloWidths> all_widths{HaloWidths::uniform(1, ndim),
                                           HaloWidths::uniform(2, ndim)};
        std::vector<Index> sides;
        for (int k = 0; k < ndim; ++k)
          sides.insert(sides.end(), {Index(1 + k % 2), Index(k % 2)});
        all_widths.push_back(HaloWidths::per_side(sides));
        all_widths.push_back(HaloWidths::per_axis(std::vector<Index>(ndim, 1)));
        // No ghost cells along the first axis: blocks may be empty there (ranks without data),
        // and the messages along it carry nothing.
        std::vector<Index> none_first(static_cast<std::size_t>(ndim), 1);
        none_first[0] = 0;
        all_widths.push_back(HaloWidths::per_axis(none_first));
        for (const HaloWidths& widths : all_widths) {
          // Skip widths the blocks cannot provide (their error is tested below).
          bool possible = true;
          for (int k = 0; k < ndim; ++k) {
            for (Index extent : default_split(dims[k], int(grid[k]))) {
              possible &= grid[k] == 1 || extent >= std::max(widths.minus[k], widths.plus[k]);
            }
          }
          if (!possible) continue;
          INFO("dims " << to_string(dims) << " grid " << to_string(grid) << " widths "
                       << widths.minus[0] << "/" << widths.plus[0] << " trim "
                       << widths.trim_at_boundaries);
          const auto op = std::make_shared<const HaloOperator<T, Space>>(comm, dims, widths, grid);
          const LinearOperator<T, Space> halo(op);
          // Model: this rank's block of the global array, flattened.
          DistributedArray<T, Space> x(halo.domain());
          const Shape strides = strides_of(dims);
          {
            std::vector<T> block(static_cast<std::size_t>(x.local_size()));
            const Shape& shape = op->core_shape();
            const Shape block_strides = strides_of(shape);
            for (Index i = 0; i < x.local_size(); ++i) {
              Index source = 0;
              for (int k = 0; k < ndim; ++k)
                source += (op->core_start()[k] + (i / block_strides[k]) % shape[k]) * strides[k];
              block[i] = global[source];
            }
            assign_local(x, std::span<const T>(block));
          }
          const auto y = halo.apply(x);
          const std::vector<T> extended_block = local_values(y);
          // Expected: the global array around the block, zero outside the array.
          const Shape& extended = op->extended_shape();
          const Shape extended_strides = strides_of(extended);
          bool matches = true;
          for (Index i = 0; i < y.local_size(); ++i) {
            bool inside = true;
            Index source = 0;
            for (int k = 0; k < ndim; ++k) {
              const Index g = op->core_start()[k] - op->core_offset()[k] +
                              (i / extended_strides[k]) % extended[k];
              inside &= g >= 0 && g < dims[k];
              source += g * strides[k];
            }
            matches &= extended_block[i] == (inside ? global[source] : T(0));
          }
          CHECK(matches);
          CHECK(dottest(halo, 3, space_dottest_tolerance<T, Space>()).passed);
          // The messages' buffers exist after the first applies.
          DistributedArray<T, Space> y2(halo.range()), x2(halo.domain());
          halo.apply(x, y2);
          halo.apply_adjoint(y, x2);
          const std::uint64_t before = memory::allocation_count();
          halo.apply(x, y2);
          halo.apply_adjoint(y, x2);
          CHECK(memory::allocation_count() == before);
        }
      }
    }
  });
}

DISTLOPS_SPACE_TEMPLATE_TEST_CASE("the Halo handle tells the extended and core shapes", "[halo]",
                                  DISTLOPS_SCALAR_TYPES) {
  using T = TestType;
  const Communicator comm = world();
  const int size = comm.size();
  struct Case {
    Shape dims, grid;
    HaloWidths widths;
  };
  std::vector<Case> cases{
      {{11, 5}, {Index(size), 1}, HaloWidths::uniform(1, 2)},
      {{6, 10}, {1, Index(size)}, HaloWidths::per_axis({2, 1})},
      {{9, 7}, {Index(size), 1}, HaloWidths::per_side({1, 2, 0, 1})},
      {{13}, {Index(size)}, HaloWidths::uniform(2, 1)},
  };
  if (size == 4) cases.push_back({{8, 9}, {2, 2}, HaloWidths::uniform(1, 2)});
  for (const Case& c : cases) {
    INFO("dims " << to_string(c.dims) << " grid " << to_string(c.grid));
    // Ghost cells come from the neighbours alone: with many ranks, where a neighbour's block is
    // thinner than the ghost width it must send, the handle is refused on every rank.
    bool one_hop = true;
    for (std::size_t k = 0; k < c.dims.size(); ++k) {
      const std::vector<Index> split = default_split(c.dims[k], int(c.grid[k]));
      for (std::size_t j = 0; j + 1 < split.size(); ++j)
        one_hop = one_hop && split[j] >= c.widths.minus[k] && split[j + 1] >= c.widths.plus[k];
    }
    if (!one_hop) {
      CHECK_THROWS_AS((Halo<T, Space>(comm, c.dims, c.widths, c.grid)), InvalidArgument);
      continue;
    }
    const auto halo = Halo<T, Space>(comm, c.dims, c.widths, c.grid);
    // The expected geometry, from the grid coordinates of this rank (row-major) and the
    // default split of every axis.
    const std::size_t ndim = c.dims.size();
    Shape core(ndim), start(ndim), extended(ndim), offset(ndim);
    Index rest = comm.rank();
    for (std::size_t k = ndim; k-- > 0;) {
      const Index coordinate = rest % c.grid[k];
      rest /= c.grid[k];
      const std::vector<Index> split = default_split(c.dims[k], int(c.grid[k]));
      core[k] = split[std::size_t(coordinate)];
      start[k] = 0;
      for (Index j = 0; j < coordinate; ++j)
        start[k] += split[std::size_t(j)];
      // Trimmed halos have no ghost cells at the ends of the global array.
      const bool trim = c.widths.trim_at_boundaries;
      const Index minus = trim && coordinate == 0 ? 0 : c.widths.minus[k];
      const Index plus = trim && coordinate == c.grid[k] - 1 ? 0 : c.widths.plus[k];
      offset[k] = minus;
      extended[k] = core[k] + minus + plus;
    }
    CHECK(halo.local_extent() == extended);
    CHECK(halo.extended_shape() == extended);
    CHECK(halo.local_dims() == core);
    CHECK(halo.core_shape() == core);
    CHECK(halo.core_start() == start);
    CHECK(halo.core_offset() == offset);
    CHECK(halo.global_shape() == c.dims);
    CHECK(halo.grid().shape == c.grid);
    // The shapes are those of the operator's blocks: the extended block is the data.
    CHECK(halo.range().local_size() == element_count(extended));
    CHECK(halo.domain().local_size() == element_count(core));
    // Still a LinearOperator handle: it converts and composes.
    const LinearOperator<T, Space> plain = halo;
    const DistributedArray<T, Space> x(halo.domain(), T(1));
    CHECK(plain.apply(x).local_size() == element_count(extended));
    CHECK((halo.adjoint() * halo).rows() == halo.cols());
  }
}

namespace {

// Whether the neighbours' blocks of `layout`'s grid hold the ghost planes `widths` ask of them.
bool one_hop(const Layout& layout, const HaloWidths& widths) {
  for (int k = 0; k < layout.ndim(); ++k) {
    const std::span<const Index> cuts = layout.grid_offsets(k);
    for (std::size_t c = 0; c + 2 < cuts.size(); ++c) {
      if (cuts[c + 1] - cuts[c] < widths.minus[k] || cuts[c + 2] - cuts[c + 1] < widths.plus[k])
        return false;
    }
  }
  return true;
}

}  // namespace

DISTLOPS_SPACE_TEMPLATE_TEST_CASE("Halo on the grid of a box layout takes its arrays as they are",
                                  "[halo][box]", DISTLOPS_SCALAR_TYPES) {
  using T = TestType;
  const Communicator comm = world();
  for_each_collective_path<Space>([&] {
    for (const Shape& shape : std::vector<Shape>{{7, 5}, {5, 4, 6}}) {
      const int ndim = static_cast<int>(shape.size());
      const std::vector<T> global = random_values<T>(element_count(shape), 21);
      std::vector<Index> sides, none_first(static_cast<std::size_t>(ndim), 1);
      for (int k = 0; k < ndim; ++k)
        sides.insert(sides.end(), {Index(k % 2), Index(1 + k % 2)});
      none_first[0] = 0;
      const std::vector<HaloWidths> all_widths{
          HaloWidths::uniform(1, ndim), HaloWidths::per_side(sides),
          HaloWidths::per_axis(std::vector<Index>(static_cast<std::size_t>(ndim), 2)),
          HaloWidths::per_axis(none_first)};
      for (const NamedLayout& named : box_test_layouts(comm, shape)) {
        const Layout& layout = named.layout;
        for (const HaloWidths& widths : all_widths) {
          INFO("shape " << to_string(shape) << ", " << named.name << ", widths "
                        << to_string(widths.minus) << " / " << to_string(widths.plus) << " trim "
                        << widths.trim_at_boundaries);
          if (layout.replicated() || !layout.has_grid()) {
            expect_everywhere<InvalidArgument>(
                comm, [&] { (void)Halo<T, Space>(layout, widths); },
                layout.replicated() ? "needs a SCATTER layout" : "form no process grid");
            continue;
          }
          if (!one_hop(layout, widths)) {
            expect_everywhere<InvalidArgument>(
                comm, [&] { (void)Halo<T, Space>(layout, widths); }, "exceeds the block");
            continue;
          }
          const auto halo = Halo<T, Space>(layout, widths);
          CHECK(halo.domain() == layout);
          CHECK(halo.block_layout() == layout);
          CHECK(halo.grid().shape == Shape(layout.grid().begin(), layout.grid().end()));
          // The block geometry, from the layout's box and the grid coordinates of this rank.
          const ArrayBox box = layout.box();
          const std::vector<int> at = layout.grid_coordinates(comm.rank());
          Shape extended(static_cast<std::size_t>(ndim)), offset(extended);
          for (int k = 0; k < ndim; ++k) {
            const bool trim = widths.trim_at_boundaries;
            offset[k] = trim && at[k] == 0 ? 0 : widths.minus[k];
            const Index plus = trim && at[k] == layout.grid()[k] - 1 ? 0 : widths.plus[k];
            extended[k] = offset[k] + box.upper[k] - box.lower[k] + plus;
          }
          CHECK(halo.core_start() == box.lower);
          CHECK(halo.core_shape() == box.extent());
          CHECK(halo.core_offset() == offset);
          CHECK(halo.extended_shape() == extended);
          // The array of the box layout goes in as it is: its extended block is the global
          // array around the box, zeros outside the array.
          const auto x = DistributedArray<T, Space>::from_global(layout, global);
          const std::vector<T> values = local_values(halo.apply(x));
          REQUIRE(Index(values.size()) == element_count(extended));
          const Shape strides = strides_of(shape), extended_strides = strides_of(extended);
          bool matches = true;
          for (Index i = 0; i < Index(values.size()); ++i) {
            bool inside = true;
            Index source = 0;
            for (int k = 0; k < ndim; ++k) {
              const Index g = box.lower[k] - offset[k] + (i / extended_strides[k]) % extended[k];
              inside &= g >= 0 && g < shape[k];
              source += g * strides[k];
            }
            matches &= values[std::size_t(i)] == (inside ? global[std::size_t(source)] : T(0));
          }
          CHECK(matches);
          // ... and the adjoint's comes out in the layout: each cell summed over the extended
          // blocks that hold it (the blocks of ones count them).
          const DistributedArray<T, Space> ones(halo.range(), T(1));
          const auto counts = halo.apply_adjoint(ones);
          CHECK(counts.layout() == layout);
          const std::vector<T> gathered = counts.gather();
          std::vector<T> expected_counts(gathered.size(), T(0));
          for (int r = 0; r < comm.size(); ++r) {
            const ArrayBox theirs = layout.box(r);
            if (theirs.size() == 0) continue;
            const std::vector<int> c = layout.grid_coordinates(r);
            ArrayBox reach = theirs;
            for (int k = 0; k < ndim; ++k) {
              const bool first = c[k] == 0, last = c[k] == layout.grid()[k] - 1;
              reach.lower[k] = std::max<Index>(0, theirs.lower[k] - (first ? 0 : widths.minus[k]));
              reach.upper[k] =
                  std::min<Index>(shape[k], theirs.upper[k] + (last ? 0 : widths.plus[k]));
            }
            for_each_in_box(shape, reach,
                            [&](Index i) { expected_counts[std::size_t(i)] += T(1); });
          }
          CHECK(gathered == expected_counts);
          CHECK(dottest(halo, 4, space_dottest_tolerance<T, Space>()).passed);
          CHECK(second_apply_allocates_nothing(LinearOperator<T, Space>(halo)));
        }
      }
    }
  });
}

DISTLOPS_SPACE_TEMPLATE_TEST_CASE(
    "a Laplacian of local blocks on a Halo over a grid is the serial one", "[halo][box]",
    DISTLOPS_SCALAR_TYPES) {
  using T = TestType;
  const Communicator comm = world();
  const double rtol = 10 * space_tolerance<T, Space>();
  for (const Shape& shape : std::vector<Shape>{{7, 5}, {5, 4, 6}}) {
    const int ndim = static_cast<int>(shape.size());
    local::LaplacianOptions options;
    options.axes.resize(std::size_t(ndim));
    for (int k = 0; k < ndim; ++k)
      options.axes[std::size_t(k)] = k;
    options.weights.assign(std::size_t(ndim), 1.0);
    options.sampling.assign(std::size_t(ndim), 1.0);
    const std::vector<T> global = random_values<T>(element_count(shape), 23);
    const std::vector<T> expected =
        values_of(local::Laplacian<T>(shape, options).apply(local_array_of<Host>(shape, global)));
    for (const NamedLayout& named : box_test_layouts(comm, shape, false)) {
      const Layout& layout = named.layout;
      if (!layout.has_grid() || !one_hop(layout, HaloWidths::uniform(1, ndim))) continue;
      INFO("shape " << to_string(shape) << ", " << named.name);
      // Each rank's Laplacian on its extended block, cropped to its block.
      const auto halo = Halo<T, Space>(layout, 1);
      std::vector<LocalOperator<T, Space>> blocks;
      if (element_count(halo.extended_shape()) > 0) {
        std::vector<local::PadWidth> pad;
        for (int k = 0; k < ndim; ++k) {
          const Index before = halo.core_offset()[k];
          pad.push_back({before, halo.extended_shape()[k] - halo.core_shape()[k] - before});
        }
        blocks.push_back(local::Pad<T, Space>(halo.core_shape(), pad).adjoint() *
                         local::Laplacian<T, Space>(halo.extended_shape(), options));
      }
      const auto laplacian = reshape(BlockDiag(blocks, comm) * halo, layout, layout);
      const auto x = DistributedArray<T, Space>::from_global(layout, global);
      CHECK(all_close(laplacian.apply(x).gather(), expected, rtol));
      CHECK(dottest(laplacian, 5, space_dottest_tolerance<T, Space>()).passed);
    }
  }
}

TEST_CASE("Halo of dims and a grid views the arrays of its block layout", "[halo][box]") {
  using T = double;
  const Communicator comm = world();
  const Shape dims{6, 3 * Index(comm.size())};
  const Shape grid = comm.size() == 4 ? Shape{2, 2} : Shape{1, Index(comm.size())};
  const auto halo = Halo<T>(comm, dims, 1, grid);
  const auto on_layout = Halo<T>(halo.block_layout(), 1);
  CHECK(halo.block_layout() ==
        Layout(comm, dims, LayoutOptions{.grid = {int(grid[0]), int(grid[1])}}));
  // The flat model of Halo(comm, dims, ...) sees the N-d arrays of its block layout without copy,
  // and both forms give the same extended blocks.
  const std::vector<T> global = random_values<T>(element_count(dims), 22);
  const auto x = DistributedArray<T>::from_global(halo.block_layout(), global);
  CHECK(local_values(halo.apply(x)) == local_values(on_layout.apply(x)));
  CHECK(halo.extended_shape() == on_layout.extended_shape());
}

TEMPLATE_TEST_CASE("bad halos fail on every rank", "[halo][errors]", DISTLOPS_SCALAR_TYPES) {
  using T = TestType;
  const Communicator comm = world();
  const int size = comm.size();
  CHECK_THROWS_AS(Halo<T>(comm, {8, 8}, 1, {Index(size) + 1, 1}), InvalidArgument);
  CHECK_THROWS_AS(Halo<T>(comm, {8, 8}, 1, {Index(size)}), InvalidArgument);
  CHECK_THROWS_AS(Halo<T>(comm, {8}, -1), InvalidArgument);
  CHECK_THROWS_AS(Halo<T>(comm, {8}, HaloWidths::per_side({1, 2, 3})), InvalidArgument);
  if (size > 1) {
    try {
      (void)Halo<T>(comm, {Index(2 * size)}, 3);
      FAIL("no exception");
    } catch (const InvalidArgument& error) {
      CHECK(std::string(error.what()).find("exceeds the block") != std::string::npos);
    }
    // Dims that differ on one rank.
    CHECK_THROWS_AS(Halo<T>(comm, {comm.rank() == size - 1 ? 9 : 8}, 1), InvalidArgument);
  }
  CHECK(comm.allreduce(1, ReduceOp::sum) == size);
}

DISTLOPS_SPACE_TEST_CASE("NonStationaryConvolve1D equals PyLops", "[nonstationary]") {
  // hs = np.array([[0.,1.,2.,1.,0.],[1.,-1.,3.,-1.,1.],[0.5,0.5,0.5,0.5,0.5]]); ih = (2, 7, 12)
  // x = np.cos(np.arange(16.0)) + np.arange(16.0)/10
  // C = pylops.signalprocessing.NonStationaryConvolve1D(dims=16, hs=hs, ih=ih); C @ x, C.H @ x
  const std::vector<std::vector<double>> hs{
      {0, 1, 2, 1, 0}, {1, -1, 3, -1, 1}, {0.5, 0.5, 0.5, 0.5, 0.5}};
  const std::vector<Index> ih{2, 7, 12};
  const std::vector<double> x{
      1.,           0.6403023059, -0.2161468365, -0.6899924966, -0.2536436209, 0.7836621855,
      1.5601702867, 1.4539022543, 0.6544999662,  -0.0111302619, 0.1609284709,  1.104425698,
      2.0438539587, 2.2074467815, 1.5367372182,  0.7403120871};
  const std::vector<double> y{2.6403023059, 1.9264592759, -0.3074443135, -1.314661742,
                              0.0686636042, 2.3665945411, 3.2454346324,  3.4287477165,
                              1.5475859249, 1.6200543259, 2.0777068997,  3.2050790115,
                              3.2275540484, 3.9268304416, 3.2641750228,  2.2422480434};
  const std::vector<double> yh{2.6403023059,  2.0644577752, -0.4819838638, -1.5150648687,
                               -0.0524013723, 2.2345622037, 3.346623215,   2.9195684338,
                               2.1752984026,  1.6982304632, 2.0209109102,  2.8631720957,
                               3.5266960637,  3.8163878718, 3.2641750228,  2.2422480434};
  const auto local_op = local::NonStationaryConvolve1D<double, Space>({16}, hs, ih);
  const auto xl = local_array_of<Space>({16}, x);
  CHECK(all_close(values_of(local_op.apply(xl)), y, 1e-9));
  CHECK(all_close(values_of(local_op.apply_adjoint(xl)), yh, 1e-9));

  const Communicator comm = world();
  if (comm.size() <= 8) {
    const auto op = NonStationaryConvolve1D<double, Space>(comm, {16}, hs, ih);
    const auto xd = DistributedArray<double, Space>::from_global(Layout(comm, {16}), x);
    for_each_collective_path<Space>([&] {
      CHECK(all_close(op.apply(xd).gather(), y, 1e-9));
      CHECK(all_close(op.apply_adjoint(xd).gather(), yh, 1e-9));
    });
  }
}

DISTLOPS_SPACE_TEMPLATE_TEST_CASE("distributed NonStationaryConvolve1D equals the serial operator",
                                  "[nonstationary]", DISTLOPS_SCALAR_TYPES) {
  using T = TestType;
  const Communicator comm = world();
  const double rtol = 10 * space_tolerance<T, Space>();
  std::vector<std::vector<T>> filters, single_taps;
  for (int f = 0; f < 4; ++f) {
    filters.push_back(random_values<T>(5, 40 + f));
    single_taps.push_back(random_values<T>(1, 50 + f));
  }
  const std::vector<Index> ih{1, 6, 11, 16};
  // One-tap filters need no halo: three samples over up to four ranks leave some empty. The
  // five-tap ones need two samples per rank (their halo), which 16 ranks get from longer axes.
  const Index more = std::max<Index>(0, 2 * Index(comm.size()) - 16);
  for (const auto& [dims, axis, bank] :
       std::vector<std::tuple<Shape, int, std::vector<std::vector<T>>>>{
           {{19 + more}, 0, filters},
           {{3, 21 + more}, -1, filters},
           {{20 + more, 4}, 0, filters},
           {{3, 2}, 0, single_taps}}) {
    INFO("dims " << to_string(dims) << " axis " << axis << " taps " << bank[0].size());
    const int normal = axis < 0 ? axis + int(dims.size()) : axis;
    const auto distributed = NonStationaryConvolve1D<T, Space>(comm, dims, bank, ih, axis);
    // The reference: the serial operator of the host, whose numbers PyLops' test above checks.
    const auto serial = local::NonStationaryConvolve1D<T>(dims, bank, ih, axis);
    const auto in_space = local::NonStationaryConvolve1D<T, Space>(dims, bank, ih, axis);
    const Layout layout(comm, dims, Partition::SCATTER, normal);
    DistributedArray<T, Space> x(layout);
    fill_random(x, 50);
    const LocalArray<T> global_x = local_array_of<Host>(dims, x.gather());
    const std::vector<T> expected = values_of(serial.apply(global_x));
    const LocalArray<T> global_y = local_array_of<Host>(dims, expected);
    const std::vector<T> expected_back = values_of(serial.apply_adjoint(global_y));
    CHECK(all_close(values_of(in_space.apply(local_array_of<Space>(dims, x.gather()))), expected,
                    rtol));
    CHECK(dottest(in_space, 8, space_dottest_tolerance<T, Space>()).passed);
    for_each_collective_path<Space>([&] {
      // The N-d array distributed along the axis is accepted directly (its split matches).
      DistributedArray<T, Space> y(layout);
      distributed.apply(x, y);
      CHECK(all_close(y.gather(), expected, rtol));
      DistributedArray<T, Space> back(layout);
      distributed.apply_adjoint(y, back);
      CHECK(all_close(back.gather(), expected_back, rtol));
      CHECK(dottest(distributed, 7, space_dottest_tolerance<T, Space>()).passed);
    });
  }
  CHECK_THROWS_AS(local::NonStationaryConvolve1D<T>({10}, {{T(1), T(2)}}, {3}), InvalidArgument);
  CHECK_THROWS_AS(local::NonStationaryConvolve1D<T>({10}, filters, {1, 2, 4, 5}), InvalidArgument);
}
