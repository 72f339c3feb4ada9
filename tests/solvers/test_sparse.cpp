// SPDX-License-Identifier: BSD-3-Clause
// Copyright (c) 2026 The distlops authors
// ISTA, FISTA and power iteration: every iterate against the serial transcription of PyLops'
// ISTA and FISTA (three thresholding rules, with and without a sparsifying operator, with a
// threshold decay), eigenvalue estimates against Eigen's eigensolvers and the thresholding
// kernels against PyLops' rules, and ISTA and FISTA on stacked operators, in every memory space;
// numbers produced by PyLops itself, the stopping rules, breakdowns and bad input.
#include "../../solvers/threshold_kernels.hpp"
#include "distlops/core/buffer.hpp"
#include "distlops/operators/stack/block_diag.hpp"
#include "distlops/operators/stack/stacked.hpp"
#include "distlops/operators/stack/vstack.hpp"
#include "distlops/solvers/thresholding.hpp"
#include "solver_test_support.hpp"

using namespace distlops;
using namespace distlops::testing;

namespace {

constexpr ThresholdKind kinds[] = {ThresholdKind::soft, ThresholdKind::hard, ThresholdKind::half};

}  // namespace

DISTLOPS_SPACE_TEMPLATE_TEST_CASE(
    "ista and fista iterates equal the serial transcription of PyLops'", "[solvers][ista][fista]",
    DISTLOPS_SCALAR_TYPES) {
  using T = TestType;
  using V = Array<T, Space>;
  const Communicator comm = world();
  const double tol = iterate_tolerance<T, Space>();
  const Layout domain(comm, {10}), range(comm, {6});
  const DenseMatrix<T> m = random_matrix<T>(6, 10, 61);
  const DenseMatrix<T> s = well_conditioned<T>(10, 10, 62);
  const auto op = dense_operator<V>(m, domain, range);
  const auto sop = dense_operator<V>(s, domain, domain, "S");
  V y(range), x0(domain);
  fill_random(y, 63);
  fill_random(x0, 64);
  const double alpha = 0.9 / largest_eigenvalue_of_normal(m);
  const int niter = 7;
  const std::vector<double> decay{1.0, 0.9, 0.8, 0.7, 0.6, 0.5, 0.4, 0.3};
  for_each_collective_path<Space>([&] {
    for (const ThresholdKind kind : kinds) {
      for (const bool accelerated : {false, true}) {
        for (const bool analysis : {false, true}) {
          INFO(to_string(kind) << (accelerated ? " fista" : " ista")
                               << (analysis ? " with SOp" : ""));
          IterateRecorder<V> recorder;
          IstaOptions<V> options;
          options.niter = niter;
          options.tol = 0;
          options.eps = 0.8;
          options.alpha = alpha;
          options.threshold = kind;
          options.decay = decay;
          if (analysis) options.sop = sop;
          options.callback = recorder.callback();
          const auto result = accelerated ? fista(op, y, x0, options) : ista(op, y, x0, options);
          const ReferenceRun<T> reference = reference_sparse<T>(
              m, global_vector(y), global_vector(x0), niter, 0.8, alpha, static_cast<int>(kind),
              accelerated, analysis ? s : DenseMatrix<T>(), decay);
          recorder.iterates.insert(recorder.iterates.begin(), global_vector(x0));
          CHECK(result.iterations == niter);
          CHECK(result.alpha == alpha);
          CHECK(max_relative_difference(recorder.iterates, reference.iterates) <= tol);
          // The histories of the final iterate, recomputed from scratch.
          const DenseVector<T> x = global_vector(result.x);
          const double misfit = distance(global_vector(y), product(m, x));
          const DenseVector<T> c = analysis ? adjoint_product(s, x) : x;
          double penalty_value = 0;
          for (Eigen::Index i = 0; i < c.size(); ++i) {
            const double magnitude = std::abs(std::complex<double>(c(i)));
            penalty_value += kind == ThresholdKind::soft   ? magnitude
                             : kind == ThresholdKind::hard ? (magnitude != 0 ? 1.0 : 0.0)
                                                           : std::sqrt(magnitude);
          }
          // One entry per iteration, as in PyLops.
          REQUIRE(result.residual_norms.size() == std::size_t(niter));
          REQUIRE(result.costs.size() == std::size_t(niter));
          REQUIRE(result.model_updates.size() == std::size_t(niter));
          CHECK(close(result.residual_norms.back(), misfit, 10 * tol));
          CHECK(close(result.costs.back(), 0.5 * misfit * misfit + 0.8 * penalty_value, 10 * tol));
          CHECK(close(result.model_updates.front(),
                      distance(reference.iterates[1], reference.iterates[0]), 10 * tol));
          CHECK(close(result.model_updates.back(),
                      distance(reference.iterates[niter], reference.iterates[niter - 1]),
                      10 * tol));
        }
      }
    }
  });
}

