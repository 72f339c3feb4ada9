// SPDX-License-Identifier: BSD-3-Clause
// Copyright (c) 2026 The distlops authors
#pragma once
/// \file matrix_mult.hpp
/// `MatrixMult`: dense matrix products, on one rank's data (`local::MatrixMult`, PyLops'
/// MatrixMult) or distributed over a square grid of ranks (PyLops-MPI's MPIMatrixMult).
///
/// `local::MatrixMult`: a dense matrix A (rows x cols), PyLops' `MatrixMult(A, otherdims)`.
/// Without `otherdims` the domain has shape (cols) and the range (rows): y = A x. With
/// `otherdims` = (d1, ..., dk) the model is an array of shape (cols, d1, ..., dk) seen as a
/// (cols, d1 * ... * dk) C-order matrix X, and y = A X has shape (rows, d1, ..., dk): A acts
/// on the first axis, on every column of the other axes at once. The adjoint is A^H. The
/// matrix is stored row-major and products are OpenBLAS' GEMV (no otherdims) or GEMM on the
/// caller's memory (cuBLAS on Cuda); forward_add and adjoint_add accumulate y = alpha A x + beta y
/// without temporaries. Errors: ShapeMismatch when the values do not fill rows x cols;
/// InvalidArgument for negative sizes or otherdims.
///
/// The distributed `MatrixMult`: products Y = A X where A is N x K, the
/// model X is K x M and the data Y are N x M, all three cut into blocks over a square grid of
/// P = p x p ranks; rank r sits at grid row g = r / p and column c = r % p. Blocks have
/// ceil(n / p) rows or columns, the last ones fewer (or none). The local products are OpenBLAS
/// GEMMs on the host and cuBLAS GEMMs on the device; the adjoint is X = A^H Y exactly.
///
/// kind = summa: A, X and Y are tiled over the grid: rank (g, c) holds tile (g, c) of each
///   (A: rows block g of N, columns block c of K; X: rows block g of K, columns block c of M;
///   Y: rows block g of N, columns block c of M). Model and data are flat vectors, the
///   concatenation of the ranks' tiles in rank order, each tile in C order.
///   The tiles of A never move (the "stationary A" variant of SUMMA): the forward moves the
///   tiles of X to the ranks that hold the matching columns of A (one pairwise swap and an
///   all-gather down grid columns), multiplies, and sums the partial products along grid rows
///   (an all-to-all and local sums); the adjoint runs the same steps backwards. Each apply
///   moves about (K + N) M / p elements per rank; PyLops-MPI's variant, which broadcasts the
///   tiles of A, moves (N K + K M) / p. Edge tiles are padded with zeros internally.
///
/// kind = block: rank (g, c) holds rows block c of A (all K columns); the grid row g holds
///   columns block g of X and Y, replicated on its p ranks: model (K, p M) and data (N, p M)
///   arrays split along axis 1 (rank (g, c) holds the K x (columns of block g) and N x
///   (columns of block g) blocks), with mask c (ranks of the same grid column hold one
///   replica, so reductions count it once). The forward multiplies and all-gathers the row
///   blocks of Y along grid rows; the adjoint multiplies by the local A^H and sums along grid
///   rows. Replicas stay equal when they start equal (every rank of a grid row computes the
///   same values).
///
/// Other rank counts than perfect squares raise InvalidArgument on every rank.

#include <span>

#include "distlops/config.hpp"
#include "distlops/core/eigen.hpp"
#include "distlops/core/instantiate.hpp"
#include "distlops/operators/linear_operator.hpp"
#include "distlops/operators/local/accumulating_operator.hpp"

namespace distlops {

namespace local {

/// A x for a matrix given row-major by `values` (rows * cols elements).
template <Scalar T, MemorySpace Space = Host>
LocalOperator<T, Space> MatrixMult(Index rows, Index cols, std::span<const T> values,
                                   const Shape& otherdims = {});

/// A x for an Eigen matrix (any storage order; it is copied).
template <Scalar T, MemorySpace Space = Host>
LocalOperator<T, Space> MatrixMult(const Eigen::Ref<const EigenRowMajorMatrix<T>>& matrix,
                                   const Shape& otherdims = {});

}  // namespace local

/// How the distributed MatrixMult lays A, X and Y over the square grid (see above).
enum class MatrixMultKind {
  /// Tiles of A, X and Y on every rank; stationary-A SUMMA.
  summa,
  /// Row blocks of A; column blocks of X and Y replicated along grid rows.
  block
};

/// A rectangle of a matrix: rows [row_begin, row_end), columns [col_begin, col_end).
struct MatrixBlock {
  /// First row.
  Index row_begin = 0, row_end = 0, col_begin = 0, col_end = 0;
  /// \var row_end
  /// One past the last row.
  /// \var col_begin
  /// First column.
  /// \var col_end
  /// One past the last column.

  /// Number of rows.
  Index rows() const { return row_end - row_begin; }
  /// Number of columns.
  Index cols() const { return col_end - col_begin; }
};

/// The blocks of A (n x k), X (k x m) and Y (n x m) that `rank` of `size` holds.
struct MatrixMultBlocks {
  /// This rank's block of A.
  MatrixBlock a, x, y;
  /// \var x
  /// This rank's block of X (the model).
  /// \var y
  /// This rank's block of Y (the data).
};

/// InvalidArgument when `size` is not a perfect square or a dimension is negative.
MatrixMultBlocks matrix_mult_blocks(MatrixMultKind kind, Index n, Index k, Index m, int rank,
                                    int size);

/// The distributed product with this rank's block `local_a` of A (the block
/// matrix_mult_blocks gives) and M columns of X. N and K are the sums of the blocks' extents
/// along the grid; blocks that do not fit the grid raise InvalidArgument on every rank.
/// Collective.
///
/// Space = Cuda: model and data are device arrays; the tile of A (given in host memory) is
/// copied to the device once, the local products are cuBLAS GEMMs (one strided-batched call
/// for the p products of a SUMMA step), and the steps above move device memory over NCCL, or
/// through host copies over MPI (gpu_collectives()). Workspaces are made at construction.
template <Scalar T, MemorySpace Space = Host>
LinearOperator<T, Space> MatrixMult(const EigenRowMajorMatrix<T>& local_a, Index m,
                                    MatrixMultKind kind = MatrixMultKind::summa,
                                    const Communicator& comm = Communicator::world());

/// \cond
#define DISTLOPS_DETAIL_MATRIX_MULT(PREFIX, T, S)                                               \
  PREFIX template LocalOperator<T, S> local::MatrixMult<T, S>(Index, Index, std::span<const T>, \
                                                              const Shape&);                    \
  PREFIX template LocalOperator<T, S> local::MatrixMult<T, S>(                                  \
      const Eigen::Ref<const EigenRowMajorMatrix<T>>&, const Shape&);                           \
  PREFIX template LinearOperator<T, S> MatrixMult<T, S>(const EigenRowMajorMatrix<T>&, Index,   \
                                                        MatrixMultKind, const Communicator&);
DISTLOPS_FOR_EACH_SCALAR_AND_SPACE_ARG(DISTLOPS_DETAIL_MATRIX_MULT, extern)
/// \endcond

}  // namespace distlops
