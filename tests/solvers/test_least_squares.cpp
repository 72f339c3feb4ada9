// SPDX-License-Identifier: BSD-3-Clause
// Copyright (c) 2026 The distlops authors
// CGLS and LSQR: every iterate against the serial transcriptions of PyLops' recurrences (in
// every memory space), numbers produced by PyLops itself, convergence on BlockDiag, VStack, HStack,
// local and (in every memory space) stacked operators, a nested one ([A; eps Gradient]) included,
// stacks of derivatives on box layouts, for the four scalar types, damping against
// the dense normal equations, LSQR's stopping tests, breakdowns and bad input.
#include <algorithm>

#include "box_layouts.hpp"
#include "distlops/operators/derivative/derivatives.hpp"
#include "distlops/operators/stack/block_diag.hpp"
#include "distlops/operators/stack/stacked.hpp"
#include "distlops/operators/stack/vstack.hpp"
#include "gradient_reference.hpp"
#include "solver_test_support.hpp"

using namespace distlops;
using namespace distlops::testing;

namespace {

template <class T>
using Stacked = StackedDistributedArray<T>;

int blocks_of(int rank) {
  return (rank + 1) % 3;
}

/// Solves op x = op x_true (consistent, full column rank) by CGLS and LSQR and returns the
/// larger relative error of the two solutions.
template <class Domain, class Range>
double least_squares_error(const BasicLinearOperator<Domain, Range>& op, std::uint64_t key) {
  using T = typename Domain::value_type;
  Domain x_true(op.domain());
  fill_random(x_true, key);
  const Range y = op.apply(x_true);
  const DenseVector<T> expected = global_vector(x_true);
  const double tol = residual_tolerance<T>() * static_cast<double>(y.norm());
  CglsOptions<Domain> cgls_options;
  cgls_options.niter = 200;
  cgls_options.tol = tol;
  const auto by_cgls = cgls(op, y, cgls_options);
  LsqrOptions<Domain> lsqr_options;
  lsqr_options.niter = 200;
  lsqr_options.tol = tol;
  lsqr_options.atol = lsqr_options.btol = residual_tolerance<T>();
  const auto by_lsqr = lsqr(op, y, lsqr_options);
  CHECK(by_cgls.reason == StopReason::tolerance);
  CHECK(by_lsqr.reason != StopReason::max_iterations);
  CHECK_FALSE(is_breakdown(by_lsqr.reason));
  return std::max(relative_error(by_cgls.x, expected), relative_error(by_lsqr.x, expected));
}

}  // namespace

