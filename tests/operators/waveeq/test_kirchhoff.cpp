// SPDX-License-Identifier: BSD-3-Clause
// Copyright (c) 2026 The distlops authors
// Kirchhoff against a matrix written here from the definition (loops over sources, receivers
// and image points with the straight-ray traveltimes, then the wavelet's convolution matrix),
// in 2-D and 3-D, for every scalar type and memory space; against PyLops' own numbers
// (kirchhoff_pylops.npz, written by make_kirchhoff_reference.py: kinematic and dynamic, with
// and without the wavelet filter, analytic traveltimes and user tables); the distributed form
// at 1-4 ranks with uneven source counts, ranks without sources, the model replicated or split;
// tables written to and read from .npy by source rows; bad arguments raised on every rank.
#include <unistd.h>
#include <algorithm>
#include <cmath>
#include <filesystem>

#include "dense_algebra.hpp"
#include "dense_reference.hpp"
#include "distlops/io/npy.hpp"
#include "distlops/io/npz.hpp"
#include "distlops/operators/waveeq/kirchhoff.hpp"
#include "expect_everywhere.hpp"
#include "local_operator_checks.hpp"
#include "spaces.hpp"
#include "test_support.hpp"

using namespace distlops;
using namespace distlops::testing;

namespace {

struct Problem {
  KirchhoffGeometry geometry;
  std::vector<double> sources, receivers, wavelet;
  Index center = 0;
  double velocity = 1500;
};

// A 2-D problem (5 sources) or a 3-D one (3 sources), points off the grid nodes.
Problem problem(int dimension) {
  Problem p;
  p.wavelet = {-0.2, 0.5, 1.0, 0.4, -0.3};
  p.center = 2;
  if (dimension == 2) {
    p.geometry = {{}, {6, 2.0, 10.0}, {5, 10.0, 10.0}, 30, 0.0041};
    p.sources = {5, 0, 21.5, 12, 33, 3, 47.2, 30, 60, 10};
    p.receivers = {0, 0, 14, 1, 29, 0, 44, 22};
  } else {
    p.geometry = {{2, 0.0, 10.0}, {3, 0.0, 10.0}, {3, 5.0, 10.0}, 28, 0.0039};
    p.sources = {1, 2, 0, 9, 18, 4, 4, 7, 12};
    p.receivers = {0, 0, 0, 10, 5, 2, 6, 20, 1};
  }
  return p;
}

// The operator's matrix from its definition: for each pair and image point, the spike at
// t_s + t_r split between floor((t_s + t_r) / dt) and the next sample, then the convolution
// y[t] = sum_k h[k] x[t + center - k] of every trace.
template <class T>
DenseMatrix<T> reference_matrix(const Problem& p, Index first_source = 0, Index sources = -1) {
  const KirchhoffGeometry& g = p.geometry;
  const int dim = g.dimension();
  const Index all = Index(p.sources.size()) / dim;
  const Index ns = sources < 0 ? all : sources;
  const Index nr = Index(p.receivers.size()) / dim, nt = g.nt;
  const Index ny = dim == 3 ? g.y.n : 1, ni = ny * g.x.n * g.z.n;
  DenseMatrix<double> spray = DenseMatrix<double>::Zero(ns * nr * nt, ni);
  auto distance = [&](const double* point, double y, double x, double z) {
    const double dy = dim == 3 ? y - point[0] : 0;
    return std::sqrt(dy * dy + std::pow(x - point[dim - 2], 2) + std::pow(z - point[dim - 1], 2));
  };
  for (Index s = 0; s < ns; ++s) {
    for (Index r = 0; r < nr; ++r) {
      for (Index iy = 0, i = 0; iy < ny; ++iy) {
        for (Index ix = 0; ix < g.x.n; ++ix) {
          for (Index iz = 0; iz < g.z.n; ++iz, ++i) {
            const double y = g.y.origin + double(iy) * g.y.step;
            const double x = g.x.origin + double(ix) * g.x.step;
            const double z = g.z.origin + double(iz) * g.z.step;
            const double time =
                (distance(&p.sources[std::size_t((first_source + s) * dim)], y, x, z) +
                 distance(&p.receivers[std::size_t(r * dim)], y, x, z)) /
                p.velocity;
            const auto k = Index(std::floor(time / g.dt));
            const double f = time / g.dt - double(k);
            if (k < 0 || k >= nt - 1) continue;
            spray((s * nr + r) * nt + k, i) += 1 - f;
            spray((s * nr + r) * nt + k + 1, i) += f;
          }
        }
      }
    }
  }
  DenseMatrix<double> convolution = DenseMatrix<double>::Zero(ns * nr * nt, ns * nr * nt);
  for (Index trace = 0; trace < ns * nr; ++trace) {
    for (Index t = 0; t < nt; ++t) {
      for (Index u = 0; u < nt; ++u) {
        const Index k = t + p.center - u;
        if (k >= 0 && k < Index(p.wavelet.size()))
          convolution(trace * nt + t, trace * nt + u) = p.wavelet[std::size_t(k)];
      }
    }
  }
  return (convolution * spray).cast<T>();
}

Shape model_shape(const KirchhoffGeometry& g) {
  return g.dimension() == 3 ? Shape{g.y.n, g.x.n, g.z.n} : Shape{g.x.n, g.z.n};
}

// This rank's share of `count` sources: odd ranks one each while sources remain (even ranks
// r > 0 none), rank 0 the rest, so that at many ranks some odd ranks own none too.
std::pair<Index, Index> uneven_share(const Communicator& comm, Index count) {
  const Index odd_ranks = comm.size() / 2;
  const Index first = count - std::min(count, odd_ranks);
  if (comm.rank() == 0) return {0, first};
  const Index odd_before = comm.rank() / 2;  // odd ranks in [1, rank)
  const Index mine = (comm.rank() % 2 == 1 && odd_before < count) ? 1 : 0;
  return {first + std::min(count, odd_before), mine};
}

template <class T>
double max_relative_difference(const DenseVector<T>& actual, const DenseVector<T>& expected) {
  return (actual - expected).cwiseAbs().maxCoeff() / expected.cwiseAbs().maxCoeff();
}

}  // namespace

