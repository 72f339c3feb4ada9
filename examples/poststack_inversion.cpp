// SPDX-License-Identifier: BSD-3-Clause
// Copyright (c) 2026 The distlops authors
// Post-stack seismic inversion, end to end: a 2-d acoustic-impedance section (layers, a
// normal fault and a wedge), its band-limited noisy seismic data, and the regularised
// least-squares inversion of the data for the log-impedance with CGLS. Traces are split over
// the ranks; the modelling is trace by trace, the Laplacian regularisation couples
// neighbouring traces across ranks. With --regularisation tv the Laplacian gives way to the
// total variation of the model, solved by the primal-dual algorithm (PrimalDual, L2 and L21 of
// Gradient). See examples/poststack/problem.hpp for the formulas.
// The operators and the solver run on the host (--space host, the default) or on one GPU per
// rank (--space cuda, in builds with the CUDA backend).
//
//     mpiexec -n 2 ./poststack_inversion --output poststack-output
//     mpiexec -n 2 ./poststack_inversion --space cuda
//     mpiexec -n 2 ./poststack_inversion --regularisation tv --output poststack-output-tv
//
// Writes the arrays as .npy files and a summary.json into the output directory;
// examples/poststack/plot_poststack.py draws the pictures from them. --help lists the options.
#include <chrono>
#include <cmath>
#include <cstdio>
#include <filesystem>
#include <functional>
#include <iostream>
#include <string>
#include <vector>

#include "distlops/distlops.hpp"
#include "distlops/io/io_config.hpp"
#if DISTLOPS_WITH_SEGYIO
#include "distlops/io/segy.hpp"
#endif
#include "poststack/problem.hpp"
#include "support/command_line.hpp"
#include "support/outputs.hpp"
#include "support/space_choice.hpp"
#include "support/summary_json.hpp"

using namespace distlops;
using namespace distlops::examples;

namespace {

const char* const description =
    R"(Post-stack seismic inversion of a 2-d section for the log of the acoustic impedance,
m = ln(impedance), from data d = W D m (W: Ricker wavelet, D: centered time derivative),
regularised with eps times the 2-d Laplacian and solved with CGLS from a smooth model, or
(--regularisation tv) with weight times its total variation, solved with PrimalDual.
Writes the arrays as .npy files and summary.json into --output (checked before the work);
draw the pictures with /usr/bin/python3 examples/poststack/plot_poststack.py OUTPUT.)";

std::string format_number(double value) {
  char text[32];
  std::snprintf(text, sizeof text, "%g", value);
  return text;
}

struct Options {
  PoststackSettings settings;
  int niter = 100;
  std::string regularisation = "laplacian";
  double weight = 0.02;  // of the total variation
  int inner = 5;         // CGLS iterations of each prox of the data term (TV)
  std::string output = "poststack-output";
  std::string space = Host::name;
  double check_max_error = -1;  // negative: no check
};

