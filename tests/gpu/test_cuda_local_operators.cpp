// The layout and convolution operators in the Cuda space against the same operators in the
// host space (which tests/operators checks against independent references), on the same
// random data: Transpose (row gathers and shared-memory tiles, more axes than one launch
// takes), Convolve1D, FunctionOperator with device callables, Identity and Pad, the local and
// distributed NonStationaryConvolve1D, and Halo on Cartesian grids with uneven blocks and
// ranks that hold nothing, through both paths of device collectives. Dot tests run on the
// device; a second apply allocates nothing. Every case skips without a device.
#include "distlops/distlops.hpp"
#include "gpu_support.hpp"

using namespace distlops;
using namespace distlops::testing;

namespace {

template <class T>
void add_transposes(std::vector<LocalPair<T>>& ops) {
  const std::vector<std::pair<Shape, std::vector<int>>> cases = {
      {{7}, {0}},              // one axis: a copy
      {{37, 45}, {1, 0}},      // tiles with partial edges
      {{3, 4, 5}, {2, 0, 1}},  // tiles, one other axis
      {{3, 4, 5}, {1, 2, 0}},  //
      {{3, 4, 5}, {0, 2, 1}},  //
      {{3, 4, 5}, {2, 1, 0}},  //
      {{3, 4, 5}, {1, 0, 2}},  // last axis kept: gathered rows
      {{2, 3, 40, 33}, {3, 1, 0, -2}},
      // Ten axes: the tiles loop over other axes on the host, and so do the gathers.
      {{2, 3, 2, 2, 3, 2, 1, 2, 2, 3}, {9, 8, 7, 6, 5, 4, 3, 2, 1, 0}},
      {{2, 3, 2, 2, 3, 2, 1, 2, 2, 3}, {1, 0, 3, 2, 5, 4, 7, 6, 8, 9}},
  };
  for (const auto& [dims, axes] : cases) {
    ops.push_back({local::Transpose<T, Host>(dims, axes), local::Transpose<T, Cuda>(dims, axes)});
  }
}

template <class T>
void add_convolutions(std::vector<LocalPair<T>>& ops) {
  struct Case {
    Shape dims;
    Index taps;
    Index offset;
    int axis;
  };
  const std::vector<Case> cases = {
      {{20}, 5, 2, 0},   {{4, 9, 3}, 4, 1, 1}, {{4, 9, 3}, 4, 3, -1},
      {{6}, 9, 3, 0},  // a filter longer than the signal
      {{7, 5}, 3, 0, 0}, {{7, 5}, 1, 0, 1},    {{3, 300}, 31, 15, 1},
  };
  std::uint64_t seed = 20;
  for (const Case& c : cases) {
    const std::vector<T> h = random_values<T>(c.taps, seed++);
    ops.push_back({local::Convolve1D<T, Host>(c.dims, h, c.offset, c.axis),
                   local::Convolve1D<T, Cuda>(c.dims, h, c.offset, c.axis)});
  }
}

template <class T>
void add_embeddings(std::vector<LocalPair<T>>& ops) {
  ops.push_back({local::Pad<T, Host>({4, 5}, {{1, 2}, {0, 3}}),
                 local::Pad<T, Cuda>({4, 5}, {{1, 2}, {0, 3}})});
  ops.push_back({local::Pad<T, Host>({3, 4, 5}, {{0, 0}, {2, 1}, {0, 0}}),
                 local::Pad<T, Cuda>({3, 4, 5}, {{0, 0}, {2, 1}, {0, 0}})});
  ops.push_back({local::Pad<T, Host>({9}, {{4, 0}}), local::Pad<T, Cuda>({9}, {{4, 0}})});
  const std::vector<local::PadWidth> nine(9, {1, 0});
  ops.push_back({local::Pad<T, Host>(Shape(9, 2), nine), local::Pad<T, Cuda>(Shape(9, 2), nine)});
  ops.push_back(
      {local::Identity<T, Host>({3, 4}, {5, 4}), local::Identity<T, Cuda>({3, 4}, {5, 4})});
  ops.push_back(
      {local::Identity<T, Host>({6, 9}, {4, 7}), local::Identity<T, Cuda>({6, 9}, {4, 7})});
  ops.push_back({local::Identity<T, Host>({8}, {8}), local::Identity<T, Cuda>({8}, {8})});
}

// A FunctionOperator whose callables apply another operator of the same space: on the device
// they receive device arrays and enqueue device work.
template <class T, MemorySpace Space>
LocalOperator<T, Space> padding_function(const LocalOperator<T, Space>& pad, T scale) {
  return local::FunctionOperator<T, Space>(
      [pad, scale](const LocalArray<T, Space>& x, LocalArray<T, Space>& y) {
        pad.apply(x, y);
        y.scale(scale);
      },
      [pad, scale](const LocalArray<T, Space>& y, LocalArray<T, Space>& x) {
        pad.apply_adjoint(y, x);
        x.scale(conjugate(scale));
      },
      pad.domain(), pad.range(), "padded scaling");
}

template <class T>
void add_functions(std::vector<LocalPair<T>>& ops) {
  const T scale = random_scalar<T>(31);
  const std::vector<local::PadWidth> widths = {{1, 1}, {2, 0}};
  ops.push_back({padding_function<T, Host>(local::Pad<T, Host>({3, 4}, widths), scale),
                 padding_function<T, Cuda>(local::Pad<T, Cuda>({3, 4}, widths), scale)});
}

template <class T>
std::vector<std::vector<T>> nonstationary_filters(Index taps, std::uint64_t seed) {
  std::vector<std::vector<T>> filters;
  for (int f = 0; f < 4; ++f)
    filters.push_back(random_values<T>(taps, seed + f));
  return filters;
}

template <class T>
void add_nonstationary(std::vector<LocalPair<T>>& ops) {
  const std::vector<Index> ih{1, 6, 11, 16};
  const auto filters = nonstationary_filters<T>(5, 40);
  for (const auto& [dims, axis] : std::vector<std::pair<Shape, int>>{
           {{19}, 0}, {{3, 21}, -1}, {{20, 4}, 0}, {{2, 18, 3}, 1}}) {
    ops.push_back({local::NonStationaryConvolve1D<T, Host>(dims, filters, ih, axis),
                   local::NonStationaryConvolve1D<T, Cuda>(dims, filters, ih, axis)});
  }
}

// Grids for `size` ranks over `ndim` axes: all ranks along each axis, and 2 x 2 for 4 ranks.
std::vector<Shape> grids_for(int size, int ndim) {
  std::vector<Shape> grids;
  for (int axis = 0; axis < ndim; ++axis) {
    Shape grid(static_cast<std::size_t>(ndim), 1);
    grid[static_cast<std::size_t>(axis)] = size;
    grids.push_back(grid);
  }
  if (ndim >= 2 && size == 4) {
    Shape grid(static_cast<std::size_t>(ndim), 1);
    grid[static_cast<std::size_t>(ndim - 2)] = 2;
    grid[static_cast<std::size_t>(ndim - 1)] = 2;
    grids.push_back(grid);
  }
  return grids;
}

// Whether every block along a grid axis holds the planes its neighbours ask for.
bool widths_fit(const Shape& dims, const Shape& grid, const HaloWidths& widths) {
  for (std::size_t k = 0; k < dims.size(); ++k) {
    if (grid[k] == 1) continue;
    for (Index extent : default_split(dims[k], static_cast<int>(grid[k]))) {
      if (extent < std::max(widths.minus[k], widths.plus[k])) return false;
    }
  }
  return true;
}

}  // namespace

