// SPDX-License-Identifier: BSD-3-Clause
// Copyright (c) 2026 The distlops authors
// Post-stack inversion of a small 3-D cube: the distlops translation of
// examples/porting/poststack_pylops_mpi.py, step by step (docs/porting.md shows them side by
// side).
//
//     mpiexec -n 2 ./poststack_port [--ny 8] [--nx 24] [--nz 80] [--niter 20] [--eps 0.5]
//                                   [--output DIR] [--show] [--check]
//
// The model m = ln(impedance) lives on a (ny, nx, nz) grid split over the ranks along y. Each
// rank models its traces with a centred time derivative followed by a convolution with a
// Ricker wavelet (PyLops' PoststackLinearModelling), and BlockDiag assembles the ranks'
// operators. Three inversions start from a smooth background:
//
//   1. CGLS on the modelling operator G;
//   2. CG on the regularised normal equations (G^H G + eps L^H L) m = G^H d;
//   3. CGLS on the stacked operator [G; sqrt(eps) L] with data [d; 0].
//
// --output writes what the PyLops-MPI script writes, as .npy files of the same names.
// --check verifies that CGLS and the regularised inversions improve on the background model,
// that 2 and 3 (one problem, two solvers) agree, and that the CGLS costs never grow; it exits
// with status 1 otherwise.
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <limits>
#include <numbers>
#include <string>
#include <vector>

#include "distlops/core/environment.hpp"
#include "distlops/core/stacked_distributed_array.hpp"
#include "distlops/io/npy.hpp"
#include "distlops/operators/derivative/derivatives.hpp"
#include "distlops/operators/local/first_derivative.hpp"
#include "distlops/operators/reshape.hpp"
#include "distlops/operators/signal/convolve1d.hpp"
#include "distlops/operators/stack/block_diag.hpp"
#include "distlops/operators/stack/stacked.hpp"
#include "distlops/solvers/cg.hpp"
#include "distlops/solvers/cgls.hpp"
#include "support/command_line.hpp"
#include "support/outputs.hpp"

using namespace distlops;
using Array = DistributedArray<double>;