DISTLOPS_SPACE_TEMPLATE_TEST_CASE(
    "cgls and lsqr iterates equal the serial transcriptions of PyLops'", "[solvers][cgls][lsqr]",
    DISTLOPS_SCALAR_TYPES) {
  using T = TestType;
  using V = Array<T, Space>;
  const Communicator comm = world();
  const double tol = iterate_tolerance<T, Space>();
  const Layout domain(comm, {7}), range(comm, {13});
  const DenseMatrix<T> m = well_conditioned<T>(13, 7, 31);
  const auto op = dense_operator<V>(m, domain, range);
  V y(range), x0(domain);
  fill_random(y, 32);
  fill_random(x0, 33);
  const int niter = 6;
  for_each_collective_path<Space>([&] {
    for (const double damp : {0.0, 0.3}) {
      for (const bool with_x0 : {false, true}) {
        INFO("damp " << damp << (with_x0 ? " with x0" : " without x0"));
        const DenseVector<T> start = with_x0 ? global_vector(x0) : DenseVector<T>::Zero(7);

        IterateRecorder<V> by_cgls;
        CglsOptions<V> cgls_options;
        cgls_options.niter = niter;
        cgls_options.damp = damp;
        cgls_options.callback = by_cgls.callback();
        const auto cgls_result =
            with_x0 ? cgls(op, y, x0, cgls_options) : cgls(op, y, cgls_options);
        const ReferenceRun<T> cgls_reference =
            reference_cgls<T>(m, global_vector(y), start, niter, damp);
        by_cgls.iterates.insert(by_cgls.iterates.begin(), start);
        CHECK(cgls_result.iterations == niter);
        CHECK(max_relative_difference(by_cgls.iterates, cgls_reference.iterates) <= tol);
        CHECK(all_close(cgls_result.costs, cgls_reference.costs, tol));
        // r1norm and r2norm of the final x, computed here from scratch.
        const DenseVector<T> x = global_vector(cgls_result.x);
        const double r1 = distance(global_vector(y), product(m, x));
        CHECK(close(cgls_result.r1norm, r1, tol));
        CHECK(close(cgls_result.r2norm, std::sqrt(r1 * r1 + damp * damp * double(x.squaredNorm())),
                    tol));
        // The residual norm is that of the normal equations.
        const DenseVector<T> normal =
            adjoint_product(m, DenseVector<T>(global_vector(y) - product(m, x))) -
            as_scalar<T>(damp * damp) * x;
        CHECK(close(cgls_result.residual_norms.back(), norm_of(normal), 10 * tol));

        IterateRecorder<V> by_lsqr;
        LsqrOptions<V> lsqr_options;
        lsqr_options.niter = niter;
        lsqr_options.damp = damp;
        lsqr_options.atol = lsqr_options.btol = lsqr_options.conlim = 0;
        lsqr_options.callback = by_lsqr.callback();
        const auto lsqr_result =
            with_x0 ? lsqr(op, y, x0, lsqr_options) : lsqr(op, y, lsqr_options);
        const ReferenceRun<T> lsqr_reference =
            reference_lsqr<T>(m, global_vector(y), start, niter, damp);
        by_lsqr.iterates.insert(by_lsqr.iterates.begin(), start);
        CHECK(lsqr_result.iterations == niter);
        CHECK(lsqr_result.istop == 7);
        CHECK(max_relative_difference(by_lsqr.iterates, lsqr_reference.iterates) <= tol);
        CHECK(all_close(lsqr_result.costs, lsqr_reference.costs, tol));
        // Without damping the two methods produce the same iterates in exact arithmetic.
        if (damp == 0 && !with_x0) {
          CHECK(max_relative_difference(by_lsqr.iterates, by_cgls.iterates) <= 10 * tol);
        }
      }
    }
  });
}

// The solvers need nothing new for box layouts: CGLS on the 3-d Laplacian over process grids
// (3-d ones among them), uneven grids whose last rank owns nothing and boxes that form no grid,
// every iterate against the transcription on its matrix.
DISTLOPS_SPACE_TEMPLATE_TEST_CASE("cgls on a 3-d Laplacian over box layouts",
                                  "[solvers][cgls][laplacian][box]", DISTLOPS_SCALAR_TYPES) {
  using T = TestType;
  using V = Array<T, Space>;
  const Communicator comm = world();
  const Shape shape{4, 5, 6};
  const DenseMatrix<T> m = negative_laplacian_matrix<T>(shape);
  const std::vector<T> values = random_values<T>(element_count(shape), 41);
  const double tol = iterate_tolerance<T, Space>();
  const int niter = 6;
  for (const NamedLayout& named : box_test_layouts(comm, shape, false)) {
    INFO(named.name);
    const auto op = Laplacian<T, Space>(
        named.layout, {.axes = {0, 1, 2}, .weights = {-1.0, -1.0, -1.0}, .sampling = {1, 1, 1}});
    const V y = V::from_global(named.layout, values);
    IterateRecorder<V> recorder;
    CglsOptions<V> options;
    options.niter = niter;
    options.callback = recorder.callback();
    const auto result = cgls(op, y, options);
    const DenseVector<T> start = DenseVector<T>::Zero(m.cols());
    const ReferenceRun<T> reference = reference_cgls<T>(m, global_vector(y), start, niter, 0.0);
    recorder.iterates.insert(recorder.iterates.begin(), start);
    CHECK(result.iterations == niter);
    CHECK(max_relative_difference(recorder.iterates, reference.iterates) <= tol);
    CHECK(all_close(result.costs, reference.costs, tol));
  }
}

