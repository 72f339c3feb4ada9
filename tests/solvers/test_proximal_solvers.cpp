// SPDX-License-Identifier: BSD-3-Clause
// Copyright (c) 2026 The distlops authors
// The proximal solvers (solvers/proximal/*.hpp): each converges to the minimiser of a problem
// whose solution is known in closed form or from Eigen, at 1 to 4 ranks with uneven splits and
// an empty rank, for the four scalar types in every memory space; total-variation denoising by
// the primal-dual algorithm against a serial transcription on the gathered problem; the
// step-wise form against the function form; checkpoints; bad parameters on every rank.
#include "dense_algebra.hpp"
#include "dense_reference.hpp"
#include "distlops/operators/derivative/derivatives.hpp"
#include "distlops/solvers/proximal/admm.hpp"
#include "distlops/solvers/proximal/box.hpp"
#include "distlops/solvers/proximal/l1.hpp"
#include "distlops/solvers/proximal/l2.hpp"
#include "distlops/solvers/proximal/l21.hpp"
#include "distlops/solvers/proximal/linearized_admm.hpp"
#include "distlops/solvers/proximal/primal_dual.hpp"
#include "distlops/solvers/proximal/proximal_gradient.hpp"
#include "expect_everywhere.hpp"
#include "solver_test_support.hpp"
#include "spaces.hpp"
#include "uneven_layout.hpp"

using namespace distlops;
using namespace distlops::testing;

namespace {

template <class T>
double converged_tolerance() {
  return std::is_same_v<real_type_t<T>, float> ? 2e-3 : 1e-7;
}

template <class T>
DenseVector<T> soft_vector(const DenseVector<T>& x, double t) {
  DenseVector<T> y(x.size());
  for (Eigen::Index i = 0; i < x.size(); ++i) {
    const double m = std::abs(std::complex<double>(x(i)));
    y(i) = m > t ? static_cast<T>(x(i) * static_cast<real_type_t<T>>((m - t) / m)) : T(0);
  }
  return y;
}

}  // namespace

DISTLOPS_SPACE_TEMPLATE_TEST_CASE("proximal_gradient reaches the lasso and ridge minimisers",
                                  "[proximal][proximal_gradient]", DISTLOPS_SCALAR_TYPES) {
  using T = TestType;
  using V = DistributedArray<T, Space>;
  const double tol = converged_tolerance<T>();
  const Layout layout = uneven_layout(11);
  V b(layout), x0(layout);
  fill_random(b, 71);
  fill_random(x0, 72);
  const DenseVector<T> gb = global_vector(b);
  // 1/2 sigma ||x - b||^2 + eps ||x||_1: the minimiser is soft(b, eps / sigma).
  const double sigma = 2.0, eps = 0.5;
  const L2<V> f(b, sigma);
  const L1<V> g(1.0);
  const DenseVector<T> lasso = soft_vector(gb, eps / sigma);
  for (const Acceleration acceleration :
       {Acceleration::none, Acceleration::vandenberghe, Acceleration::fista}) {
    for (const bool backtracking : {false, true}) {
      INFO(to_string(acceleration) << (backtracking ? " with backtracking" : ""));
      ProximalGradientOptions<V> options;
      options.niter = 200;
      options.epsg = eps;
      if (!backtracking) options.tau = 0.9 / sigma;
      options.tau0 = 3.0;
      options.acceleration = acceleration;
      const auto result = proximal_gradient(f, g, x0, options);
      CHECK(result.iterations == 200);
      CHECK(relative_error(result.x, lasso) <= tol);
      REQUIRE(result.costs.size() == 201);
      CHECK(std::isnan(result.residual_norms[0]));
      if (backtracking) CHECK(result.tau <= 1 / sigma);
    }
  }
  // 1/2 ||A x - b||^2 + eps/2 ||x||^2: (A^H A + eps I) x = A^H b.
  const Layout range = uneven_layout(13);
  const DenseMatrix<T> m = well_conditioned<T>(13, 11, 73);
  const auto op = dense_operator<V>(m, layout, range);
  V d(range);
  fill_random(d, 74);
  const DenseVector<T> ridge =
      reference_regularized_solution<T>(m, global_vector(d), eps, identity_matrix<T>(11));
  ProximalGradientOptions<V> options;
  options.niter = 150;
  options.tau = 1.0 / (largest_eigenvalue_of_normal(m) + eps);
  options.acceleration = Acceleration::fista;
  const auto result = proximal_gradient(L2<V>(op, d), L2<V>(eps), x0, options);
  CHECK(relative_error(result.x, ridge) <= tol);
  for (std::size_t k = 1; k < result.costs.size(); ++k)
    CHECK(result.costs[k] <= result.costs[0]);
}

