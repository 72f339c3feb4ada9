// SPDX-License-Identifier: BSD-3-Clause
// Copyright (c) 2026 The distlops authors
// MatrixMult: the local operator (one dense product per apply) and the distributed products on a
// square process grid (matrix_mult_kernels.hpp).
#include "distlops/operators/dense/matrix_mult.hpp"

#include <algorithm>
#include <string>

#include "../rank_exchange.hpp"
#include "../support.hpp"
#include "../two_way_operator.hpp"
#include "distlops/core/buffer.hpp"
#include "distlops/core/collective_check.hpp"
#include "distlops/core/instantiate.hpp"
#include "distlops/core/kernels.hpp"
#include "matrix_mult_kernels.hpp"

namespace distlops {

namespace {

// ---- the local operator: one dense product per apply -------------------------------------------

// The direction: whether the adjoint (a product with A^H).
template <Scalar T, MemorySpace Space>
class MatrixMultOperator final : public detail::TwoWayOperator<T, Space, bool> {
 public:
  /// `values` holds A in C order (row-major), rows * cols elements, in host memory.
  MatrixMultOperator(Index rows, Index cols, std::span<const T> values, const Shape& otherdims);

 private:
  void apply(const bool& adjoint, T alpha, const T* in, T beta, T* out) const override {
    kernels::gemm(Space{}, adjoint, rows_, cols_, matrix_.data(), columns_, alpha, in, beta, out);
  }

  Index rows_;
  Index cols_;
  Index columns_;  // product of otherdims: the number of right-hand sides
  Buffer<T, Space> matrix_;
};

Shape with_first_axis(Index first, const Shape& otherdims) {
  Shape shape{first};
  shape.insert(shape.end(), otherdims.begin(), otherdims.end());
  return shape;
}

// ---- the distributed operators ----------------------------------------------------------------

// The side p of a square grid of `size` ranks.
int grid_side(int size) {
  int p = 0;
  while ((p + 1) * (p + 1) <= size)
    ++p;
  if (p * p != size) {
    throw InvalidArgument(
        "MatrixMult: the number of ranks must be a perfect square (1, 4, 9, ...)"
        " to form a square process grid, got " +
        std::to_string(size));
  }
  return p;
}

// Block i of n items cut into p blocks of ceil(n / p) items (the last ones shorter or empty).
std::pair<Index, Index> block_of(Index n, int p, int i) {
  const Index size = (n + p - 1) / p;
  const Index begin = std::min(n, i * size);
  return {begin, std::min(n, begin + size)};
}

MatrixBlock block(std::pair<Index, Index> rows, std::pair<Index, Index> cols) {
  return {rows.first, rows.second, cols.first, cols.second};
}

// ---- the local steps, in the space of the data -----------------------------------------------

// Copies a rows x cols matrix into the top-left corner of a zeroed padded_rows x padded_cols
// one.
template <class T, MemorySpace Space>
void pad(Space space, const T* source, Index rows, Index cols, T* padded, Index padded_rows,
         Index padded_cols) {
  if (rows == padded_rows && cols == padded_cols) {
    kernels::copy(space, rows * cols, source, padded);
    return;
  }
  kernels::fill(space, padded_rows * padded_cols, T(0), padded);
  if (rows * cols == 0) return;
  const Index source_shape[2] = {rows, cols}, padded_shape[2] = {padded_rows, padded_cols};
  const Index corner[2] = {0, 0};
  kernels::copy_box(space, sizeof(T), source, {source_shape, corner}, padded,
                    {padded_shape, corner}, source_shape);
}
// The top-left rows x cols corner of a matrix with padded_cols columns.
template <class T, MemorySpace Space>
void unpad(Space space, const T* padded, Index padded_cols, T* target, Index rows, Index cols) {
  if (rows * cols == 0) return;
  if (cols == padded_cols) {
    kernels::copy(space, rows * cols, padded, target);
    return;
  }
  const Index padded_shape[2] = {rows, padded_cols}, target_shape[2] = {rows, cols};
  const Index corner[2] = {0, 0};
  kernels::copy_box(space, sizeof(T), padded, {padded_shape, corner}, target,
                    {target_shape, corner}, target_shape);
}
// out_b = op(A) in_b for b < batch, A row-major rows x cols, op(A) = A or A^H: one batched
// product with the same A for every b (stride 0).
template <class T, MemorySpace Space>
void products(Space space, bool adjoint, Index batch, Index rows, Index cols, const T* a, Index k,
              const T* in, Index in_stride, T* out, Index out_stride) {
  kernels::gemm_strided_batched(space, "MatrixMult", adjoint, batch, rows, cols, a, 0, k, T(1), in,
                                in_stride, T(0), out, out_stride);
}
// target = the sum of the p consecutive blocks of `count` elements at `blocks`.
template <class T, MemorySpace Space>
void sum_blocks(Space space, int p, const T* blocks, Index count, T* target) {
  kernels::copy(space, count, blocks, target);
  for (int j = 1; j < p; ++j)
    kernels::axpy(space, count, T(1), blocks + j * count, target);
}

struct Grid {
  int p = 1, row = 0, col = 0;
  Communicator row_comm, col_comm;  // the ranks of this grid row (column), ordered by column (row)
};

Grid make_grid(const Communicator& comm) {
  Grid grid;
  grid.p = grid_side(comm.size());
  grid.row = comm.rank() / grid.p;
  grid.col = comm.rank() % grid.p;
  grid.row_comm = comm.split(grid.row, grid.col);
  grid.col_comm = comm.split(grid.col, grid.row);
  return grid;
}

// ---- SUMMA with stationary A --------------------------------------------------------------------

template <Scalar T, MemorySpace Space>
class SummaMatrixMultOperator final : public LinearOperatorBase<DistributedArray<T, Space>> {
 public:
  /// The library's own code: nothing to agree on after an apply.
  bool runs_user_code() const override { return false; }
  using Array = DistributedArray<T, Space>;
  SummaMatrixMultOperator(const EigenRowMajorMatrix<T>& local_a, Index n, Index k, Index m,
                          const Communicator& comm)
      : SummaMatrixMultOperator(
            local_a, n, k, m, comm,
            matrix_mult_blocks(MatrixMultKind::summa, n, k, m, comm.rank(), comm.size())) {}