DISTLOPS_SPACE_TEMPLATE_TEST_CASE("local Kirchhoff matches its loop reference",
                                  "[kirchhoff][local]", DISTLOPS_SCALAR_TYPES) {
  using T = TestType;
  for (int dimension : {2, 3}) {
    INFO("dimension " << dimension);
    const Problem p = problem(dimension);
    const auto op = local::Kirchhoff<T, Space>(p.geometry, p.sources, p.receivers, p.wavelet,
                                               p.center, {.velocity = p.velocity});
    const Index ns = Index(p.sources.size()) / dimension,
                nr = Index(p.receivers.size()) / dimension;
    check_local_operator(op, reference_matrix<T>(p), model_shape(p.geometry),
                         Shape{ns, nr, p.geometry.nt});
  }
}

TEMPLATE_TEST_CASE("Kirchhoff matches PyLops' numbers", "[kirchhoff][pylops]", double, float) {
  using T = TestType;
  const Communicator comm = world();
  const std::string archive = DISTLOPS_KIRCHHOFF_REFERENCE;
  auto read = [&](const std::string& name) {
    return io::read_npz_local<double>(archive, name, comm).values;
  };
  double largest = 0;
  for (const std::string name : {"kinematic2d", "dynamic2d", "tables2d", "kinematic3d"}) {
    INFO("case " << name);
    const std::vector<double> grid = read(name + "_grid"), options = read(name + "_options");
    const auto axis = [&](std::size_t k) {
      return KirchhoffAxis{Index(grid[k]), grid[k + 1], grid[k + 2]};
    };
    const KirchhoffGeometry geometry{axis(0), axis(3), axis(6), Index(grid[9]), grid[10]};
    const std::vector<double> sources = read(name + "_sources"),
                              receivers = read(name + "_receivers"),
                              wavelet = read(name + "_wavelet");
    std::vector<double> tables[4];
    KirchhoffOptions o{
        .velocity = options[1], .wavelet_filter = options[3] != 0, .dynamic = options[2] != 0};
    if (options[4] != 0) {
      o.traveltimes = KirchhoffTraveltimes::tables;
      const char* members[] = {"_trav_srcs", "_trav_recs", "_amp_srcs", "_amp_recs"};
      for (int k = 0; k < 4; ++k)
        tables[k] = read(name + members[k]);
      o.tables = {tables[0], tables[1], tables[2], tables[3]};
    }
    const auto op =
        local::Kirchhoff<T>(geometry, sources, receivers, wavelet, Index(options[0]), o);
    const DenseVector<T> m =
        io::read_npz_local<double>(archive, name + "_model", comm).vector().cast<T>();
    const DenseVector<T> d =
        io::read_npz_local<double>(archive, name + "_data", comm).vector().cast<T>();
    const DenseVector<T> forward =
        io::read_npz_local<double>(archive, name + "_forward", comm).vector().cast<T>();
    const DenseVector<T> adjoint =
        io::read_npz_local<double>(archive, name + "_adjoint", comm).vector().cast<T>();
    LocalArray<T> x(op.domain()), y(op.range());
    scatter_vector<T>(m, x);
    scatter_vector<T>(d, y);
    const double forward_difference =
        max_relative_difference<T>(global_vector(op.apply(x)), forward);
    const double adjoint_difference =
        max_relative_difference<T>(global_vector(op.apply_adjoint(y)), adjoint);
    // Single precision: a spike whose time lands within rounding of a sample boundary may
    // move to the neighbouring sample; the difference stays near float's epsilon otherwise.
    const double tolerance = std::is_same_v<T, double> ? 1e-12 : 2e-5;
    CHECK(forward_difference < tolerance);
    CHECK(adjoint_difference < tolerance);
    largest = std::max({largest, forward_difference, adjoint_difference});
  }
  if (comm.rank() == 0) WARN("largest relative difference from PyLops: " << largest);
}

