// SPDX-License-Identifier: BSD-3-Clause
// Copyright (c) 2026 The distlops authors
// Kirchhoff least-squares migration (LSM) with the sources split over the ranks, PyLops-MPI's
// LSM tutorial end to end: a built-in layered model with point scatterers gives the true
// reflectivity; data are modelled with the Kirchhoff operator (one per rank's shots, stacked
// like PyLops-MPI's MPIVStack: model replicated, data split by shot); the image is migrated
// (the adjoint) and then inverted with CGLS. Prints the image error against the true
// reflectivity before LSM (the migrated image, at its best scale) and after.
//
//     mpiexec -n 2 ./kirchhoff_lsm --output kirchhoff-lsm-output [--niter 30] [--segy]
//     mpiexec -n 2 ./kirchhoff_lsm --space cuda
//     /usr/bin/python3 examples/kirchhoff/plot_kirchhoff_lsm.py kirchhoff-lsm-output
//
// Writes velocity.npy, reflectivity.npy, data.npy (shots, receivers, time), migrated.npy,
// lsm.npy, cost.npy and summary.json into --output; with --segy also migrated.sgy and lsm.sgy
// (traces along x, samples along depth: the depth step in metres written as milliseconds).
// examples/porting/kirchhoff_lsm_pylops_mpi.py is the same problem in PyLops-MPI (compared in
// CI by tests/porting/compare_poststack.py); kirchhoff_lsm_model.py beside it holds the model.
#include <cmath>
#include <cstdio>
#include <exception>
#include <numbers>
#include <string>
#include <vector>

#include "distlops/core/environment.hpp"
#include "distlops/core/error.hpp"
#include "distlops/io/io_config.hpp"
#include "distlops/io/npy.hpp"
#include "distlops/operators/waveeq/kirchhoff.hpp"
#include "distlops/solvers/cgls.hpp"
#include "support/command_line.hpp"
#include "support/outputs.hpp"
#include "support/space_choice.hpp"
#include "support/summary_json.hpp"
#if DISTLOPS_WITH_SEGYIO
#include "distlops/io/segy.hpp"
#endif

using namespace distlops;
using namespace distlops::examples;