DISTLOPS_SPACE_TEMPLATE_TEST_CASE(
    "admm, linearized_admm and primal_dual reach the minimiser of "
    "a quadratic problem",
    "[proximal][admm][primal_dual]", DISTLOPS_SCALAR_TYPES) {
  using T = TestType;
  using V = DistributedArray<T, Space>;
  using S = StackedDistributedArray<T, Space>;
  const double tol = converged_tolerance<T>();
  const Layout layout = uneven_layout(10);
  const S aux_vector(std::vector<V>{V::zeros(uneven_layout(7)), V::zeros(Layout(world(), {8}))});
  const auto aux = aux_vector.layout();
  const DenseMatrix<T> a = well_conditioned<T>(15, 10, 81);
  const DenseMatrix<T> op_matrix = well_conditioned<T>(10, 10, 82);
  const auto a_op = BasicLinearOperator<V, S>::template make<DenseOperator<V, S>>(a, layout, aux);
  const auto op = dense_operator<V>(op_matrix, layout, layout);
  V b(layout), x0(layout);
  fill_random(b, 83);
  fill_random(x0, 84);
  const DenseVector<T> gb = global_vector(b);
  const double eps = 0.3;
  const L2<S> g(eps);  // eps/2 ||z||^2
  {
    // 1/2 ||Op x - b||^2 + eps/2 ||A x||^2.
    const DenseVector<T> expected = reference_regularized_solution<T>(op_matrix, gb, eps, a);
    AdmmOptions<V> options;
    options.niter = 60;
    options.tau = 1.0;
    const auto result = admm(g, op, b, a_op, x0, options);
    CHECK(relative_error(result.x, expected) <= tol);
  }
  // 1/2 ||x - b||^2 + eps/2 ||A x||^2.
  const DenseVector<T> expected =
      reference_regularized_solution<T>(identity_matrix<T>(10), gb, eps, a);
  const L2<V> f(b);
  {
    LinearizedAdmmOptions<V> options;
    options.niter = 400;
    options.tau = 1.0;
    const auto result = linearized_admm(f, g, a_op, x0, options);
    CHECK(relative_error(result.x, expected) <= tol);
  }
  for (const double theta : {1.0, 0.5}) {
    INFO("theta = " << theta);
    PrimalDualOptions<V> options;
    options.niter = 300;
    options.theta = theta;
    const auto result = primal_dual(f, g, a_op, x0, options);
    CHECK(relative_error(result.x, expected) <= tol);
    CHECK(result.tau * result.sigma * result.operator_norm_squared <= 1.0);
  }
}

