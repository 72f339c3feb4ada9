// SPDX-License-Identifier: BSD-3-Clause
// Copyright (c) 2026 The distlops authors
// Total-variation deblurring of a 2-d image split over the ranks along its rows: a built-in
// piecewise-constant image is blurred by a Gaussian kernel (Convolve2D) and seeded noise is
// added; the image is then recovered twice,
//
//   TV:        min_x 1/2 ||H x - b||^2 + weight ||grad x||_{2,1}   (PrimalDual, f = L2(H, b),
//              g = L21, K = Gradient: the isotropic total variation)
//   Tikhonov:  min_x ||H x - b||^2 + eps^2 ||L x||^2                (CGLS on [H; eps L],
//              L the 2-d Laplacian)
//
// and the relative error of each, ||x - x_true|| / ||x_true||, is printed. Edges survive the TV
// regularisation while the quadratic one smears them: the TV error is the smaller.
//
//     mpiexec -n 2 ./tv_deblurring --output tv-deblurring-output
//     /usr/bin/python3 examples/tv_deblurring/plot_tv_deblurring.py tv-deblurring-output
//
// Writes true.npy, blurred.npy, tv.npy, tikhonov.npy and summary.json into --output.
#include <cmath>
#include <cstdio>
#include <exception>
#include <string>
#include <vector>

#include "distlops/core/environment.hpp"
#include "distlops/core/error.hpp"
#include "distlops/core/random.hpp"
#include "distlops/io/npy.hpp"
#include "distlops/operators/derivative/derivatives.hpp"
#include "distlops/operators/signal/convolvend.hpp"
#include "distlops/operators/stack/stacked.hpp"
#include "distlops/solvers/cgls.hpp"
#include "distlops/solvers/proximal/l2.hpp"
#include "distlops/solvers/proximal/l21.hpp"
#include "distlops/solvers/proximal/primal_dual.hpp"
#include "support/command_line.hpp"
#include "support/outputs.hpp"
#include "support/summary_json.hpp"

using namespace distlops;
using namespace distlops::examples;