// Nor do the stacks: CGLS on [L; eps G] (L the negative Laplacian, G the Gradient's stack
// nested in the data) over the box layouts of a 2-d array, 2 x 2 grids among them, every
// iterate against the transcription on the stacked matrix.
DISTLOPS_SPACE_TEMPLATE_TEST_CASE("cgls on [Laplacian; eps Gradient] over box layouts",
                                  "[solvers][cgls][stacked][box]", DISTLOPS_SCALAR_TYPES) {
  using T = TestType;
  using V = Array<T, Space>;
  const Communicator comm = world();
  const Shape shape{5, 4};
  const real_type_t<T> eps(0.5);
  DenseMatrix<T> m(60, 20);
  m << negative_laplacian_matrix<T>(shape), T(eps) * centered_gradient<T>(5, 4);
  const std::vector<T> values = random_values<T>(60, 43);
  const DenseVector<T> y_global = Eigen::Map<const DenseVector<T>>(values.data(), 60);
  const double tol = iterate_tolerance<T, Space>();
  const int niter = 6;
  for (const NamedLayout& named : box_test_layouts(comm, shape, false)) {
    INFO(named.name);
    const auto laplacian = Laplacian<T, Space>(
        named.layout, {.axes = {0, 1}, .weights = {-1.0, -1.0}, .sampling = {1, 1}});
    const auto op = StackedVStack<V>({laplacian, T(eps) * Gradient<T, Space>(named.layout)});
    StackedDistributedArray<T, Space> y(op.range());
    scatter_vector<T>(y_global, y);
    IterateRecorder<V> recorder;
    CglsOptions<V> options;
    options.niter = niter;
    options.callback = recorder.callback();
    const auto result = cgls(op, y, options);
    CHECK(result.x.layout() == named.layout);
    const DenseVector<T> start = DenseVector<T>::Zero(m.cols());
    const ReferenceRun<T> reference = reference_cgls<T>(m, y_global, start, niter, 0.0);
    recorder.iterates.insert(recorder.iterates.begin(), start);
    CHECK(result.iterations == niter);
    CHECK(max_relative_difference(recorder.iterates, reference.iterates) <= tol);
    CHECK(all_close(result.costs, reference.costs, tol));
  }
}

TEST_CASE("cgls and lsqr reproduce PyLops' numbers", "[solvers][cgls][lsqr][pylops]") {
  // import numpy as np, pylops
  // from pylops.optimization.basic import cgls, lsqr
  // B = np.array([[1., 2, 0], [0, 1, 1], [1, 0, 1], [2, 1, 0], [0, 0, 1]])
  // y = np.array([1., 0, 2, 1, 3])
  // cgls(pylops.MatrixMult(B), y, x0=np.zeros(3), niter=2, damp=0.0, tol=0)  -> x, cost
  // cgls(pylops.MatrixMult(B), y, niter=2, damp=0.5, tol=0)                   -> x, cost
  // lsqr(pylops.MatrixMult(B), y, niter=2, damp=0.0, atol=0, btol=0, conlim=0) -> x, cost
  // lsqr(pylops.MatrixMult(B), y, niter=2, damp=0.5, atol=0, btol=0, conlim=0) -> x, cost
  struct Case {
    double damp;
    std::vector<double> cgls_x, cgls_cost, lsqr_x, lsqr_cost;
  };
  const std::vector<Case> cases{{0.0,
                                 {0.6485653632815175, -0.1601725672806959, 1.539341231253852},
                                 {3.872983346207417, 2.780787050091048, 2.1309586408856553},
                                 {0.6485653632815174, -0.16017256728069595, 1.5393412312538524},
                                 {3.872983346207417, 2.7807870500910483, 2.130958640885656}},
                                {0.5,
                                 {0.6194105574756051, -0.11794953956955267, 1.413349812699793},
                                 {3.872983346207417, 2.781952918605836, 2.1427230248956124},
                                 {0.6194105574756049, -0.11794953956955301, 1.4133498126997932},
                                 {3.872983346207417, 2.7874189545926633, 2.14349191657936}}};
  const Communicator comm = world();
  DenseMatrix<double> b(5, 3);
  b << 1, 2, 0, 0, 1, 1, 1, 0, 1, 2, 1, 0, 0, 0, 1;
  const Layout domain(comm, {3}), range(comm, {5});
  const auto op = dense_operator<Array<double>>(b, domain, range);
  const auto y = Array<double>::from_global(range, std::vector<double>{1, 0, 2, 1, 3});
  for (const Case& c : cases) {
    INFO("damp " << c.damp);
    CglsOptions<Array<double>> cgls_options;
    cgls_options.niter = 2;
    cgls_options.damp = c.damp;
    const auto by_cgls = cgls(op, y, cgls_options);
    CHECK(all_close(by_cgls.x.gather(), c.cgls_x, 1e-13));
    CHECK(all_close(by_cgls.costs, c.cgls_cost, 1e-13));
    LsqrOptions<Array<double>> lsqr_options;
    lsqr_options.niter = 2;
    lsqr_options.damp = c.damp;
    lsqr_options.atol = lsqr_options.btol = lsqr_options.conlim = 0;
    const auto by_lsqr = lsqr(op, y, lsqr_options);
    CHECK(all_close(by_lsqr.x.gather(), c.lsqr_x, 1e-13));
    CHECK(all_close(by_lsqr.costs, c.lsqr_cost, 1e-13));
  }
}

