// SPDX-License-Identifier: BSD-3-Clause
// Copyright (c) 2026 The distlops authors
// CG and preconditioned CG: every iterate against the serial transcription of PyLops' CG and
// breakdowns, in every memory space; numbers produced by PyLops itself, convergence on
// distributed, replicated and local operators and (in every memory space) stacked ones for the
// four scalar types, the Jacobi preconditioner, and bad input; CG on the Laplacian (whose apply
// fuses c^H A c) against the same transcription on its matrix.
#include "box_layouts.hpp"
#include "distlops/operators/derivative/derivatives.hpp"
#include "distlops/operators/stack/block_diag.hpp"
#include "distlops/operators/stack/stacked.hpp"
#include "distlops/operators/stack/vstack.hpp"
#include "solver_test_support.hpp"

using namespace distlops;
using namespace distlops::testing;

namespace {

// Rank r holds (r + 1) % 3 blocks (rank 2 none), block i of size 2 + (r + i) % 3.
int blocks_of(int rank) {
  return (rank + 1) % 3;
}
Index block_size(int rank, int i) {
  return 2 + (rank + i) % 3;
}

/// The block-diagonal operator of every rank's HPD blocks and its dense global matrix.
template <class T, class Space = Host>
std::pair<LinearOperator<T, Space>, DenseMatrix<T>> hpd_block_diag(const Communicator& comm) {
  std::vector<DenseMatrix<T>> all;
  std::vector<LocalOperator<T, Space>> mine;
  Index n = 0;
  for (int r = 0; r < comm.size(); ++r) {
    for (int i = 0; i < blocks_of(r); ++i) {
      all.push_back(hpd_matrix<T>(block_size(r, i), std::uint64_t(100 * r + i)));
      n += all.back().rows();
      if (r == comm.rank()) {
        const Index m = all.back().rows();
        mine.push_back(dense_operator<LocalArray<T, Space>>(all.back(), {m}, {m}));
      }
    }
  }
  DenseMatrix<T> global = DenseMatrix<T>::Zero(n, n);
  Index offset = 0;
  for (const DenseMatrix<T>& block : all) {
    global.block(offset, offset, block.rows(), block.rows()) = block;
    offset += block.rows();
  }
  return {BlockDiag(mine, comm), global};
}

/// Solves op x = op x_true by CG and returns the relative error of x.
template <class V>
double cg_error(const BasicLinearOperator<V, V>& op, std::uint64_t key, StopReason& reason) {
  using T = typename V::value_type;
  V x_true(op.domain());
  fill_random(x_true, key);
  const V y = op.apply(x_true);
  CgOptions<V> options;
  options.niter = 200;
  options.tol = residual_tolerance<T>() * static_cast<double>(y.norm());
  const CgResult<V> result = cg(op, y, options);
  reason = result.reason;
  return relative_error(result.x, global_vector(x_true));
}

// Runs 8 iterations of cg from x0 (or from 0) and checks every iterate and cost against the
// serial transcription of PyLops' CG on the matrix m.
template <class T, class V, class Op>
CgResult<V> check_eight_iterations(const Op& op, const DenseMatrix<T>& m, const V& y, const V* x0,
                                   double tol) {
  IterateRecorder<V> recorder;
  CgOptions<V> options;
  options.niter = 8;
  options.callback = recorder.callback();
  CgResult<V> result = x0 ? cg(op, y, *x0, options) : cg(op, y, options);
  const DenseVector<T> start =
      x0 ? DenseVector<T>(global_vector(*x0)) : DenseVector<T>::Zero(m.cols());
  const ReferenceRun<T> reference = reference_cg<T>(m, global_vector(y), start, 8);
  recorder.iterates.insert(recorder.iterates.begin(), start);
  CHECK(result.iterations == 8);
  CHECK(result.reason == StopReason::max_iterations);
  CHECK(max_relative_difference(recorder.iterates, reference.iterates) <= tol);
  REQUIRE(result.costs.size() == 9);
  CHECK(all_close(result.costs, reference.costs, tol));
  return result;
}

}  // namespace