namespace {

using V = DistributedArray<double>;
using S = StackedDistributedArray<double>;

struct Options {
  Index nx = 128, ny = 128;
  double blur = 1.5;    // standard deviation of the Gaussian kernel, in pixels
  Index taps = 9;       // kernel size (odd)
  double noise = 0.02;  // noise amplitude relative to the image's largest value
  double weight = 0.01;
  double eps = 0.1;
  int niter = 200;       // primal-dual iterations
  int inner = 5;         // CGLS iterations of each prox of the data term
  int cgls_niter = 100;  // Tikhonov iterations
  std::string output = "tv-deblurring-output";
  double check_ratio = -1;  // negative: no check
};

/// The test image at global pixel (i, j) of an nx x ny grid: a background of 0, a rectangle of
/// 1, a disc of 0.6 and a diagonal bar of 0.3 (which the disc covers where they overlap).
double image_value(Index i, Index j, Index nx, Index ny) {
  const double u = (static_cast<double>(i) + 0.5) / static_cast<double>(nx);  // rows, 0..1
  const double v = (static_cast<double>(j) + 0.5) / static_cast<double>(ny);  // columns, 0..1
  const double du = u - 0.62, dv = v - 0.62;
  if (du * du + dv * dv < 0.2 * 0.2) return 0.6;
  if (u > 0.15 && u < 0.45 && v > 0.12 && v < 0.55) return 1.0;
  if (std::abs(u - v + 0.35) < 0.05 && v > 0.45 && v < 0.95) return 0.3;
  return 0.0;
}

V test_image(const Layout& layout) {
  V image(layout);
  const Index row0 = layout.offset(layout.rank());
  const Index rows = image.local_shape()[0];
  const Index nx = layout.global_shape()[0], ny = layout.global_shape()[1];
  auto local = image.local();
  for (Index i = 0; i < rows; ++i) {
    for (Index j = 0; j < ny; ++j)
      local[static_cast<std::size_t>(i * ny + j)] = image_value(row0 + i, j, nx, ny);
  }
  return image;
}

/// A taps x taps Gaussian of standard deviation `blur`, normalised to sum 1.
std::vector<double> gaussian_kernel(Index taps, double blur) {
  std::vector<double> h(static_cast<std::size_t>(taps * taps));
  const double centre = static_cast<double>(taps / 2);
  double sum = 0;
  for (Index a = 0; a < taps; ++a) {
    for (Index b = 0; b < taps; ++b) {
      const double da = static_cast<double>(a) - centre, db = static_cast<double>(b) - centre;
      const double value = std::exp(-(da * da + db * db) / (2 * blur * blur));
      h[static_cast<std::size_t>(a * taps + b)] = value;
      sum += value;
    }
  }
  for (double& value : h)
    value /= sum;
  return h;
}

double relative_error(const V& x, const V& truth) {
  V difference(x);
  difference.axpy(-1.0, truth);
  return static_cast<double>(difference.norm()) / static_cast<double>(truth.norm());
}

void add_options(CommandLine& line, Options& o) {
  line.option("--nx", o.nx, "image rows (split over the ranks)").positive().show_default();
  line.option("--ny", o.ny, "image columns").positive().show_default();
  line.option("--blur", o.blur, "standard deviation of the Gaussian blur in pixels")
      .positive()
      .show_default();
  line.option("--taps", o.taps, "size of the (square, odd) blur kernel").positive().show_default();
  line.option("--noise", o.noise, "noise amplitude relative to the image's largest value")
      .non_negative()
      .show_default();
  line.option("--weight", o.weight, "weight of the total variation").non_negative().show_default();
  line.option("--eps", o.eps, "weight of the Laplacian in the Tikhonov inversion")
      .non_negative()
      .show_default();
  line.option("--niter", o.niter, "primal-dual iterations").range(0, 100000).show_default();
  line.option("--inner", o.inner, "CGLS iterations of each prox of the data term")
      .range(1, 1000)
      .show_default();
  line.option("--cgls-niter", o.cgls_niter, "CGLS iterations of the Tikhonov inversion")
      .range(0, 100000)
      .show_default();
  line.option("--output", o.output, "output directory, created when missing").show_default();
  line.option("--check", o.check_ratio,
              "verify the run: TV error at most RATIO times the Tikhonov error, and both "
              "below the blurred image's; exit status 1 otherwise (for tests)")
      .value_name("RATIO")
      .non_negative();
  line.validate([&o, &line] {
    if (line.given("--check") && o.check_ratio > 1.0) {
      throw OptionError{"--check", "RATIO must lie in [0, 1]"};
    }
    if (o.taps % 2 == 0) throw OptionError{"--taps", "must be odd"};
    if (o.taps > o.nx || o.taps > o.ny) {
      throw OptionError{"--taps", "the kernel must fit in the image"};
    }
  });
}

}  // namespace

