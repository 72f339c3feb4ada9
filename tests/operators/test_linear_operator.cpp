// SPDX-License-Identifier: BSD-3-Clause
// Copyright (c) 2026 The distlops authors
// The operator algebra (adjoint, transpose, conj, product, sum, difference, scaling, power,
// identity) against the same algebra on dense matrices, in every memory space; flat and N-d
// inputs; local and stacked operators; layout errors; no allocation on a second apply; the dot
// test itself; reshape.
#include "dense_algebra.hpp"
#include "dense_reference.hpp"
#include "distlops/operators/dottest.hpp"
#include "distlops/operators/reshape.hpp"
#include "distlops/operators/stack/stacked.hpp"
#include "spaces.hpp"
#include "test_support.hpp"

using namespace distlops;
using namespace distlops::testing;

namespace {

// The reference operator of a space: its matrix applied on the host.
template <class T, class Space = Host>
LinearOperator<T, Space> dense(const DenseMatrix<T>& m, const Layout& domain, const Layout& range,
                               std::string name = "Dense") {
  return LinearOperator<T, Space>::template make<DenseOperator<DistributedArray<T, Space>>>(
      m, domain, range, std::move(name));
}

}  // namespace

DISTLOPS_SPACE_TEMPLATE_TEST_CASE("operator algebra equals matrix algebra", "[operators][algebra]",
                                  DISTLOPS_SCALAR_TYPES) {
  using T = TestType;
  const Communicator comm = world();
  // Uneven splits and ranks without rows: 2 and 5 items over up to 4 ranks, N-d layouts.
  const Layout l5(comm, {5});
  const Layout l2x3(comm, {2, 3}, Partition::SCATTER, 1);
  const Layout l7(comm, {7}, Partition::BROADCAST);
  const DenseMatrix<T> ma = random_matrix<T>(6, 5, 1);  // l5 -> l2x3
  const DenseMatrix<T> mb = random_matrix<T>(5, 7, 2);  // l7 -> l5
  const DenseMatrix<T> mc = random_matrix<T>(6, 5, 3);  // l5 -> l2x3
  const DenseMatrix<T> ms = random_matrix<T>(5, 5, 4);  // l5 -> l5
  const auto a = dense<T, Space>(ma, l5, l2x3, "A");
  const auto b = dense<T, Space>(mb, l7, l5, "B");
  const auto c = dense<T, Space>(mc, l5, l2x3, "C");
  const auto s = dense<T, Space>(ms, l5, l5, "S");
  const T alpha = random_scalar<T>(5);
  const double rtol = 10 * space_tolerance<T, Space>();

  CHECK(a.rows() == 6);
  CHECK(a.cols() == 5);
  CHECK(matrices_close(assemble(a), ma, rtol));
  CHECK(matrices_close(assemble(a.adjoint()), adjoint_of(ma), rtol));
  CHECK(matrices_close(assemble(a.H().H()), ma, rtol));
  CHECK(matrices_close(assemble(a.transpose()), transpose_of(ma), rtol));
  CHECK(matrices_close(assemble(a.conj()), conjugate_of(ma), rtol));
  CHECK(matrices_close(assemble(a * b), product(ma, mb), rtol));
  CHECK(matrices_close(assemble(a + c), DenseMatrix<T>(ma + mc), rtol));
  CHECK(matrices_close(assemble(a - c), DenseMatrix<T>(ma - mc), rtol));
  CHECK(matrices_close(assemble(alpha * a), DenseMatrix<T>(alpha * ma), rtol));
  CHECK(matrices_close(assemble(a * alpha), DenseMatrix<T>(alpha * ma), rtol));
  CHECK(matrices_close(assemble(a / alpha), DenseMatrix<T>(ma / alpha), rtol));
  CHECK(matrices_close(assemble(-a), DenseMatrix<T>(-ma), rtol));
  CHECK(matrices_close(assemble(pow(s, 0)), identity_matrix<T>(5), rtol));
  CHECK(matrices_close(assemble(pow(s, 3)), product(product(ms, ms), ms), rtol));
  CHECK(matrices_close(assemble(pow(s, 4).adjoint()),
                       adjoint_of(product(product(product(ms, ms), ms), ms)), rtol));
  CHECK(matrices_close(assemble(identity<DistributedArray<T, Space>>(l5)), identity_matrix<T>(5),
                       rtol));
  // A longer expression: 2 A^H (C S) + ... mixing every kind of node, and its adjoint.
  const auto expression = T(2) * (a.adjoint() * (c * s)) - s.transpose() + alpha * s.conj() * s;
  const DenseMatrix<T> expected = T(2) * product(adjoint_of(ma), product(mc, ms)) -
                                  transpose_of(ms) + alpha * product(conjugate_of(ms), ms);
  CHECK(matrices_close(assemble(expression), expected, rtol));
  CHECK(matrices_close(assemble_adjoint(expression), adjoint_of(expected), rtol));
  CHECK(matrices_close(assemble(expression.transpose()), transpose_of(expected), rtol));
  CHECK(dottest(expression, 3, space_dottest_tolerance<T, Space>()).passed);
  CHECK(dottest(a * b, 4, space_dottest_tolerance<T, Space>()).passed);
  CHECK(expression.name().find("A.H") != std::string::npos);

  // apply_add: y = alpha A x + beta y, and with beta = 0 the old y is never read.
  DistributedArray<T, Space> x(l5), y(l2x3), reference(l2x3);
  fill_random(x, 11);
  fill_random(y, 12);
  const T beta = random_scalar<T>(13);
  a.apply(x, reference);
  reference.axpby(beta, y, alpha);  // alpha A x + beta y
  auto sum = a + c;
  auto y_sum = y;
  sum.apply_add(alpha, x, beta, y_sum);
  DistributedArray<T, Space> expected_sum = a.apply(x) + c.apply(x);
  expected_sum.axpby(beta, y, alpha);
  CHECK(all_close(y_sum.gather(), expected_sum.gather(), rtol));
  a.apply_add(alpha, x, beta, y);
  CHECK(all_close(y.gather(), reference.gather(), rtol));
  y.fill(T(std::numeric_limits<real_type_t<T>>::quiet_NaN()));
  a.apply_add(alpha, x, T(0), y);
  CHECK(all_close(y.gather(), (alpha * a.apply(x)).gather(), rtol));
  CHECK(all_close((a * x).gather(), a.apply(x).gather(), rtol));
}