/// The options of the program, checked by CLI11 (types and ranges) and by a check of several
/// options together.
void add_options(CommandLine& line, Options& options) {
  PoststackSettings& s = options.settings;
  line.option("--nx", s.nx, "traces").positive().show_default();
  line.option("--nz", s.nz, "time samples per trace").positive().show_default();
  line.option("--shares", s.shares,
              "traces per rank, comma separated (e.g. 100,156); default: PyLops-MPI's split")
      .delimiter(',')
      .non_negative();
  line.option("--noise", s.noise, "noise standard deviation relative to the data's RMS amplitude")
      .non_negative()
      .show_default();
  line.option("--eps", s.eps, "weight of the Laplacian regularisation")
      .non_negative()
      .show_default();
  line.option("--dt", s.dt, "time sampling in seconds").positive().show_default();
  line.option("--f0", s.peak_frequency,
              "peak frequency of the Ricker wavelet in Hz, below the Nyquist frequency "
              "1 / (2 dt)")
      .positive()
      .show_default();
  line.option("--regularisation", options.regularisation,
              "laplacian: min ||d - W D m||^2 + eps^2 ||L m||^2 by CGLS; tv: min 1/2 "
              "||d - W D m||^2 + weight TV(m) by PrimalDual (L2, L21 of Gradient)")
      .one_of({"laplacian", "tv"})
      .show_default();
  line.option("--weight", options.weight, "weight of the total variation (tv)")
      .non_negative()
      .show_default();
  line.option("--inner", options.inner, "CGLS iterations of each prox of the data term (tv)")
      .range(1, 1000)
      .show_default();
  line.option("--niter", options.niter, "CGLS (laplacian) or PrimalDual (tv) iterations")
      .range(0, 100000)
      .show_default();
  line.option("--output", options.output, "output directory, created when missing")
      .check([](const std::string& value) {
        return value.empty() ? std::string("needs a directory") : std::string();
      })
      .show_default();
  line.option("--model", s.model_file,
              "the true model instead of the built-in one: a float64 .npy file of shape "
              "(nx, nz) holding the acoustic impedance (positive values, not its logarithm); "
              "it sets the grid");
  line.option("--data", s.data_file,
              "data to invert instead of modelled ones: a float64 .npy file of shape (nx, nz) "
              "in the units of W D m; without --model there is no model error to report and "
              "the inversion starts from zero");
  line.option("--segy", s.segy_file,
              "data to invert instead of modelled ones: a post-stack SEG-Y file of nx traces "
              "of nz samples (IBM or IEEE floats) in the units of W D m; it sets the grid and "
              "--dt (needs a build with segyio)");
  line.option("--space", options.space,
              "where the operators and the solver run: host, or cuda (one GPU per rank; needs "
              "a build with the CUDA backend and a visible device on every rank)")
      .one_of({std::string(Host::name), std::string(Cuda::name)})
      .show_default();
  line.option("--check", options.check_max_error,
              "verify the run: final model error at most MAX and below the starting one, cost "
              "decreased, output files written; exit status 1 otherwise (for tests)")
      .value_name("MAX")
      .positive();
  line.validate([&s] {
    if (!s.segy_file.empty() && !s.data_file.empty()) {
      throw OptionError{"--segy", "excludes --data: give the data once"};
    }
    if (s.peak_frequency * s.dt >= 0.5) {
      throw OptionError{
          "--f0", format_number(s.peak_frequency) + " Hz is not below the Nyquist frequency " +
                      format_number(0.5 / s.dt) + " Hz of --dt " + format_number(s.dt) + " s"};
    }
  });
}

/// With a model or data file the grid is the file's shape; explicit --nx/--nz must agree.
/// Throws ExitError (exit_status::input) for a file that is missing, unreadable or does not fit,
/// the same on every rank (every rank reads the same headers).
void take_grid_from_files(Options& options, const CommandLine& line, const Communicator& comm) {
  PoststackSettings& s = options.settings;
  std::vector<std::pair<std::string, Shape>> shapes;
  for (const std::string& file : {s.model_file, s.data_file}) {
    if (file.empty()) continue;
    io::NpyHeader header;
    try {
      header = io::read_npy_header(file, comm);
    } catch (const Error& e) {
      throw ExitError(exit_status::input, e.what());
    }
    if (header.shape.size() != 2) {
      throw ExitError(exit_status::input, file + ": expected a 2-d array (nx, nz), got shape " +
                                              to_string(header.shape));
    }
    shapes.emplace_back(file, header.shape);
  }
  if (!s.segy_file.empty()) {
#if DISTLOPS_WITH_SEGYIO
    io::SegyGeometry geometry;
    try {
      geometry = io::read_segy_geometry(s.segy_file, comm);
    } catch (const Error& e) {
      throw ExitError(exit_status::input, e.what());
    }
    if (line.given("--dt") && std::abs(s.dt - geometry.sample_interval) > 1e-6 * s.dt) {
      throw ExitError(exit_status::input,
                      "--dt " + format_number(s.dt) + " s disagrees with the sample interval " +
                          format_number(geometry.sample_interval) + " s of " + s.segy_file);
    }
    s.dt = geometry.sample_interval;
    shapes.emplace_back(s.segy_file, Shape{geometry.traces, geometry.samples});
#else
    throw ExitError(exit_status::usage,
                    "--segy needs a distlops built with segyio, this one is not");
#endif
  }
  if (shapes.empty()) return;
  if (shapes.size() == 2 && shapes[0].second != shapes[1].second) {
    throw ExitError(exit_status::input, "the model (" + to_string(shapes[0].second) +
                                            ") and the data (" + to_string(shapes[1].second) +
                                            ") have different shapes");
  }
  const Shape& shape = shapes[0].second;
  const bool nx_given = line.given("--nx"), nz_given = line.given("--nz");
  if ((nx_given && s.nx != shape[0]) || (nz_given && s.nz != shape[1])) {
    throw ExitError(exit_status::input, "--nx/--nz disagree with the shape " + to_string(shape) +
                                            " of " + shapes[0].first);
  }
  s.nx = shape[0];
  s.nz = shape[1];
}

