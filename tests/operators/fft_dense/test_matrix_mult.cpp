// SPDX-License-Identifier: BSD-3-Clause
// Copyright (c) 2026 The distlops authors
// Distributed MatrixMult (SUMMA and block kinds) against Eigen products of the global
// matrices: forward, adjoint, dot tests, edge tiles that are smaller or empty, replicas that
// agree (block kind), in every memory space (device collectives over both of their paths);
// numbers from PyLops-MPI's test matrices, and InvalidArgument on every rank for rank counts
// that are not perfect squares and for blocks that do not fit the grid.
#include "dense_algebra.hpp"
#include "distlops/operators/dense/matrix_mult.hpp"
#include "operator_checks.hpp"
#include "spaces.hpp"

using namespace distlops;
using namespace distlops::testing;

namespace {

struct Sizes {
  Index n, k, m;
};

bool square(int size) {
  int p = 0;
  while ((p + 1) * (p + 1) <= size)
    ++p;
  return p * p == size;
}

// This rank's block `b` of a global matrix, in C order.
template <class T>
EigenRowMajorMatrix<T> block_of(const DenseMatrix<T>& full, const MatrixBlock& b) {
  return full.block(b.row_begin, b.col_begin, b.rows(), b.cols());
}

template <class T, class Space = Host>
DistributedArray<T, Space> distribute(const Layout& layout, const DenseMatrix<T>& full,
                                      const MatrixBlock& b) {
  DistributedArray<T, Space> array(layout);
  const EigenRowMajorMatrix<T> tile = block_of(full, b);
  assign_local(array, std::span<const T>(tile.data(), std::size_t(tile.size())));
  return array;
}

// The global matrix (rows x cols) from every rank's block of `a`; replicas must agree.
template <class T, class Space>
DenseMatrix<T> collect(const DistributedArray<T, Space>& a, Index rows, Index cols,
                       MatrixMultKind kind, const Sizes& s, bool model) {
  const std::vector<T> global = a.gather();
  const Layout& layout = a.layout();
  DenseMatrix<T> result = DenseMatrix<T>::Zero(rows, cols);
  DenseMatrix<int> seen = DenseMatrix<int>::Zero(rows, cols);
  for (int r = 0; r < layout.size(); ++r) {
    const MatrixMultBlocks blocks = matrix_mult_blocks(kind, s.n, s.k, s.m, r, layout.size());
    const MatrixBlock& b = model ? blocks.x : blocks.y;
    const std::vector<T> local = slice_along(global, layout.global_shape(), layout.axis(),
                                             layout.offset(r), layout.local_extent(r));
    REQUIRE(Index(local.size()) == b.rows() * b.cols());
    for (Index i = 0; i < b.rows(); ++i) {
      for (Index j = 0; j < b.cols(); ++j) {
        const T value = local[i * b.cols() + j];
        if (seen(b.row_begin + i, b.col_begin + j)) {
          CHECK(result(b.row_begin + i, b.col_begin + j) == value);  // replicas agree
        }
        result(b.row_begin + i, b.col_begin + j) = value;
        seen(b.row_begin + i, b.col_begin + j) = 1;
      }
    }
  }
  CHECK(seen.minCoeff() == (rows * cols == 0 ? 0 : 1));
  return result;
}

const char* name(MatrixMultKind kind) {
  return kind == MatrixMultKind::summa ? "summa" : "block";
}

}  // namespace

DISTLOPS_SPACE_TEMPLATE_TEST_CASE("MatrixMult equals the product of the global matrices",
                                  "[matrixmult]", DISTLOPS_SCALAR_TYPES) {
  using T = TestType;
  const Communicator comm = world();
  if (!square(comm.size())) return;  // see the error test
  const double rtol = 20 * space_tolerance<T, Space>();
  for_each_collective_path<Space>([&] {
    for (MatrixMultKind kind : {MatrixMultKind::summa, MatrixMultKind::block}) {
      for (const Sizes& s : std::vector<Sizes>{
               {5, 4, 3}, {7, 6, 5}, {1, 2, 1}, {2, 1, 3}, {3, 4, 5}, {4, 4, 4}, {6, 3, 1}}) {
        INFO(name(kind) << " N " << s.n << " K " << s.k << " M " << s.m);
        const DenseMatrix<T> a = random_matrix<T>(s.n, s.k, 1);
        const DenseMatrix<T> x = random_matrix<T>(s.k, s.m, 2);
        const DenseMatrix<T> y = random_matrix<T>(s.n, s.m, 3);
        const MatrixMultBlocks blocks =
            matrix_mult_blocks(kind, s.n, s.k, s.m, comm.rank(), comm.size());
        const auto op = MatrixMult<T, Space>(block_of(a, blocks.a), s.m, kind);
        CHECK(op.rows() ==
              (kind == MatrixMultKind::summa ? 1 : Index(std::sqrt(comm.size()))) * s.n * s.m);
        const auto xd = distribute<T, Space>(op.domain(), x, blocks.x);
        const auto yd = distribute<T, Space>(op.range(), y, blocks.y);
        const DenseMatrix<T> ax = product(a, x);
        const DenseMatrix<T> ahy = product(adjoint_of(a), y);
        CHECK(matrices_close(collect(op.apply(xd), s.n, s.m, kind, s, false), ax, rtol));
        CHECK(matrices_close(collect(op.apply_adjoint(yd), s.k, s.m, kind, s, true), ahy, rtol));
        // Dot test with consistent replicas (the reductions count one replica).
        const T forward_side = op.apply(xd).vdot(yd);
        const T adjoint_side = xd.vdot(op.apply_adjoint(yd));
        CHECK(std::abs(forward_side - adjoint_side) <=
              space_dottest_tolerance<T, Space>() * std::max(1.0, double(std::abs(forward_side))));
        CHECK(close(forward_side, T(product(adjoint_of(ax), y).trace()), rtol));
        if (kind == MatrixMultKind::summa) {
          CHECK(dottest(op, 4, space_dottest_tolerance<T, Space>()).passed);
        }
      }
    }
  });
}