TEMPLATE_TEST_CASE("operators accept flat vectors whose split matches", "[operators]",
                   DISTLOPS_SCALAR_TYPES) {
  using T = TestType;
  const Communicator comm = world();
  // An N-d domain split along axis 0 and the flat vector with the same local sizes.
  const Layout grid(comm, {5, 3});
  std::vector<Shape> flat_shapes;
  for (int r = 0; r < comm.size(); ++r)
    flat_shapes.push_back({grid.local_size(r)});
  const Layout flat(comm, {15}, LayoutOptions{.local_shapes = flat_shapes});
  const DenseMatrix<T> m = random_matrix<T>(15, 15, 21);
  const auto op = dense<T>(m, grid, grid);
  DistributedArray<T> x_grid(grid), x_flat(flat);
  fill_random(x_grid, 22);
  x_flat.assign_global(x_grid.gather());
  const auto y_grid = op.apply(x_grid);
  CHECK(y_grid.layout() == grid);
  DistributedArray<T> y_flat(flat);
  op.apply(x_flat, y_flat);  // both flat: views, no copies
  CHECK(y_flat.gather() == y_grid.gather());
  DistributedArray<T> x_back(flat);
  op.apply_adjoint(y_flat, x_back);
  CHECK(all_close(x_back.gather(), op.apply_adjoint(y_grid).gather(), tolerance<T>()));
  // A flat vector with another split is not a view of the domain.
  const Layout other_split(comm, {15});
  bool same_split = true;
  for (int r = 0; r < comm.size(); ++r)
    same_split &= other_split.local_size(r) == grid.local_size(r);
  if (!same_split) {
    const DistributedArray<T> x_other(other_split, T(1));
    CHECK_THROWS_AS(op.apply(x_other), ShapeMismatch);
  }
}