namespace {

struct Options {
  Index nx = 41, nz = 31, ns = 6, nr = 21, nt = 130;
  double dx = 10, dz = 10, dt = 0.004;
  double velocity = 2000;  // the constant velocity of the traveltimes
  double f0 = 15;          // Ricker peak frequency
  Index half = 12;         // wavelet samples on each side of its centre
  bool dynamic = false;
  int niter = 20;
  bool segy = false;
  std::string space = Host::name;
  std::string output = "kirchhoff-lsm-output";
  double check_ratio = -1;  // negative: no check
};

// The layered velocity at depth index iz (kirchhoff_lsm_model.py's formula): 1800 m/s, and
// 300 m/s more below each interface at 30 %, 55 % and 80 % of the depth.
double layered_velocity(Index iz, Index nz) {
  double v = 1800;
  for (double fraction : {0.3, 0.55, 0.8})
    if (iz >= static_cast<Index>(std::floor(fraction * static_cast<double>(nz)))) v += 300;
  return v;
}

// The true reflectivity (nx, nz): the normal-incidence reflection coefficients of the layers,
// and three point scatterers of 0.1 at 15 % of the depth.
std::vector<double> true_reflectivity(Index nx, Index nz) {
  std::vector<double> r(static_cast<std::size_t>(nx * nz), 0.0);
  for (Index ix = 0; ix < nx; ++ix) {
    for (Index iz = 0; iz + 1 < nz; ++iz) {
      const double v0 = layered_velocity(iz, nz), v1 = layered_velocity(iz + 1, nz);
      r[static_cast<std::size_t>(ix * nz + iz)] = (v1 - v0) / (v1 + v0);
    }
  }
  const auto depth = static_cast<Index>(std::floor(0.15 * static_cast<double>(nz)));
  for (double fraction : {0.25, 0.5, 0.75}) {
    const auto ix = static_cast<Index>(std::floor(fraction * static_cast<double>(nx)));
    r[static_cast<std::size_t>(ix * nz + depth)] += 0.1;
  }
  return r;
}

// n points spread evenly over [0, extent] at depth 0, as NumPy's linspace, point-major (x, z).
std::vector<double> surface_points(Index n, double extent) {
  std::vector<double> points;
  const double step = n > 1 ? extent / static_cast<double>(n - 1) : 0.0;
  for (Index i = 0; i < n; ++i) {
    points.push_back(static_cast<double>(i) * step);
    points.push_back(0.0);
  }
  return points;
}

// A Ricker wavelet of 2 half + 1 samples centred at sample `half`.
std::vector<double> ricker(Index half, double dt, double f0) {
  std::vector<double> w;
  for (Index k = 0; k <= 2 * half; ++k) {
    const double t = static_cast<double>(k - half) * dt;
    const double a = std::numbers::pi * f0 * t;
    w.push_back((1 - 2 * (a * a)) * std::exp(-(a * a)));
  }
  return w;
}

void add_options(CommandLine& line, Options& o) {
  line.option("--nx", o.nx, "image points along x").positive().show_default();
  line.option("--nz", o.nz, "image points along depth").positive().show_default();
  line.option("--ns", o.ns, "shots along the surface (split over the ranks)")
      .positive()
      .show_default();
  line.option("--nr", o.nr, "receivers along the surface").positive().show_default();
  line.option("--nt", o.nt, "time samples").positive().show_default();
  line.option("--niter", o.niter, "CGLS iterations of the LSM").range(0, 100000).show_default();
  line.flag("--dynamic", o.dynamic, "PyLops' dynamic weights (spreading, obliquity, apertures)");
  line.flag("--segy", o.segy, "also write migrated.sgy and lsm.sgy (builds with segyio)");
  line.option("--space", o.space,
              "where the operators and the solver run: host, or cuda (one GPU per rank; needs "
              "the CUDA backend)")
      .one_of({std::string(Host::name), std::string(Cuda::name)})
      .show_default();
  line.option("--output", o.output, "output directory, created when missing").show_default();
  line.option("--check", o.check_ratio,
              "verify the run: LSM image error at most RATIO times the migrated image's; exit "
              "status 1 otherwise (for tests)")
      .value_name("RATIO")
      .non_negative();
  line.validate([&o] {
    if (o.nx < 2 || o.nz < 2) throw OptionError{"--nx/--nz", "need at least 2 points each"};
    if (o.nt <= 2 * o.half) throw OptionError{"--nt", "must exceed the wavelet's 25 samples"};
  });
}

// ||a x - b|| / ||b|| at the best scale a (the migrated image's amplitudes are arbitrary).
double best_scaled_error(const std::vector<double>& x, const std::vector<double>& b, bool scale) {
  double xb = 0, xx = 0, bb = 0;
  for (std::size_t i = 0; i < x.size(); ++i) {
    xb += x[i] * b[i];
    xx += x[i] * x[i];
    bb += b[i] * b[i];
  }
  const double a = scale ? (xx > 0 ? xb / xx : 0.0) : 1.0;
  double e = 0;
  for (std::size_t i = 0; i < x.size(); ++i)
    e += (a * x[i] - b[i]) * (a * x[i] - b[i]);
  return std::sqrt(e / bb);
}

template <MemorySpace Space>
int run(const Options& o, const Communicator& comm) {
  const bool root = comm.rank() == 0;
  using Array = DistributedArray<double, Space>;
  const KirchhoffGeometry geometry{{}, {o.nx, 0.0, o.dx}, {o.nz, 0.0, o.dz}, o.nt, o.dt};
  const double width = static_cast<double>(o.nx - 1) * o.dx;
  const std::vector<double> sources = surface_points(o.ns, width);
  const std::vector<double> receivers = surface_points(o.nr, width);
  const std::vector<double> wavelet = ricker(o.half, o.dt, o.f0);
  // This rank's shots: PyLops-MPI's split (n / P + 1 to the first n % P ranks).
  const Index share = o.ns / comm.size() + (comm.rank() < o.ns % comm.size() ? 1 : 0);
  Index first = 0;
  for (int r = 0; r < comm.rank(); ++r)
    first += o.ns / comm.size() + (r < o.ns % comm.size() ? 1 : 0);
  const std::span<const double> mine(sources.data() + 2 * first,
                                     static_cast<std::size_t>(2 * share));
  const auto K = Kirchhoff<double, Space>(geometry, mine, receivers, wavelet, o.half,
                                          {.velocity = o.velocity, .dynamic = o.dynamic}, comm);

  const std::vector<double> truth = true_reflectivity(o.nx, o.nz);
  Array reflectivity(K.domain());
  reflectivity.assign_global(std::span<const double>(truth));
  const Array data = K.apply(reflectivity);
  const Array migrated = K.apply_adjoint(data);
  CglsOptions<Array> options;
  options.niter = o.niter;
  options.progress.show = true;
  options.progress.first = 3;
  options.progress.last = 1;
  options.progress.every = 10;
  const auto lsm = cgls(K, data, options);

  const std::vector<double> migrated_values = migrated.gather(), lsm_values = lsm.x.gather();
  const double migration_error = best_scaled_error(migrated_values, truth, true);
  const double lsm_error = best_scaled_error(lsm_values, truth, false);
  if (root) {
    std::printf(
        "\nKirchhoff LSM of a %lld x %lld image from %lld shots x %lld receivers x %lld "
        "samples on %d rank(s), space %s\n",
        static_cast<long long>(o.nx), static_cast<long long>(o.nz), static_cast<long long>(o.ns),
        static_cast<long long>(o.nr), static_cast<long long>(o.nt), comm.size(), Space::name);
    std::printf("image error ||x - r|| / ||r|| against the true reflectivity r:\n");
    std::printf("  migration (adjoint, best scale)   %.4f\n", migration_error);
    std::printf("  LSM (CGLS, %3d iterations)        %.4f\n", lsm.iterations, lsm_error);
  }

  // Outputs: every rank writes its part (host copies of device arrays).
  const auto on_host = [](const Array& a) {
    DistributedArray<double, Host> h(a.layout());
    h.assign_global(std::span<const double>(a.gather()));
    return h;
  };
  const Layout image(comm, {o.nx, o.nz}, Partition::BROADCAST);
  DistributedArray<double, Host> velocity(image);
  for (Index ix = 0; ix < o.nx; ++ix)
    for (Index iz = 0; iz < o.nz; ++iz)
      velocity.data()[ix * o.nz + iz] = layered_velocity(iz, o.nz);
  io::write_npy(o.output + "/velocity.npy", velocity);
  io::write_npy(o.output + "/reflectivity.npy", on_host(reflectivity));
  io::write_npy(o.output + "/data.npy", on_host(data));
  io::write_npy(o.output + "/migrated.npy", on_host(migrated));
  io::write_npy(o.output + "/lsm.npy", on_host(lsm.x));
  const std::vector<double>& costs = lsm.costs;
  DistributedArray<double, Host> cost(Layout(comm, {Index(costs.size())}, Partition::BROADCAST));
  cost.assign_global(std::span<const double>(costs));
  io::write_npy(o.output + "/cost.npy", cost);
  if (o.segy) {
#if DISTLOPS_WITH_SEGYIO
    const io::SegyWriteOptions segy{.sample_interval = o.dz * 1e-3};
    io::write_segy(o.output + "/migrated.sgy", on_host(migrated), segy);
    io::write_segy(o.output + "/lsm.sgy", on_host(lsm.x), segy);
#else
    throw ExitError(exit_status::unavailable, "--segy needs a build with segyio");
#endif
  }
  int written = 1;
  if (root) {
    JsonSummary summary;
    summary.integer("nx", o.nx).integer("nz", o.nz).integer("ns", o.ns).integer("nr", o.nr);
    summary.integer("nt", o.nt).number("dx", o.dx).number("dz", o.dz).number("dt", o.dt);
    summary.integer("ranks", comm.size()).text("space", Space::name);
    summary.integer("iterations", lsm.iterations).flag("dynamic", o.dynamic);
    summary.number("error_migration", migration_error).number("error_lsm", lsm_error);
    try {
      summary.write(o.output + "/summary.json");
    } catch (const IoError&) {
      written = 0;
    }
  }
  if (comm.broadcast(written, 0) == 0) throw IoError("cannot write " + o.output + "/summary.json");

  if (o.check_ratio >= 0) {
    const bool passed = std::isfinite(lsm_error) && lsm_error <= o.check_ratio * migration_error;
    if (root) {
      std::printf("check %s: LSM error %.4f %s %.3g x migration error %.4f\n",
                  passed ? "passed" : "failed", lsm_error, passed ? "<=" : "not <=", o.check_ratio,
                  migration_error);
    }
    return passed ? exit_status::success : exit_status::failure;
  }
  return exit_status::success;
}

}  // namespace