DISTLOPS_SPACE_TEMPLATE_TEST_CASE(
    "ista and fista record the objective 1/2 ||y - A x||^2 + eps ||x||_1 once per iteration",
    "[solvers][ista][fista]", DISTLOPS_SCALAR_TYPES) {
  using T = TestType;
  using V = Array<T, Space>;
  const Communicator comm = world();
  const double tol = iterate_tolerance<T, Space>();
  const Layout domain(comm, {8}), range(comm, {5});
  const DenseMatrix<T> m = random_matrix<T>(5, 8, 111);
  const auto op = dense_operator<V>(m, domain, range);
  V y(range), x0(domain);
  fill_random(y, 112);
  fill_random(x0, 113);
  const DenseVector<T> data = global_vector(y);
  const double eps = 0.3;
  // ||y - M x|| and the objective of a gathered model, computed with Eigen.
  auto misfit_of = [&](const DenseVector<T>& x) { return distance(data, product(m, x)); };
  auto objective_of = [&](const DenseVector<T>& x) {
    double l1 = 0;
    for (Eigen::Index i = 0; i < x.size(); ++i)
      l1 += std::abs(std::complex<double>(x(i)));
    const double misfit = misfit_of(x);
    return 0.5 * misfit * misfit + eps * l1;
  };
  for (const bool accelerated : {false, true}) {
    for (const bool from_x0 : {false, true}) {
      INFO((accelerated ? "fista" : "ista") << (from_x0 ? " from x0" : " from zero"));
      std::vector<int> iterations;
      std::vector<double> costs, misfits, seen_costs, seen_misfits;
      IstaOptions<V> options;
      options.niter = 6;
      options.tol = 0;
      options.eps = eps;
      options.alpha = 0.9 / largest_eigenvalue_of_normal(m);
      options.callback = [&](int k, const V& x, double residual_norm, double cost) {
        const DenseVector<T> model = global_vector(x);
        iterations.push_back(k);
        costs.push_back(objective_of(model));
        misfits.push_back(misfit_of(model));
        seen_costs.push_back(cost);
        seen_misfits.push_back(residual_norm);
        return CallbackAction::proceed;
      };
      const auto result = from_x0
                              ? (accelerated ? fista(op, y, x0, options) : ista(op, y, x0, options))
                              : (accelerated ? fista(op, y, options) : ista(op, y, options));
      CHECK(result.iterations == 6);
      CHECK(iterations == std::vector<int>{1, 2, 3, 4, 5, 6});
      REQUIRE(result.costs.size() == 6);
      REQUIRE(result.residual_norms.size() == 6);
      REQUIRE(result.model_updates.size() == 6);
      REQUIRE(costs.size() == 6);
      for (std::size_t k = 0; k < 6; ++k) {
        INFO("iteration " << k + 1);
        CHECK(close(result.costs[k], costs[k], tol));
        CHECK(close(seen_costs[k], costs[k], tol));
        CHECK(close(result.residual_norms[k], misfits[k], tol));
        CHECK(close(seen_misfits[k], misfits[k], tol));
      }
      const DenseVector<T> start = from_x0 ? global_vector(x0) : DenseVector<T>::Zero(8);
      CHECK(close(result.initial_cost, objective_of(start), tol));
      CHECK(close(result.initial_residual_norm, misfit_of(start), tol));
      CHECK(same_on_every_rank(static_cast<long long>(result.costs.size())));
    }
  }
}