  void forward(const Array& x, Array& y) const override {
    const Index xs = bk_ * bm_, ys = bn_ * bm_;
    pad(Space{}, x.data(), blocks_.x.rows(), blocks_.x.cols(), tile_.data(), bk_, bm_);
    all_.swap(tile_.data(), swapped_.data(), xs, partner());
    // Rank (g, c) now holds X(c, g); the ranks of grid column c gather X(c, :).
    column_.allgather(swapped_.data(), xs, panel_.data());
    products(Space{}, false, grid_.p, bn_, bk_, a_.data(), bm_, panel_.data(), xs, partial_.data(),
             ys);
    // A(g, c) X(c, j) goes to rank (g, j), which sums what its grid row sends.
    row_.alltoall(partial_.data(), ys, received_.data());
    sum_blocks(Space{}, grid_.p, received_.data(), ys, tile_.data());
    unpad(Space{}, tile_.data(), bm_, y.data(), blocks_.y.rows(), blocks_.y.cols());
  }

  void adjoint(const Array& y, Array& x) const override {
    const Index xs = bk_ * bm_, ys = bn_ * bm_;
    pad(Space{}, y.data(), blocks_.y.rows(), blocks_.y.cols(), tile_.data(), bn_, bm_);
    row_.allgather(tile_.data(), ys, received_.data());
    products(Space{}, true, grid_.p, bn_, bk_, a_.data(), bm_, received_.data(), ys,
             partial_.data(), xs);
    column_.alltoall(partial_.data(), xs, panel_.data());
    sum_blocks(Space{}, grid_.p, panel_.data(), xs, swapped_.data());
    all_.swap(swapped_.data(), tile_.data(), xs, partner());
    unpad(Space{}, tile_.data(), bm_, x.data(), blocks_.x.rows(), blocks_.x.cols());
  }

 private:
  SummaMatrixMultOperator(const EigenRowMajorMatrix<T>& local_a, Index n, Index k, Index m,
                          const Communicator& comm, const MatrixMultBlocks& blocks)
      : LinearOperatorBase<Array>(
            Layout::from_local_shape(comm, {blocks.x.rows() * blocks.x.cols()}),
            Layout::from_local_shape(comm, {blocks.y.rows() * blocks.y.cols()}), "MatrixMult"),
        grid_(make_grid(comm)),
        blocks_(blocks),
        all_(comm),
        row_(grid_.row_comm),
        column_(grid_.col_comm) {
    const int p = grid_.p;
    bn_ = (n + p - 1) / p;
    bk_ = (k + p - 1) / p;
    bm_ = (m + p - 1) / p;
    Buffer<T, Host> padded_a(bn_ * bk_);
    pad(Host{}, local_a.data(), local_a.rows(), local_a.cols(), padded_a.data(), bn_, bk_);
    a_ = detail::copy_to_space<T, Space>(
        std::span<const T>(padded_a.data(), std::size_t(padded_a.size())));
    const Index tile = std::max(bk_, bn_) * bm_;
    tile_ = Buffer<T, Space>(tile);
    swapped_ = Buffer<T, Space>(bk_ * bm_);
    panel_ = Buffer<T, Space>(p * bk_ * bm_);
    partial_ = Buffer<T, Space>(p * tile);
    received_ = Buffer<T, Space>(p * bn_ * bm_);
  }

