// SPDX-License-Identifier: BSD-3-Clause
// Copyright (c) 2026 The distlops authors
// Reshape, the identity between two layouts of equal local sizes: its matrix is the identity,
// it passes the dot test, its accumulating applies never read a beta = 0 output, it makes a
// flat operator compose with grid operators exactly as reshape(op, grid, grid) does, and bad
// layout pairs raise ShapeMismatch on every rank; at 1 to 4 ranks with uneven splits and ranks
// holding nothing, in every memory space; on box layouts (process grids, uneven grids, explicit
// boxes) as on slabs.
#include "box_layouts.hpp"
#include "dense_algebra.hpp"
#include "dense_reference.hpp"
#include "distlops/operators/reshape.hpp"
#include "expect_everywhere.hpp"
#include "spaces.hpp"
#include "test_support.hpp"

using namespace distlops;
using namespace distlops::testing;

namespace {

// A flat layout with the local sizes of `grid`.
Layout flat_of(const Layout& grid) {
  std::vector<Shape> shapes;
  for (int r = 0; r < grid.size(); ++r)
    shapes.push_back({grid.local_size(r)});
  return Layout(grid.communicator(), {grid.global_size()}, LayoutOptions{.local_shapes = shapes});
}

// The matrix of Reshape(grid, flat): rank r's elements, in C order of its block, follow those of
// ranks before it in the flat vector; in the grid they sit at their global multi-index.
template <class T>
DenseMatrix<T> view_matrix(const Layout& grid) {
  const Index n = grid.global_size();
  DenseMatrix<T> m = DenseMatrix<T>::Zero(n, n);
  const Shape global_strides = strides_of(grid.global_shape());
  Index row = 0;
  for (int r = 0; r < grid.size(); ++r) {
    const Shape local = grid.local_shape(r);
    const Shape local_strides = strides_of(local);
    const Shape corner = grid.box(r).lower;
    for (Index i = 0; i < grid.local_size(r); ++i, ++row) {
      Index column = 0;
      for (std::size_t k = 0; k < local.size(); ++k) {
        const Index index = (i / local_strides[k]) % local[k] + corner[k];
        column += index * global_strides[k];
      }
      m(row, column) = T(1);
    }
  }
  return m;
}

}  // namespace

