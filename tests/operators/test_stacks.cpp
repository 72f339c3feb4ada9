// SPDX-License-Identifier: BSD-3-Clause
// Copyright (c) 2026 The distlops authors
// BlockDiag, VStack, HStack, their stacked forms and Replicated (in every memory space),
// against the dense block matrices assembled from every rank's blocks (each rank can rebuild
// every other rank's blocks: they are deterministic functions of the rank and the block index).
// Uneven numbers of blocks per rank, ranks without blocks, masks, N-d blocks, stacks of flat
// blocks seen as N-d ones, stacks of derivatives on box layouts, errors on every rank.
#include "allocation_checks.hpp"
#include "box_layouts.hpp"
#include "dense_algebra.hpp"
#include "dense_reference.hpp"
#include "distlops/operators/derivative/derivatives.hpp"
#include "distlops/operators/dottest.hpp"
#include "distlops/operators/stack/block_diag.hpp"
#include "distlops/operators/stack/replicated.hpp"
#include "distlops/operators/stack/stacked.hpp"
#include "distlops/operators/stack/vstack.hpp"
#include "gradient_reference.hpp"
#include "spaces.hpp"
#include "test_support.hpp"

using namespace distlops;
using namespace distlops::testing;

namespace {

// The reference block of a space: its matrix applied on the host.
template <class T, class Space = Host>
LocalOperator<T, Space> local_dense(const DenseMatrix<T>& m, Shape domain, Shape range) {
  return LocalOperator<T, Space>::template make<DenseOperator<LocalArray<T, Space>>>(
      m, std::move(domain), std::move(range));
}

// Rank r holds (r + 1) % 3 blocks (so rank 2 holds none); block i of rank r is a
// rows(r, i) x cols(r, i) matrix.
int blocks_of(int rank) {
  return (rank + 1) % 3;
}
Index rows_of(int rank, int i) {
  return 1 + (rank + 2 * i) % 3;
}
Index cols_of(int rank, int i) {
  return 2 + (2 * rank + i) % 2;
}

template <class T>
DenseMatrix<T> block(int rank, int i, Index rows, Index cols) {
  return random_matrix<T>(rows, cols, std::uint64_t(100 * rank + i));
}

template <class T>
DenseMatrix<T> block_diagonal(const std::vector<DenseMatrix<T>>& blocks) {
  Index rows = 0, cols = 0;
  for (const auto& b : blocks) {
    rows += b.rows();
    cols += b.cols();
  }
  DenseMatrix<T> result = DenseMatrix<T>::Zero(rows, cols);
  Index r = 0, c = 0;
  for (const auto& b : blocks) {
    result.block(r, c, b.rows(), b.cols()) = b;
    r += b.rows();
    c += b.cols();
  }
  return result;
}

}  // namespace

DISTLOPS_SPACE_TEMPLATE_TEST_CASE(
    "BlockDiag equals the block-diagonal matrix of every rank's blocks", "[operators][blockdiag]",
    DISTLOPS_SCALAR_TYPES) {
  using T = TestType;
  const Communicator comm = world();
  std::vector<DenseMatrix<T>> all_blocks;
  std::vector<LocalOperator<T, Space>> mine;
  for (int r = 0; r < comm.size(); ++r) {
    for (int i = 0; i < blocks_of(r); ++i) {
      const auto m = block<T>(r, i, rows_of(r, i), cols_of(r, i));
      all_blocks.push_back(m);
      if (r == comm.rank()) mine.push_back(local_dense<T, Space>(m, {m.cols()}, {m.rows()}));
    }
  }
  const double rtol = 10 * space_tolerance<T, Space>();
  const auto op = BlockDiag(mine, comm);
  const DenseMatrix<T> expected = block_diagonal(all_blocks);
  CHECK(op.rows() == expected.rows());
  CHECK(op.cols() == expected.cols());
  CHECK(matrices_close(assemble(op), expected, rtol));
  CHECK(matrices_close(assemble_adjoint(op), adjoint_of(expected), rtol));
  CHECK(dottest(op, 1, space_dottest_tolerance<T, Space>()).passed);
  CHECK(op.domain().local_extent(comm.rank()) == [&] {
    Index n = 0;
    for (const auto& b : mine)
      n += b.cols();
    return n;
  }());

  // With a mask: one group per pair of ranks; the data reductions run inside the groups.
  std::vector<int> mask(comm.size());
  for (int r = 0; r < comm.size(); ++r)
    mask[r] = r / 2;
  const auto masked = BlockDiag(mine, comm, mask);
  CHECK(masked.range().mask() == mask);
  CHECK(matrices_close(assemble(masked), expected, rtol));
}

