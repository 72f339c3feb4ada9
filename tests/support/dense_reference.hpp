// SPDX-License-Identifier: BSD-3-Clause
// Copyright (c) 2026 The distlops authors
#pragma once
// Reference operators for tests: a dense global matrix applied to the gathered input, for
// distributed, stacked and local vectors. They are slow and obviously correct, so composite
// and distributed operators can be compared against products of dense matrices.
#include <Eigen/Dense>

#include <complex>
#include <cstdint>

#include "distlops/core/distributed_array.hpp"
#include "distlops/core/instantiate.hpp"
#include "distlops/core/local_array.hpp"
#include "distlops/core/memory_space.hpp"
#include "distlops/core/random.hpp"
#include "distlops/core/stacked_distributed_array.hpp"
#include "distlops/operators/linear_operator.hpp"

namespace distlops::testing {

template <class T>
using DenseMatrix = Eigen::Matrix<T, Eigen::Dynamic, Eigen::Dynamic>;
template <class T>
using DenseVector = Eigen::Matrix<T, Eigen::Dynamic, 1>;

/// The gathered global vector of any vector type of any space, as an Eigen vector on the host.
template <Scalar T, MemorySpace Space>
DenseVector<T> global_vector(const DistributedArray<T, Space>& x) {
  const std::vector<T> values = x.gather();
  return Eigen::Map<const DenseVector<T>>(values.data(), Eigen::Index(values.size()));
}
template <Scalar T, MemorySpace Space>
DenseVector<T> global_vector(const StackedDistributedArray<T, Space>& x) {
  const std::vector<T> values = x.gather();
  return Eigen::Map<const DenseVector<T>>(values.data(), Eigen::Index(values.size()));
}
template <Scalar T, MemorySpace Space>
DenseVector<T> global_vector(const LocalArray<T, Space>& x) {
  DenseVector<T> values(Eigen::Index(x.size()));
  memory::copy_bytes<Host, Space>(values.data(), x.data(), std::size_t(x.size()) * sizeof(T));
  return values;
}

/// Writes this rank's part of a global vector into y.
template <Scalar T, MemorySpace Space>
void scatter_vector(const DenseVector<T>& global, DistributedArray<T, Space>& y) {
  y.assign_global(std::span<const T>(global.data(), std::size_t(global.size())));
}
template <Scalar T, MemorySpace Space>
void scatter_vector(const DenseVector<T>& global, StackedDistributedArray<T, Space>& y) {
  Index offset = 0;
  y.for_each_array([&](DistributedArray<T, Space>& leaf) {
    leaf.assign_global(std::span<const T>(global.data() + offset, std::size_t(leaf.global_size())));
    offset += leaf.global_size();
  });
}
template <Scalar T, MemorySpace Space>
void scatter_vector(const DenseVector<T>& global, LocalArray<T, Space>& y) {
  memory::copy_bytes<Space, Host>(y.data(), global.data(), std::size_t(y.size()) * sizeof(T));
}

/// y = M x with M a dense global matrix: the reference operator. In the Cuda space it copies
/// its input to the host and its output back, so it is a reference there too.
template <class Domain, class Range = Domain>
class DenseOperator final : public LinearOperatorBase<Domain, Range> {
 public:
  using T = typename Domain::value_type;
  DenseOperator(DenseMatrix<T> matrix, vector_layout_t<Domain> domain, vector_layout_t<Range> range,
                std::string name = "Dense")
      : LinearOperatorBase<Domain, Range>(std::move(domain), std::move(range), std::move(name)),
        matrix_(std::move(matrix)) {}
  // Defined below, out of line, so that programs which use the instances compiled into the
  // test support library do not compile them again.
  void forward(const Domain& x, Range& y) const override;
  void adjoint(const Range& y, Domain& x) const override;