TEMPLATE_TEST_CASE("cgls and lsqr converge on stacking operators", "[solvers][cgls][lsqr]",
                   DISTLOPS_SCALAR_TYPES) {
  using T = TestType;
  const Communicator comm = world();
  const int mine = blocks_of(comm.rank());
  auto key = [&](int i) { return std::uint64_t(300 + 10 * comm.rank() + i); };

  // BlockDiag of square non-symmetric blocks (rank 2 owns none).
  std::vector<LocalOperator<T>> square;
  for (int i = 0; i < mine; ++i) {
    const Index n = 2 + (comm.rank() + i) % 3;
    square.push_back(dense_operator<LocalArray<T>>(well_conditioned<T>(n, n, key(i)), {n}, {n}));
  }
  CHECK(least_squares_error(BlockDiag(square, comm), 41) <= solution_tolerance<T>());

  // VStack: tall blocks on a replicated (2, 2) model; SCATTER data.
  std::vector<LocalOperator<T>> tall;
  for (int i = 0; i < mine; ++i) {
    tall.push_back(dense_operator<LocalArray<T>>(well_conditioned<T>(5, 4, key(i)), {2, 2}, {5}));
  }
  CHECK(least_squares_error(VStack(tall, comm), 42) <= solution_tolerance<T>());

  // HStack: m x 2 blocks on a SCATTER model, replicated data of m values, m = 12 or more when
  // the blocks hold more than 12 unknowns in all (full column rank).
  Index columns = 0;
  for (int r = 0; r < comm.size(); ++r)
    columns += 2 * blocks_of(r);
  const Index m = std::max<Index>(12, columns + 2);
  std::vector<LocalOperator<T>> wide;
  for (int i = 0; i < mine; ++i) {
    wide.push_back(dense_operator<LocalArray<T>>(random_matrix<T>(m, 2, key(i)), {2}, {m}));
  }
  CHECK(least_squares_error(HStack(wide, comm), 43) <= solution_tolerance<T>());

  // A local operator: every rank solves its own problem.
  const auto local = dense_operator<LocalArray<T>>(well_conditioned<T>(8, 5, key(9)), {5}, {8});
  CHECK(least_squares_error(local, 50) <= solution_tolerance<T>());
}