TEMPLATE_TEST_CASE("reshape sees an operator with layouts of the same local sizes",
                   "[operators][reshape]", DISTLOPS_SCALAR_TYPES) {
  using T = TestType;
  const Communicator comm = world();
  const double rtol = 10 * tolerance<T>();
  // A flat operator (as BlockDiag's) seen on a (5, 3) grid split along axis 0, where it can be
  // added to and stacked with an operator of the grid.
  const Layout grid(comm, {5, 3});
  std::vector<Shape> flat_shapes;
  for (int r = 0; r < comm.size(); ++r)
    flat_shapes.push_back({grid.local_size(r)});
  const Layout flat(comm, {15}, LayoutOptions{.local_shapes = flat_shapes});
  const DenseMatrix<T> mf = random_matrix<T>(15, 15, 41), mg = random_matrix<T>(15, 15, 42);
  const auto f = dense<T>(mf, flat, flat, "F");
  const auto g = dense<T>(mg, grid, grid, "G");
  CHECK_THROWS_AS(f + g, ShapeMismatch);
  const auto fg = reshape(f, grid, grid);
  CHECK(fg.domain() == grid);
  CHECK(fg.range() == grid);
  CHECK(fg.name() == "F");
  CHECK(matrices_close(assemble(fg), mf, rtol));
  CHECK(matrices_close(assemble(fg + T(2) * g), DenseMatrix<T>(mf + T(2) * mg), rtol));
  CHECK(matrices_close(assemble((fg * g).adjoint()), adjoint_of(product(mf, mg)), rtol));
  CHECK(dottest(fg.adjoint() * fg + g, 43).passed);
  const auto stack = StackedVStack<T, Host>({fg, g});
  DistributedArray<T> x(grid);
  fill_random(x, 44);
  const StackedDistributedArray<T> y = stack.apply(x);
  CHECK(all_close(y[0].gather(), f.apply(x).gather(), rtol));
  CHECK(all_close(y[1].gather(), g.apply(x).gather(), rtol));
  // Back to the operator's own layouts: the operator itself; reshaped twice: one wrapper.
  CHECK(reshape(fg, flat, flat).shared_implementation() == f.shared_implementation());
  CHECK(matrices_close(assemble(reshape(fg, flat, grid)), mf, rtol));
  CHECK(reshape(f, flat, flat).shared_implementation() == f.shared_implementation());
  // Other local sizes, another size or a replicated layout: ShapeMismatch on every rank.
  CHECK_THROWS_AS(reshape(f, Layout(comm, {16}), flat), ShapeMismatch);
  CHECK_THROWS_AS(reshape(f, flat, Layout(comm, {15}, Partition::BROADCAST)), ShapeMismatch);
  const Layout other_split(comm, {15});
  bool same_split = true;
  for (int r = 0; r < comm.size(); ++r)
    same_split &= other_split.local_size(r) == grid.local_size(r);
  if (!same_split) CHECK_THROWS_AS(reshape(g, other_split, other_split), ShapeMismatch);
  try {
    (void)reshape(f, Layout(comm, {3, 6}), flat);
    FAIL("no exception");
  } catch (const ShapeMismatch& error) {
    CHECK(std::string(error.what()).find("reshape(F): the domain") != std::string::npos);
  }
  // Local operators: any shape with as many elements.
  const auto l =
      LocalOperator<T>::template make<DenseOperator<LocalArray<T>>>(mf, Shape{15}, Shape{15});
  const auto l2 = reshape(l, Shape{3, 5}, Shape{15, 1});
  CHECK(l2.range() == Shape{15, 1});
  CHECK(matrices_close(assemble(l2), mf, rtol));
  CHECK_THROWS_AS(reshape(l, Shape{4, 4}, Shape{15}), ShapeMismatch);
  CHECK(comm.allreduce(1, ReduceOp::sum) == comm.size());
}