 private:
  DenseMatrix<T> matrix_;
};

template <class Domain, class Range>
void DenseOperator<Domain, Range>::forward(const Domain& x, Range& y) const {
  scatter_vector<T>(matrix_ * global_vector(x), y);
}
template <class Domain, class Range>
void DenseOperator<Domain, Range>::adjoint(const Range& y, Domain& x) const {
  scatter_vector<T>(matrix_.adjoint() * global_vector(y), x);
}

/// A random dense matrix (the same on every rank).
template <class T>
DenseMatrix<T> random_matrix(Index rows, Index cols, std::uint64_t key) {
  DenseMatrix<T> matrix(rows, cols);
  for (Index i = 0; i < rows; ++i) {
    for (Index j = 0; j < cols; ++j)
      matrix(i, j) = random_value<T>(key, std::uint64_t(i * cols + j));
  }
  return matrix;
}

/// The dense matrix of an operator, assembled column by column by applying it to unit vectors
/// (and, for the adjoint, row by row): the serial reference of small operators.
template <class Domain, class Range>
DenseMatrix<typename Domain::value_type> assemble(const BasicLinearOperator<Domain, Range>& op) {
  using T = typename Domain::value_type;
  DenseMatrix<T> matrix(op.rows(), op.cols());
  Domain unit(op.domain());
  Range column(op.range());
  for (Index j = 0; j < op.cols(); ++j) {
    DenseVector<T> e = DenseVector<T>::Zero(op.cols());
    e(j) = T(1);
    scatter_vector<T>(e, unit);
    op.apply(unit, column);
    matrix.col(j) = global_vector(column);
  }
  return matrix;
}

/// The dense matrix of the adjoint, assembled from apply_adjoint.
template <class Domain, class Range>
DenseMatrix<typename Domain::value_type> assemble_adjoint(
    const BasicLinearOperator<Domain, Range>& op) {
  using T = typename Domain::value_type;
  DenseMatrix<T> matrix(op.cols(), op.rows());
  Range unit(op.range());
  Domain column(op.domain());
  for (Index j = 0; j < op.rows(); ++j) {
    DenseVector<T> e = DenseVector<T>::Zero(op.rows());
    e(j) = T(1);
    scatter_vector<T>(e, unit);
    op.apply_adjoint(unit, column);
    matrix.col(j) = global_vector(column);
  }
  return matrix;
}

/// max |a - b| <= rtol * max(1, max |b|)
template <class T>
bool matrices_close(const DenseMatrix<T>& a, const DenseMatrix<T>& b, double rtol) {
  if (a.rows() != b.rows() || a.cols() != b.cols()) return false;
  if (a.size() == 0) return true;
  const double scale = std::max(1.0, double(b.cwiseAbs().maxCoeff()));
  return double((a - b).cwiseAbs().maxCoeff()) <= rtol * scale;
}

/// The instances the tests use, compiled once for each scalar type and memory space in
/// dense_reference.cpp (the test support library) and declared extern here: reference operators
/// and assembly between distributed, stacked and local vectors. Expanded inside
/// distlops::testing.
#define DISTLOPS_DENSE_REFERENCE_ASSEMBLY(prefix, T, Space, Domain, Range)            \
  prefix template DenseMatrix<T> assemble<Domain<T, Space>, Range<T, Space>>(         \
      const BasicLinearOperator<Domain<T, Space>, Range<T, Space>>&);                 \
  prefix template DenseMatrix<T> assemble_adjoint<Domain<T, Space>, Range<T, Space>>( \
      const BasicLinearOperator<Domain<T, Space>, Range<T, Space>>&);
#define DISTLOPS_DENSE_REFERENCE_IN(prefix, T, Space)                                            \
  prefix template class DenseOperator<DistributedArray<T, Space>>;                               \
  prefix template class DenseOperator<StackedDistributedArray<T, Space>>;                        \
  prefix template class DenseOperator<LocalArray<T, Space>>;                                     \
  DISTLOPS_DENSE_REFERENCE_ASSEMBLY(prefix, T, Space, DistributedArray, DistributedArray)        \
  DISTLOPS_DENSE_REFERENCE_ASSEMBLY(prefix, T, Space, StackedDistributedArray,                   \
                                    StackedDistributedArray)                                     \
  DISTLOPS_DENSE_REFERENCE_ASSEMBLY(prefix, T, Space, DistributedArray, StackedDistributedArray) \
  DISTLOPS_DENSE_REFERENCE_ASSEMBLY(prefix, T, Space, StackedDistributedArray, DistributedArray) \
  DISTLOPS_DENSE_REFERENCE_ASSEMBLY(prefix, T, Space, LocalArray, LocalArray)
#define DISTLOPS_DENSE_REFERENCE(prefix, T)                                     \
  prefix template DenseMatrix<T> random_matrix<T>(Index, Index, std::uint64_t); \
  prefix template bool matrices_close<T>(const DenseMatrix<T>&, const DenseMatrix<T>&, double);

#define DISTLOPS_DETAIL_EXTERN_DENSE_REFERENCE(T) DISTLOPS_DENSE_REFERENCE(extern, T)
#define DISTLOPS_DETAIL_EXTERN_DENSE_REFERENCE_IN(T, Space) \
  DISTLOPS_DENSE_REFERENCE_IN(extern, T, Space)
DISTLOPS_FOR_EACH_SCALAR(DISTLOPS_DETAIL_EXTERN_DENSE_REFERENCE)
DISTLOPS_FOR_EACH_SCALAR_AND_SPACE(DISTLOPS_DETAIL_EXTERN_DENSE_REFERENCE_IN)

}  // namespace distlops::testing