DISTLOPS_SPACE_TEMPLATE_TEST_CASE("cg iterates equal the serial transcription of PyLops' CG",
                                  "[solvers][cg]", DISTLOPS_SCALAR_TYPES) {
  using T = TestType;
  using V = Array<T, Space>;
  const Communicator comm = world();
  const Index n = 11;
  const Layout layout(comm, {n});
  const DenseMatrix<T> m = hpd_matrix<T>(n, 7);
  const auto op = dense_operator<V>(m, layout, layout);
  V y(layout), x0(layout);
  fill_random(y, 8);
  fill_random(x0, 9);
  const double tol = iterate_tolerance<T, Space>();
  for_each_collective_path<Space>([&] {
    for (const bool with_x0 : {false, true}) {
      const CgResult<V> result = check_eight_iterations<T>(op, m, y, with_x0 ? &x0 : nullptr, tol);
      CHECK(result.residual_norms == result.costs);
    }
  });
}

// 1 + 2i for complex types (1 for real ones).
template <class T>
T complex_scale() {
  if constexpr (is_complex_v<T>) {
    return T(1, 2);
  } else {
    return T(1);
  }
}

// CG on -L, L the 2-d Laplacian (centered, no edge, unit weights): the stencil operator whose
// apply also forms c^H A c on the host. Its matrix by the formula: on a row away from the ends
// of an axis, 2 on the diagonal and -1 at the two neighbours along that axis.
DISTLOPS_SPACE_TEMPLATE_TEST_CASE("cg on the Laplacian equals the serial transcription",
                                  "[solvers][cg][laplacian]", DISTLOPS_SCALAR_TYPES) {
  using T = TestType;
  using V = Array<T, Space>;
  const Communicator comm = world();
  const Index nx = 9, ny = 7, n = nx * ny;
  const DenseMatrix<T> m = negative_laplacian_matrix<T>({nx, ny});
  // Rank r > 0 owns one plane for odd r and none for even r: uneven, with empty ranks.
  std::vector<Shape> planes(static_cast<std::size_t>(comm.size()), Shape{0, ny});
  Index rest = nx;
  for (int r = 1; r < comm.size(); ++r) {
    planes[r][0] = r % 2;
    rest -= planes[r][0];
  }
  planes[0][0] = rest;
  const std::vector<Layout> layouts{Layout(comm, {nx, ny}),
                                    Layout(comm, {nx, ny}, LayoutOptions{.local_shapes = planes}),
                                    Layout(comm, {nx, ny}, Partition::BROADCAST)};
  const double tol = iterate_tolerance<T, Space>();
  for (const Layout& layout : layouts) {
    INFO("layout " << layout.describe());
    const auto op = Laplacian<T, Space>(layout, {.axes = {0, 1}, .weights = {-1.0, -1.0}});
    // The matrix is not Hermitian (its end rows are zero), so c^H A c is real, as CG needs it,
    // only for vectors that are one complex scalar times a real vector: x_true is such.
    const std::vector<real_type_t<T>> real_values = random_values<real_type_t<T>>(n, 31);
    std::vector<T> values;
    for (const real_type_t<T> v : real_values)
      values.push_back(T(v) * complex_scale<T>());
    const V x_true = V::from_global(layout, values);
    const V y = op.apply(x_true);
    (void)check_eight_iterations<T>(op, m, y, static_cast<const V*>(nullptr), tol);
  }
}

// The solvers need nothing new for box layouts: CG on -L, L the 3-d Laplacian, over process
// grids (3-d ones among them), uneven grids whose last rank owns nothing and boxes that form no
// grid, against the same transcription on its matrix.
DISTLOPS_SPACE_TEMPLATE_TEST_CASE("cg on a 3-d Laplacian over box layouts",
                                  "[solvers][cg][laplacian][box]", DISTLOPS_SCALAR_TYPES) {
  using T = TestType;
  using V = Array<T, Space>;
  const Communicator comm = world();
  const Shape shape{5, 4, 6};
  const DenseMatrix<T> m = negative_laplacian_matrix<T>(shape);
  const std::vector<real_type_t<T>> real_values =
      random_values<real_type_t<T>>(element_count(shape), 37);
  std::vector<T> values;
  for (const real_type_t<T> v : real_values)
    values.push_back(T(v) * complex_scale<T>());
  const double tol = iterate_tolerance<T, Space>();
  for (const NamedLayout& named : box_test_layouts(comm, shape, false)) {
    INFO(named.name);
    const auto op = Laplacian<T, Space>(
        named.layout, {.axes = {0, 1, 2}, .weights = {-1.0, -1.0, -1.0}, .sampling = {1, 1, 1}});
    const V y = op.apply(V::from_global(named.layout, values));
    (void)check_eight_iterations<T>(op, m, y, static_cast<const V*>(nullptr), tol);
  }
}