/// The model errors the demo reports, for the starting model (front) and every iterate.
struct ModelErrors {
  /// ||m - m_true|| / ||m_true||, m = ln(impedance): small because ln(impedance) is dominated
  /// by its mean.
  std::vector<double> log_impedance;
  /// ||m - m_true|| / ||m_true - m_start||: the share of what the inversion must recover that
  /// is still missing (1 at the starting model).
  std::vector<double> update;
  /// ||exp(m) - exp(m_true)|| / ||exp(m_true)||, of the starting and final models.
  double impedance_start = 0, impedance_final = 0;
};

/// ||exp(a) - exp(b)|| / ||exp(b)|| (collective).
double impedance_error(DistributedArray<double> a, DistributedArray<double> b) {
  for (auto* array : {&a, &b}) {
    for (double& value : array->local())
      value = std::exp(value);
  }
  return relative_error(a, b);
}

/// What the demo reports of an inversion, whichever the regularisation.
template <MemorySpace Space>
struct Inversion {
  DistributedArray<double, Space> x;
  std::vector<double> costs;
  std::vector<double> model_errors;  // empty without a true model
};

template <MemorySpace Space>
ModelErrors model_errors(const PoststackProblem<Space>& problem, const Inversion<Space>& solution) {
  ModelErrors errors;
  if (!problem.true_model) return errors;
  errors.log_impedance = solution.model_errors;
  // Iterate 0 is the starting model, so the first error is ||m_start - m_true|| / ||m_true||.
  const double start_error = solution.model_errors.front();
  for (double error : solution.model_errors)
    errors.update.push_back(start_error > 0 ? error / start_error : 0.0);
  const DistributedArray<double> truth = to_host(*problem.true_model);
  errors.impedance_start = impedance_error(to_host(problem.background), truth);
  errors.impedance_final = impedance_error(to_host(solution.x), truth);
  return errors;
}

/// A history (one value per iteration, the same on every rank) as a 1-d .npy file.
void write_history(const std::string& path, const std::vector<double>& values,
                   const Communicator& comm) {
  const Layout layout(comm, {static_cast<Index>(values.size())}, Partition::BROADCAST);
  io::write_npy(path, DistributedArray<double>::from_global(layout, values));
}

/// The settings and figures of the run, for the plotting script (run by rank 0 alone). A
/// figure that is not a number (a diverged or broken-down solve) is written as null.
template <MemorySpace Space>
void write_summary(const std::string& path, const Options& options,
                   const PoststackProblem<Space>& problem, const ModelErrors& errors,
                   const Communicator& comm) {
  const PoststackSettings& s = options.settings;
  JsonSummary summary;
  summary.integer("nx", s.nx).integer("nz", s.nz).number("dt", s.dt);
  summary.number("f0", s.peak_frequency).number("eps", s.eps).integer("niter", options.niter);
  summary.integer("ranks", comm.size()).text("regularisation", options.regularisation);
  summary.number("weight", options.weight).text("space", Space::name);
  summary.flag("true_model", problem.true_model.has_value()).flag("modelled_data", !s.data_given());
  if (s.data_given()) {
    summary.null("noise");
  } else {
    summary.number("noise", s.noise);
  }
  if (problem.true_model) {
    summary.numbers("error_log_impedance",
                    {errors.log_impedance.front(), errors.log_impedance.back()});
    summary.numbers("error_update", {errors.update.front(), errors.update.back()});
    summary.numbers("error_impedance", {errors.impedance_start, errors.impedance_final});
  }
  summary.write(path);
}

/// Rank 0's failure (or success) of a step that only rank 0 performs, agreed on by all.
void agree_on_rank0_step(const Communicator& comm, const std::string& what,
                         const std::function<void()>& step) {
  std::string message;
  if (comm.rank() == 0) {
    try {
      step();
    } catch (const std::exception& e) {
      message = e.what();
      if (message.empty()) message = "failed";
    }
  }
  message = rank0_text(comm, message);
  if (!message.empty()) throw IoError(what + ": " + message);
}