namespace {

struct Settings {
  Index ny = 8, nx = 24, nz = 80;
  int niter = 20;
  double eps = 0.5;
  std::string output;
  bool show = false;
  bool check = false;
};

/// Acoustic impedance: three dipping interfaces, a lens and a trend with depth (C order).
std::vector<double> impedance(Index ny, Index nx, Index nz) {
  std::vector<double> ai(static_cast<std::size_t>(ny * nx * nz));
  const auto unit = [](Index i, Index n) { return double(i) / double(std::max<Index>(n - 1, 1)); };
  for (Index iy = 0; iy < ny; ++iy) {
    const double y = unit(iy, ny);
    for (Index ix = 0; ix < nx; ++ix) {
      const double x = unit(ix, nx);
      const double z1 = 0.2513 + 0.1037 * x + 0.0519 * y;
      const double z2 = 0.5521 - 0.0813 * x;
      const double z3 = 0.8017 + 0.0307 * y;
      for (Index iz = 0; iz < nz; ++iz) {
        const double z = unit(iz, nz);
        double value = z < z1 ? 3000.0 : z < z2 ? 4200.0 : z < z3 ? 3600.0 : 5000.0;
        const bool lens = std::pow(x - 0.61, 2) / 0.041 + std::pow(z - 0.43, 2) / 0.0053 +
                              std::pow(y - 0.47, 2) / 0.53 <
                          1.0;
        if (lens) value = 4800.0;
        ai[static_cast<std::size_t>((iy * nx + ix) * nz + iz)] = value * (1.0 + 0.1 * z);
      }
    }
  }
  return ai;
}

/// Running means of half-widths `radii` along each axis of a C-order (ny, nx, nz) array
/// (windows cut at the edges).
std::vector<double> smooth(std::vector<double> field, const Shape& dims, const Shape& radii) {
  for (std::size_t axis = 0; axis < 3; ++axis) {
    Index stride = 1;
    for (std::size_t a = axis + 1; a < 3; ++a)
      stride *= dims[a];
    const Index n = dims[axis], outer = Index(field.size()) / (n * stride);
    std::vector<double> out(field.size());
    for (Index o = 0; o < outer; ++o) {
      for (Index i = 0; i < n; ++i) {
        for (Index s = 0; s < stride; ++s) {
          double sum = 0;
          Index count = 0;
          for (Index k = std::max<Index>(0, i - radii[axis]); k <= std::min(n - 1, i + radii[axis]);
               ++k, ++count) {
            sum += field[static_cast<std::size_t>((o * n + k) * stride + s)];
          }
          out[static_cast<std::size_t>((o * n + i) * stride + s)] = sum / double(count);
        }
      }
    }
    field = std::move(out);
  }
  return field;
}

/// PyLops' ricker(t[:ntwav // 2 + 1], f0)[0]: ntwav (odd) samples centred on the middle one.
std::vector<double> ricker(double dt, double f0, Index ntwav) {
  std::vector<double> w(static_cast<std::size_t>(ntwav));
  for (Index i = 0; i < ntwav; ++i) {
    const double a = std::numbers::pi * f0 * (double(i - ntwav / 2) * dt);
    w[static_cast<std::size_t>(i)] = (1 - 2 * a * a) * std::exp(-a * a);
  }
  return w;
}

/// The options of the program; CLI11 checks their types and ranges.
void add_options(examples::CommandLine& line, Settings& s) {
  line.option("--ny", s.ny, "cube size along y (split over the ranks)").positive().show_default();
  line.option("--nx", s.nx, "cube size along x").positive().show_default();
  line.option("--nz", s.nz, "time samples, at least 41 (the wavelet's length)")
      .range(41, std::numeric_limits<Index>::max())
      .show_default();
  line.option("--niter", s.niter, "iterations of each solver").non_negative().show_default();
  line.option("--eps", s.eps, "weight of the Laplacian regularisation")
      .non_negative()
      .show_default();
  line.option("--output", s.output, "write the results as .npy files into this directory");
  line.flag("--show", s.show, "print the solvers' progress tables");
  line.flag("--check", s.check,
            "verify the inversions (see the top of poststack_port.cpp); exit status 1 when "
            "they fail");
}

/// A history as a replicated 1-d array, which write_npy saves from rank 0.
void write_history(const std::filesystem::path& path, const std::vector<double>& values) {
  io::write_npy(path, Array::to_dist(values, {.partition = Partition::BROADCAST}));
}

double relative_error(const Array& x, const Array& reference) {
  return (x - reference).norm() / reference.norm();
}

}  // namespace