TEST_CASE("MatrixMult matches PyLops-MPI's test matrices", "[matrixmult][pylops]") {
  // The matrices of PyLops-MPI's test: A = np.arange(N*K).reshape(N, K),
  // X = np.arange(K*M).reshape(K, M), y = A @ X, xadj = A.conj().T @ y (N, K, M = 3, 4, 5);
  // row 0 of y and of xadj, from NumPy:
  // (A @ X)[0] = [70, 76, 82, 88, 94]; (A.T @ (A @ X))[0] = [3240, 3632, 4024, 4416, 4808]
  const Communicator comm = world();
  if (!square(comm.size())) return;
  const Sizes s{3, 4, 5};
  DenseMatrix<double> a(3, 4), x(4, 5);
  for (Index i = 0; i < 12; ++i)
    a(i / 4, i % 4) = double(i);
  for (Index i = 0; i < 20; ++i)
    x(i / 5, i % 5) = double(i);
  for (MatrixMultKind kind : {MatrixMultKind::summa, MatrixMultKind::block}) {
    const MatrixMultBlocks blocks = matrix_mult_blocks(kind, 3, 4, 5, comm.rank(), comm.size());
    const auto op = MatrixMult<double>(block_of(a, blocks.a), 5, kind);
    const auto y = op.apply(distribute(op.domain(), x, blocks.x));
    const DenseMatrix<double> yg = collect(y, 3, 5, kind, s, false);
    const DenseMatrix<double> xadj = collect(op.apply_adjoint(y), 4, 5, kind, s, true);
    for (Index j = 0; j < 5; ++j) {
      CHECK(yg(0, j) == std::vector<double>{70, 76, 82, 88, 94}[j]);
      CHECK(xadj(0, j) == std::vector<double>{3240, 3632, 4024, 4416, 4808}[j]);
    }
  }
}

DISTLOPS_SPACE_TEMPLATE_TEST_CASE("a second apply of MatrixMult allocates nothing",
                                  "[matrixmult][allocation]", DISTLOPS_SCALAR_TYPES) {
  using T = TestType;
  const Communicator comm = world();
  if (!square(comm.size())) return;
  for_each_collective_path<Space>([&] {
    for (MatrixMultKind kind : {MatrixMultKind::summa, MatrixMultKind::block}) {
      const MatrixMultBlocks blocks = matrix_mult_blocks(kind, 9, 7, 5, comm.rank(), comm.size());
      const auto op = MatrixMult<T, Space>(block_of(random_matrix<T>(9, 7, 1), blocks.a), 5, kind);
      CHECK(second_apply_allocates_nothing(op));
    }
  });
}

DISTLOPS_SPACE_TEMPLATE_TEST_CASE("bad MatrixMult arguments fail on every rank",
                                  "[matrixmult][errors]", DISTLOPS_SCALAR_TYPES) {
  using T = TestType;
  const Communicator comm = world();
  const int size = comm.size();
  for (MatrixMultKind kind : {MatrixMultKind::summa, MatrixMultKind::block}) {
    if (!square(size)) {
      try {
        (void)MatrixMult<T, Space>(EigenRowMajorMatrix<T>::Zero(2, 2), 3, kind);
        FAIL("no exception");
      } catch (const InvalidArgument& error) {
        CHECK(std::string(error.what()).find("perfect square") != std::string::npos);
      }
      CHECK_THROWS_AS(matrix_mult_blocks(kind, 4, 4, 4, 0, size), InvalidArgument);
      continue;
    }
    const MatrixMultBlocks blocks = matrix_mult_blocks(kind, 6, 5, 4, comm.rank(), size);
    CHECK_THROWS_AS((MatrixMult<T, Space>(
                        EigenRowMajorMatrix<T>::Zero(blocks.a.rows(), blocks.a.cols()), -1, kind)),
                    InvalidArgument);
    if (size > 1) {
      // A block of the wrong shape on the last rank only (with one rank any shape fits).
      const Index extra = comm.rank() == size - 1 ? 1 : 0;
      CHECK_THROWS_AS(
          (MatrixMult<T, Space>(
              EigenRowMajorMatrix<T>::Zero(blocks.a.rows(), blocks.a.cols() + extra), 4, kind)),
          InvalidArgument);
    }
    CHECK_THROWS_AS(matrix_mult_blocks(kind, -1, 4, 4, 0, size), InvalidArgument);
  }
  CHECK(comm.allreduce(1, ReduceOp::sum) == size);
}