DISTLOPS_SPACE_TEMPLATE_TEST_CASE(
    "admm, linearized_admm and primal_dual: start vectors z0 and y0 and the g-first orders "
    "against serial transcriptions",
    "[proximal][admm][primal_dual][start]", DISTLOPS_SCALAR_TYPES) {
  using T = TestType;
  using V = DistributedArray<T, Space>;
  using S = StackedDistributedArray<T, Space>;
  const bool single = std::is_same_v<real_type_t<T>, float>;
  const double tol = 20 * iterate_tolerance<T, Space>();
  const Layout layout = uneven_layout(10);
  const S aux_vector(std::vector<V>{V::zeros(uneven_layout(7)), V::zeros(Layout(world(), {8}))});
  const auto aux = aux_vector.layout();
  ReferenceQuadratic<T> serial{
      well_conditioned<T>(10, 10, 121), well_conditioned<T>(15, 10, 122), {}, 0.3};
  const auto a_op =
      BasicLinearOperator<V, S>::template make<DenseOperator<V, S>>(serial.a, layout, aux);
  const auto op = dense_operator<V>(serial.op, layout, layout);
  V b(layout), x0(layout);
  S z0(aux), y0(aux);
  fill_random(b, 123);
  fill_random(x0, 124);
  fill_random(z0, 125);
  fill_random(y0, 126);
  serial.b = global_vector(b);
  const DenseVector<T> gx0 = global_vector(x0), gz0 = global_vector(z0), gy0 = global_vector(y0);
  const L2<V> f(b);
  const L2<S> g(serial.eps);
  const int niter = 6;
  for (const bool g_first : {false, true}) {
    INFO("admm, g_first = " << g_first);
    AdmmOptions<V> options;
    options.niter = niter;
    options.tau = 0.7;
    options.g_first = g_first;
    options.inner_niter = 60;
    options.inner_rtol = single ? 1e-6 : 1e-14;
    const auto from_z0 = admm(g, op, b, a_op, x0, z0, options);
    // g first reads no z0: its first z-update starts from A x0.
    const DenseVector<T> expected =
        serial.admm(gx0, g_first ? product(serial.a, gx0) : gz0, 0.7, g_first, niter);
    CHECK(relative_error(from_z0.x, expected) <= tol);
    const auto from_ax0 = admm(g, op, b, a_op, x0, options);
    CHECK(relative_error(from_ax0.x,
                         serial.admm(gx0, product(serial.a, gx0), 0.7, g_first, niter)) <= tol);
    // The objective of the histories starts at x0 either way.
    CHECK(from_z0.costs[0] == from_ax0.costs[0]);
  }
  {
    LinearizedAdmmOptions<V> options;
    options.niter = niter;
    options.tau = 1.0;
    options.mu = 0.01;
    const auto result = linearized_admm(f, g, a_op, x0, z0, options);
    CHECK(relative_error(result.x, serial.linearized_admm(gx0, gz0, 1.0, 0.01, niter)) <= tol);
  }
  for (const bool dual_first : {false, true}) {
    for (const bool with_y0 : {false, true}) {
      INFO("primal_dual, dual_first = " << dual_first << ", y0 given: " << with_y0);
      PrimalDualOptions<V> options;
      options.niter = niter;
      options.tau = 0.1;
      options.sigma = 0.2;
      options.theta = 0.8;
      options.dual_first = dual_first;
      PrimalDual<V, S> solver(f, g, a_op, options);
      if (with_y0) {
        solver.setup(x0, y0);
      } else {
        solver.setup(x0);
      }
      while (!solver.finished())
        solver.step();
      const auto [x, y] =
          serial.primal_dual(gx0, with_y0 ? gy0 : DenseVector<T>(DenseVector<T>::Zero(15)), 0.1,
                             0.2, 0.8, dual_first, niter);
      CHECK(relative_error(solver.y(), y) <= tol);
      CHECK(relative_error(solver.finalize().x, x) <= tol);
    }
  }
}

DISTLOPS_SPACE_TEMPLATE_TEST_CASE("primal_dual: total-variation denoising with L21 and Gradient",
                                  "[proximal][primal_dual][tv]", DISTLOPS_SCALAR_TYPES) {
  using T = TestType;
  using V = DistributedArray<T, Space>;
  using S = StackedDistributedArray<T, Space>;
  const Communicator comm = world();
  // 2-d image of 7 x 5 split unevenly along its rows, one rank without rows (more with more
  // than 7 ranks: one row each while rows last).
  const int p = comm.size();
  std::vector<Shape> shapes(static_cast<std::size_t>(p), Shape{0, 5});
  Index others = 0;
  for (int r = 1; r < p - 1 && others < 6; ++r) {
    shapes[static_cast<std::size_t>(r)] = Shape{1, 5};
    ++others;
  }
  shapes[0] = Shape{7 - others, 5};
  LayoutOptions layout_options;
  layout_options.local_shapes = shapes;
  const Layout layout(comm, {7, 5}, layout_options);
  GradientOptions gradient_options;
  gradient_options.kind = DerivativeKind::forward;
  const auto gradient = Gradient<T, Space>(layout, gradient_options);
  // The dense matrix of the gradient, column by column.
  const Index n = 35;
  DenseMatrix<T> k(gradient.rows(), n);
  for (Index j = 0; j < n; ++j) {
    V e(layout, T(0));
    DenseVector<T> unit = DenseVector<T>::Zero(n);
    unit(j) = T(1);
    scatter_vector(unit, e);
    k.col(j) = global_vector(gradient.apply(e));
  }
  V b(layout);
  fill_random(b, 91);
  const double weight = 0.2, tau = 0.25, sigma = 0.45, theta = 1.0;
  const int niter = 25;
  PrimalDualOptions<V> options;
  options.niter = niter;
  options.tau = tau;
  options.sigma = sigma;
  options.theta = theta;
  const L2<V> f(b);
  const L21<S> g(weight);
  const auto result = primal_dual(f, g, gradient, b, options);
  const DenseVector<T> expected =
      reference_tv_denoising<T>(k, global_vector(b), n, weight, tau, sigma, theta, niter);
  CHECK(relative_error(result.x, expected) <= 10 * iterate_tolerance<T, Space>());
  // The objective of the result is below that of the data and of the zero image.
  const double j_result = f.value(result.x) + g.value(gradient.apply(result.x));
  CHECK(j_result < f.value(b) + g.value(gradient.apply(b)));
  CHECK(j_result < f.value(V(layout, T(0))));
}