/// The demo in memory space `Space`: the problem, the inversion, the report, the outputs and
/// the optional check. Returns the exit status; errors raise the same exception on every rank.
template <MemorySpace Space>
int run(Options& options, const Communicator& comm) {
  const bool root = comm.rank() == 0;
  PoststackSettings& s = options.settings;
  // Short traces get a shorter wavelet (odd, at most the trace length).
  s.wavelet_taps = std::min(s.wavelet_taps, s.nz % 2 == 1 ? s.nz : s.nz - 1);
  const auto start = std::chrono::steady_clock::now();
  const PoststackProblem<Space> problem = make_poststack_problem<Space>(comm, s);
  if (root) {
    std::printf(
        "post-stack inversion of a %lld x %lld section (traces x samples) on %d rank(s), "
        "space %s\n",
        static_cast<long long>(s.nx), static_cast<long long>(s.nz), comm.size(), Space::name);
    std::printf("traces per rank:");
    for (Index extent : problem.layout.local_extents())
      std::printf(" %lld", static_cast<long long>(extent));
    const std::string model =
        s.model_file.empty() ? (s.data_given() ? "unknown" : "built-in") : s.model_file;
    char data[64];
    std::snprintf(data, sizeof data, "modelled, noise %.3g x RMS", s.noise);
    char regularisation[96];
    if (options.regularisation == "tv") {
      std::snprintf(regularisation, sizeof regularisation,
                    "TV weight %.3g, %d PrimalDual iterations", options.weight, options.niter);
    } else {
      std::snprintf(regularisation, sizeof regularisation, "eps %.3g, %d CGLS iterations", s.eps,
                    options.niter);
    }
    std::printf("\nmodel: %s, data: %s, %s\n\n", model.c_str(),
                s.data_given() ? s.data_source().c_str() : data, regularisation);
  }

  ProgressOptions progress;
  progress.show = true;
  progress.first = 5;
  progress.last = 3;
  progress.every = 10;
  Inversion<Space> solution;
  if (options.regularisation == "tv") {
    PoststackTvSolution<Space> tv =
        solve_poststack_tv(problem, options.niter, options.weight, options.inner, progress);
    solution = {std::move(tv.primal_dual.x), std::move(tv.primal_dual.costs),
                std::move(tv.model_errors)};
  } else {
    PoststackSolution<Space> ls = solve_poststack(problem, options.niter, progress);
    solution = {std::move(ls.cgls.x), std::move(ls.cgls.costs), std::move(ls.model_errors)};
  }

  const ModelErrors model_error = model_errors(problem, solution);
  const std::vector<double>& errors = model_error.log_impedance;
  if (root && !errors.empty()) {
    std::printf("\nmodel error per iteration, m = ln(impedance):\n");
    std::printf(
        "  iteration  ||m - m_true|| / ||m_true||  ||m - m_true|| / ||m_true - m_start||\n");
    // Iterations 0, 1, 2, 5, 10, 20, 50, ... and the last one.
    const int last = static_cast<int>(errors.size()) - 1;
    std::vector<int> shown;
    for (int decade = 1; decade <= last; decade *= 10) {
      for (int step : {1, 2, 5}) {
        if (step * decade < last) shown.push_back(step * decade);
      }
    }
    shown.insert(shown.begin(), 0);
    if (last > 0) shown.push_back(last);
    for (int k : shown) {
      std::printf("  %9d  %26.4e  %35.1f %%%s\n", k, errors[std::size_t(k)],
                  100 * model_error.update[std::size_t(k)], k == 0 ? "  (starting model)" : "");
    }
    std::printf("final model error (starting model in brackets):\n");
    std::printf(
        "  relative to ln(impedance)   ||m - m_true|| / ||m_true||            %.4e (%.4e)\n",
        errors.back(), errors.front());
    std::printf(
        "  relative to the update      ||m - m_true|| / ||m_true - m_start||  %.1f %% (100 %%)\n",
        100 * model_error.update.back());
    std::printf(
        "  in impedance                ||AI - AI_true|| / ||AI_true||         %.4e (%.4e)\n",
        model_error.impedance_final, model_error.impedance_start);
  }

  // Outputs: every rank writes its block of the arrays, from host memory.
  const std::string dir = options.output;
  const DistributedArray<double> inverted = to_host(solution.x);
  io::write_npy(dir + "/data.npy", to_host(problem.data));
  io::write_npy(dir + "/inverted_log_impedance.npy", inverted);
  // The data the inverted model predicts: the plotting script draws d minus them.
  io::write_npy(dir + "/inverted_data.npy", to_host(problem.modelling.apply(solution.x)));
  io::write_npy(dir + "/background_log_impedance.npy", to_host(problem.background));
  write_history(dir + "/cost.npy", solution.costs, comm);
  if (problem.true_model) {
    io::write_npy(dir + "/true_log_impedance.npy", to_host(*problem.true_model));
    write_history(dir + "/model_error.npy", model_error.log_impedance, comm);
    write_history(dir + "/update_error.npy", model_error.update, comm);
  }
  agree_on_rank0_step(comm, "writing " + dir + "/summary.json", [&] {
    write_summary(dir + "/summary.json", options, problem, model_error, comm);
  });
  const double seconds =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  if (root) {
    std::printf(
        "\noutputs in %s/: summary.json and .npy arrays; pictures: /usr/bin/python3 "
        "examples/poststack/plot_poststack.py %s\n",
        dir.c_str(), dir.c_str());
    std::printf("total time %.2f s\n", seconds);
  }

  if (options.check_max_error > 0) {
    std::vector<std::string> failures;
    if (errors.empty()) {
      failures.push_back("no true model to check against");
    } else {
      if (!(errors.back() <= options.check_max_error)) {
        failures.push_back("final model error " + std::to_string(errors.back()) + " > " +
                           std::to_string(options.check_max_error));
      }
      if (!(errors.back() < errors.front())) {
        failures.push_back("the model error did not decrease");
      }
    }
    if (!(solution.costs.back() < solution.costs.front())) {
      failures.push_back("the cost did not decrease");
    }
    // Read the inverted model back and compare: the files hold what was computed.
    const auto reread = io::read_npy<double>(dir + "/inverted_log_impedance.npy", problem.layout);
    if (relative_error(reread, inverted) != 0.0) {
      failures.push_back("inverted_log_impedance.npy differs from the inverted model");
    }
    bool files = true;
    if (root) {
      for (const char* name :
           {"summary.json", "data.npy", "inverted_data.npy", "background_log_impedance.npy",
            "true_log_impedance.npy", "cost.npy", "model_error.npy", "update_error.npy"}) {
        std::error_code error;
        files = files && std::filesystem::file_size(dir + "/" + name, error) > 0 && !error;
      }
    }
    if (comm.broadcast(static_cast<int>(files), 0) == 0) failures.push_back("missing outputs");
    if (!failures.empty()) {
      if (root) {
        for (const auto& failure : failures)
          std::fprintf(stderr, "check failed: %s\n", failure.c_str());
      }
      return exit_status::failure;
    }
    if (root) std::printf("check passed (final model error <= %g)\n", options.check_max_error);
  }
  return 0;
}