DISTLOPS_SPACE_TEMPLATE_TEST_CASE("VStack and HStack equal stacked matrices",
                                  "[operators][vstack][hstack]", DISTLOPS_SCALAR_TYPES) {
  using T = TestType;
  const Communicator comm = world();
  const double rtol = 10 * space_tolerance<T, Space>();
  // Every block maps a (2, 2) model (N-d) to rows_of(r, i) values.
  std::vector<DenseMatrix<T>> all_blocks;
  std::vector<LocalOperator<T, Space>> mine, mine_adjoint;
  Index total_rows = 0;
  for (int r = 0; r < comm.size(); ++r) {
    for (int i = 0; i < blocks_of(r); ++i) {
      const auto m = block<T>(r, i, rows_of(r, i), 4);
      all_blocks.push_back(m);
      total_rows += m.rows();
      if (r == comm.rank()) {
        mine.push_back(local_dense<T, Space>(m, {2, 2}, {m.rows()}));
        mine_adjoint.push_back(local_dense<T, Space>(adjoint_of(m), {m.rows()}, {2, 2}));
      }
    }
  }
  DenseMatrix<T> stacked(total_rows, 4);
  Index row = 0;
  for (const auto& m : all_blocks) {
    stacked.block(row, 0, m.rows(), 4) = m;
    row += m.rows();
  }
  for_each_collective_path<Space>([&] {
    const auto v = VStack(mine, comm);
    CHECK(v.domain().partition() == Partition::BROADCAST);
    CHECK(v.domain().global_shape() == Shape{2, 2});
    CHECK(matrices_close(assemble(v), stacked, rtol));
    CHECK(matrices_close(assemble_adjoint(v), adjoint_of(stacked), rtol));
    CHECK(dottest(v, 2, space_dottest_tolerance<T, Space>()).passed);
    // The adjoint output is replicated: every rank holds the same sum.
    DistributedArray<T, Space> y(v.range());
    fill_random(y, 3);
    const auto x = v.apply_adjoint(y);
    x.check_replicas();
    // An UNSAFE_BROADCAST model is accepted as well.
    DistributedArray<T, Space> x_unsafe(Layout(comm, {2, 2}, Partition::UNSAFE_BROADCAST));
    fill_random(x_unsafe, 4);
    CHECK(all_close(v.apply(x_unsafe).gather(), v.apply(x_unsafe.redistribute(v.domain())).gather(),
                    rtol));

    const auto h = HStack(mine_adjoint, comm);
    CHECK(h.range().partition() == Partition::BROADCAST);
    CHECK(matrices_close(assemble(h), adjoint_of(stacked), rtol));
    CHECK(matrices_close(assemble_adjoint(h), stacked, rtol));
    CHECK(dottest(h, 5, space_dottest_tolerance<T, Space>()).passed);
    CHECK(dottest(h * v, 6, space_dottest_tolerance<T, Space>()).passed);
  });
}

DISTLOPS_SPACE_TEMPLATE_TEST_CASE("stacked operators act block by block", "[operators][stacked]",
                                  DISTLOPS_SCALAR_TYPES) {
  using T = TestType;
  using Array = DistributedArray<T, Space>;
  const Communicator comm = world();
  const double rtol = 10 * space_tolerance<T, Space>();
  const double dot_tolerance = space_dottest_tolerance<T, Space>();
  const Layout l5(comm, {5}), l3x2(comm, {3, 2}, Partition::SCATTER, 1),
      l4(comm, {4}, Partition::BROADCAST);
  const DenseMatrix<T> ma = random_matrix<T>(6, 5, 1), mb = random_matrix<T>(4, 5, 2),
                       mc = random_matrix<T>(4, 6, 3);
  auto dense_op = [](const DenseMatrix<T>& m, const Layout& d, const Layout& r) {
    return LinearOperator<T, Space>::template make<DenseOperator<Array>>(m, d, r);
  };
  const auto a = dense_op(ma, l5, l3x2), b = dense_op(mb, l5, l4), c = dense_op(mc, l3x2, l4);

  const auto diag = StackedBlockDiag({a, b, c});
  CHECK(matrices_close(assemble(diag), block_diagonal<T>({ma, mb, mc}), rtol));
  CHECK(dottest(diag, 7, dot_tolerance).passed);

  const auto vstack = StackedVStack({a, b});
  DenseMatrix<T> vertical(10, 5);
  vertical << ma, mb;
  CHECK(matrices_close(assemble(vstack), vertical, rtol));
  CHECK(matrices_close(assemble_adjoint(vstack), adjoint_of(vertical), rtol));
  CHECK(dottest(vstack, 8, dot_tolerance).passed);

  const auto hstack = StackedHStack({b, c});
  DenseMatrix<T> horizontal(4, 11);
  horizontal << mb, mc;
  CHECK(matrices_close(assemble(hstack), horizontal, rtol));
  CHECK(dottest(hstack, 9, dot_tolerance).passed);
  // Normal operators of stacked forms compose like any other.
  CHECK(matrices_close(assemble(vstack.adjoint() * vstack), product(adjoint_of(vertical), vertical),
                       rtol));

  CHECK_THROWS_AS(StackedVStack({a, c}), ShapeMismatch);
  CHECK_THROWS_AS(StackedHStack({a, b}), ShapeMismatch);
}