TEST_CASE("ista and fista reproduce PyLops' numbers", "[solvers][ista][fista][pylops]") {
  // import numpy as np, pylops
  // from pylops.optimization.sparsity import ista, fista
  // C = np.array([[1., .5, 0, -.5, .2], [0, 1, .3, 0, -1], [.4, 0, 1, .6, 0]])
  // y = np.array([1., -2, .5])
  // for kind in ["soft", "hard", "half"]:
  //     ista(pylops.MatrixMult(C), y, niter=5, eps=.5, alpha=.3, tol=0, threshkind=kind)[0]
  //     fista(pylops.MatrixMult(C), y, niter=5, eps=.5, alpha=.3, tol=0, threshkind=kind)[0]
  const std::vector<std::vector<double>> pylops_ista{
      {0.7605412955048101, -0.507988678266975, 0, 0, 1.1639735434943101},
      {0.8899474499055, -0.59856441687585, 0, 0, 1.32457038971226},
      {0.9143356351619578, -0.6184493091688581, 0, 0, 1.2465227288715006}};
  const std::vector<std::vector<double>> pylops_fista{
      {0.8369106431118337, -0.48541587148214466, 0, 0, 1.2525555567391784},
      {1.043300479685672, -0.6024443902680455, 0, 0, 1.4109965881423758},
      {1.0191120393152362, -0.6137872856747083, 0, 0, 1.3280964799558292}};
  const Communicator comm = world();
  DenseMatrix<double> c(3, 5);
  c << 1, 0.5, 0, -0.5, 0.2, 0, 1, 0.3, 0, -1, 0.4, 0, 1, 0.6, 0;
  const Layout domain(comm, {5}), range(comm, {3});
  const auto op = dense_operator<Array<double>>(c, domain, range);
  const auto y = Array<double>::from_global(range, std::vector<double>{1, -2, 0.5});
  for (std::size_t k = 0; k < 3; ++k) {
    INFO(to_string(kinds[k]));
    IstaOptions<Array<double>> options;
    options.niter = 5;
    options.eps = 0.5;
    options.alpha = 0.3;
    options.tol = 0;
    options.threshold = kinds[k];
    CHECK(all_close(ista(op, y, options).x.gather(), pylops_ista[k], 1e-13));
    CHECK(all_close(fista(op, y, options).x.gather(), pylops_fista[k], 1e-13));
    // The residual at the extrapolated point by an apply of A (PyLops' arithmetic): the same
    // iterates, a residual history from A x, and one more apply per iteration.
    options.residual_by_apply = true;
    const auto by_apply = fista(op, y, options);
    CHECK(all_close(by_apply.x.gather(), pylops_fista[k], 1e-13));
    const double misfit = distance(global_vector(y), product(c, global_vector(by_apply.x)));
    CHECK(std::abs(by_apply.residual_norms.back() - misfit) <= 1e-13);
  }
}

DISTLOPS_SPACE_TEMPLATE_TEST_CASE("power iteration estimates the largest eigenvalue",
                                  "[solvers][eigs]", DISTLOPS_SCALAR_TYPES) {
  using T = TestType;
  using V = Array<T, Space>;
  const Communicator comm = world();
  const Layout layout(comm, {8});
  // Singular values 4, 2, 1.5, ...: lambda_max(A^H A) = 16, ratio 1/4 to the next.
  const std::vector<double> d{1.0, 2.0, 0.5, 4.0, 1.5, 0.2, 1.2, 0.7};
  const DenseMatrix<T> m = with_singular_values<T>(d, 71);
  const auto op = dense_operator<V>(m, layout, layout);
  PowerIterationOptions options;
  options.niter = 100;
  options.tol = std::is_same_v<real_type_t<T>, float> ? 1e-5 : 1e-10;
  const auto normal = power_iteration_normal(op, options);
  CHECK(std::abs(std::complex<double>(normal.eigenvalue) - 16.0) <= 16 * solution_tolerance<T>());
  CHECK(std::imag(std::complex<double>(normal.eigenvalue)) == 0);
  // The eigenvector estimate: A^H A v = 16 v.
  const DenseVector<T> v = global_vector(normal.eigenvector);
  // Stopped when the eigenvalue changed by tol: the eigenvector is accurate to ~sqrt(tol).
  CHECK(distance(product(product(adjoint_of(m), m), v), DenseVector<T>(as_scalar<T>(16) * v)) <=
        160 * std::sqrt(options.tol));
  CHECK(same_on_every_rank(normal.iterations));
  // A Hermitian operator directly: the eigenvalue of largest modulus of diag-like Q D Q^H.
  const DenseMatrix<T> q = with_singular_values<T>(std::vector<double>(8, 1.0), 72);
  DenseMatrix<T> diagonal = DenseMatrix<T>::Zero(8, 8);
  for (Index i = 0; i < 8; ++i)
    diagonal(i, i) = as_scalar<T>(d[std::size_t(i)] * (i == 2 ? -1 : 1));
  const auto hermitian =
      dense_operator<V>(product(product(q, diagonal), adjoint_of(q)), layout, layout);
  const auto direct = power_iteration(hermitian, options);
  CHECK(direct.converged);
  CHECK(direct.iterations < options.niter);
  CHECK(std::abs(std::complex<double>(direct.eigenvalue) - 4.0) <= 4 * solution_tolerance<T>());
  // Few iterations: an estimate from below, not converged.
  options.niter = 2;
  const auto rough = power_iteration_normal(op, options);
  CHECK_FALSE(rough.converged);
  CHECK(rough.iterations == 2);
  CHECK(std::real(std::complex<double>(rough.eigenvalue)) <= 16 * (1 + solution_tolerance<T>()));
  options.niter = 0;
  CHECK_THROWS_AS(power_iteration(op, options), InvalidArgument);
}