DISTLOPS_SPACE_TEMPLATE_TEST_CASE("distributed Kirchhoff splits the sources over the ranks",
                                  "[kirchhoff][distributed]", double, std::complex<float>) {
  using T = TestType;
  const Communicator comm = world();
  const double rtol = 10 * space_tolerance<T, Space>();
  for (int dimension : {2, 3}) {
    const Problem p = problem(dimension);
    const Index all = Index(p.sources.size()) / dimension;
    const auto [first, count] = uneven_share(comm, all);
    const std::span<const double> mine(p.sources.data() + first * dimension,
                                       std::size_t(count * dimension));
    const DenseMatrix<T> reference = reference_matrix<T>(p);
    for (Partition partition : {Partition::BROADCAST, Partition::SCATTER}) {
      INFO("dimension " << dimension << ", model " << to_string(partition));
      const auto op =
          Kirchhoff<T, Space>(p.geometry, mine, p.receivers, p.wavelet, p.center,
                              {.velocity = p.velocity, .model_partition = partition}, comm);
      CHECK(op.domain().global_shape() == model_shape(p.geometry));
      CHECK(op.domain().partition() == partition);
      CHECK(op.range().local_shape()[0] == count);
      DistributedArray<T, Space> x(op.domain()), y(op.range());
      fill_random(x, 3);
      fill_random(y, 4);
      CHECK(matrices_close(DenseMatrix<T>(global_vector(op.apply(x))),
                           DenseMatrix<T>(product(reference, global_vector(x))), rtol));
      CHECK(matrices_close(DenseMatrix<T>(global_vector(op.apply_adjoint(y))),
                           DenseMatrix<T>(adjoint_product(reference, global_vector(y))), rtol));
      CHECK(dottest(op, 5, space_dottest_tolerance<T, Space>()).passed);
    }
  }
  expect_in_step(comm);
}

TEST_CASE("distributed dynamic Kirchhoff equals the operator of all sources",
          "[kirchhoff][distributed]") {
  // The amplitudes' distance floor depends on every source: the ranks agree on it.
  const Communicator comm = world();
  const Problem p = problem(2);
  const Index all = Index(p.sources.size()) / 2;
  const auto [first, count] = uneven_share(comm, all);
  const KirchhoffOptions o{.velocity = p.velocity,
                           .wavelet_filter = true,
                           .dynamic = true,
                           .aperture = std::array<double, 2>{1.0, 3.0},
                           .angle_aperture = {40.0, 70.0}};
  const auto op = Kirchhoff<double>(
      p.geometry, std::span<const double>(p.sources.data() + first * 2, std::size_t(count * 2)),
      p.receivers, p.wavelet, p.center, o, comm);
  const auto whole =
      local::Kirchhoff<double>(p.geometry, p.sources, p.receivers, p.wavelet, p.center, o);
  const DenseMatrix<double> reference = assemble(whole);
  CHECK(reference.norm() > 0);
  DistributedArray<double> x(op.domain());
  fill_random(x, 5);
  CHECK(matrices_close(DenseMatrix<double>(global_vector(op.apply(x))),
                       DenseMatrix<double>(reference * global_vector(x)), 1e-12));
  CHECK(dottest(op, 6, 1e-10).passed);
  CHECK(dottest(whole, 7, 1e-10).passed);
}