namespace {

// A one-axis layout with the same split (local sizes) as `layout`: how flat vectors of its data
// are distributed.
Layout flat_of(const Layout& layout) {
  if (layout.replicated()) {
    return Layout(layout.communicator(), {layout.global_size()}, layout.partition());
  }
  std::vector<Shape> local_shapes;
  for (int r = 0; r < layout.size(); ++r)
    local_shapes.push_back({layout.local_size(r)});
  return Layout(layout.communicator(), {layout.global_size()},
                LayoutOptions{.local_shapes = local_shapes});
}

StackedLayout flat_of(const StackedLayout& layout) {
  StackedLayout flat;
  for (std::size_t i = 0; i < layout.size(); ++i)
    flat.push_back(flat_of(layout[i]));
  return flat;
}

}  // namespace

DISTLOPS_SPACE_TEMPLATE_TEST_CASE("operators view stacks of flat blocks as their N-d blocks",
                                  "[operators][stacked][views]", DISTLOPS_SCALAR_TYPES) {
  using T = TestType;
  using Array = DistributedArray<T, Space>;
  using Stacked = StackedDistributedArray<T, Space>;
  const Communicator comm = world();
  const double rtol = 10 * space_tolerance<T, Space>();
  SECTION("Gradient and its adjoint") {
    // The gradient of a 5 x 4 array: [D (x) I; I (x) D] in C order.
    const DenseMatrix<T> d0 = kronecker<T>(centered_derivative<T>(5), identity_matrix<T>(4));
    const DenseMatrix<T> d1 = kronecker<T>(identity_matrix<T>(5), centered_derivative<T>(4));
    DenseMatrix<T> g(40, 20);
    g << d0, d1;
    for (const int axis : {0, 1}) {
      INFO("distributed along axis " << axis);
      const Layout grid(comm, {5, 4}, Partition::SCATTER, axis);
      const auto gradient = Gradient<T, Space>(grid);
      const StackedLayout flat = flat_of(gradient.range());
      REQUIRE(flat.size() == 2);
      // The adjoint of a stack of flat vectors, viewed as the two N-d blocks. The flat vectors
      // hold each rank's block in its local C order (PyLops-MPI's flattened arrays), which is
      // not the global C order when the split is along axis 1: they are made from N-d ones.
      Stacked y_nd(gradient.range());
      const DenseVector<T> y_global =
          Eigen::Map<const DenseVector<T>>(random_values<T>(40, 31).data(), 40);
      scatter_vector<T>(y_global, y_nd);
      Stacked y(flat);
      y.copy_from(y_nd.view(flat));
      const Array x = gradient.apply_adjoint(y);
      CHECK(x.layout() == grid);
      const DenseVector<T> adjoint = adjoint_product(g, y_global);
      CHECK(all_close(x.gather(), std::vector<T>(adjoint.data(), adjoint.data() + 20), rtol));
      // The forward into a caller's stack of flat vectors, which keeps its layouts.
      Array model(grid);
      const DenseVector<T> x_global =
          Eigen::Map<const DenseVector<T>>(random_values<T>(20, 32).data(), 20);
      scatter_vector<T>(x_global, model);
      Stacked data(flat);
      gradient.apply(model, data);
      CHECK(data.has_layout(flat));
      const DenseVector<T> expected = g * x_global;
      CHECK(all_close(data.view(gradient.range()).gather(),
                      std::vector<T>(expected.data(), expected.data() + expected.size()), rtol));
      // Wrong structure or split: ShapeMismatch on every rank.
      StackedLayout one;
      one.push_back(flat[0]);
      CHECK_THROWS_AS(gradient.apply_adjoint(Stacked(one)), ShapeMismatch);
      StackedLayout default_split;
      default_split.push_back(Layout(comm, {20})).push_back(Layout(comm, {20}));
      if (flat[0] != default_split[0]) {
        CHECK_THROWS_AS(gradient.apply_adjoint(Stacked(default_split)), ShapeMismatch);
      }
      CHECK(comm.allreduce(1, ReduceOp::sum) == comm.size());
    }
  }
  SECTION("StackedBlockDiag") {
    const Layout l3x4(comm, {3, 4}, Partition::SCATTER, 1), l2x3(comm, {2, 3}),
        l6(comm, {6}, Partition::BROADCAST), l5x2(comm, {5, 2});
    const DenseMatrix<T> ma = random_matrix<T>(6, 12, 41), mb = random_matrix<T>(10, 6, 42);
    auto dense_op = [](const DenseMatrix<T>& m, const Layout& d, const Layout& r) {
      return LinearOperator<T, Space>::template make<DenseOperator<Array>>(m, d, r);
    };
    const auto diag = StackedBlockDiag({dense_op(ma, l3x4, l2x3), dense_op(mb, l6, l5x2)});
    const DenseMatrix<T> m = block_diagonal<T>({ma, mb});
    // Flat vectors holding the blocks' local data (made from N-d ones, see above).
    Stacked x_nd(diag.domain());
    const DenseVector<T> x_global =
        Eigen::Map<const DenseVector<T>>(random_values<T>(18, 43).data(), 18);
    scatter_vector<T>(x_global, x_nd);
    Stacked x(flat_of(diag.domain()));
    x.copy_from(x_nd.view(flat_of(diag.domain())));
    const Stacked y = diag.apply(x);
    CHECK(y.has_layout(diag.range()));
    const DenseVector<T> expected = product(m, x_global);
    CHECK(all_close(y.gather(), std::vector<T>(expected.data(), expected.data() + 16), rtol));
    // Adjoint from a stack of flat vectors into a stack of flat vectors.
    Stacked flat_y(flat_of(diag.range()));
    flat_y.copy_from(y.view(flat_of(diag.range())));
    Stacked back(flat_of(diag.domain()));
    diag.apply_adjoint(flat_y, back);
    const DenseVector<T> adjoint = adjoint_product(m, expected);
    CHECK(all_close(back.view(diag.domain()).gather(),
                    std::vector<T>(adjoint.data(), adjoint.data() + 18), rtol));
    // The view aliases the stack: no copy is made.
    Stacked viewed = x.view(diag.domain());
    viewed.fill(T(2));
    CHECK(all_close(x.gather(), std::vector<T>(18, T(2)), 0.0));
    // A block of another partition kind cannot be seen as the replicated one.
    StackedLayout scattered;
    scattered.push_back(flat_of(l3x4)).push_back(Layout(comm, {6}));
    CHECK_THROWS_AS(diag.apply(Stacked(scattered)), ShapeMismatch);
    CHECK(comm.allreduce(1, ReduceOp::sum) == comm.size());
  }
}