DISTLOPS_SPACE_TEMPLATE_TEST_CASE("Reshape is the identity between layouts of equal local sizes",
                                  "[operators][reshape]", DISTLOPS_SCALAR_TYPES) {
  using T = TestType;
  const Communicator comm = world();
  const double rtol = 10 * space_tolerance<T, Space>();
  // Split along the first or the second axis; (1, 4) leaves ranks without data at 2+ ranks;
  // then the grids and boxes of box_layouts.hpp.
  std::vector<Layout> grids;
  for (const auto& [shape, axis] :
       std::vector<std::pair<Shape, int>>{{{5, 3}, 0}, {{3, 7}, 1}, {{1, 4}, 0}, {{2, 3, 2}, 1}})
    grids.emplace_back(comm, shape, Partition::SCATTER, axis);
  for (const Shape& shape : {Shape{5, 3}, Shape{3, 2, 4}}) {
    for (const NamedLayout& named : box_test_layouts(comm, shape, false)) {
      if (!named.layout.is_slab()) grids.push_back(named.layout);
    }
  }
  for (const Layout& grid : grids) {
    INFO("layout " << grid.describe());
    const bool first_axis = grid.is_slab() && grid.axis() == 0;
    const Layout flat = flat_of(grid);
    const auto op = Reshape<T, Space>(grid, flat);
    CHECK(op.domain() == grid);
    CHECK(op.range() == flat);
    const Index n = grid.global_size();
    // The identity on the local elements: a permutation of the global C order when the grid is
    // split along a later axis.
    const DenseMatrix<T> view = view_matrix<T>(grid);
    if (first_axis) CHECK(view == identity_matrix<T>(n));
    CHECK(matrices_close(assemble(op), view, rtol));
    CHECK(matrices_close(assemble_adjoint(op), adjoint_of(view), rtol));
    CHECK(dottest(op, 5, space_dottest_tolerance<T, Space>()).passed);
    // y = alpha x + beta y, and beta = 0 over NaN.
    DistributedArray<T, Space> x(grid), y(flat);
    fill_random(x, 6);
    fill_random(y, 7);
    const T alpha = random_scalar<T>(8), beta = random_scalar<T>(9);
    const DenseVector<T> x0 = global_vector(x), y0 = global_vector(y);
    DistributedArray<T, Space> y1 = y;
    op.apply_add(alpha, x, beta, y1);
    CHECK(matrices_close(DenseMatrix<T>(global_vector(y1)),
                         DenseMatrix<T>(alpha * product(view, x0) + beta * y0), rtol));
    y1.fill(T(std::numeric_limits<real_type_t<T>>::quiet_NaN()));
    op.apply_add(alpha, x, T(0), y1);
    CHECK(matrices_close(DenseMatrix<T>(global_vector(y1)),
                         DenseMatrix<T>(alpha * product(view, x0)), rtol));
    DistributedArray<T, Space> x1 = x;
    op.apply_adjoint_add(alpha, y, beta, x1);
    CHECK(matrices_close(DenseMatrix<T>(global_vector(x1)),
                         DenseMatrix<T>(alpha * adjoint_product(view, y0) + beta * x0), rtol));
    // A flat operator between two Reshapes acts on the grid as reshape(F, grid, grid).
    const DenseMatrix<T> m = random_matrix<T>(n, n, 10);
    const auto f =
        LinearOperator<T, Space>::template make<DenseOperator<DistributedArray<T, Space>>>(
            m, flat, flat, "F");
    const auto on_grid = Reshape<T, Space>(flat, grid) * f * op;
    CHECK(on_grid.domain() == grid);
    CHECK(on_grid.range() == grid);
    CHECK(matrices_close(assemble(on_grid), product(product(adjoint_of(view), m), view), rtol));
    CHECK(matrices_close(assemble(on_grid), assemble(reshape(f, grid, grid)), rtol));
  }
  expect_in_step(comm);
}

DISTLOPS_SPACE_TEMPLATE_TEST_CASE("Reshape of local arrays", "[operators][reshape]",
                                  DISTLOPS_SCALAR_TYPES) {
  using T = TestType;
  const double rtol = 10 * space_tolerance<T, Space>();
  const auto op = Reshape<T, Space>(Shape{3, 4}, Shape{12});
  CHECK(op.range() == Shape{12});
  CHECK(matrices_close(assemble(op), identity_matrix<T>(12), rtol));
  CHECK(dottest(op, 3, space_dottest_tolerance<T, Space>()).passed);
  CHECK_THROWS_AS((Reshape<T, Space>(Shape{3, 4}, Shape{13})), ShapeMismatch);
}

TEMPLATE_TEST_CASE("Reshape rejects layouts of other local sizes on every rank",
                   "[operators][reshape][errors]", float, std::complex<double>) {
  using T = TestType;
  const Communicator comm = world();
  const Layout grid(comm, {5, 3});
  // Another global size, a replicated layout, and (at 2+ ranks) another split of 15 elements.
  expect_everywhere<ShapeMismatch>(
      comm, [&] { (void)Reshape<T>(grid, Layout(comm, {16})); }, "Reshape: ");
  expect_everywhere<ShapeMismatch>(
      comm, [&] { (void)Reshape<T>(grid, Layout(comm, {15}, Partition::BROADCAST)); },
      "does not hold as many elements on every rank");
  if (comm.size() > 1) {
    std::vector<Shape> shapes(comm.size(), Shape{0});
    shapes[0] = {15};
    const Layout lumped(comm, {15}, LayoutOptions{.local_shapes = shapes});
    expect_everywhere<ShapeMismatch>(
        comm, [&] { (void)Reshape<T>(grid, lumped); }, "Reshape: ");
  }
}