TEST_CASE("cg reproduces PyLops' numbers", "[solvers][cg][pylops]") {
  // import numpy as np, pylops
  // A = np.array([[4., 1, 0, 0], [1, 3, 1, 0], [0, 1, 2, .5], [0, 0, .5, 1]])
  // y = np.array([1., 2, 3, 4])
  // x, iit, cost = pylops.optimization.basic.cg(pylops.MatrixMult(A), y, x0=np.zeros(4),
  //                                            niter=3, tol=0)
  const std::vector<double> pylops_x{0.32096567603773, 0.162675354683247, 0.6672120289943548,
                                     3.5955149285450188};
  const std::vector<double> pylops_cost{5.477225575051661, 3.063673395542713, 1.5851887036747063,
                                        0.7521456960643613};
  const Communicator comm = world();
  DenseMatrix<double> a(4, 4);
  a << 4, 1, 0, 0, 1, 3, 1, 0, 0, 1, 2, 0.5, 0, 0, 0.5, 1;
  const Layout layout(comm, {4});
  const auto op = dense_operator<Array<double>>(a, layout, layout);
  const Array<double> y = Array<double>::from_global(layout, std::vector<double>{1, 2, 3, 4});
  CgOptions<Array<double>> options;
  options.niter = 3;
  const auto result = cg(op, y, options);
  CHECK(result.iterations == 3);
  CHECK(all_close(result.x.gather(), pylops_x, 1e-13));
  CHECK(all_close(result.costs, pylops_cost, 1e-13));
}

TEMPLATE_TEST_CASE("cg converges on distributed, replicated and local operators", "[solvers][cg]",
                   DISTLOPS_SCALAR_TYPES) {
  using T = TestType;
  const Communicator comm = world();
  StopReason reason = StopReason::callback;

  // BlockDiag of every rank's HPD blocks (rank 2 owns none).
  const auto [block_diag, global] = hpd_block_diag<T>(comm);
  CHECK(cg_error(block_diag, 11, reason) <= solution_tolerance<T>());
  CHECK(reason == StopReason::tolerance);

  // A dense HPD operator on an N-d array distributed along axis 1.
  const Layout grid(comm, {3, 5}, Partition::SCATTER, 1);
  const auto dense = dense_operator<Array<T>>(hpd_matrix<T>(15, 12), grid, grid);
  CHECK(cg_error(dense, 13, reason) <= solution_tolerance<T>());
  CHECK(reason == StopReason::tolerance);

  // The normal operator of a VStack: replicated (BROADCAST) model vectors.
  std::vector<LocalOperator<T>> rows;
  for (int i = 0; i < blocks_of(comm.rank()); ++i) {
    rows.push_back(dense_operator<LocalArray<T>>(
        well_conditioned<T>(5, 4, std::uint64_t(200 + 10 * comm.rank() + i)), {4}, {5}));
  }
  const auto vstack = VStack(rows, comm);
  CHECK(cg_error(vstack.adjoint() * vstack, 15, reason) <= solution_tolerance<T>());
  CHECK(reason == StopReason::tolerance);

  // A local operator: every rank solves its own system.
  const auto local = dense_operator<LocalArray<T>>(hpd_matrix<T>(6, 16 + comm.rank()), {6}, {6});
  CHECK(cg_error(local, 17, reason) <= solution_tolerance<T>());
  CHECK(reason == StopReason::tolerance);
}

DISTLOPS_SPACE_TEMPLATE_TEST_CASE("cg converges on stacked operators", "[solvers][cg][stacked]",
                                  DISTLOPS_SCALAR_TYPES) {
  using T = TestType;
  const Communicator comm = world();
  StopReason reason = StopReason::callback;
  // A block-diagonal stack of every rank's HPD blocks and of a dense HPD operator on an N-d
  // array distributed along axis 1.
  const auto block_diag = hpd_block_diag<T, Space>(comm).first;
  const Layout grid(comm, {3, 5}, Partition::SCATTER, 1);
  const auto dense = dense_operator<Array<T, Space>>(hpd_matrix<T>(15, 12), grid, grid);
  const auto stacked = StackedBlockDiag({block_diag, dense});
  CHECK(cg_error(stacked, 14, reason) <= space_factor<Space>() * solution_tolerance<T>());
  CHECK(reason == StopReason::tolerance);
}