/// The demo in the memory space named options.space, among those of the build.
int run_in_space(Options& options, const Communicator& comm) {
#define DISTLOPS_EXAMPLE_RUN_IN(Space) \
  if (options.space == Space::name) return run<Space>(options, comm);
  DISTLOPS_FOR_EACH_SPACE(DISTLOPS_EXAMPLE_RUN_IN)
#undef DISTLOPS_EXAMPLE_RUN_IN
  throw InvalidArgument("--space " + options.space + " is not a memory space of this build");
}

}  // namespace

int main(int argc, char** argv) {
  Environment environment(argc, argv);
  const Communicator comm = Communicator::world();
  const bool root = comm.rank() == 0;
  Options options;
  CommandLine line(description, "poststack_inversion");
  add_options(line, options);
  if (const auto status = line.parse(argc, argv, comm)) return *status;
  try {
    take_grid_from_files(options, line, comm);
  } catch (const ExitError& e) {
    if (root) std::cerr << "poststack_inversion: " << e.what() << "\n(see --help)\n";
    return e.status();
  }

  const std::string unavailable = space_unavailable_reason(options.space, comm);
  if (!unavailable.empty()) {
    if (root) std::cerr << "poststack_inversion: " << unavailable << "\n";
    return exit_status::unavailable;
  }
  try {
    // Before the work: a run never computes what it cannot write.
    prepare_output_directory("--output " + options.output, options.output, comm);
    return run_in_space(options, comm);
  } catch (const ExitError& e) {
    if (root) std::cerr << "poststack_inversion: " << e.what() << "\n";
    return e.status();
  } catch (const std::exception& e) {
    // distlops raises the same error on every rank; rank 0 reports it.
    if (root) std::cerr << "poststack_inversion: " << e.what() << "\n";
    return exit_status::failure;
  }
  return 0;
}