TEMPLATE_TEST_CASE("device Transpose matches the host's", "[gpu][operators][transpose]",
                   DISTLOPS_SCALAR_TYPES) {
  DISTLOPS_SKIP_WITHOUT_DEVICE();
  using T = TestType;
  std::vector<LocalPair<T>> ops;
  add_transposes(ops);
  std::uint64_t seed = 1000;
  for (const LocalPair<T>& op : ops) {
    INFO(op.host.name() << " " << to_string(op.host.domain()) << " -> "
                        << to_string(op.host.range()));
    check_local_pair(op, seed += 10);
  }
}

TEMPLATE_TEST_CASE("device Convolve1D, Pad, Identity and FunctionOperator match the host's",
                   "[gpu][operators][convolve1d][embed]", DISTLOPS_SCALAR_TYPES) {
  DISTLOPS_SKIP_WITHOUT_DEVICE();
  using T = TestType;
  std::vector<LocalPair<T>> ops;
  add_convolutions(ops);
  add_embeddings(ops);
  add_functions(ops);
  std::uint64_t seed = 2000;
  for (const LocalPair<T>& op : ops) {
    INFO(op.host.name() << " " << to_string(op.host.domain()) << " -> "
                        << to_string(op.host.range()));
    check_local_pair(op, seed += 10);
  }
}

