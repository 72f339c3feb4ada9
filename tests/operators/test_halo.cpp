// Halo on Cartesian process grids (one- and two-dimensional, trimmed and zero ghost cells,
// per-side widths) against slices of the global array; its exact adjoint; errors on every
// rank. NonStationaryConvolve1D, local and distributed, against PyLops' numbers and against
// the serial operator applied to the gathered array.
#include "dense_reference.hpp"
#include "distlops/operators/dottest.hpp"
#include "distlops/operators/halo.hpp"
#include "distlops/operators/signal/nonstationary_convolve1d.hpp"
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

TEMPLATE_TEST_CASE("Halo extends every block with its neighbours' cells", "[halo]",
                   DISTLOPS_SCALAR_TYPES) {
  using T = TestType;
  const Communicator comm = world();
  for (const Shape& dims : std::vector<Shape>{{13}, {9, 7}, {5, 6, 7}}) {
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
        const auto op = std::make_shared<const HaloOperator<T>>(comm, dims, widths, grid);
        const LinearOperator<T> halo(op);
        // Model: this rank's block of the global array, flattened.
        DistributedArray<T> x(halo.domain());
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
          std::copy(block.begin(), block.end(), x.data());
        }
        const auto y = halo.apply(x);
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
          matches &= y.data()[i] == (inside ? global[source] : T(0));
        }
        CHECK(matches);
        CHECK(dottest(halo, 3).passed);
      }
    }
  }
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

TEST_CASE("NonStationaryConvolve1D equals PyLops", "[nonstationary]") {
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
  const auto local_op = local::NonStationaryConvolve1D<double>({16}, hs, ih);
  LocalArray<double> xl({16});
  std::copy(x.begin(), x.end(), xl.data());
  const auto yl = local_op.apply(xl), yhl = local_op.apply_adjoint(xl);
  CHECK(all_close(std::vector<double>(yl.span().begin(), yl.span().end()), y, 1e-9));
  CHECK(all_close(std::vector<double>(yhl.span().begin(), yhl.span().end()), yh, 1e-9));

  const Communicator comm = world();
  if (comm.size() <= 8) {
    const auto op = NonStationaryConvolve1D<double>(comm, {16}, hs, ih);
    const auto xd = DistributedArray<double>::from_global(Layout(comm, {16}), x);
    CHECK(all_close(op.apply(xd).gather(), y, 1e-9));
    CHECK(all_close(op.apply_adjoint(xd).gather(), yh, 1e-9));
  }
}

TEMPLATE_TEST_CASE("distributed NonStationaryConvolve1D equals the serial operator",
                   "[nonstationary]", DISTLOPS_SCALAR_TYPES) {
  using T = TestType;
  const Communicator comm = world();
  std::vector<std::vector<T>> filters;
  for (int f = 0; f < 4; ++f)
    filters.push_back(random_values<T>(5, 40 + f));
  const std::vector<Index> ih{1, 6, 11, 16};
  for (const auto& [dims, axis] :
       std::vector<std::pair<Shape, int>>{{{19}, 0}, {{3, 21}, -1}, {{20, 4}, 0}}) {
    INFO("dims " << to_string(dims) << " axis " << axis);
    const int normal = axis < 0 ? axis + int(dims.size()) : axis;
    const auto distributed = NonStationaryConvolve1D<T>(comm, dims, filters, ih, axis);
    const auto serial = local::NonStationaryConvolve1D<T>(dims, filters, ih, axis);
    const Layout layout(comm, dims, Partition::SCATTER, normal);
    DistributedArray<T> x(layout);
    fill_random(x, 50);
    LocalArray<T> global_x(dims);
    const auto gathered = x.gather();
    std::copy(gathered.begin(), gathered.end(), global_x.data());
    // The N-d array distributed along the axis is accepted directly (its split matches).
    DistributedArray<T> y(layout);
    distributed.apply(x, y);
    const auto expected = serial.apply(global_x);
    CHECK(all_close(y.gather(), std::vector<T>(expected.span().begin(), expected.span().end()),
                    10 * tolerance<T>()));
    DistributedArray<T> back(layout);
    distributed.apply_adjoint(y, back);
    LocalArray<T> global_y(dims);
    std::copy(expected.span().begin(), expected.span().end(), global_y.data());
    const auto expected_back = serial.apply_adjoint(global_y);
    CHECK(all_close(back.gather(),
                    std::vector<T>(expected_back.span().begin(), expected_back.span().end()),
                    10 * tolerance<T>()));
    CHECK(dottest(distributed, 7).passed);
    CHECK(dottest(serial, 8).passed);
  }
  CHECK_THROWS_AS(local::NonStationaryConvolve1D<T>({10}, {{T(1), T(2)}}, {3}), InvalidArgument);
  CHECK_THROWS_AS(local::NonStationaryConvolve1D<T>({10}, filters, {1, 2, 4, 5}), InvalidArgument);
}