TEST_CASE("the step-wise form equals the function form and exposes its state",
          "[proximal][stepwise]") {
  using V = DistributedArray<double>;
  using S = StackedDistributedArray<double>;
  const Layout layout = uneven_layout(9);
  const S aux_vector(std::vector<V>{V::zeros(uneven_layout(6)), V::zeros(Layout(world(), {5}))});
  const DenseMatrix<double> a = well_conditioned<double>(11, 9, 101);
  const auto a_op =
      BasicLinearOperator<V, S>::make<DenseOperator<V, S>>(a, layout, aux_vector.layout());
  V b(layout);
  fill_random(b, 102);
  const L2<V> f(b);
  const L1<S> g(0.1);
  PrimalDualOptions<V> options;
  options.niter = 12;
  options.record_costs = true;
  const auto whole = primal_dual(f, g, a_op, b, options);
  PrimalDual<V, S> solver(f, g, a_op, options);
  solver.setup(b);
  CHECK(solver.iteration() == 0);
  int steps = 0;
  while (!solver.finished()) {
    const DenseVector<double> before = global_vector(solver.x());
    solver.step();
    ++steps;
    CHECK(solver.iteration() == steps);
    CHECK(solver.costs().size() == std::size_t(steps + 1));
    CHECK(std::abs(solver.residual_norms().back() -
                   static_cast<double>((global_vector(solver.x()) - before).norm())) <= 1e-12);
  }
  CHECK(steps == 12);
  const auto stepped = solver.finalize();
  CHECK(global_vector(stepped.x) == global_vector(whole.x));
  CHECK(stepped.costs == whole.costs);
  CHECK_THROWS_AS(solver.step(), InvalidArgument);
}

TEST_CASE("primal_dual evaluates its objective only where it is read",
          "[proximal][primal_dual][stepwise]") {
  using V = DistributedArray<double>;
  using S = StackedDistributedArray<double>;
  const Layout layout(world(), {6, 5});
  GradientOptions gradient_options;
  gradient_options.kind = DerivativeKind::forward;
  const auto gradient = Gradient<double, Host>(layout, gradient_options);
  V b(layout);
  fill_random(b, 151);
  const L2<V> f(b);
  const L21<S> g(0.2);
  PrimalDualOptions<V> options;
  options.niter = 7;
  options.tau = 0.25;
  options.sigma = 0.45;
  options.record_costs = true;
  const auto recorded = primal_dual(f, g, gradient, b, options);
  // J of every iterate, from the step-wise form's iterates.
  PrimalDual<V, S> solver(f, g, gradient, options);
  solver.setup(b);
  std::vector<double> objectives{f.value(b) + g.value(gradient.apply(b))};
  while (!solver.finished()) {
    solver.step();
    objectives.push_back(f.value(solver.x()) + g.value(gradient.apply(solver.x())));
    CHECK(std::abs(solver.objective() - objectives.back()) <= 1e-12 * objectives.back());
  }
  for (std::size_t k = 0; k < objectives.size(); ++k)
    CHECK(std::abs(recorded.costs[k] - objectives[k]) <= 1e-12 * objectives[k]);

  // Without record_costs: J(x0) always, then only the rows the progress table prints (0, 3, 6
  // and the last); the iterates are the same.
  options.record_costs = false;
  options.progress.show = true;
  options.progress.first = 0;
  options.progress.last = 1;
  options.progress.every = 3;
  const auto shown = primal_dual(f, g, gradient, b, options);
  CHECK(global_vector(shown.x) == global_vector(recorded.x));
  REQUIRE(shown.costs.size() == 8);
  for (std::size_t k = 0; k < shown.costs.size(); ++k) {
    INFO("iteration " << k);
    if (k % 3 == 0 || k == 7) {
      CHECK(shown.costs[k] == recorded.costs[k]);
    } else {
      CHECK(std::isnan(shown.costs[k]));
    }
  }
  // A callback reads J at every iteration.
  options.progress.show = false;
  std::vector<double> seen;
  options.callback = [&](int, const V&, double, double cost) {
    seen.push_back(cost);
    return CallbackAction::proceed;
  };
  const auto called = primal_dual(f, g, gradient, b, options);
  CHECK(called.costs == recorded.costs);
  CHECK(seen == std::vector<double>(recorded.costs.begin() + 1, recorded.costs.end()));
}

