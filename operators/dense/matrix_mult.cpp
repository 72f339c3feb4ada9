#include "distlops/operators/dense/matrix_mult.hpp"

#include <algorithm>
#include <string>

#include "distlops/core/collective_check.hpp"

namespace distlops {

namespace {

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

template <class T>
using ConstMap = Eigen::Map<const EigenRowMajorMatrix<T>>;
template <class T>
using Map = Eigen::Map<EigenRowMajorMatrix<T>>;

template <class T>
ConstMap<T> view(const T* data, Index rows, Index cols) {
  return ConstMap<T>(data, static_cast<Eigen::Index>(rows), static_cast<Eigen::Index>(cols));
}
template <class T>
Map<T> view(T* data, Index rows, Index cols) {
  return Map<T>(data, static_cast<Eigen::Index>(rows), static_cast<Eigen::Index>(cols));
}

// Copies a rows x cols matrix into the top-left corner of a zeroed padded_rows x padded_cols
// one, and back.
template <class T>
void pad(const T* source, Index rows, Index cols, T* padded, Index padded_rows, Index padded_cols) {
  auto target = view(padded, padded_rows, padded_cols);
  target.setZero();
  target.topLeftCorner(rows, cols) = view(source, rows, cols);
}
template <class T>
void unpad(const T* padded, Index padded_cols, T* target, Index rows, Index cols) {
  view(target, rows, cols) = view(padded, rows, padded_cols).leftCols(cols);
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

template <Scalar T>
class SummaMatrixMultOperator final : public LinearOperatorBase<DistributedArray<T, Host>> {
 public:
  using Array = DistributedArray<T, Host>;
  SummaMatrixMultOperator(const EigenRowMajorMatrix<T>& local_a, Index n, Index k, Index m,
                          const Communicator& comm)
      : SummaMatrixMultOperator(
            local_a, n, k, m, comm,
            matrix_mult_blocks(MatrixMultKind::summa, n, k, m, comm.rank(), comm.size())) {}

  void forward(const Array& x, Array& y) const override {
    const Index xs = bk_ * bm_, ys = bn_ * bm_;
    pad(x.data(), blocks_.x.rows(), blocks_.x.cols(), tile_.data(), bk_, bm_);
    swap(tile_.data(), swapped_.data(), xs);
    // Rank (g, c) now holds X(c, g); the ranks of grid column c gather X(c, :).
    grid_.col_comm.allgather(swapped_.data(), xs, panel_.data());
    const auto a = view(a_.data(), bn_, bk_);
    for (int j = 0; j < grid_.p; ++j) {
      view(partial_.data() + j * ys, bn_, bm_).noalias() =
          a * view(panel_.data() + j * xs, bk_, bm_);
    }
    // A(g, c) X(c, j) goes to rank (g, j), which sums what its grid row sends.
    grid_.row_comm.alltoall(partial_.data(), ys, received_.data());
    sum_blocks(received_.data(), ys, tile_.data());
    unpad(tile_.data(), bm_, y.data(), blocks_.y.rows(), blocks_.y.cols());
  }

  void adjoint(const Array& y, Array& x) const override {
    const Index xs = bk_ * bm_, ys = bn_ * bm_;
    pad(y.data(), blocks_.y.rows(), blocks_.y.cols(), tile_.data(), bn_, bm_);
    grid_.row_comm.allgather(tile_.data(), ys, received_.data());
    const auto a = view(a_.data(), bn_, bk_);
    for (int j = 0; j < grid_.p; ++j) {
      view(partial_.data() + j * xs, bk_, bm_).noalias() =
          a.adjoint() * view(received_.data() + j * ys, bn_, bm_);
    }
    grid_.col_comm.alltoall(partial_.data(), xs, panel_.data());
    sum_blocks(panel_.data(), xs, swapped_.data());
    swap(swapped_.data(), tile_.data(), xs);
    unpad(tile_.data(), bm_, x.data(), blocks_.x.rows(), blocks_.x.cols());
  }

 private:
  SummaMatrixMultOperator(const EigenRowMajorMatrix<T>& local_a, Index n, Index k, Index m,
                          const Communicator& comm, const MatrixMultBlocks& blocks)
      : LinearOperatorBase<Array>(
            Layout::from_local_shape(comm, {blocks.x.rows() * blocks.x.cols()}),
            Layout::from_local_shape(comm, {blocks.y.rows() * blocks.y.cols()}), "MatrixMult"),
        comm_(comm),
        grid_(make_grid(comm)),
        blocks_(blocks) {
    const int p = grid_.p;
    bn_ = (n + p - 1) / p;
    bk_ = (k + p - 1) / p;
    bm_ = (m + p - 1) / p;
    a_ = Buffer<T, Host>(bn_ * bk_);
    pad(local_a.data(), local_a.rows(), local_a.cols(), a_.data(), bn_, bk_);
    const Index tile = std::max(bk_, bn_) * bm_;
    tile_ = Buffer<T, Host>(tile);
    swapped_ = Buffer<T, Host>(bk_ * bm_);
    panel_ = Buffer<T, Host>(p * bk_ * bm_);
    partial_ = Buffer<T, Host>(p * tile);
    received_ = Buffer<T, Host>(p * bn_ * bm_);
  }

  // Exchanges `count` elements with the rank at the transposed grid position.
  void swap(const T* send, T* receive, Index count) const {
    const int partner = grid_.col * grid_.p + grid_.row;
    if (partner == comm_.rank()) {
      std::copy(send, send + count, receive);
    } else {
      comm_.sendrecv(send, count, partner, receive, count, partner, 0);
    }
  }
  // target = the sum of the p consecutive blocks of `count` elements at `blocks`.
  void sum_blocks(const T* blocks, Index count, T* target) const {
    std::copy(blocks, blocks + count, target);
    for (int j = 1; j < grid_.p; ++j) {
      const T* block = blocks + j * count;
      for (Index i = 0; i < count; ++i)
        target[i] += block[i];
    }
  }

  Communicator comm_;
  Grid grid_;
  MatrixMultBlocks blocks_;
  Index bn_ = 0, bk_ = 0, bm_ = 0;
  Buffer<T, Host> a_;  // the padded tile of A
  mutable Buffer<T, Host> tile_, swapped_, panel_, partial_, received_;
};

// ---- block rows of A, block columns of X and Y -------------------------------------------------

template <Scalar T>
class BlockMatrixMultOperator final : public LinearOperatorBase<DistributedArray<T, Host>> {
 public:
  using Array = DistributedArray<T, Host>;
  BlockMatrixMultOperator(const EigenRowMajorMatrix<T>& local_a, Index n, Index k, Index m,
                          const Communicator& comm)
      : BlockMatrixMultOperator(
            local_a, n, k, comm,
            matrix_mult_blocks(MatrixMultKind::block, n, k, m, comm.rank(), comm.size())) {}

  void forward(const Array& x, Array& y) const override {
    const Index cols = blocks_.x.cols();
    view(rows_.data(), a_.rows(), cols).noalias() = a_ * view(x.data(), k_, cols);
    grid_.row_comm.allgatherv(rows_.data(), a_.rows() * cols, y.data(), counts_, offsets_);
  }
  void adjoint(const Array& y, Array& x) const override {
    const Index cols = blocks_.x.cols();
    view(sums_.data(), k_, cols).noalias() =
        a_.adjoint() * view(y.data() + blocks_.a.row_begin * cols, a_.rows(), cols);
    grid_.row_comm.allreduce(sums_.data(), x.data(), k_ * cols, ReduceOp::sum);
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
        a_(local_a) {
    // The row blocks of Y that the ranks of this grid row compute, in order.
    for (int c = 0; c < grid_.p; ++c) {
      const auto rows = block_of(n, grid_.p, c);
      counts_.push_back((rows.second - rows.first) * blocks.y.cols());
      offsets_.push_back(rows.first * blocks.y.cols());
    }
    rows_ = Buffer<T, Host>(a_.rows() * blocks.x.cols());
    sums_ = Buffer<T, Host>(k * blocks.x.cols());
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
  EigenRowMajorMatrix<T> a_;
  std::vector<Index> counts_, offsets_;
  mutable Buffer<T, Host> rows_, sums_;
};

}  // namespace

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

template <Scalar T>
LinearOperator<T, Host> MatrixMult(const EigenRowMajorMatrix<T>& local_a, Index m,
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
    return LinearOperator<T, Host>::template make<SummaMatrixMultOperator<T>>(local_a, n, k, m,
                                                                              comm);
  }
  return LinearOperator<T, Host>::template make<BlockMatrixMultOperator<T>>(local_a, n, k, m, comm);
}

template LinearOperator<float, Host> MatrixMult(const EigenRowMajorMatrix<float>&, Index,
                                                MatrixMultKind, const Communicator&);
template LinearOperator<double, Host> MatrixMult(const EigenRowMajorMatrix<double>&, Index,
                                                 MatrixMultKind, const Communicator&);
template LinearOperator<std::complex<float>, Host> MatrixMult(
    const EigenRowMajorMatrix<std::complex<float>>&, Index, MatrixMultKind, const Communicator&);
template LinearOperator<std::complex<double>, Host> MatrixMult(
    const EigenRowMajorMatrix<std::complex<double>>&, Index, MatrixMultKind, const Communicator&);

}  // namespace distlops