TEST_CASE("Kirchhoff reads traveltime tables split by source from .npy files",
          "[kirchhoff][distributed][io]") {
  // Tables of the analytic traveltimes, written with the rows of each rank's sources, read
  // back by rows and given to the operator: the analytic operator's results.
  const Communicator comm = world();
  const Problem p = problem(2);
  const Index all = Index(p.sources.size()) / 2, nr = Index(p.receivers.size()) / 2;
  const auto [first, count] = uneven_share(comm, all);
  const KirchhoffGeometry& g = p.geometry;
  const Index ni = g.x.n * g.z.n;
  auto times = [&](const double* point) {
    std::vector<double> row;
    for (Index ix = 0; ix < g.x.n; ++ix)
      for (Index iz = 0; iz < g.z.n; ++iz)
        row.push_back(std::hypot(g.x.origin + double(ix) * g.x.step - point[0],
                                 g.z.origin + double(iz) * g.z.step - point[1]) /
                      p.velocity);
    return row;
  };
  std::vector<Shape> rows;
  for (int r = 0; r < comm.size(); ++r)
    rows.push_back({comm.allgather(count)[std::size_t(r)], ni});
  const Layout by_source(comm, {all, ni}, LayoutOptions{.local_shapes = rows});
  DistributedArray<double> table(by_source);
  for (Index s = 0; s < count; ++s) {
    const std::vector<double> row = times(&p.sources[std::size_t((first + s) * 2)]);
    std::copy(row.begin(), row.end(), table.data() + s * ni);
  }
  std::vector<double> receiver_table;
  for (Index r = 0; r < nr; ++r) {
    const std::vector<double> row = times(&p.receivers[std::size_t(r * 2)]);
    receiver_table.insert(receiver_table.end(), row.begin(), row.end());
  }
  Index id = comm.rank() == 0 ? Index(::getpid()) : 0;
  comm.broadcast(&id, 1, 0);
  const std::filesystem::path path = std::filesystem::temp_directory_path() /
                                     ("distlops-kirchhoff-" + std::to_string(id) + ".npy");
  io::write_npy(path, table);
  const DistributedArray<double> read = io::read_npy<double>(path, by_source);
  comm.barrier();
  if (comm.rank() == 0) std::filesystem::remove(path);
  const std::span<const double> mine(p.sources.data() + first * 2, std::size_t(count * 2));
  KirchhoffOptions o{.traveltimes = KirchhoffTraveltimes::tables};
  o.tables.source_traveltimes = std::span<const double>(read.data(), std::size_t(count * ni));
  o.tables.receiver_traveltimes = receiver_table;
  const auto from_tables = Kirchhoff<double>(g, mine, p.receivers, p.wavelet, p.center, o, comm);
  const auto analytic =
      Kirchhoff<double>(g, mine, p.receivers, p.wavelet, p.center, {.velocity = p.velocity}, comm);
  DistributedArray<double> x(analytic.domain());
  fill_random(x, 8);
  CHECK(matrices_close(DenseMatrix<double>(global_vector(from_tables.apply(x))),
                       DenseMatrix<double>(global_vector(analytic.apply(x))), 1e-12));
}

TEST_CASE("Kirchhoff rejects bad arguments on every rank", "[kirchhoff][errors]") {
  const Communicator comm = world();
  const Problem p = problem(2);
  const KirchhoffOptions good{.velocity = p.velocity};
  auto build = [&](const KirchhoffGeometry& g, std::span<const double> sources,
                   std::span<const double> receivers, std::span<const double> wavelet, Index center,
                   const KirchhoffOptions& o) {
    (void)Kirchhoff<double>(g, sources, receivers, wavelet, center, o, comm);
  };
  KirchhoffGeometry flat = p.geometry;
  flat.z.n = 1;
  expect_everywhere<InvalidArgument>(
      comm, [&] { build(flat, p.sources, p.receivers, p.wavelet, p.center, good); },
      "axis z needs at least 2 points");
  expect_everywhere<InvalidArgument>(
      comm, [&] { build(p.geometry, p.sources, p.receivers, p.wavelet, 5, good); },
      "the wavelet centre 5 is outside [0, 5)");
  expect_everywhere<InvalidArgument>(
      comm, [&] { build(p.geometry, p.sources, p.receivers, p.wavelet, p.center, {}); },
      "analytic traveltimes need a finite velocity > 0");
  const std::vector<double> odd = {1, 2, 3};
  expect_everywhere<InvalidArgument>(
      comm, [&] { build(p.geometry, odd, p.receivers, p.wavelet, p.center, good); },
      "3 source coordinates are not points of 2 coordinates each");
  KirchhoffOptions short_table{.traveltimes = KirchhoffTraveltimes::tables};
  short_table.tables.source_traveltimes = odd;
  short_table.tables.receiver_traveltimes = odd;
  expect_everywhere<InvalidArgument>(
      comm, [&] { build(p.geometry, p.sources, p.receivers, p.wavelet, p.center, short_table); },
      "the source traveltime table has 3 values");
  if (comm.size() > 1) {
    // Bad on the last rank only, and receivers that differ on one rank.
    const bool last = comm.rank() == comm.size() - 1;
    expect_everywhere<InvalidArgument>(
        comm,
        [&] {
          build(p.geometry, last ? std::span<const double>(odd) : std::span<const double>(),
                p.receivers, p.wavelet, p.center, good);
        },
        "3 source coordinates are not points of 2 coordinates each");
    std::vector<double> moved = p.receivers;
    if (comm.rank() == 1) moved[0] += 1;
    expect_everywhere<InvalidArgument>(
        comm, [&] { build(p.geometry, {}, moved, p.wavelet, p.center, good); },
        "differs between ranks");
  }
  CHECK_THROWS_AS(local::Kirchhoff<float>(p.geometry, p.sources, p.receivers, {}, 0, good),
                  InvalidArgument);
}