DISTLOPS_SPACE_TEMPLATE_TEST_CASE("cgls and lsqr converge on stacked operators",
                                  "[solvers][cgls][lsqr][stacked]", DISTLOPS_SCALAR_TYPES) {
  using T = TestType;
  using V = Array<T, Space>;
  const Communicator comm = world();
  const double tol = space_factor<Space>() * solution_tolerance<T>();
  // StackedVStack (distributed model, stacked data), StackedHStack (stacked model, distributed
  // data) and StackedBlockDiag (stacked both).
  const Layout l4(comm, {4}), l3(comm, {3}), l9(comm, {9}), l6(comm, {6}, Partition::BROADCAST);
  const auto a = dense_operator<V>(well_conditioned<T>(9, 4, 44), l4, l9);
  const auto b = dense_operator<V>(well_conditioned<T>(6, 4, 45), l4, l6);
  CHECK(least_squares_error(StackedVStack({a, b}), 46) <= tol);
  const auto c = dense_operator<V>(random_matrix<T>(9, 3, 47), l3, l9);
  CHECK(least_squares_error(StackedHStack({a, c}), 48) <= tol);
  CHECK(least_squares_error(StackedBlockDiag({a, b}), 49) <= tol);

  // [A; eps G] on a 3 x 4 grid (nothing on rank 3 of 4), the gradient's stack nested in the
  // data [d; 0]: cgls and lsqr reach the serial least-squares solution of the regularised problem.
  const Layout grid(comm, {3, 4}), l14(comm, {14});
  const real_type_t<T> eps(0.5);
  const DenseMatrix<T> tall = well_conditioned<T>(14, 12, 50);
  const auto regularised =
      StackedVStack<V>({dense_operator<V>(tall, grid, l14), T(eps) * Gradient<T, Space>(grid)});
  DenseMatrix<T> m(38, 12);
  m << tall, T(eps) * centered_gradient<T>(3, 4);
  DenseVector<T> y_global = DenseVector<T>::Zero(38);
  y_global.head(14) = Eigen::Map<const DenseVector<T>>(random_values<T>(14, 51).data(), 14);
  StackedDistributedArray<T, Space> y(regularised.range());
  scatter_vector<T>(y_global, y);
  CglsOptions<V> options;
  options.niter = 20;  // 12 unknowns: converged; more steps at tol 0 only drift
  const auto result = cgls(regularised, y, options);
  const DenseVector<T> expected =
      solve_hermitian<T>(product(adjoint_of(m), m), adjoint_product(m, y_global));
  CHECK(relative_error(result.x, expected) <= tol);
  LsqrOptions<V> lsqr_options;
  lsqr_options.niter = 20;
  CHECK(relative_error(lsqr(regularised, y, lsqr_options).x, expected) <= tol);
}

TEMPLATE_TEST_CASE("damped cgls and lsqr solve the damped normal equations",
                   "[solvers][cgls][lsqr][damp]", DISTLOPS_SCALAR_TYPES) {
  using T = TestType;
  const Communicator comm = world();
  const Layout domain(comm, {6}), range(comm, {10});
  const DenseMatrix<T> m = random_matrix<T>(10, 6, 51);
  const auto op = dense_operator<Array<T>>(m, domain, range);
  Array<T> y(range), x0(domain);
  fill_random(y, 52);  // inconsistent data
  fill_random(x0, 53);
  const double damp = 0.7;
  const DenseMatrix<T> normal =
      product(adjoint_of(m), m) + as_scalar<T>(damp * damp) * identity_matrix<T>(6);
  const DenseVector<T> expected = solve_hermitian<T>(normal, adjoint_product(m, global_vector(y)));
  // LSQR from x0 damps the correction x - x0 (as PyLops and SciPy do).
  const DenseVector<T> expected_from_x0 = solve_hermitian<T>(
      normal, adjoint_product(m, global_vector(y)) + as_scalar<T>(damp * damp) * global_vector(x0));
  CglsOptions<Array<T>> cgls_options;
  cgls_options.niter = 100;
  cgls_options.damp = damp;
  cgls_options.tol = residual_tolerance<T>() * static_cast<double>(y.norm());
  // From a non-zero x0: the damping enters as damp^2 from the start.
  const auto by_cgls = cgls(op, y, x0, cgls_options);
  CHECK(by_cgls.reason == StopReason::tolerance);
  CHECK(relative_error(by_cgls.x, expected) <= solution_tolerance<T>());
  LsqrOptions<Array<T>> lsqr_options;
  lsqr_options.niter = 100;
  lsqr_options.damp = damp;
  lsqr_options.atol = lsqr_options.btol = residual_tolerance<T>();
  const auto by_lsqr = lsqr(op, y, x0, lsqr_options);
  CHECK(by_lsqr.reason == StopReason::normal_residual_small);
  CHECK(by_lsqr.istop == 2);
  CHECK(relative_error(by_lsqr.x, expected_from_x0) <= solution_tolerance<T>());
  const auto by_lsqr_from_zero = lsqr(op, y, lsqr_options);
  CHECK(relative_error(by_lsqr_from_zero.x, expected) <= solution_tolerance<T>());
  CHECK(same_on_every_rank(by_lsqr.iterations));
}

