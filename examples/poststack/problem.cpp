// SPDX-License-Identifier: BSD-3-Clause
// Copyright (c) 2026 The distlops authors
#include "problem.hpp"

#include "distlops/io/io_config.hpp"
#if DISTLOPS_WITH_SEGYIO
#include "distlops/io/segy.hpp"
#endif

#include <cmath>
#include <limits>
#include <optional>

#include "synthetic.hpp"

namespace distlops::examples {

namespace {

Layout grid_layout(const Communicator& comm, const PoststackSettings& settings) {
  if (settings.nx < 1 || settings.nz < 1) {
    throw InvalidArgument("poststack: the grid needs at least one trace and one sample, got nx = " +
                          std::to_string(settings.nx) + ", nz = " + std::to_string(settings.nz));
  }
  if (settings.shares.empty()) return Layout(comm, {settings.nx, settings.nz});
  if (static_cast<int>(settings.shares.size()) != comm.size()) {
    throw InvalidArgument("poststack: " + std::to_string(settings.shares.size()) +
                          " shares given for " + std::to_string(comm.size()) + " ranks");
  }
  Index total = 0;
  std::vector<Shape> local_shapes;
  for (Index share : settings.shares) {
    if (share < 0) {
      throw InvalidArgument("poststack: a rank's share of traces must not be negative, got " +
                            std::to_string(share));
    }
    total += share;
    local_shapes.push_back({share, settings.nz});
  }
  if (total != settings.nx) {
    throw InvalidArgument("poststack: the shares add up to " + std::to_string(total) +
                          " traces, the grid has nx = " + std::to_string(settings.nx));
  }
  return Layout(comm, {settings.nx, settings.nz}, LayoutOptions{.local_shapes = local_shapes});
}

/// ln(impedance) of a model file, after checking that every value is positive and finite.
DistributedArray<double> log_impedance_from_file(const std::string& path, const Layout& layout) {
  DistributedArray<double> model = io::read_npy<double>(path, layout);
  double smallest = std::numeric_limits<double>::infinity();
  bool finite = true;
  for (double& value : model.local()) {
    finite = finite && std::isfinite(value);
    smallest = std::min(smallest, value);
    value = std::log(value);
  }
  const Communicator& comm = layout.communicator();
  finite = comm.allreduce(static_cast<int>(finite), ReduceOp::min) != 0;
  smallest = comm.allreduce(smallest, ReduceOp::min);
  if (!finite || !(smallest > 0)) {
    throw InvalidArgument("poststack: the model file " + path +
                          " must hold a positive, finite acoustic impedance (smallest value " +
                          std::to_string(smallest) + (finite ? "" : ", some values not finite") +
                          ")");
  }
  return model;
}

}  // namespace

/// The traces of a post-stack SEG-Y file in `layout`, as doubles; its sampling must be dt.
DistributedArray<double> segy_data(const std::string& file, const Layout& layout, double dt) {
#if DISTLOPS_WITH_SEGYIO
  const io::SegySection section = io::read_segy(file, layout, {.sample_interval = dt});
  DistributedArray<double> data(layout);
  const std::span<const float> samples = section.data.local();
  std::copy(samples.begin(), samples.end(), data.local().begin());
  return data;
#else
  (void)layout;
  (void)dt;
  throw InvalidArgument("poststack: " + file +
                        ": SEG-Y input needs a distlops built with segyio, this one is not");
#endif
}

template <MemorySpace Space>
double relative_error(const DistributedArray<double, Space>& a,
                      const DistributedArray<double, Space>& b) {
  DistributedArray<double, Space> difference = a - b;
  return difference.norm() / b.norm();
}

template <MemorySpace Space>
DistributedArray<double, Space> to_space(const DistributedArray<double, Host>& array) {
  DistributedArray<double, Space> copy(array.layout());
  memory::copy_bytes<Space, Host>(copy.data(), array.data(),
                                  static_cast<std::size_t>(array.local_size()) * sizeof(double));
  return copy;
}

template <MemorySpace Space>
DistributedArray<double, Host> to_host(const DistributedArray<double, Space>& array) {
  DistributedArray<double, Host> copy(array.layout());
  memory::copy_bytes<Host, Space>(copy.data(), array.data(),
                                  static_cast<std::size_t>(array.local_size()) * sizeof(double));
  return copy;
}

template <MemorySpace Space>
PoststackProblem<Space> make_poststack_problem(const Communicator& comm,
                                               const PoststackSettings& settings) {
  using Array = DistributedArray<double, Space>;
  if (settings.wavelet_taps < 1 || settings.wavelet_taps % 2 == 0) {
    throw InvalidArgument("poststack: the wavelet needs an odd number of taps, got " +
                          std::to_string(settings.wavelet_taps));
  }
  if (settings.wavelet_taps > settings.nz) {
    throw InvalidArgument("poststack: the wavelet (" + std::to_string(settings.wavelet_taps) +
                          " taps) is longer than a trace (nz = " + std::to_string(settings.nz) +
                          " samples)");
  }
  if (!(settings.noise >= 0) || !std::isfinite(settings.noise)) {
    throw InvalidArgument("poststack: the noise level must be finite and non-negative, got " +
                          std::to_string(settings.noise));
  }
  if (!(settings.eps >= 0) || !std::isfinite(settings.eps)) {
    throw InvalidArgument("poststack: eps must be finite and non-negative, got " +
                          std::to_string(settings.eps));
  }
  PoststackProblem<Space> problem;
  problem.layout = grid_layout(comm, settings);
  const Layout& layout = problem.layout;
  const Index nx = settings.nx, nz = settings.nz;

  // W D along the time axis (the last of (nx, nz)), each rank modelling its own traces.
  problem.wavelet = ricker(settings.peak_frequency, settings.dt, settings.wavelet_taps);
  problem.modelling =
      PoststackLinearModelling<double, Space>(std::span<const double>(problem.wavelet), layout,
                                              {.kind = DerivativeKind::centered, .time_axis = 1});
  const auto laplacian = Laplacian<double, Space>(layout, {.axes = {0, 1}});
  problem.regularised = StackedVStack(
      std::vector<LinearOperator<double, Space>>{problem.modelling, settings.eps * laplacian});

  if (!settings.model_file.empty()) {
    problem.true_model = to_space<Space>(log_impedance_from_file(settings.model_file, layout));
  } else if (!settings.data_given()) {
    const std::vector<double> impedance = impedance_model(nx, nz);
    std::vector<double> log_impedance(impedance.size());
    for (std::size_t i = 0; i < impedance.size(); ++i)
      log_impedance[i] = std::log(impedance[i]);
    problem.true_model = Array::from_global(layout, log_impedance);
  }

  if (!settings.data_file.empty()) {
    problem.data = to_space<Space>(io::read_npy<double>(settings.data_file, layout));
  } else if (!settings.segy_file.empty()) {
    problem.data = to_space<Space>(segy_data(settings.segy_file, layout, settings.dt));
  } else {
    problem.data = problem.modelling.apply(*problem.true_model);
    // Noise by global index: the same data whatever the number of ranks, the shares and the
    // memory space.
    const double sigma =
        settings.noise * problem.data.norm() / std::sqrt(double(layout.global_size()));
    const auto first = static_cast<std::uint64_t>(layout.offset(comm.rank()) * nz);
    DistributedArray<double> noise(layout);
    std::span<double> local = noise.local();
    for (std::size_t i = 0; i < local.size(); ++i)
      local[i] = gaussian(settings.noise_key, first + i);
    problem.data.axpy(sigma, to_space<Space>(noise));
  }
  problem.rhs =
      StackedDistributedArray<double, Space>(std::vector<Array>{problem.data, Array(layout, 0.0)});

  if (problem.true_model) {
    const std::vector<double> smoothed =
        smooth(problem.true_model->gather(), nx, nz, settings.smooth_x, settings.smooth_z);
    problem.background = Array::from_global(layout, smoothed);
  } else {
    problem.background = Array(layout, 0.0);
  }
  return problem;
}

/// With a true model, sets options.callback to record the relative model error of every
/// iterate (the starting one first) in `errors`: ||m_true|| and the work array `difference`
/// are set up once, so each iteration adds one subtraction (reading both arrays once) and one
/// norm and allocates nothing. `difference` and `errors` must outlive the solve.
template <MemorySpace Space, class Options>
void record_model_errors(const PoststackProblem<Space>& problem, int niter,
                         std::optional<DistributedArray<double, Space>>& difference,
                         std::vector<double>& errors, Options& options) {
  using Array = DistributedArray<double, Space>;
  if (!problem.true_model) return;
  difference.emplace(problem.true_model->empty_like());
  const double true_norm = problem.true_model->norm();
  const auto model_error = [&problem, &difference, true_norm](const Array& x) {
    difference->axpbypcz(1.0, x, -1.0, *problem.true_model, 0.0);
    return difference->norm() / true_norm;
  };
  errors.reserve(static_cast<std::size_t>(niter) + 1);
  errors.push_back(model_error(problem.background));
  options.callback = [model_error, &errors](int, const Array& x, double, double) {
    errors.push_back(model_error(x));
    return CallbackAction::proceed;
  };
}

template <MemorySpace Space>
PoststackSolution<Space> solve_poststack(const PoststackProblem<Space>& problem, int niter,
                                         const ProgressOptions& progress) {
  using Array = DistributedArray<double, Space>;
  PoststackSolution<Space> solution;
  CglsOptions<Array> options;
  options.niter = niter;
  options.progress = progress;
  std::optional<Array> difference;  // the recorder's work array: it must outlive the solve
  record_model_errors(problem, niter, difference, solution.model_errors, options);
  solution.cgls = cgls(problem.regularised, problem.rhs, problem.background, options);
  return solution;
}

template <MemorySpace Space>
PoststackTvSolution<Space> solve_poststack_tv(const PoststackProblem<Space>& problem, int niter,
                                              double weight, int inner,
                                              const ProgressOptions& progress) {
  using Array = DistributedArray<double, Space>;
  using Stack = StackedDistributedArray<double, Space>;
  PoststackTvSolution<Space> solution;
  const L2<Array> misfit(problem.modelling, problem.data, 1.0, L2InnerOptions{.niter = inner});
  const L21<Stack> total_variation(weight);
  GradientOptions gradient_options;
  gradient_options.kind = DerivativeKind::forward;
  const auto gradient = Gradient<double, Space>(problem.layout, gradient_options);
  PrimalDualOptions<Array> options;
  options.niter = niter;
  options.progress = progress;
  options.record_costs = true;  // the demo draws the objective of every iterate
  // ||Gradient||^2 <= 8 for forward differences in 2-d: tau sigma 8 < 1 without an estimate.
  options.tau = 0.35;
  options.sigma = 0.35;
  options.check_steps = false;
  std::optional<Array> difference;  // the recorder's work array: it must outlive the solve
  record_model_errors(problem, niter, difference, solution.model_errors, options);
  solution.primal_dual =
      primal_dual(misfit, total_variation, gradient, problem.background, options);
  return solution;
}

#define DISTLOPS_EXAMPLE_POSTSTACK_IN(Space)                                                       \
  template PoststackProblem<Space> make_poststack_problem<Space>(const Communicator&,              \
                                                                 const PoststackSettings&);        \
  template PoststackSolution<Space> solve_poststack<Space>(const PoststackProblem<Space>&, int,    \
                                                           const ProgressOptions&);                \
  template PoststackTvSolution<Space> solve_poststack_tv<Space>(                                   \
      const PoststackProblem<Space>&, int, double, int, const ProgressOptions&);                   \
  template double relative_error<Space>(const DistributedArray<double, Space>&,                    \
                                        const DistributedArray<double, Space>&);                   \
  template DistributedArray<double, Space> to_space<Space>(const DistributedArray<double, Host>&); \
  template DistributedArray<double, Host> to_host<Space>(const DistributedArray<double, Space>&);
DISTLOPS_FOR_EACH_SPACE(DISTLOPS_EXAMPLE_POSTSTACK_IN)
#undef DISTLOPS_EXAMPLE_POSTSTACK_IN

}  // namespace distlops::examples