TEMPLATE_TEST_CASE("local and stacked operators share the algebra", "[operators][algebra]",
                   DISTLOPS_SCALAR_TYPES) {
  using T = TestType;
  const double rtol = 10 * tolerance<T>();
  // Local operators (one rank's data).
  const DenseMatrix<T> m1 = random_matrix<T>(4, 3, 31), m2 = random_matrix<T>(3, 3, 32);
  const auto l1 =
      LocalOperator<T>::template make<DenseOperator<LocalArray<T>>>(m1, Shape{3}, Shape{4});
  const auto l2 =
      LocalOperator<T>::template make<DenseOperator<LocalArray<T>>>(m2, Shape{3}, Shape{3});
  CHECK(matrices_close(assemble(l1 * pow(l2, 2) + l1),
                       DenseMatrix<T>(product(product(m1, m2), m2) + m1), rtol));
  CHECK(matrices_close(assemble((l1 * l2).adjoint()), adjoint_of(product(m1, m2)), rtol));
  CHECK(dottest(l1 * l2, 5).passed);
  // A local operator accepts any shape of the right size (a view).
  const LocalArray<T> x3x1(Shape{3, 1}, T(1));
  CHECK(l1.apply(x3x1).shape() == Shape{4});

  // Stacked operators.
  const Communicator comm = world();
  StackedLayout stacked;
  stacked.push_back(Layout(comm, {3}))
      .push_back(StackedLayout({Layout(comm, {2, 2}, Partition::SCATTER, 1)}));
  const DenseMatrix<T> ms = random_matrix<T>(7, 7, 33);
  const auto s = StackedLinearOperator<T>::template make<DenseOperator<StackedDistributedArray<T>>>(
      ms, stacked, stacked);
  CHECK(matrices_close(assemble(s.adjoint() * s - T(3) * s),
                       DenseMatrix<T>(product(adjoint_of(ms), ms) - T(3) * ms), rtol));
  CHECK(dottest(s * s.transpose(), 6).passed);
}

TEMPLATE_TEST_CASE("operators that do not fit raise ShapeMismatch everywhere",
                   "[operators][errors]", DISTLOPS_SCALAR_TYPES) {
  using T = TestType;
  const Communicator comm = world();
  const Layout l4(comm, {4}), l5(comm, {5}), l5b(comm, {5}, Partition::BROADCAST);
  const auto a = dense<T>(random_matrix<T>(5, 4, 1), l4, l5, "A");
  const auto b = dense<T>(random_matrix<T>(5, 5, 2), l5, l5, "B");
  const auto c = dense<T>(random_matrix<T>(5, 5, 3), l5b, l5b, "C");
  CHECK_THROWS_AS(a * a, ShapeMismatch);
  CHECK_THROWS_AS(a + b, ShapeMismatch);
  CHECK_THROWS_AS(b - c, ShapeMismatch);
  CHECK_THROWS_AS(b * c, ShapeMismatch);
  CHECK_THROWS_AS(pow(a, 2), ShapeMismatch);
  CHECK_THROWS_AS(pow(b, -1), InvalidArgument);
  try {
    (void)(a * a);
    FAIL("no exception");
  } catch (const ShapeMismatch& error) {
    CHECK(std::string(error.what()).find("A * A") != std::string::npos);
  }
  const DistributedArray<T> x5(l5, T(1)), x5b(l5b, T(1));
  CHECK_THROWS_AS(a.apply(x5), ShapeMismatch);
  CHECK_THROWS_AS(b.apply(x5b), ShapeMismatch);
  DistributedArray<T> y4(l4);
  CHECK_THROWS_AS(b.apply(x5, y4), ShapeMismatch);
  CHECK_THROWS_AS(LinearOperator<T>().apply(x5), InvalidArgument);
  CHECK(comm.allreduce(1, ReduceOp::sum) == comm.size());
}