DISTLOPS_SPACE_TEMPLATE_TEST_CASE("stacked operators of stacked operators nest their stacks",
                                  "[operators][stacked][nested]", DISTLOPS_SCALAR_TYPES) {
  using T = TestType;
  using Array = DistributedArray<T, Space>;
  using Stacked = StackedDistributedArray<T, Space>;
  using Block = StackBlock<T, Space>;
  const Communicator comm = world();
  const double rtol = 10 * space_tolerance<T, Space>();
  const double dot_tolerance = space_dottest_tolerance<T, Space>();
  // A 3 x 4 model split along axis 0: uneven over 2 ranks, nothing on rank 3 of 4.
  const Layout grid(comm, {3, 4}), l5(comm, {5}), l4(comm, {4}, Partition::BROADCAST),
      l2x3(comm, {2, 3}, Partition::SCATTER, 1);
  auto dense_op = [](const DenseMatrix<T>& m, const Layout& d, const Layout& r) {
    return LinearOperator<T, Space>::template make<DenseOperator<Array>>(m, d, r);
  };
  const DenseMatrix<T> ma = random_matrix<T>(5, 12, 51), mb = random_matrix<T>(4, 12, 52),
                       mc = random_matrix<T>(4, 6, 53), md = random_matrix<T>(6, 5, 54);
  const auto a = dense_op(ma, grid, l5), b = dense_op(mb, grid, l4), c = dense_op(mc, l2x3, l4),
             d = dense_op(md, l5, l2x3);
  // The gradient of a 3 x 4 array: [D (x) I; I (x) D] in C order.
  const real_type_t<T> eps(0.5);
  const auto gradient = T(eps) * Gradient<T, Space>(grid);
  const DenseMatrix<T> g = T(eps) * centered_gradient<T>(3, 4);

  // [A; eps G]: a plain block and a nested one.
  const auto regularised = StackedVStack<Array>({a, gradient});
  REQUIRE(regularised.range().size() == 2);
  CHECK_FALSE(regularised.range().is_nested(0));
  CHECK(regularised.range().is_nested(1));
  CHECK(regularised.range().nested(1) == gradient.range());
  DenseMatrix<T> ag(29, 12);
  ag << ma, g;
  CHECK(matrices_close(assemble(regularised), ag, rtol));
  CHECK(matrices_close(assemble_adjoint(regularised), adjoint_of(ag), rtol));
  CHECK(dottest(regularised, 61, dot_tolerance).passed);

  // [[A; eps G]; B]: a stacked operator as a block; its range nests twice. From here on the
  // dot tests carry the adjoints (each column of a dense adjoint costs collectives).
  const auto twice = StackedVStack<Array>({regularised, b});
  CHECK(twice.range().nested(0) == regularised.range());
  DenseMatrix<T> agb(33, 12);
  agb << ag, mb;
  CHECK(matrices_close(assemble(twice), agb, rtol));
  CHECK(dottest(twice, 62, dot_tolerance).passed);

  // Block diagonal of the four block kinds: array -> array, stack -> stack (a StackedBlockDiag),
  // array -> stack ([A; eps G]) and stack -> array (a StackedHStack).
  const auto inner_diag = StackedBlockDiag({a, c});
  const auto hstack = StackedHStack({b, c});
  const auto diag = StackedBlockDiag<T, Space>({d, inner_diag, regularised, hstack});
  CHECK(diag.domain().is_nested(1));
  CHECK(diag.range().is_nested(2));
  CHECK(diag.domain().is_nested(3));
  DenseMatrix<T> bc(4, 18);
  bc << mb, mc;
  const DenseMatrix<T> diag_expected = block_diagonal<T>({md, block_diagonal<T>({ma, mc}), ag, bc});
  CHECK(matrices_close(assemble(diag), diag_expected, rtol));
  CHECK(dottest(diag, 63, dot_tolerance).passed);

  // Horizontal stack with a horizontal stack as a block: [[B C] D'], sharing the range l4.
  const DenseMatrix<T> me = random_matrix<T>(4, 5, 55);
  const auto e = dense_op(me, l5, l4);
  const auto nested_h = StackedHStack<Array>({hstack, e});
  CHECK(nested_h.domain().nested(0) == hstack.domain());
  DenseMatrix<T> bce(4, 23);
  bce << bc, me;
  CHECK(matrices_close(assemble(nested_h), bce, rtol));
  CHECK(dottest(nested_h, 64, dot_tolerance).passed);

  // A vertical stack on a stacked model: [diag(A, C); 2 diag(A, C)].
  const auto on_stacks = StackedVStack<Stacked>({inner_diag, T(2) * inner_diag});
  const DenseMatrix<T> ac = block_diagonal<T>({ma, mc});
  DenseMatrix<T> ac2(2 * ac.rows(), ac.cols());
  ac2 << ac, T(2) * ac;
  CHECK(matrices_close(assemble(on_stacks), ac2, rtol));
  CHECK(dottest(on_stacks, 65, dot_tolerance).passed);

  SECTION("nested stacks allocate nothing after the first apply") {
    CHECK(second_apply_allocates_nothing(twice));
  }

  SECTION("mismatched nested blocks fail on every rank") {
    // Another model layout than A's.
    const auto other_gradient = Gradient<T, Space>(Layout(comm, {4, 3}));
    CHECK_THROWS_AS(StackedVStack<Array>({a, other_gradient}), ShapeMismatch);
    // A stacked model in a stack of array models, and the other way round.
    CHECK_THROWS_AS(StackedVStack<Array>({a, hstack}), ShapeMismatch);
    CHECK_THROWS_AS(StackedVStack<Array>({hstack, a}), ShapeMismatch);
    CHECK_THROWS_AS(StackedVStack<Stacked>({a, inner_diag}), ShapeMismatch);
    // Ranges of another layout or kind in a horizontal stack.
    CHECK_THROWS_AS(StackedHStack<Array>({hstack, a}), ShapeMismatch);
    CHECK_THROWS_AS(StackedHStack<Array>({hstack, regularised.adjoint()}), ShapeMismatch);
    // No block, or an empty handle.
    CHECK_THROWS_AS(StackedVStack<Array>({}), InvalidArgument);
    CHECK_THROWS_AS(StackedBlockDiag(std::vector<Block>{}), InvalidArgument);
    CHECK_THROWS_AS(StackedVStack<Array>({a, BasicLinearOperator<Array, Stacked>()}),
                    InvalidArgument);
    const StackedLinearOperator<T, Space> empty_stacked;
    CHECK_THROWS_AS(StackedBlockDiag(std::vector<Block>{a, empty_stacked}), InvalidArgument);
    // Data of the wrong nesting.
    StackedLayout flat;
    flat.push_back(l5).push_back(Layout(comm, {24}));
    CHECK_THROWS_AS(regularised.apply_adjoint(Stacked(flat)), ShapeMismatch);
    CHECK(comm.allreduce(1, ReduceOp::sum) == comm.size());
  }
}