TEMPLATE_TEST_CASE("device local NonStationaryConvolve1D matches the host's",
                   "[gpu][operators][nonstationary]", DISTLOPS_SCALAR_TYPES) {
  DISTLOPS_SKIP_WITHOUT_DEVICE();
  using T = TestType;
  std::vector<LocalPair<T>> ops;
  add_nonstationary(ops);
  std::uint64_t seed = 3000;
  for (const LocalPair<T>& op : ops) {
    INFO(to_string(op.host.domain()));
    check_local_pair(op, seed += 10);
  }
}

TEMPLATE_TEST_CASE("device Halo matches the host's across ranks", "[gpu][operators][halo]",
                   DISTLOPS_SCALAR_TYPES) {
  DISTLOPS_SKIP_WITHOUT_DEVICE();
  using T = TestType;
  const Communicator comm = world();
  for (GpuCollectives path : collective_paths()) {
    const CollectivesPath selected(path);
    for (const Shape& dims : std::vector<Shape>{{13}, {9, 7}, {5, 6, 7}, {2, 7}}) {
      const int ndim = static_cast<int>(dims.size());
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
          if (!widths_fit(dims, grid, widths)) continue;
          INFO(to_string(path) << " dims " << to_string(dims) << " grid " << to_string(grid)
                               << " widths " << widths.minus[0] << "/" << widths.plus[0] << " trim "
                               << widths.trim_at_boundaries);
          check_distributed_pair(Halo<T, Host>(comm, dims, widths, grid),
                                 Halo<T, Cuda>(comm, dims, widths, grid), 4000);
        }
      }
    }
  }
}

TEMPLATE_TEST_CASE("device distributed NonStationaryConvolve1D matches the host's",
                   "[gpu][operators][nonstationary]", DISTLOPS_SCALAR_TYPES) {
  DISTLOPS_SKIP_WITHOUT_DEVICE();
  using T = TestType;
  const Communicator comm = world();
  const std::vector<Index> ih{1, 6, 11, 16};
  const auto filters = nonstationary_filters<T>(5, 40);
  const auto single_taps = nonstationary_filters<T>(1, 50);
  for (GpuCollectives path : collective_paths()) {
    const CollectivesPath selected(path);
    for (const auto& [dims, axis] :
         std::vector<std::pair<Shape, int>>{{{19}, 0}, {{3, 21}, -1}, {{20, 4}, 0}}) {
      INFO(to_string(path) << " dims " << to_string(dims) << " axis " << axis);
      check_distributed_pair(NonStationaryConvolve1D<T, Host>(comm, dims, filters, ih, axis),
                             NonStationaryConvolve1D<T, Cuda>(comm, dims, filters, ih, axis), 5000);
    }
    // One-tap filters need no halo: three samples over up to four ranks leave some empty.
    INFO(to_string(path) << " one-tap filters");
    check_distributed_pair(NonStationaryConvolve1D<T, Host>(comm, {3, 2}, single_taps, ih, 0),
                           NonStationaryConvolve1D<T, Cuda>(comm, {3, 2}, single_taps, ih, 0),
                           5100);
  }
}