  // The rank at the transposed grid position.
  int partner() const { return grid_.col * grid_.p + grid_.row; }

  Grid grid_;
  MatrixMultBlocks blocks_;
  Index bn_ = 0, bk_ = 0, bm_ = 0;
  detail::RankExchange<T, Space> all_, row_, column_;  // over comm, grid rows, grid columns
  Buffer<T, Space> a_;                                 // the padded tile of A
  mutable Buffer<T, Space> tile_, swapped_, panel_, partial_, received_;
};

// ---- block rows of A, block columns of X and Y -------------------------------------------------

template <Scalar T, MemorySpace Space>
class BlockMatrixMultOperator final : public LinearOperatorBase<DistributedArray<T, Space>> {
 public:
  /// The library's own code: nothing to agree on after an apply.
  bool runs_user_code() const override { return false; }
  using Array = DistributedArray<T, Space>;
  BlockMatrixMultOperator(const EigenRowMajorMatrix<T>& local_a, Index n, Index k, Index m,
                          const Communicator& comm)
      : BlockMatrixMultOperator(
            local_a, n, k, comm,
            matrix_mult_blocks(MatrixMultKind::block, n, k, m, comm.rank(), comm.size())) {}

  void forward(const Array& x, Array& y) const override {
    const Index cols = blocks_.x.cols();
    products(Space{}, false, 1, a_rows_, k_, a_.data(), cols, x.data(), 0, rows_.data(), 0);
    row_.allgatherv(rows_.data(), y.data(), counts_, offsets_);
  }
  void adjoint(const Array& y, Array& x) const override {
    const Index cols = blocks_.x.cols();
    products(Space{}, true, 1, a_rows_, k_, a_.data(), cols, y.data() + blocks_.a.row_begin * cols,
             0, x.data(), 0);
    row_.sum_in_place(x.data(), k_ * cols);
  }

 private:
  BlockMatrixMultOperator(const EigenRowMajorMatrix<T>& local_a, Index n, Index k,
                          const Communicator& comm, const MatrixMultBlocks& blocks)
      : LinearOperatorBase<Array>(
            Layout::from_local_shape(comm, {k, blocks.x.cols()}, Partition::SCATTER, 1,
                                     replica_mask(comm.size())),
            Layout::from_local_shape(comm, {n, blocks.y.cols()}, Partition::SCATTER, 1,
                                     replica_mask(comm.size())),
            "MatrixMult"),
        grid_(make_grid(comm)),
        blocks_(blocks),
        k_(k),
        a_rows_(local_a.rows()),
        a_(detail::copy_to_space<T, Space>(
            std::span<const T>(local_a.data(), std::size_t(local_a.size())))),
        row_(grid_.row_comm) {
    // The row blocks of Y that the ranks of this grid row compute, in order.
    for (int c = 0; c < grid_.p; ++c) {
      const auto rows = block_of(n, grid_.p, c);
      counts_.push_back((rows.second - rows.first) * blocks.y.cols());
      offsets_.push_back(rows.first * blocks.y.cols());
    }
    rows_ = Buffer<T, Space>(a_rows_ * blocks.x.cols());
  }

  // Mask c for the ranks of grid column c: they hold one replica of model and data together.
  static std::vector<int> replica_mask(int size) {
    const int p = grid_side(size);
    std::vector<int> mask;
    for (int r = 0; r < size; ++r)
      mask.push_back(r % p);
    return mask;
  }