DISTLOPS_SPACE_TEMPLATE_TEST_CASE("Replicated applies a local operator on every rank",
                                  "[operators][replicated]", DISTLOPS_SCALAR_TYPES) {
  using T = TestType;
  const Communicator comm = world();
  const DenseMatrix<T> m = random_matrix<T>(3, 6, 4);
  const auto op = Replicated(local_dense<T, Space>(m, {2, 3}, {3}), comm);
  CHECK(op.domain().partition() == Partition::BROADCAST);
  CHECK(matrices_close(assemble(op), m, 10 * space_tolerance<T, Space>()));
  CHECK(dottest(op, 10, space_dottest_tolerance<T, Space>()).passed);
  const auto unsafe =
      Replicated(local_dense<T, Space>(m, {6}, {3}), comm, Partition::UNSAFE_BROADCAST);
  CHECK(unsafe.range().partition() == Partition::UNSAFE_BROADCAST);
  CHECK(matrices_close(assemble(unsafe), m, 10 * space_tolerance<T, Space>()));
  CHECK_THROWS_AS(Replicated(local_dense<T, Space>(m, {6}, {3}), comm, Partition::SCATTER),
                  InvalidArgument);
}

TEMPLATE_TEST_CASE("stacks of mismatched blocks fail on every rank", "[operators][errors]",
                   DISTLOPS_SCALAR_TYPES) {
  using T = TestType;
  const Communicator comm = world();
  const int last = comm.size() - 1;
  // The last rank alone has blocks with another domain.
  const Index cols = comm.rank() == last && comm.size() > 1 ? 3 : 2;
  std::vector<LocalOperator<T>> ops{local_dense<T>(random_matrix<T>(2, cols, 1), {cols}, {2})};
  if (comm.size() > 1) {
    CHECK_THROWS_AS(VStack(ops, comm), ShapeMismatch);
    CHECK_THROWS_AS(HStack(std::vector<LocalOperator<T>>{ops[0].adjoint()}, comm), ShapeMismatch);
  }
  // Two blocks of different domains on one rank.
  std::vector<LocalOperator<T>> mixed{local_dense<T>(random_matrix<T>(2, 2, 1), {2}, {2})};
  if (comm.rank() == 0) mixed.push_back(local_dense<T>(random_matrix<T>(2, 3, 2), {3}, {2}));
  try {
    (void)VStack(mixed, comm);
    FAIL("no exception");
  } catch (const ShapeMismatch& error) {
    CHECK(std::string(error.what()).find("rank 0") != std::string::npos);
  }
  // No blocks anywhere.
  CHECK_THROWS_AS(VStack(std::vector<LocalOperator<T>>{}, comm), InvalidArgument);
  // Inputs of the wrong layout.
  const auto op = BlockDiag(
      std::vector<LocalOperator<T>>{local_dense<T>(random_matrix<T>(2, 2, 1), {2}, {2})}, comm);
  const DistributedArray<T> wrong(Layout(comm, {Index(2 * comm.size()) + 1}), T(1));
  CHECK_THROWS_AS(op.apply(wrong), ShapeMismatch);
  CHECK(comm.allreduce(1, ReduceOp::sum) == comm.size());
}