int main(int argc, char** argv) {
  Environment environment(argc, argv);
  const Communicator comm = Communicator::world();
  const bool root = comm.rank() == 0;
  CommandLine line(
      "Total-variation deblurring of a built-in 2-d image split over the ranks, beside a "
      "Tikhonov (Laplacian) inversion; prints the relative error of each and writes the images "
      "as .npy files (examples/tv_deblurring/plot_tv_deblurring.py draws them).",
      "tv_deblurring");
  Options o;
  add_options(line, o);
  if (const auto status = line.parse(argc, argv, comm)) return *status;
  // distlops raises the same error on every rank (a bad output directory, say); rank 0 says it.
  try {
    // Before the work: a run never computes what it cannot write.
    prepare_output_directory("--output " + o.output, o.output, comm);
    // The image's rows are split over the ranks (PyLops-MPI's default split).
    const Layout layout(comm, {o.nx, o.ny});
    const V truth = test_image(layout);
    const std::vector<double> h = gaussian_kernel(o.taps, o.blur);
    const auto blur = Convolve2D<double>(layout, std::span<const double>(h), {o.taps, o.taps},
                                         {o.taps / 2, o.taps / 2});
    V blurred = blur.apply(truth);
    V noise(layout);
    fill_random(noise, 2026);  // uniform in [-1, 1), the same image at any rank count
    blurred.axpy(o.noise * static_cast<double>(truth.norm(INFINITY)), noise);

    // TV: f = 1/2 ||H x - b||^2 (its prox by a few CGLS iterations), g = weight ||.||_{2,1},
    // K = Gradient (forward differences: ||K||^2 <= 8, so tau sigma = 0.12 < 1/8).
    const L2<V> data_term(blur, blurred, 1.0, L2InnerOptions{.niter = o.inner});
    const L21<S> total_variation(o.weight);
    GradientOptions gradient_options;
    gradient_options.kind = DerivativeKind::forward;
    const auto gradient = Gradient<double>(layout, gradient_options);
    PrimalDualOptions<V> tv_options;
    tv_options.niter = o.niter;
    tv_options.tau = 0.35;
    tv_options.sigma = 0.35;
    tv_options.check_steps = false;
    tv_options.progress.show = true;
    tv_options.progress.first = 3;
    tv_options.progress.last = 1;
    tv_options.progress.every = 50;
    const auto tv = primal_dual(data_term, total_variation, gradient, blurred, tv_options);

    // Tikhonov: CGLS on [H; eps L] x = [b; 0].
    const auto laplacian = Laplacian<double>(layout, {.axes = {0, 1}});
    const auto stacked = StackedVStack<double, Host>({blur, o.eps * laplacian});
    S rhs = stacked.apply(truth);
    rhs[0].copy_from(blurred);
    rhs[1].set_zero();
    CglsOptions<V> tikhonov_options;
    tikhonov_options.niter = o.cgls_niter;
    tikhonov_options.progress.show = true;
    tikhonov_options.progress.first = 3;
    tikhonov_options.progress.last = 1;
    tikhonov_options.progress.every = 50;
    const auto tikhonov = cgls(stacked, rhs, tikhonov_options);

    const double blurred_error = relative_error(blurred, truth);
    const double tv_error = relative_error(tv.x, truth);
    const double tikhonov_error = relative_error(tikhonov.x, truth);
    if (root) {
      std::printf(
          "\n%lld x %lld image on %d rank(s), Gaussian blur %.3g px (%lld x %lld taps), "
          "noise %.3g\n",
          static_cast<long long>(o.nx), static_cast<long long>(o.ny), comm.size(), o.blur,
          static_cast<long long>(o.taps), static_cast<long long>(o.taps), o.noise);
      std::printf("relative error ||x - x_true|| / ||x_true||:\n");
      std::printf("  blurred and noisy data                      %.4f\n", blurred_error);
      std::printf("  Tikhonov (CGLS, eps %-6.3g %4d iterations)  %.4f\n", o.eps,
                  tikhonov.iterations, tikhonov_error);
      std::printf("  TV (PrimalDual, weight %-6.3g %4d iterations) %.4f\n", o.weight, tv.iterations,
                  tv_error);
    }

    // Outputs: every rank writes its rows; rank 0 the summary, and every rank learns whether it
    // could.
    io::write_npy(o.output + "/true.npy", truth);
    io::write_npy(o.output + "/blurred.npy", blurred);
    io::write_npy(o.output + "/tv.npy", tv.x);
    io::write_npy(o.output + "/tikhonov.npy", tikhonov.x);
    int written = 1;
    if (root) {
      // A figure that is not a number (a diverged solve) is written as null.
      JsonSummary summary;
      summary.integer("nx", o.nx).integer("ny", o.ny).integer("ranks", comm.size());
      summary.number("blur", o.blur).number("noise", o.noise).number("weight", o.weight);
      summary.number("eps", o.eps).integer("tv_iterations", tv.iterations);
      summary.integer("tikhonov_iterations", tikhonov.iterations);
      summary.number("error_blurred", blurred_error).number("error_tv", tv_error);
      summary.number("error_tikhonov", tikhonov_error);
      try {
        summary.write(o.output + "/summary.json");
      } catch (const IoError&) {
        written = 0;
      }
    }
    if (comm.broadcast(written, 0) == 0)
      throw IoError("cannot write " + o.output + "/summary.json");

    if (o.check_ratio >= 0) {
      const bool passed = tv_error <= o.check_ratio * tikhonov_error &&
                          tikhonov_error < blurred_error && std::isfinite(tv_error);
      if (root) {
        std::printf("check %s: TV error %.4f %s %.3g x Tikhonov error %.4f\n",
                    passed ? "passed" : "failed", tv_error, passed ? "<=" : "not <=", o.check_ratio,
                    tikhonov_error);
      }
      return passed ? exit_status::success : exit_status::failure;
    }
    return exit_status::success;
  } catch (const ExitError& e) {
    if (root) std::fprintf(stderr, "tv_deblurring: %s\n", e.what());
    return e.status();
  } catch (const std::exception& e) {
    if (root) std::fprintf(stderr, "tv_deblurring: %s\n", e.what());
    return exit_status::failure;
  }
}