  Grid grid_;
  MatrixMultBlocks blocks_;
  Index k_;
  Index a_rows_;
  Buffer<T, Space> a_;  // this rank's rows of A (a_rows_ x k_, C order)
  detail::RankExchange<T, Space> row_;
  std::vector<Index> counts_, offsets_;
  mutable Buffer<T, Space> rows_;
};

}  // namespace

template <Scalar T, MemorySpace Space>
MatrixMultOperator<T, Space>::MatrixMultOperator(Index rows, Index cols, std::span<const T> values,
                                                 const Shape& otherdims)
    : detail::TwoWayOperator<T, Space, bool>(with_first_axis(cols, otherdims),
                                             with_first_axis(rows, otherdims), "MatrixMult"),
      rows_(rows),
      cols_(cols),
      columns_(0) {
  detail::check_shape(this->name(), "the model shape (cols, *otherdims)", this->domain());
  detail::check_shape(this->name(), "the data shape (rows, *otherdims)", this->range());
  detail::check_shape(this->name(), "the matrix shape (rows, cols)", Shape{rows, cols});
  columns_ = element_count(otherdims);
  if (static_cast<Index>(values.size()) != rows * cols) {
    throw ShapeMismatch("MatrixMult: a " + std::to_string(rows) + " x " + std::to_string(cols) +
                        " matrix needs " + std::to_string(rows * cols) + " values, got " +
                        std::to_string(values.size()));
  }
  matrix_ = detail::copy_to_space<T, Space>(values);
  this->adjoint_ = true;
}

template <Scalar T, MemorySpace Space>
LocalOperator<T, Space> local::MatrixMult(Index rows, Index cols, std::span<const T> values,
                                          const Shape& otherdims) {
  return LocalOperator<T, Space>::template make<MatrixMultOperator<T, Space>>(rows, cols, values,
                                                                              otherdims);
}

template <Scalar T, MemorySpace Space>
LocalOperator<T, Space> local::MatrixMult(const Eigen::Ref<const EigenRowMajorMatrix<T>>& matrix,
                                          const Shape& otherdims) {
  // A Ref may have an outer stride: copy into a contiguous row-major matrix first.
  const EigenRowMajorMatrix<T> contiguous = matrix;
  return local::MatrixMult<T, Space>(
      contiguous.rows(), contiguous.cols(),
      std::span<const T>(contiguous.data(), std::size_t(contiguous.size())), otherdims);
}

MatrixMultBlocks matrix_mult_blocks(MatrixMultKind kind, Index n, Index k, Index m, int rank,
                                    int size) {
  if (n < 0 || k < 0 || m < 0) {
    throw InvalidArgument("MatrixMult: negative dimension in N, K, M = " + std::to_string(n) +
                          ", " + std::to_string(k) + ", " + std::to_string(m));
  }
  const int p = grid_side(size);
  if (rank < 0 || rank >= size) {
    throw InvalidArgument("MatrixMult: rank " + std::to_string(rank) + " is not in [0, " +
                          std::to_string(size) + ")");
  }
  const int g = rank / p, c = rank % p;
  if (kind == MatrixMultKind::summa) {
    return {block(block_of(n, p, g), block_of(k, p, c)),
            block(block_of(k, p, g), block_of(m, p, c)),
            block(block_of(n, p, g), block_of(m, p, c))};
  }
  return {block(block_of(n, p, c), {0, k}), block({0, k}, block_of(m, p, g)),
          block({0, n}, block_of(m, p, g))};
}

template <Scalar T, MemorySpace Space>
LinearOperator<T, Space> MatrixMult(const EigenRowMajorMatrix<T>& local_a, Index m,
                                    MatrixMultKind kind, const Communicator& comm) {
  Fingerprint fingerprint;
  fingerprint.add(m).add(kind);
  collective_check(comm, fingerprint, "MatrixMult: M or kind", [&] {
    grid_side(comm.size());
    if (m < 0) throw InvalidArgument("MatrixMult: M = " + std::to_string(m) + " is negative");
  });
  // N and K from the blocks along the first grid column and row.
  const int p = grid_side(comm.size());
  const int g = comm.rank() / p, c = comm.rank() % p;
  Index extents[2] = {0, 0};
  if (kind == MatrixMultKind::summa) {
    extents[0] = c == 0 ? local_a.rows() : 0;
    extents[1] = g == 0 ? local_a.cols() : 0;
  } else {
    extents[0] = g == 0 ? local_a.rows() : 0;
    extents[1] = comm.rank() == 0 ? local_a.cols() : 0;
  }
  comm.allreduce(extents, extents, 2, ReduceOp::sum);
  const Index n = extents[0], k = extents[1];
  collective_check(comm, [&] {
    const MatrixBlock expected = matrix_mult_blocks(kind, n, k, m, comm.rank(), comm.size()).a;
    if (local_a.rows() != expected.rows() || local_a.cols() != expected.cols()) {
      throw InvalidArgument(
          "MatrixMult: rank " + std::to_string(comm.rank()) + " holds a block of A of shape (" +
          std::to_string(local_a.rows()) + ", " + std::to_string(local_a.cols()) +
          "), the grid expects rows [" + std::to_string(expected.row_begin) + ", " +
          std::to_string(expected.row_end) + ") and columns [" +
          std::to_string(expected.col_begin) + ", " + std::to_string(expected.col_end) +
          ") of A (" + std::to_string(n) + " x " + std::to_string(k) + ")");
    }
  });
  if (kind == MatrixMultKind::summa) {
    return LinearOperator<T, Space>::template make<SummaMatrixMultOperator<T, Space>>(local_a, n, k,
                                                                                      m, comm);
  }
  return LinearOperator<T, Space>::template make<BlockMatrixMultOperator<T, Space>>(local_a, n, k,
                                                                                    m, comm);
}

DISTLOPS_FOR_EACH_SCALAR_AND_SPACE_ARG(DISTLOPS_DETAIL_MATRIX_MULT, )

}  // namespace distlops
