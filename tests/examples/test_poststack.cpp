// SPDX-License-Identifier: BSD-3-Clause
// Copyright (c) 2026 The distlops authors
// The post-stack problem of the main example (examples/poststack/problem.hpp) against a
// serial reference built from the global problem with Eigen: the modelling operator equals
// the product of the dense convolution and centered-derivative matrices on every trace, the
// noise-free data are that product applied to ln(impedance), the operators pass the dot
// test, the inversion does not depend on the split (ranks without traces included), the
// problem built and solved in every memory space equals the dense reference and the host's
// inversion, and bad settings raise the same error on every rank.
#include <Eigen/Dense>

#include <cmath>

#include "poststack/problem.hpp"
#include "poststack/synthetic.hpp"
#include "spaces.hpp"
#include "test_support.hpp"

using namespace distlops;
using namespace distlops::testing;
using distlops::examples::PoststackSettings;

namespace {

PoststackSettings small_settings() {
  PoststackSettings settings;
  settings.nx = 9;
  settings.nz = 40;
  settings.wavelet_taps = 13;
  settings.smooth_x = 2;
  settings.smooth_z = 3;
  return settings;
}

/// W D of one trace of nz samples: W[i][j] = h[i + offset - j] (zero outside the taps),
/// D[i][i +- 1] = +-1/2 on the interior rows.
Eigen::MatrixXd trace_matrix(const std::vector<double>& wavelet, Index nz) {
  const Index taps = static_cast<Index>(wavelet.size()), offset = taps / 2;
  Eigen::MatrixXd w = Eigen::MatrixXd::Zero(nz, nz), d = Eigen::MatrixXd::Zero(nz, nz);
  for (Index i = 0; i < nz; ++i) {
    for (Index j = 0; j < nz; ++j) {
      const Index k = i + offset - j;
      if (k >= 0 && k < taps) w(i, j) = wavelet[std::size_t(k)];
    }
  }
  for (Index i = 1; i + 1 < nz; ++i) {
    d(i, i + 1) = 0.5;
    d(i, i - 1) = -0.5;
  }
  return w * d;
}

/// Shares that leave rank 1 without traces (with at least 2 ranks): ranks 2, 3, ... get one
/// trace each while traces last (none after), rank 0 the rest.
std::vector<Index> uneven_shares(Index nx, int ranks) {
  std::vector<Index> shares(std::size_t(ranks), 0);
  Index rest = nx;
  for (int r = 2; r < ranks && rest > 1; ++r, --rest)
    shares[std::size_t(r)] = 1;
  shares[0] = rest;
  return shares;
}

}  // namespace

TEST_CASE("poststack modelling equals the dense W D of every trace", "[example][poststack]") {
  const Communicator comm = world();
  for (const bool uneven : {false, true}) {
    PoststackSettings settings = small_settings();
    settings.noise = 0;
    if (uneven) settings.shares = uneven_shares(settings.nx, comm.size());
    const auto problem = examples::make_poststack_problem(comm, settings);
    const Eigen::MatrixXd a = trace_matrix(problem.wavelet, settings.nz);

    // The true model is ln of the built-in impedance, and the data are W D of it.
    const std::vector<double> impedance = examples::impedance_model(settings.nx, settings.nz);
    const std::vector<double> model = problem.true_model->gather();
    const std::vector<double> data = problem.data.gather();
    REQUIRE(model.size() == impedance.size());
    for (std::size_t i = 0; i < model.size(); ++i)
      REQUIRE(model[i] == Approx(std::log(impedance[i])).epsilon(1e-14));

    // Any model: W D applied trace by trace.
    DistributedArray<double> x(problem.layout);
    fill_random(x, 5);
    const std::vector<double> y = problem.modelling.apply(x).gather();
    const std::vector<double> xs = x.gather();
    for (Index ix = 0; ix < settings.nx; ++ix) {
      const Eigen::Map<const Eigen::VectorXd> trace(model.data() + ix * settings.nz, settings.nz);
      const Eigen::Map<const Eigen::VectorXd> random(xs.data() + ix * settings.nz, settings.nz);
      const Eigen::VectorXd expected_data = a * trace;
      const Eigen::VectorXd expected_y = a * random;
      for (Index iz = 0; iz < settings.nz; ++iz) {
        REQUIRE(data[std::size_t(ix * settings.nz + iz)] ==
                Approx(expected_data(iz)).margin(1e-13));
        REQUIRE(y[std::size_t(ix * settings.nz + iz)] == Approx(expected_y(iz)).margin(1e-13));
      }
    }
    REQUIRE(dottest(problem.modelling, 7).passed);
    REQUIRE(dottest(problem.regularised, 9).passed);
  }
}