DISTLOPS_SPACE_TEMPLATE_TEST_CASE("power iteration from a start vector", "[solvers][eigs]",
                                  DISTLOPS_SCALAR_TYPES) {
  using T = TestType;
  using V = Array<T, Space>;
  const Communicator comm = world();
  const Layout layout(comm, {8});
  // H = Q D Q^H: Hermitian, eigenvalue d_j with eigenvector q_j (column j of Q).
  const std::vector<double> d{1.0, -2.0, 0.5, 4.0, 1.5, 0.2, -1.2, 0.7};
  const DenseMatrix<T> q = with_singular_values<T>(std::vector<double>(8, 1.0), 121);
  DenseMatrix<T> diagonal = DenseMatrix<T>::Zero(8, 8);
  for (Index i = 0; i < 8; ++i)
    diagonal(i, i) = as_scalar<T>(d[std::size_t(i)]);
  const DenseMatrix<T> h = product(product(q, diagonal), adjoint_of(q));
  const auto op = dense_operator<V>(h, layout, layout);
  const double tol = 10 * solution_tolerance<T>();
  PowerIterationOptions options;
  options.tol = std::is_same_v<real_type_t<T>, float> ? 1e-4 : 1e-10;
  // An exact eigenvector: one iteration gives its eigenvalue (the Rayleigh quotient), whether
  // it is the largest or not, and further iterations keep it.
  for (const Index j : {Index(1), Index(3), Index(6)}) {
    INFO("eigenvector " << j);
    V start(layout);
    const DenseVector<T> column = q.col(j);
    scatter_vector<T>(DenseVector<T>(as_scalar<T>(3.0) * column), start);  // any scale
    options.niter = 1;
    const auto once = power_iteration(op, start, options);
    CHECK(once.iterations == 1);
    CHECK(std::abs(std::complex<double>(once.eigenvalue) - d[std::size_t(j)]) <= tol);
    options.niter = 5;
    const auto more = power_iteration(op, start, options);
    CHECK(more.converged);
    CHECK(std::abs(std::complex<double>(more.eigenvalue) - d[std::size_t(j)]) <= tol);
  }
  // A right singular vector of A is an eigenvector of A^H A: sigma^2 after one iteration.
  const DenseMatrix<T> a = with_singular_values<T>({1.0, 2.0, 0.5, 3.0, 1.5, 0.2, 1.2, 0.7}, 122);
  const auto rect = dense_operator<V>(a, layout, layout);
  {
    // with_singular_values scales the columns of an orthogonal matrix: A = Q S, so
    // A^H A = S^2 and the unit vectors are its eigenvectors.
    V start(layout);
    DenseVector<T> e = DenseVector<T>::Zero(8);
    e(4) = T(1);
    scatter_vector<T>(e, start);
    options.niter = 1;
    const auto once = power_iteration_normal(rect, start, options);
    CHECK(std::abs(std::complex<double>(once.eigenvalue) - 2.25) <= 2.25 * tol);
  }
  // A random start reaches the largest eigenvalue that Eigen computes from the dense matrix.
  const double largest = largest_magnitude_eigenvalue(h);
  V random_start(layout);
  fill_random(random_start, 123);
  options.niter = 200;
  options.tol = std::is_same_v<real_type_t<T>, float> ? 1e-5 : 1e-12;
  const auto estimate = power_iteration(op, random_start, options);
  CHECK(estimate.converged);
  CHECK(std::abs(std::complex<double>(estimate.eigenvalue) - largest) <= std::abs(largest) * tol);
  CHECK(same_on_every_rank(estimate.iterations));
  const auto normal = power_iteration_normal(rect, random_start, options);
  CHECK(std::abs(std::complex<double>(normal.eigenvalue) - largest_eigenvalue_of_normal(a)) <=
        9 * tol);

  // Bad starts: every rank raises the same error, and the world goes on.
  options.niter = 3;
  const Layout other(comm, {9});
  CHECK_THROWS_AS(power_iteration(op, V(other, T(1)), options), ShapeMismatch);
  CHECK_THROWS_AS(power_iteration_normal(rect, V(other, T(1)), options), ShapeMismatch);
  CHECK_THROWS_AS(power_iteration(op, V(layout, T(0)), options), InvalidArgument);
  CHECK_THROWS_AS(power_iteration_normal(rect, V(layout, T(0)), options), InvalidArgument);
  V nan(layout, T(1));
  std::vector<T> values_with_nan(8, T(1));
  values_with_nan[5] = T(std::numeric_limits<real_type_t<T>>::quiet_NaN());
  nan.assign_global(values_with_nan);
  CHECK_THROWS_AS(power_iteration(op, nan, options), InvalidArgument);
  CHECK(comm.allreduce(1, ReduceOp::sum) == comm.size());
}