TEST_CASE("cgls in step-wise form equals cgls()", "[stepwise][cgls]") {
  using V = DistributedArray<double>;
  const Layout layout = uneven_layout(9);
  const DenseMatrix<double> m = well_conditioned<double>(12, 9, 121);
  const auto op = dense_operator<V>(m, layout, uneven_layout(12));
  V y(op.range()), x0(layout);
  fill_random(y, 122);
  fill_random(x0, 123);
  CglsOptions<V> options;
  options.niter = 7;
  options.damp = 0.3;
  const auto whole = cgls(op, y, x0, options);
  Cgls<V, V> solver(op, options);
  solver.setup(y, &x0);
  while (!solver.finished()) {
    solver.step();
    // The data residual the recurrence carries is y - A x of the current iterate.
    const DenseVector<double> misfit = global_vector(y) - product(m, global_vector(solver.x()));
    CHECK((global_vector(solver.residual()) - misfit).norm() <= 1e-12 * misfit.norm());
  }
  CHECK(solver.iteration() == 7);
  const auto stepped = solver.finalize();
  CHECK(global_vector(stepped.x) == global_vector(whole.x));
  CHECK(stepped.residual_norms == whole.residual_norms);
  CHECK(stepped.costs == whole.costs);
  CHECK(stepped.r2norm == whole.r2norm);
}

TEST_CASE("lsqr in step-wise form equals lsqr() and exposes its state", "[stepwise][lsqr]") {
  using V = DistributedArray<double>;
  const Layout layout = uneven_layout(9);
  const DenseMatrix<double> m = well_conditioned<double>(13, 9, 141);
  const auto op = dense_operator<V>(m, layout, uneven_layout(13));
  V y(op.range()), x0(layout);
  fill_random(y, 142);
  fill_random(x0, 143);
  for (const double damp : {0.0, 0.3}) {
    INFO("damp " << damp);
    LsqrOptions<V> options;
    options.niter = 7;
    options.damp = damp;
    const auto whole = lsqr(op, y, x0, options);
    Lsqr<V, V> solver(op, options);
    solver.setup(y, &x0);
    CHECK(solver.iteration() == 0);
    int steps = 0;
    while (!solver.finished()) {
      solver.step();
      ++steps;
      CHECK(solver.iteration() == steps);
      CHECK(solver.costs().size() == std::size_t(steps + 1));
      // The Lanczos vectors stay normalised, and without damping r1norm is ||y - A x|| of the
      // iterate (with damping it subtracts damp^2 times the recurrence's own estimate of
      // ||x - x0||^2, which is not exact).
      CHECK(std::abs(static_cast<double>(solver.u().norm()) - 1.0) <= 1e-12);
      CHECK(std::abs(static_cast<double>(solver.v().norm()) - 1.0) <= 1e-12);
      const DenseVector<double> misfit = global_vector(y) - product(m, global_vector(solver.x()));
      if (damp == 0) {
        CHECK(std::abs(solver.scalars().r1norm - misfit.norm()) <= 1e-10 * misfit.norm());
      }
    }
    CHECK(steps == 7);
    CHECK(solver.istop() == 7);
    const auto stepped = solver.finalize();
    CHECK(global_vector(stepped.x) == global_vector(whole.x));
    CHECK(stepped.residual_norms == whole.residual_norms);
    CHECK(stepped.costs == whole.costs);
    CHECK(stepped.istop == whole.istop);
    CHECK(stepped.r2norm == whole.r2norm);
    CHECK(stepped.acond == whole.acond);
    CHECK_THROWS_AS(solver.step(), InvalidArgument);
  }
}