namespace {

/// y = d x element-wise with d a distributed array: the Jacobi preconditioner of the tests.
template <class T>
class ElementwiseScaling final : public LinearOperatorBase<Array<T>> {
 public:
  explicit ElementwiseScaling(Array<T> d)
      : LinearOperatorBase<Array<T>>(d.layout(), d.layout(), "Jacobi"), d_(std::move(d)) {}
  void forward(const Array<T>& x, Array<T>& y) const override { (y.copy_from(x)) *= d_; }
  void adjoint(const Array<T>& y, Array<T>& x) const override { (x.copy_from(y)) *= d_.conj(); }

 private:
  Array<T> d_;
};

}  // namespace

TEMPLATE_TEST_CASE("a Jacobi preconditioner reduces the iterations on an ill-conditioned system",
                   "[solvers][cg][pcg]", DISTLOPS_SCALAR_TYPES) {
  using T = TestType;
  using R = real_type_t<T>;
  const Communicator comm = world();
  // Diagonal from 1 to 1e4, symmetric off-diagonal part small enough for diagonal dominance.
  const Index n = 60;
  DenseMatrix<T> a = random_matrix<T>(n, n, 21);
  a = (a + adjoint_of(a)).eval();
  std::vector<T> inverse_diagonal(n);
  for (Index i = 0; i < n; ++i) {
    const double d = std::pow(10.0, 4.0 * double(i) / double(n - 1));
    for (Index j = 0; j < n; ++j) {
      const double dj = std::pow(10.0, 4.0 * double(j) / double(n - 1));
      a(i, j) *= R(0.2 * std::min(d, dj) / double(n));
    }
    a(i, i) = T(R(d));
    inverse_diagonal[std::size_t(i)] = T(R(1.0 / d));
  }
  const Layout layout(comm, {n});
  const auto op = dense_operator<Array<T>>(a, layout, layout);
  const auto jacobi = LinearOperator<T>::template make<ElementwiseScaling<T>>(
      Array<T>::from_global(layout, inverse_diagonal));
  Array<T> x_true(layout);
  fill_random(x_true, 22);
  const Array<T> y = op.apply(x_true);

  CgOptions<Array<T>> options;
  options.niter = 1000;
  options.tol = residual_tolerance<T>() * 1e2 * static_cast<double>(y.norm());
  const auto plain = cg(op, y, options);
  options.preconditioner = jacobi;
  const auto preconditioned = cg(op, y, options);
  INFO("plain CG: " << plain.iterations
                    << " iterations, preconditioned: " << preconditioned.iterations);
  CHECK(plain.reason == StopReason::tolerance);
  CHECK(preconditioned.reason == StopReason::tolerance);
  CHECK(preconditioned.iterations * 3 < plain.iterations);
  // The error bound of a residual reduced by tol / ||y|| on a system of condition ~1e4.
  const double bound = 1e4 * options.tol / static_cast<double>(y.norm());
  CHECK(relative_error(preconditioned.x, global_vector(x_true)) <= bound);
  // The cost of preconditioned CG is sqrt(r^H M r), its residual norm ||r||.
  CHECK(preconditioned.residual_norms.back() <= options.tol);
  CHECK(same_on_every_rank(preconditioned.iterations));

  // A preconditioner that is not positive definite breaks down at once.
  options.preconditioner = -jacobi;
  const auto indefinite = cg(op, y, options);
  CHECK(indefinite.reason == StopReason::indefinite_preconditioner);
  CHECK(indefinite.iterations == 0);
}