TEMPLATE_TEST_CASE("ista and fista enforce their stopping rules", "[solvers][ista][fista]",
                   DISTLOPS_SCALAR_TYPES) {
  using T = TestType;
  const Communicator comm = world();
  // A tall full-rank operator and consistent data: ISTA converges linearly.
  const Layout domain(comm, {9}), range(comm, {12});
  const DenseMatrix<T> m = well_conditioned<T>(12, 9, 81);
  const auto op = dense_operator<Array<T>>(m, domain, range);
  Array<T> x_true(domain);
  fill_random(x_true, 82);
  const Array<T> y = op.apply(x_true);
  // lambda_max(A^H A) of the reference: one eigendecomposition for both solvers.
  const double lambda = largest_eigenvalue_of_normal(m);
  for (const bool accelerated : {false, true}) {
    INFO((accelerated ? "fista" : "ista"));
    auto run = [&](const IstaOptions<Array<T>>& options) {
      return accelerated ? fista(op, y, options) : ista(op, y, options);
    };
    IstaOptions<Array<T>> options;
    options.niter = 2000;
    options.eps = 0.05;
    // The default step: 1 / lambda_max(A^H A) from power iteration.
    options.tol = std::is_same_v<real_type_t<T>, float> ? 1e-4 : 1e-6;
    auto result = run(options);
    CHECK(result.reason == StopReason::tolerance);
    CHECK(result.model_updates.back() <= options.tol);
    CHECK(result.model_updates[result.model_updates.size() - 2] > options.tol);
    // Power iteration approaches lambda_max from below (here within 10 %).
    CHECK(1.0 / result.alpha <= lambda * (1 + 10 * epsilon<T>()));
    CHECK(1.0 / result.alpha >= 0.9 * lambda);
    CHECK(result.threshold == 0.05 * result.alpha / 2);
    if (!accelerated) {
      // ISTA with a step below 1 / lambda_max never increases the functional its steps
      // minimise, F = ||r||^2 / 2 + eps / 2 R = ||r||^2 / 4 + J / 2 (J: the cost recorded).
      auto monotone = options;
      monotone.niter = 200;
      monotone.alpha = 0.9 / lambda;
      const auto descent = run(monotone);
      auto functional = [](double residual_norm, double cost) {
        return residual_norm * residual_norm / 4 + cost / 2;
      };
      std::vector<double> values{functional(descent.initial_residual_norm, descent.initial_cost)};
      for (std::size_t k = 0; k < descent.costs.size(); ++k)
        values.push_back(functional(descent.residual_norms[k], descent.costs[k]));
      std::size_t increases = 0;
      for (std::size_t k = 1; k < values.size(); ++k)
        increases += values[k] > values[k - 1] * (1 + 10 * epsilon<T>());
      CHECK(increases == 0);
    }
    // The cost before the last one of a run (the initial cost after one iteration).
    auto previous_cost = [](const IstaResult<Array<T>>& r) {
      return r.costs.size() >= 2 ? r.costs[r.costs.size() - 2] : r.initial_cost;
    };
    const double data_cost = 0.5 * std::pow(static_cast<double>(y.norm()), 2);
    // rtol: relative to the initial cost J(x0) = ||y||^2 / 2 (x0 = 0).
    options.tol = 0;
    options.rtol = 0.5;
    result = run(options);
    CHECK(result.reason == StopReason::cost_to_initial);
    CHECK(close(result.initial_cost, data_cost, 10 * epsilon<T>()));
    CHECK(close(result.initial_residual_norm, static_cast<double>(y.norm()), 10 * epsilon<T>()));
    CHECK(result.costs.size() == std::size_t(result.iterations));
    CHECK(result.costs.back() < 0.5 * result.initial_cost);
    CHECK(previous_cost(result) >= 0.5 * result.initial_cost);
    // rtol1: relative to ||y||^2 / 2, the cost of the zero model.
    options.rtol = 0;
    options.rtol1 = 0.3;
    result = run(options);
    CHECK(result.reason == StopReason::cost_to_data);
    CHECK(result.costs.back() < 0.3 * data_cost);
    CHECK(previous_cost(result) >= 0.3 * data_cost);
    CHECK(same_on_every_rank(result.iterations));
  }
}