TEMPLATE_TEST_CASE("lsqr stops on a compatible system with PyLops' istop 1", "[solvers][lsqr]",
                   DISTLOPS_SCALAR_TYPES) {
  using T = TestType;
  const Communicator comm = world();
  const Layout domain(comm, {6}), range(comm, {10});
  const auto op = dense_operator<Array<T>>(well_conditioned<T>(10, 6, 54), domain, range);
  Array<T> x_true(domain);
  fill_random(x_true, 55);
  LsqrOptions<Array<T>> options;
  options.niter = 50;
  // atol = 0 leaves the compatibility test (test1 <= btol + ...) to stop the run.
  options.atol = 0;
  options.btol = 1e3 * epsilon<T>();
  const auto result = lsqr(op, op.apply(x_true), options);
  CHECK(result.reason == StopReason::residual_small);
  CHECK((result.istop == 1 || result.istop == 4));
  CHECK(result.iterations < 50);
  CHECK(result.xnorm > 0);
  CHECK(result.acond >= 1);
}

TEMPLATE_TEST_CASE("cgls and lsqr breakdowns and bad input", "[solvers][cgls][lsqr][errors]",
                   DISTLOPS_SCALAR_TYPES) {
  using T = TestType;
  const Communicator comm = world();
  const Layout domain(comm, {4}), range(comm, {7}), other(comm, {8});
  const auto op = dense_operator<Array<T>>(well_conditioned<T>(7, 4, 56), domain, range);
  std::vector<T> values(7, T(1));
  values[3] = T(std::numeric_limits<real_type_t<T>>::infinity());
  const auto y_inf = Array<T>::from_global(range, values);
  const auto by_cgls = cgls(op, y_inf);
  CHECK(by_cgls.reason == StopReason::non_finite);
  CHECK(by_cgls.iterations == 0);
  const auto by_lsqr = lsqr(op, y_inf);
  CHECK(by_lsqr.reason == StopReason::non_finite);
  CHECK(same_on_every_rank(static_cast<int>(by_lsqr.reason)));

  // The zero operator: x = 0 already solves the normal equations.
  const auto zero = dense_operator<Array<T>>(DenseMatrix<T>::Zero(7, 4), domain, range);
  const Array<T> y(range, T(1));
  CHECK(cgls(zero, y).reason == StopReason::tolerance);
  CHECK(lsqr(zero, y).reason == StopReason::tolerance);
  CHECK(cgls(zero, y).iterations == 0);

  CHECK_THROWS_AS(cgls(op, Array<T>(other, T(1))), ShapeMismatch);
  CHECK_THROWS_AS(lsqr(op, Array<T>(other, T(1))), ShapeMismatch);
  CHECK_THROWS_AS(cgls(op, y, Array<T>(range, T(1))), ShapeMismatch);
  CHECK_THROWS_AS(lsqr(op, y, Array<T>(range, T(1))), ShapeMismatch);
  CglsOptions<Array<T>> cgls_options;
  cgls_options.damp = -1;
  CHECK_THROWS_AS(cgls(op, y, cgls_options), InvalidArgument);
  LsqrOptions<Array<T>> lsqr_options;
  lsqr_options.niter = -3;
  CHECK_THROWS_AS(lsqr(op, y, lsqr_options), InvalidArgument);
  lsqr_options.niter = 3;
  lsqr_options.atol = -1;
  CHECK_THROWS_AS(lsqr(op, y, lsqr_options), InvalidArgument);

  // Stacked data of the wrong structure for a StackedVStack.
  const auto a = dense_operator<Array<T>>(well_conditioned<T>(7, 4, 57), domain, range);
  const auto stacked = StackedVStack({a, a});
  const Stacked<T> single(std::vector<Array<T>>{Array<T>(range, T(1))});
  CHECK_THROWS_AS(cgls(stacked, single), ShapeMismatch);
  CHECK(comm.allreduce(1, ReduceOp::sum) == comm.size());
}