DISTLOPS_SPACE_TEMPLATE_TEST_CASE("stacking operators allocate nothing after the first apply",
                                  "[operators][allocation]", DISTLOPS_SCALAR_TYPES) {
  using T = TestType;
  const Communicator comm = world();
  const auto m = random_matrix<T>(3, 3, 1);
  std::vector<LocalOperator<T, Space>> ops{local_dense<T, Space>(m, {3}, {3}),
                                           local_dense<T, Space>(m, {3}, {3})};
  const auto bd = BlockDiag(ops, comm);
  const auto v = VStack(ops, comm);
  const auto h = HStack(ops, comm);
  const auto normal = v.adjoint() * v + h * bd * h.adjoint();
  CHECK(second_apply_allocates_nothing(normal));
}

namespace {

// The matrix of the Laplacian of a rows x cols array in C order (centered, no edge, unit weights
// and sampling): (1, -2, 1) along each axis on the rows away from its ends, by Kronecker products.
template <class T>
DenseMatrix<T> laplacian_matrix(Index rows, Index cols) {
  auto second = [](Index n) {
    DenseMatrix<T> d = DenseMatrix<T>::Zero(n, n);
    for (Index i = 1; i + 1 < n; ++i) {
      d(i, i - 1) = d(i, i + 1) = T(1);
      d(i, i) = T(-2);
    }
    return d;
  };
  return kronecker<T>(second(rows), identity_matrix<T>(cols)) +
         kronecker<T>(identity_matrix<T>(rows), second(cols));
}

}  // namespace