TEST_CASE("cg, ista and fista in step-wise form equal their function forms", "[stepwise]") {
  using V = DistributedArray<double>;
  const Layout layout = uneven_layout(9);
  V y(layout), x0(layout);
  fill_random(y, 131);
  fill_random(x0, 132);
  {
    const DenseMatrix<double> m = hpd_matrix<double>(9, 133);
    const auto op = dense_operator<V>(m, layout, layout);
    CgOptions<V> options;
    options.niter = 6;
    const auto whole = cg(op, y, x0, options);
    Cg<V> solver(op, options);
    solver.setup(y, &x0);
    while (!solver.finished()) {
      solver.step();
      // The recurrence's residual is y - A x of the current iterate (to rounding relative to
      // y: it falls to 1e-5 ||y|| within the 6 iterations).
      const DenseVector<double> r = global_vector(y) - product(m, global_vector(solver.x()));
      CHECK((global_vector(solver.residual()) - r).norm() <= 1e-12 * global_vector(y).norm());
    }
    const auto stepped = solver.finalize();
    CHECK(global_vector(stepped.x) == global_vector(whole.x));
    CHECK(stepped.residual_norms == whole.residual_norms);
  }
  const DenseMatrix<double> m = random_matrix<double>(9, 9, 134);
  const auto op = dense_operator<V>(m, layout, layout);
  for (const bool accelerated : {false, true}) {
    INFO((accelerated ? "fista" : "ista"));
    IstaOptions<V> options;
    options.niter = 8;
    options.tol = 0;
    options.eps = 0.3;
    options.alpha = 0.5 / largest_eigenvalue_of_normal(m);
    const auto whole = accelerated ? fista(op, y, x0, options) : ista(op, y, x0, options);
    Ista<V, V> solver(op, options, accelerated);
    solver.setup(y, &x0);
    while (!solver.finished()) {
      solver.step();
      CHECK(solver.model_updates().size() == std::size_t(solver.iteration()));
    }
    const auto stepped = solver.finalize();
    CHECK(global_vector(stepped.x) == global_vector(whole.x));
    CHECK(stepped.costs == whole.costs);
    CHECK(stepped.model_updates == whole.model_updates);
  }
}

TEST_CASE("a callback that throws on one rank ends a proximal solve on every rank",
          "[proximal][callback][errors]") {
  using V = DistributedArray<double>;
  const Communicator comm = world();
  const Layout layout = uneven_layout(9);
  const DenseMatrix<double> m = well_conditioned<double>(12, 9, 121);
  const auto op = dense_operator<V>(m, layout, uneven_layout(12));
  V d(op.range()), x0(layout);
  fill_random(d, 122);
  fill_random(x0, 123);
  ProximalGradientOptions<V> options;
  options.niter = 6;
  options.acceleration = Acceleration::fista;
  options.epsg = 0.2;
  options.callback = [comm](int iteration, const V&, double, double) {
    if (comm.rank() == comm.size() - 1 && iteration == 3) throw InvalidArgument("user failure");
    return CallbackAction::proceed;
  };
  const L2<V> f(op, d);
  const L1<V> g;
  // The message names the rank that raised where other ranks did not.
  const std::string expected =
      "user failure" +
      (comm.size() > 1 ? " (raised on rank " + std::to_string(comm.size() - 1) + ")" : "");
  expect_everywhere<InvalidArgument>(
      comm, [&] { (void)proximal_gradient(f, g, x0, options); }, expected);
}