int main(int argc, char** argv) {
  Environment environment(argc, argv);
  const Communicator comm = Communicator::world();
  const bool root = comm.rank() == 0;
  CommandLine line(
      "Kirchhoff least-squares migration of a built-in layered model with point scatterers, the "
      "shots split over the ranks; prints the image error before and after LSM and writes the "
      "arrays as .npy files (examples/kirchhoff/plot_kirchhoff_lsm.py draws them).",
      "kirchhoff_lsm");
  Options o;
  add_options(line, o);
  if (const auto status = line.parse(argc, argv, comm)) return *status;
  const std::string unavailable = space_unavailable_reason(o.space, comm);
  if (!unavailable.empty()) {
    if (root) std::fprintf(stderr, "kirchhoff_lsm: %s\n", unavailable.c_str());
    return exit_status::unavailable;
  }
  try {
    prepare_output_directory("--output " + o.output, o.output, comm);
#define DISTLOPS_EXAMPLE_RUN_IN(Space) \
  if (o.space == Space::name) return run<Space>(o, comm);
    DISTLOPS_FOR_EACH_SPACE(DISTLOPS_EXAMPLE_RUN_IN)
#undef DISTLOPS_EXAMPLE_RUN_IN
    throw InvalidArgument("--space " + o.space + " is not a memory space of this build");
  } catch (const ExitError& e) {
    if (root) std::fprintf(stderr, "kirchhoff_lsm: %s\n", e.what());
    return e.status();
  } catch (const std::exception& e) {
    if (root) std::fprintf(stderr, "kirchhoff_lsm: %s\n", e.what());
    return exit_status::failure;
  }
}