DISTLOPS_SPACE_TEMPLATE_TEST_CASE("ista and fista on stacked operators",
                                  "[solvers][ista][fista][stacked]", DISTLOPS_SCALAR_TYPES) {
  using T = TestType;
  using V = Array<T, Space>;
  const Communicator comm = world();
  const Layout l6(comm, {6}), l4(comm, {4}), l3(comm, {3}, Partition::BROADCAST);
  const auto a = dense_operator<V>(random_matrix<T>(4, 6, 91), l6, l4);
  const auto b = dense_operator<V>(random_matrix<T>(3, 6, 92), l6, l3);
  // StackedVStack (distributed model, stacked data) and its adjoint-side twin StackedHStack
  // (stacked model, distributed data).
  const auto stacked = StackedVStack({a, b});
  const DenseMatrix<T> m = assemble(stacked);
  StackedDistributedArray<T, Space> y(stacked.range());
  fill_random(y, 93);
  const double alpha = 0.9 / largest_eigenvalue_of_normal(m);
  IstaOptions<V> options;
  options.niter = 6;
  options.tol = 0;
  options.alpha = alpha;
  options.eps = 0.3;
  const auto wide = StackedHStack({a.adjoint(), b.adjoint()});
  const DenseMatrix<T> mh = assemble(wide);
  V yh(wide.range());
  fill_random(yh, 94);
  const double alpha_h = 0.9 / largest_eigenvalue_of_normal(mh);
  IstaOptions<StackedDistributedArray<T, Space>> options_h;
  options_h.niter = 6;
  options_h.tol = 0;
  options_h.alpha = alpha_h;
  options_h.eps = 0.3;
  for (const bool accelerated : {false, true}) {
    const auto result = accelerated ? fista(stacked, y, options) : ista(stacked, y, options);
    const auto reference = reference_sparse<T>(m, global_vector(y), DenseVector<T>::Zero(6), 6, 0.3,
                                               alpha, 0, accelerated);
    CHECK(distance(global_vector(result.x), reference.iterates.back()) <=
          iterate_tolerance<T, Space>() * std::max(1.0, norm_of(reference.iterates.back())));
    const auto result_h = accelerated ? fista(wide, yh, options_h) : ista(wide, yh, options_h);
    const auto reference_h = reference_sparse<T>(mh, global_vector(yh), DenseVector<T>::Zero(7), 6,
                                                 0.3, alpha_h, 0, accelerated);
    CHECK(distance(global_vector(result_h.x), reference_h.iterates.back()) <=
          iterate_tolerance<T, Space>() * std::max(1.0, norm_of(reference_h.iterates.back())));
  }
}