DISTLOPS_SPACE_TEMPLATE_TEST_CASE("cg stops on breakdown with the same reason on every rank",
                                  "[solvers][cg][breakdown]", DISTLOPS_SCALAR_TYPES) {
  using T = TestType;
  using V = Array<T, Space>;
  const Communicator comm = world();
  const Index n = 6;
  const Layout layout(comm, {n});
  std::vector<T> ones(n, T(1));
  const V y = V::from_global(layout, ones);

  // Indefinite: diag(1, -2, 1, -2, ...), c^H A c = y^H A y < 0 at once.
  DenseMatrix<T> indefinite = DenseMatrix<T>::Zero(n, n);
  for (Index i = 0; i < n; ++i)
    indefinite(i, i) = T(i % 2 == 0 ? 1 : -2);
  auto result = cg(dense_operator<V>(indefinite, layout, layout), y);
  CHECK(result.reason == StopReason::negative_curvature);
  CHECK(is_breakdown(result.reason));
  CHECK(result.iterations == 0);
  CHECK(same_on_every_rank(static_cast<int>(result.reason)));

  // Singular: y = e_0 lies in the null space of diag(0, 1, 0, 1, ...).
  DenseMatrix<T> singular = DenseMatrix<T>::Zero(n, n);
  for (Index i = 1; i < n; i += 2)
    singular(i, i) = T(1);
  std::vector<T> e0(n, T(0));
  e0[0] = T(1);
  result = cg(dense_operator<V>(singular, layout, layout), V::from_global(layout, e0));
  CHECK(result.reason == StopReason::zero_curvature);
  CHECK(same_on_every_rank(static_cast<int>(result.reason)));

  // NaN in the data, on the rank that owns the last element only.
  std::vector<T> with_nan = ones;
  with_nan[n - 1] = T(std::numeric_limits<real_type_t<T>>::quiet_NaN());
  const auto op = dense_operator<V>(hpd_matrix<T>(n, 3), layout, layout);
  result = cg(op, V::from_global(layout, with_nan));
  CHECK(result.reason == StopReason::non_finite);
  CHECK(result.iterations == 0);
  CHECK(same_on_every_rank(static_cast<int>(result.reason)));
  const std::vector<T> x = result.x.gather();
  CHECK(std::all_of(x.begin(), x.end(), [](T v) { return v == T(0); }));
}

TEMPLATE_TEST_CASE("cg rejects bad input on every rank", "[solvers][cg][errors]",
                   DISTLOPS_SCALAR_TYPES) {
  using T = TestType;
  const Communicator comm = world();
  const Layout layout(comm, {5}), other(comm, {6}), tall(comm, {7});
  const auto op = dense_operator<Array<T>>(hpd_matrix<T>(5, 1), layout, layout);
  const Array<T> y(layout, T(1)), wrong(other, T(1));
  CHECK_THROWS_AS(cg(op, wrong), ShapeMismatch);
  CHECK_THROWS_AS(cg(op, y, wrong), ShapeMismatch);
  // A flat view of an N-d array with the same split is accepted.
  const Layout nd(comm, {5, 1});
  CHECK(cg(op, Array<T>(nd, T(1))).iterations > 0);
  // Non-square.
  const auto rectangular = dense_operator<Array<T>>(random_matrix<T>(7, 5, 2), layout, tall);
  CHECK_THROWS_AS(cg(rectangular, Array<T>(tall, T(1))), ShapeMismatch);
  // Options.
  CgOptions<Array<T>> options;
  options.niter = -1;
  CHECK_THROWS_AS(cg(op, y, options), InvalidArgument);
  options.niter = 5;
  options.tol = -1;
  CHECK_THROWS_AS(cg(op, y, options), InvalidArgument);
  options.tol = 0;
  options.checkpoint.every = 2;
  CHECK_THROWS_AS(cg(op, y, options), InvalidArgument);  // no directory
  options.checkpoint.every = 0;
  // Options that differ between ranks: one rank asks for another niter.
  options.niter = comm.rank() == comm.size() - 1 ? 6 : 5;
  if (comm.size() > 1) {
    try {
      (void)cg(op, y, options);
      FAIL("no exception");
    } catch (const InvalidArgument& error) {
      CHECK(std::string(error.what()).find("differs between ranks") != std::string::npos);
    }
  }
  // A preconditioner of the wrong space.
  options.niter = 5;
  options.preconditioner = dense_operator<Array<T>>(random_matrix<T>(6, 6, 3), other, other);
  CHECK_THROWS_AS(cg(op, y, options), ShapeMismatch);
  // Zero iterations: the initial guess, unchanged.
  CgOptions<Array<T>> none;
  none.niter = 0;
  const auto result = cg(op, y, none);
  CHECK(result.iterations == 0);
  CHECK(result.reason == StopReason::max_iterations);
  CHECK(result.costs.size() == 1);
  CHECK(comm.allreduce(1, ReduceOp::sum) == comm.size());
}
