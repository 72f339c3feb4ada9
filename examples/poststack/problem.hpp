// SPDX-License-Identifier: BSD-3-Clause
// Copyright (c) 2026 The distlops authors
#pragma once
// The post-stack inversion problem shared by the poststack_inversion example and the
// "poststack" benchmark case: the modelling operator, the regularised operator, the data and
// the starting model, built on the traces each rank owns.
//
// Model: m = ln(impedance) on an (nx, nz) grid, nx traces of nz time samples, row-major, split
// over the ranks along axis 0 (whole traces per rank). Modelling, trace by trace (PyLops'
// PoststackLinearModelling with its default kind="centered"):
//
//     d = W D m,   (D m)[t] = (m[t + 1] - m[t - 1]) / 2   (zero on the first and last sample)
//
// A step of ln(impedance) by s between samples t and t + 1 gives s / 2 at both samples: about
// the reflection coefficient (I[t+1] - I[t]) / (I[t+1] + I[t]) ~ s / 2 at each, symmetric
// about the interface. W is the convolution with a zero-phase Ricker wavelet centred on its
// middle tap. The operator is the library's PoststackLinearModelling with time on axis 1, equal to
// PyLops' on the same model to rounding: each rank models its own traces (a BlockDiag of
// Convolve1D * FirstDerivative inside), so the modelling needs no communication.
//
// Inversion: min ||d - W D m||^2 + eps^2 ||L m||^2 with L the 2-d Laplacian over axes (0, 1)
// (distributed: it exchanges one plane of traces with each neighbouring rank), i.e. CGLS on
// StackedVStack([W D, eps L]) with data [d; 0], started from a smooth background model.
//
// The TV-regularised variant: min 1/2 ||d - W D m||^2 + weight ||grad m||_{2,1} (the isotropic
// total variation of m over both axes, forward differences) by the primal-dual algorithm with
// f = L2(W D, d), g = L21(weight) and K = Gradient, from the same starting model. Blocky models
// (layers, a fault) have a small total variation: the inversion keeps their edges, where the
// Laplacian smooths them.
//
// Everything is instantiated for each memory space of the build (problem.cpp), so the example
// runs its operators and its solver on the host or on the GPUs of the ranks alike.
#include <optional>
#include <string>
#include <vector>

#include "distlops/distlops.hpp"

namespace distlops::examples {

struct PoststackSettings {
  /// Grid: traces and time samples (taken from the files when a model or data file is given).
  Index nx = 256;
  Index nz = 256;
  /// Traces per rank (one entry per rank, summing to nx); empty: PyLops-MPI's default split.
  std::vector<Index> shares;
  /// Standard deviation of the Gaussian noise added to the modelled data, relative to the
  /// RMS amplitude of the noise-free data (0: noise-free). Not used with a data file.
  double noise = 0.3;
  /// Weight of the Laplacian regularisation.
  double eps = 1.0;
  /// Ricker wavelet: peak frequency (Hz), sampling (s) and number of taps (odd).
  double peak_frequency = 20.0;
  double dt = 0.004;
  Index wavelet_taps = 41;
  /// Half-widths (samples along x and z) of the running means that make the background model.
  Index smooth_x = 8;
  Index smooth_z = 12;
  /// Optional .npy files of shape (nx, nz), float64: the acoustic impedance (positive values,
  /// not its logarithm) and the data. Empty: the built-in model, and data modelled from it.
  std::string model_file;
  std::string data_file;
  /// Optional post-stack SEG-Y file of the data, (nx traces, nz samples), in builds with
  /// segyio; its sample interval must be `dt`.
  std::string segy_file;
  /// The data come from a file (.npy or SEG-Y), not from the model.
  bool data_given() const { return !data_file.empty() || !segy_file.empty(); }
  /// The name of the data's file, empty when they are modelled.
  const std::string& data_source() const { return data_file.empty() ? segy_file : data_file; }
  /// Key of the reproducible noise (the same noise whatever the number of ranks).
  std::uint64_t noise_key = 2024;
};

/// The problem in memory space `Space`: its operators, vectors and solver run there (Host, or
/// Cuda in builds with the CUDA backend); what is computed on the host (the synthetic model,
/// the noise, the smoothing, files) is moved there once.
template <MemorySpace Space = Host>
struct PoststackProblem {
  /// (nx, nz), SCATTER along axis 0 with the requested shares.
  Layout layout;
  std::vector<double> wavelet;
  /// d = W D m on `layout`.
  LinearOperator<double, Space> modelling;
  /// m -> [W D m; eps L m].
  BasicLinearOperator<DistributedArray<double, Space>, StackedDistributedArray<double, Space>>
      regularised;
  /// ln(impedance), when known (built-in model or a model file).
  std::optional<DistributedArray<double, Space>> true_model;
  /// The data inverted: modelled and noisy, or read from the data file.
  DistributedArray<double, Space> data;
  /// [data; 0]: the right-hand side of the regularised problem.
  StackedDistributedArray<double, Space> rhs;
  /// Starting model: the true model smoothed when it is known, else zero (the inversion then
  /// recovers ln(impedance) up to its unresolved smooth trend).
  DistributedArray<double, Space> background;
};

/// Builds the problem in `Space` (collective over `comm`). Bad settings or files raise the
/// same distlops::Error on every rank.
template <MemorySpace Space = Host>
PoststackProblem<Space> make_poststack_problem(const Communicator& comm,
                                               const PoststackSettings& settings);

template <MemorySpace Space = Host>
struct PoststackSolution {
  CglsResult<DistributedArray<double, Space>> cgls;
  /// ||m_k - m_true|| / ||m_true|| for every iterate k (entry 0: the background); empty
  /// without a true model.
  std::vector<double> model_errors;
};

/// Solves the regularised problem with `niter` CGLS iterations from the background model,
/// recording the model error after every iteration when the true model is known.
template <MemorySpace Space>
PoststackSolution<Space> solve_poststack(const PoststackProblem<Space>& problem, int niter,
                                         const ProgressOptions& progress = {});

template <MemorySpace Space = Host>
struct PoststackTvSolution {
  PrimalDualResult<DistributedArray<double, Space>> primal_dual;
  /// As PoststackSolution's.
  std::vector<double> model_errors;
};

/// Solves the TV-regularised problem with `niter` primal-dual iterations from the background
/// model (each prox of the data term: `inner` CGLS iterations), recording the objective and,
/// when the true model is known, the model error of every iterate.
template <MemorySpace Space>
PoststackTvSolution<Space> solve_poststack_tv(const PoststackProblem<Space>& problem, int niter,
                                              double weight, int inner = 5,
                                              const ProgressOptions& progress = {});

/// ||a - b|| / ||b|| (collective).
template <MemorySpace Space>
double relative_error(const DistributedArray<double, Space>& a,
                      const DistributedArray<double, Space>& b);

/// A copy of a host array in memory space `Space`, and one of an array of `Space` on the host
/// (the same layout; no communication).
template <MemorySpace Space>
DistributedArray<double, Space> to_space(const DistributedArray<double, Host>& array);
template <MemorySpace Space>
DistributedArray<double, Host> to_host(const DistributedArray<double, Space>& array);

}  // namespace distlops::examples