// The stacks add nothing that depends on the cut: their blocks keep their own layouts and
// ghost exchanges. Every box layout (grids 1x1 to 3x1 and 1x3, uneven grids with an empty
// rank, explicit boxes) of two arrays of other shapes, side by side.
DISTLOPS_SPACE_TEMPLATE_TEST_CASE("stacks of Laplacians and Gradients on box layouts",
                                  "[operators][stacked][box]", DISTLOPS_SCALAR_TYPES) {
  using T = TestType;
  using Array = DistributedArray<T, Space>;
  const Communicator comm = world();
  const double rtol = 10 * space_tolerance<T, Space>();
  const double dot_tolerance = space_dottest_tolerance<T, Space>();
  const real_type_t<T> eps(0.5);
  const DenseMatrix<T> la = laplacian_matrix<T>(4, 5), lb = laplacian_matrix<T>(6, 3);
  DenseMatrix<T> regularised_expected(60, 20);
  regularised_expected << la, T(eps) * centered_gradient<T>(4, 5);
  const std::vector<NamedLayout> first = box_test_layouts(comm, {4, 5}, false);
  const std::vector<NamedLayout> second = box_test_layouts(comm, {6, 3}, false);
  REQUIRE(first.size() == second.size());
  for (std::size_t i = 0; i < first.size(); ++i) {
    INFO(first[i].name << " and " << second[i].name);
    const auto a = Laplacian<T, Space>(first[i].layout);
    const auto b = Laplacian<T, Space>(second[i].layout);
    // BlockDiag of the two Laplacians.
    const auto diag = StackedBlockDiag({a, b});
    CHECK(diag.domain()[0] == first[i].layout);
    CHECK(diag.domain()[1] == second[i].layout);
    CHECK(matrices_close(assemble(diag), block_diagonal<T>({la, lb}), rtol));
    CHECK(dottest(diag, 71, dot_tolerance).passed);
    CHECK(second_apply_allocates_nothing(diag));
    // [L; eps G]: the Gradient's stack nested in the data.
    const auto regularised =
        StackedVStack<Array>({a, T(eps) * Gradient<T, Space>(first[i].layout)});
    CHECK(matrices_close(assemble(regularised), regularised_expected, rtol));
    CHECK(matrices_close(assemble_adjoint(regularised), adjoint_of(regularised_expected), rtol));
    CHECK(dottest(regularised, 72, dot_tolerance).passed);
    CHECK(second_apply_allocates_nothing(regularised));
  }
}