int main(int argc, char** argv) {
  Environment environment(argc, argv);
  const Communicator comm = Communicator::world();
  Settings s;
  examples::CommandLine line(
      "Post-stack inversion of a small 3-D cube: the distlops translation of "
      "examples/porting/poststack_pylops_mpi.py (docs/porting.md).",
      "poststack_port");
  add_options(line, s);
  if (const auto status = line.parse(argc, argv, comm)) return *status;
  if (!s.output.empty()) {
    // Before the work: a run never computes what it cannot write.
    try {
      examples::prepare_output_directory("--output " + s.output, s.output, comm);
    } catch (const examples::ExitError& e) {
      if (comm.rank() == 0) std::fprintf(stderr, "poststack_port: %s\n", e.what());
      return e.status();
    }
  }
  const Index ny = s.ny, nx = s.nx, nz = s.nz;
  const int niter = s.niter;
  const double eps = s.eps;

  // Model, background and wavelet: the same global arrays on every rank.
  std::vector<double> m = impedance(ny, nx, nz);
  for (double& v : m)
    v = std::log(v);
  const std::vector<double> mback = smooth(m, {ny, nx, nz}, {2, 6, 10});
  const double dt = 0.004, f0 = 20.0;
  const Index ntwav = 41;
  const std::vector<double> wav = ricker(dt, f0, ntwav);

  // Split along y with PyLops-MPI's rule: a 3-d layout, so no flattening is needed.
  const Layout grid(comm, {ny, nx, nz});
  const Index ny_r = grid.local_extent(comm.rank());
  const Array m_dist = Array::to_dist(m, {.shape = {ny, nx, nz}});
  const Array mback_dist = Array::to_dist(mback, {.shape = {ny, nx, nz}});

  // Each rank's modelling operator acts along the time axis (2) directly: no transposes.
  std::vector<LocalOperator<double>> blocks;
  if (ny_r > 0) {
    const Shape dims{ny_r, nx, nz};
    const auto D =
        local::FirstDerivative<double>(dims, {.axis = 2, .kind = DerivativeKind::centered});
    const auto W = local::Convolve1D<double>(dims, wav, ntwav / 2, /*axis=*/2);
    blocks.push_back(W * D);
  }
  // BlockDiag maps flat vectors; reshape lets it act on the grid, where L lives too.
  const auto G = reshape(BlockDiag(blocks, comm), grid, grid);
  const Array d_dist = G.apply(m_dist);

  // 1. CGLS on the modelling operator (tol = 0, the default: exactly niter iterations).
  CglsOptions<Array> cgls_options;
  cgls_options.niter = niter;
  cgls_options.progress.show = s.show;
  const auto cgls_result = cgls(G, d_dist, mback_dist, cgls_options);

  // 2. CG on the regularised normal equations.
  const auto L =
      Laplacian<double>(grid, {.axes = {0, 1, 2}, .weights = {1, 1, 1}, .sampling = {1, 1, 1}});
  const auto N = G.adjoint() * G + eps * (L.adjoint() * L);
  CgOptions<Array> cg_options;
  cg_options.niter = niter;
  cg_options.progress.show = s.show;
  const auto cg_result = cg(N, G.apply_adjoint(d_dist), mback_dist, cg_options);

  // 3. CGLS on the stacked operator [G; sqrt(eps) L] with data [d; 0].
  const auto A = StackedVStack<double, Host>({G, std::sqrt(eps) * L});
  const StackedDistributedArray<double> rhs(std::vector<Array>{d_dist, Array::zeros(grid)});
  const auto reg_result = cgls(A, rhs, mback_dist, cgls_options);

  const double background_error = relative_error(mback_dist, m_dist);
  const double cgls_error = relative_error(cgls_result.x, m_dist);
  const double cg_error = relative_error(cg_result.x, m_dist);
  const double reg_error = relative_error(reg_result.x, m_dist);
  const double cg_vs_reg = relative_error(cg_result.x, reg_result.x);
  if (comm.rank() == 0) {
    std::printf("background: model error %.4e\n", background_error);
    std::printf("x_cgls: model error %.4e\nx_cg: model error %.4e\nx_reg: model error %.4e\n",
                cgls_error, cg_error, reg_error);
    std::printf("CG on the normal equations against CGLS on the stack: %.2e\n", cg_vs_reg);
  }

  if (!s.output.empty()) {
    const std::filesystem::path out(s.output);
    io::write_npy(out / "model.npy", m_dist);
    io::write_npy(out / "background.npy", mback_dist);
    write_history(out / "wavelet.npy", wav);
    io::write_npy(out / "data.npy", d_dist);
    io::write_npy(out / "x_cgls.npy", cgls_result.x);
    write_history(out / "cost_cgls.npy", cgls_result.costs);
    io::write_npy(out / "x_cg.npy", cg_result.x);
    write_history(out / "cost_cg.npy", cg_result.costs);
    io::write_npy(out / "x_reg.npy", reg_result.x);
    write_history(out / "cost_reg.npy", reg_result.costs);
  }

  if (s.check) {
    bool ok = cgls_error < background_error && reg_error < background_error;
    // CGLS on [G; sqrt(eps) L] is CG on its normal equations: the same iterates to rounding.
    ok = ok && cg_vs_reg < 1e-6;
    for (const auto* costs : {&cgls_result.costs, &reg_result.costs}) {
      for (std::size_t k = 1; k < costs->size(); ++k)
        ok = ok && (*costs)[k] <= (*costs)[k - 1] * (1 + 1e-12);
    }
    if (comm.rank() == 0) std::printf("check: %s\n", ok ? "passed" : "FAILED");
    return ok ? 0 : 1;
  }
  return 0;
}