TEMPLATE_TEST_CASE("a second apply of a composite operator allocates nothing",
                   "[operators][allocation]", DISTLOPS_SCALAR_TYPES) {
  using T = TestType;
  const Communicator comm = world();
  const Layout l6(comm, {6}), l4(comm, {4, 2}, Partition::SCATTER, 1);
  const auto a = dense<T>(random_matrix<T>(8, 6, 1), l6, l4);
  const auto b = dense<T>(random_matrix<T>(6, 6, 2), l6, l6);
  const auto op = T(2) * (a * pow(b, 3)).conj() + a.transpose().adjoint() * b - a * b.adjoint();
  DistributedArray<T> x(l6), y(l4), z(l6);
  fill_random(x, 3);
  op.apply(x, y);
  op.apply_adjoint(y, z);
  op.apply_add(T(2), x, T(3), y);
  op.apply_adjoint_add(T(2), y, T(3), z);
  const std::uint64_t before = memory::allocation_count();
  for (int repeat = 0; repeat < 3; ++repeat) {
    op.apply(x, y);
    op.apply_adjoint(y, z);
    op.apply_add(T(2), x, T(3), y);
    op.apply_adjoint_add(T(2), y, T(3), z);
  }
  CHECK(memory::allocation_count() == before);
}

TEMPLATE_TEST_CASE("the dot test detects a wrong adjoint", "[operators][dottest]",
                   DISTLOPS_SCALAR_TYPES) {
  using T = TestType;
  const Communicator comm = world();
  const Layout l5(comm, {5});
  // An operator whose adjoint is the adjoint of another matrix.
  class Wrong final : public LinearOperatorBase<DistributedArray<T>> {
   public:
    explicit Wrong(const Layout& layout)
        : LinearOperatorBase<DistributedArray<T>>(layout, layout, "Wrong") {}
    void forward(const DistributedArray<T>& x, DistributedArray<T>& y) const override {
      y.copy_from(x).scale(T(2));
    }
    void adjoint(const DistributedArray<T>& y, DistributedArray<T>& x) const override {
      x.copy_from(y).scale(T(3));
    }
  };
  const auto wrong = LinearOperator<T>::template make<Wrong>(l5);
  CHECK_THROWS_AS(dottest(wrong, 1), Error);
  const auto result = dottest(wrong, 1, dottest_tolerance<T>(), 0.0, false);
  CHECK_FALSE(result.passed);
  CHECK(close(result.adjoint_side / result.forward_side, T(1.5), 1e-4));
}

namespace {

template <class T>
bool vectors_close(const DenseVector<T>& a, const DenseVector<T>& b, double rtol) {
  return a.size() == b.size() && distance(a, b) <= rtol * std::max(1.0, norm_of(b));
}

// y = M x for real x and a complex matrix M, and x = Re(M^H y): an operator from real to
// complex arrays, linear over the reals, whose adjoint is exact for the real inner product.
class RealToComplex final
    : public LinearOperatorBase<DistributedArray<double>, DistributedArray<std::complex<double>>> {
 public:
  using C = std::complex<double>;
  RealToComplex(DenseMatrix<C> m, const Layout& domain, const Layout& range)
      : LinearOperatorBase(domain, range, "F"), m_(std::move(m)) {}
  void forward(const DistributedArray<double>& x, DistributedArray<C>& y) const override {
    scatter_vector<C>(product(m_, DenseVector<C>(global_vector(x).cast<C>())), y);
  }
  void adjoint(const DistributedArray<C>& y, DistributedArray<double>& x) const override {
    scatter_vector<double>(DenseVector<double>(adjoint_product(m_, global_vector(y)).real()), x);
  }

 private:
  DenseMatrix<C> m_;
};

}  // namespace