TEMPLATE_TEST_CASE("ista and fista on local operators", "[solvers][ista][fista]",
                   DISTLOPS_SCALAR_TYPES) {
  using T = TestType;
  const Communicator comm = world();
  const DenseMatrix<T> local_matrix = random_matrix<T>(5, 7, 94 + comm.rank());
  const auto local = dense_operator<LocalArray<T>>(local_matrix, {7}, {5});
  LocalArray<T> local_y({5});
  fill_random(local_y, 95);
  IstaOptions<LocalArray<T>> local_options;
  local_options.niter = 6;
  local_options.tol = 0;
  local_options.alpha = 0.9 / largest_eigenvalue_of_normal(local_matrix);
  const auto result = fista(local, local_y, local_options);
  const auto reference =
      reference_sparse<T>(local_matrix, global_vector(local_y), DenseVector<T>::Zero(7), 6, 0.1,
                          *local_options.alpha, 0, true);
  CHECK(distance(global_vector(result.x), reference.iterates.back()) <=
        iterate_tolerance<T>() * std::max(1.0, norm_of(reference.iterates.back())));
}

TEMPLATE_TEST_CASE("ista and fista breakdowns and bad input", "[solvers][ista][fista][errors]",
                   DISTLOPS_SCALAR_TYPES) {
  using T = TestType;
  const Communicator comm = world();
  const Layout domain(comm, {5}), range(comm, {4}), other(comm, {6});
  const auto op = dense_operator<Array<T>>(random_matrix<T>(4, 5, 101), domain, range);
  std::vector<T> values(4, T(1));
  values[2] = T(std::numeric_limits<real_type_t<T>>::quiet_NaN());
  IstaOptions<Array<T>> options;
  options.alpha = 0.1;
  const auto nan = Array<T>::from_global(range, values);
  CHECK(ista(op, nan, options).reason == StopReason::non_finite);
  CHECK(fista(op, nan, options).iterations == 0);

  const Array<T> y(range, T(1));
  CHECK_THROWS_AS(ista(op, Array<T>(other, T(1)), options), ShapeMismatch);
  CHECK_THROWS_AS(fista(op, y, Array<T>(other, T(1)), options), ShapeMismatch);
  auto bad = options;
  bad.eps = -1;
  CHECK_THROWS_AS(ista(op, y, bad), InvalidArgument);
  bad = options;
  bad.alpha = 0.0;
  CHECK_THROWS_AS(ista(op, y, bad), InvalidArgument);
  bad = options;
  bad.decay = {1.0, 1.0};
  CHECK_THROWS_AS(fista(op, y, bad), InvalidArgument);  // fewer entries than niter
  bad = options;
  bad.sop = dense_operator<Array<T>>(random_matrix<T>(6, 6, 102), other, other);
  CHECK_THROWS_AS(ista(op, y, bad), ShapeMismatch);
  // The zero operator: no step can be estimated.
  const auto zero = dense_operator<Array<T>>(DenseMatrix<T>::Zero(4, 5), domain, range);
  CHECK_THROWS_AS(ista(zero, y), InvalidArgument);
  CHECK(comm.allreduce(1, ReduceOp::sum) == comm.size());
}

DISTLOPS_SPACE_TEMPLATE_TEST_CASE("the thresholding kernels apply PyLops' rules element by element",
                                  "[solvers][threshold]", DISTLOPS_SCALAR_TYPES) {
  using T = TestType;
  const Index n = 1000;
  const std::vector<T> values = random_values<T>(n, 900);
  const DenseVector<T> x = Eigen::Map<const DenseVector<T>>(values.data(), n);
  for (const ThresholdKind kind : kinds) {
    for (double t : {0.0, 0.05, 0.4}) {
      INFO(to_string(kind) << " threshold " << t);
      Buffer<T, Space> data = buffer_of<Space>(values);
      kernels::threshold(Space{}, kind, n, static_cast<real_type_t<T>>(t), data.data());
      const DenseVector<T> expected = reference_threshold<T>(x, static_cast<int>(kind), t);
      CHECK(all_close(values_of(data), std::vector<T>(expected.data(), expected.data() + n),
                      10 * space_tolerance<T, Space>()));
    }
  }
}