TEST_CASE("proximal solvers resume from checkpoints", "[proximal][checkpoint]") {
  using V = DistributedArray<double>;
  const Layout layout = uneven_layout(9);
  const DenseMatrix<double> m = well_conditioned<double>(12, 9, 111);
  const auto op = dense_operator<V>(m, layout, uneven_layout(12));
  V d(op.range()), x0(layout);
  fill_random(d, 112);
  fill_random(x0, 113);
  ScratchDirectory scratch;
  ProximalGradientOptions<V> options;
  options.niter = 10;
  options.acceleration = Acceleration::fista;
  options.epsg = 0.2;
  const L2<V> f(op, d);
  const L1<V> g;
  const auto whole = proximal_gradient(f, g, x0, options);
  options.niter = 6;
  options.checkpoint.directory = scratch.path();
  options.checkpoint.every = 3;
  proximal_gradient(f, g, x0, options);
  options.niter = 10;
  options.checkpoint.every = 0;
  options.checkpoint.resume = true;
  const auto resumed = proximal_gradient(f, g, x0, options);
  CHECK(resumed.resumed_from == 6);
  CHECK(global_vector(resumed.x) == global_vector(whole.x));
  CHECK(resumed.costs == whole.costs);

  // The dual-first primal-dual step extrapolates from x_{k-1}: its checkpoints keep it.
  PrimalDualOptions<V> pd;
  pd.niter = 9;
  pd.dual_first = true;
  pd.record_costs = true;
  const L2<V> data(x0);
  const auto pd_whole = primal_dual(data, L1<V>(0.3), op, x0, d, pd);
  pd.niter = 4;
  pd.checkpoint.directory = scratch.path();
  pd.checkpoint.every = 2;
  primal_dual(data, L1<V>(0.3), op, x0, d, pd);
  pd.niter = 9;
  pd.checkpoint.every = 0;
  pd.checkpoint.resume = true;
  const auto pd_resumed = primal_dual(data, L1<V>(0.3), op, x0, d, pd);
  CHECK(pd_resumed.resumed_from == 4);
  CHECK(global_vector(pd_resumed.x) == global_vector(pd_whole.x));
}

TEST_CASE("proximal solvers: bad parameters raise on every rank", "[proximal][errors]") {
  using V = DistributedArray<double>;
  using S = StackedDistributedArray<double>;
  const Communicator comm = world();
  const Layout layout = uneven_layout(8);
  const auto gradient = Gradient<double, Host>(Layout(comm, {8}));
  V b(Layout(comm, {8}), 1.0);
  const L2<V> f(b);
  const L21<S> g(0.1);
  PrimalDualOptions<V> options;
  options.niter = 3;
  options.tau = -1.0;
  expect_everywhere<InvalidArgument>(
      comm, [&] { primal_dual(f, g, gradient, b, options); }, "tau must be positive");
  // ||Gradient||^2 is close to 1 for the centred 1-d derivative: tau sigma = 3 violates the
  // condition.
  options.tau = 1.0;
  options.sigma = 3.0;
  expect_everywhere<InvalidArgument>(
      comm, [&] { primal_dual(f, g, gradient, b, options); }, "exceeds 1");
  options.sigma = 0.2;
  options.theta = 2.0;
  expect_everywhere<InvalidArgument>(
      comm, [&] { primal_dual(f, g, gradient, b, options); }, "theta");
  options.theta = 1.0;
  V wrong(Layout(comm, {9}), 1.0);
  expect_everywhere<ShapeMismatch>(
      comm, [&] { primal_dual(f, g, gradient, wrong, options); }, "x0");
  LinearizedAdmmOptions<V> ladmm;
  ladmm.mu = 10.0;
  expect_everywhere<InvalidArgument>(
      comm, [&] { linearized_admm(f, g, gradient, b, ladmm); }, "exceeds tau");
  ProximalGradientOptions<V> pg;
  pg.eta = 0;
  expect_everywhere<InvalidArgument>(
      comm, [&] { proximal_gradient(f, f, b, pg); }, "eta");
  pg.eta = 1;
  expect_everywhere<InvalidArgument>(
      comm, [&] { proximal_gradient(L1<V>(), f, b, pg); }, "must be differentiable");
  AdmmOptions<V> admm_options;
  admm_options.tau = 0;
  const auto identity =
      dense_operator<V>(DenseMatrix<double>::Identity(8, 8), b.layout(), b.layout());
  expect_everywhere<InvalidArgument>(
      comm, [&] { admm(g, identity, b, gradient, b, admm_options); }, "tau must be positive");
  // Start vectors of the wrong layout.
  admm_options.tau = 1;
  const S wrong_aux(std::vector<V>{V(Layout(comm, {7}), 1.0)});
  expect_everywhere<ShapeMismatch>(
      comm, [&] { admm(g, identity, b, gradient, b, wrong_aux, admm_options); }, "z0");
  ladmm.mu.reset();
  expect_everywhere<ShapeMismatch>(
      comm, [&] { linearized_admm(f, g, gradient, b, wrong_aux, ladmm); }, "z0");
  options.dual_first = true;
  expect_everywhere<ShapeMismatch>(
      comm, [&] { primal_dual(f, g, gradient, b, wrong_aux, options); }, "y0");
}