TEST_CASE("operators between real and complex arrays are linear over the reals",
          "[operators][algebra][mixed]") {
  using C = std::complex<double>;
  using Mixed = BasicLinearOperator<DistributedArray<double>, DistributedArray<C>>;
  static_assert(std::is_same_v<Mixed::value_type, double>);
  static_assert(std::is_same_v<decltype(std::declval<Mixed>().adjoint())::value_type, double>);
  const Communicator comm = world();
  const Layout l5(comm, {5}), l2x3(comm, {2, 3}, Partition::SCATTER, 1);
  const DenseMatrix<C> m = random_matrix<C>(6, 5, 41), mg = random_matrix<C>(6, 5, 42);
  const DenseMatrix<C> mc = random_matrix<C>(6, 6, 43);
  const Mixed f = Mixed::make<RealToComplex>(m, l5, l2x3);
  const Mixed g = Mixed::make<RealToComplex>(mg, l5, l2x3);
  const auto c = dense<C>(mc, l2x3, l2x3, "C");
  DistributedArray<double> x(l5);
  DistributedArray<C> y(l2x3);
  fill_random(x, 44);
  fill_random(y, 45);
  const DenseVector<C> xv = global_vector(x).cast<C>(), yv = global_vector(y);
  const auto re = [](const DenseVector<C>& v) { return DenseVector<double>(v.real()); };
  const double rtol = 1e-12;
  CHECK(f.rows() == 6);
  CHECK(f.cols() == 5);
  CHECK(vectors_close<C>(global_vector(f.apply(x)), product(m, xv), rtol));
  CHECK(
      vectors_close<double>(global_vector(f.adjoint().apply(y)), re(adjoint_product(m, yv)), rtol));
  CHECK(vectors_close<C>(global_vector(f.H().H().apply(x)), product(m, xv), rtol));
  // Real scalars, sums, differences.
  CHECK(vectors_close<C>(global_vector((2.5 * f - g / 2.0).apply(x)),
                         product(DenseMatrix<C>(2.5 * m - mg / 2.0), xv), rtol));
  CHECK(vectors_close<double>(global_vector((f + g).apply_adjoint(y)),
                              re(adjoint_product(DenseMatrix<C>(m + mg), yv)), rtol));
  // Transpose and conjugate: conj(A^H conj(y)) and conj(A x).
  CHECK(vectors_close<double>(global_vector(f.transpose().apply(y)),
                              re(product(transpose_of(m), yv)), rtol));
  CHECK(vectors_close<C>(global_vector(f.conj().apply(x)), product(conjugate_of(m), xv), rtol));
  // Products: through complex values (C F), and through real values (F^H F, F F^H).
  CHECK(vectors_close<C>(global_vector((c * f).apply(x)), product(product(mc, m), xv), rtol));
  CHECK(vectors_close<double>(global_vector((f.H() * f).apply(x)),
                              re(product(product(adjoint_of(m), m), xv)), rtol));
  const auto ffh = f * f.H();  // complex handle, real middle
  static_assert(std::is_same_v<decltype(ffh)::value_type, C>);
  const DenseVector<C> ffh_y = product(m, DenseVector<C>(re(adjoint_product(m, yv)).cast<C>()));
  const C alpha(0.5, -1.5), beta(2, 0.25);
  DistributedArray<C> z = y;
  ffh.apply_add(alpha, y, beta, z);
  CHECK(vectors_close<C>(global_vector(z), alpha * ffh_y + beta * yv, rtol));
  z = y;
  ffh.apply_adjoint_add(alpha, y, beta, z);
  CHECK(vectors_close<C>(global_vector(z), alpha * ffh_y + beta * yv, rtol));
  // apply_add with real scalars.
  DistributedArray<C> w = y;
  f.apply_add(3.0, x, -2.0, w);
  CHECK(vectors_close<C>(global_vector(w), 3.0 * product(m, xv) - 2.0 * yv, rtol));
  DistributedArray<double> v = x;
  f.apply_adjoint_add(3.0, y, -2.0, v);
  CHECK(vectors_close<double>(global_vector(v),
                              3.0 * re(adjoint_product(m, yv)) - 2.0 * global_vector(x), rtol));
  // The dot test with the real inner product on the complex side, both ways round.
  for (const Mixed& op : {f, Mixed(2.0 * f - g), Mixed(c * f)}) {
    const auto result = dottest(op, 7);
    CHECK(result.passed);
    static_assert(std::is_same_v<decltype(result.forward_side), double>);
    CHECK(dottest(op.adjoint(), 8).passed);
  }
  CHECK(dottest(f.H() * f, 9).passed);
  CHECK(comm.allreduce(1, ReduceOp::sum) == comm.size());
}