TEST_CASE("poststack inversion does not depend on the split and reduces the model error",
          "[example][poststack]") {
  const Communicator comm = world();
  PoststackSettings settings = small_settings();
  settings.noise = 0.2;
  const auto even = examples::make_poststack_problem(comm, settings);
  settings.shares = uneven_shares(settings.nx, comm.size());
  const auto uneven = examples::make_poststack_problem(comm, settings);
  const auto a = examples::solve_poststack(even, 15);
  const auto b = examples::solve_poststack(uneven, 15);
  REQUIRE(a.model_errors.size() == 16);
  REQUIRE(a.cgls.costs.size() == 16);
  REQUIRE(a.model_errors.back() < 0.8 * a.model_errors.front());
  REQUIRE(a.cgls.costs.back() < a.cgls.costs.front());
  REQUIRE(all_close(a.cgls.x.gather(), b.cgls.x.gather(), 1e-10));
  for (std::size_t k = 0; k < a.model_errors.size(); ++k)
    REQUIRE(a.model_errors[k] == Approx(b.model_errors[k]).epsilon(1e-10));
  // The first cost is ||d - W D m0|| (the Laplacian term of the smooth start included).
  const auto residual = even.data - even.modelling.apply(even.background);
  const double regularisation =
      (settings.eps * Laplacian<double>(even.layout, {.axes = {0, 1}}).apply(even.background))
          .norm();
  REQUIRE(a.cgls.costs.front() ==
          Approx(std::hypot(residual.norm(), regularisation)).epsilon(1e-12));
}

DISTLOPS_SPACE_TEST_CASE("poststack problem and inversion in every memory space",
                         "[example][poststack][spaces]") {
  const Communicator comm = world();
  PoststackSettings settings = small_settings();
  settings.noise = 0.2;
  settings.shares = uneven_shares(settings.nx, comm.size());
  const auto problem = examples::make_poststack_problem<Space>(comm, settings);
  const double rtol = space_tolerance<double, Space>();

  // The modelling of any model is W D on every trace.
  const Eigen::MatrixXd a = trace_matrix(problem.wavelet, settings.nz);
  const std::vector<double> xs = random_values<double>(settings.nx * settings.nz, 5);
  const std::vector<double> y =
      problem.modelling.apply(DistributedArray<double, Space>::from_global(problem.layout, xs))
          .gather();
  for (Index ix = 0; ix < settings.nx; ++ix) {
    const Eigen::Map<const Eigen::VectorXd> trace(xs.data() + ix * settings.nz, settings.nz);
    const Eigen::VectorXd expected = a * trace;
    const Eigen::Map<const Eigen::VectorXd> computed(y.data() + ix * settings.nz, settings.nz);
    REQUIRE((computed - expected).cwiseAbs().maxCoeff() <= rtol * 10);
  }
  REQUIRE(dottest(problem.regularised, 9, space_dottest_tolerance<double, Space>()).passed);

  // The same noisy data, iterates and model errors as the host's inversion of the same problem.
  const auto host = examples::make_poststack_problem<Host>(comm, settings);
  REQUIRE(all_close(problem.data.gather(), host.data.gather(), rtol));
  const auto solution = examples::solve_poststack(problem, 15);
  const auto reference = examples::solve_poststack(host, 15);
  REQUIRE(solution.cgls.iterations == 15);
  REQUIRE(all_close(solution.cgls.x.gather(), reference.cgls.x.gather(), 100 * rtol));
  REQUIRE(solution.model_errors.size() == reference.model_errors.size());
  for (std::size_t k = 0; k < reference.model_errors.size(); ++k) {
    REQUIRE(solution.model_errors[k] == Approx(reference.model_errors[k]).epsilon(100 * rtol));
  }
  REQUIRE(solution.model_errors.back() < 0.8 * solution.model_errors.front());
  // The host copies the example writes to its files.
  REQUIRE(examples::to_host(solution.cgls.x).gather() == solution.cgls.x.gather());
}

TEST_CASE("poststack settings errors are raised on every rank", "[example][poststack][errors]") {
  const Communicator comm = world();
  PoststackSettings settings = small_settings();
  settings.shares = std::vector<Index>(std::size_t(comm.size()), 1);  // sums to size, not nx
  REQUIRE_THROWS_AS(examples::make_poststack_problem(comm, settings), InvalidArgument);
  settings = small_settings();
  settings.shares = std::vector<Index>(std::size_t(comm.size() + 1), 0);
  REQUIRE_THROWS_AS(examples::make_poststack_problem(comm, settings), InvalidArgument);
  settings = small_settings();
  settings.wavelet_taps = 12;
  REQUIRE_THROWS_AS(examples::make_poststack_problem(comm, settings), InvalidArgument);
  settings = small_settings();
  settings.eps = -1;
  REQUIRE_THROWS_AS(examples::make_poststack_problem(comm, settings), InvalidArgument);
  settings = small_settings();
  settings.model_file = "/nonexistent/impedance.npy";
  REQUIRE_THROWS_AS(examples::make_poststack_problem(comm, settings), IoError);
}
