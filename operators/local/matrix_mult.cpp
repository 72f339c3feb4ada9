// SPDX-License-Identifier: BSD-3-Clause
// Copyright (c) 2026 The distlops authors
// MatrixMult: one dense product per apply (matrix_mult_kernels.hpp).
#include "distlops/operators/local/matrix_mult.hpp"

#include "../dense/matrix_mult_kernels.hpp"
#include "distlops/core/instantiate.hpp"
#include "support.hpp"

namespace distlops::local {

namespace {

template <Scalar T, MemorySpace Space>
class MatrixMultOperator final : public AccumulatingOperator<T, Space> {
 public:
  using Vector = typename AccumulatingOperator<T, Space>::Vector;

  /// `values` holds A in C order (row-major), rows * cols elements, in host memory.
  MatrixMultOperator(Index rows, Index cols, std::span<const T> values, const Shape& otherdims);

  Index matrix_rows() const { return rows_; }
  Index matrix_cols() const { return cols_; }

  void forward_add(T alpha, const Vector& x, T beta, Vector& y) const override;
  void adjoint_add(T alpha, const Vector& y, T beta, Vector& x) const override;

 private:
  Index rows_;
  Index cols_;
  Index columns_;  // product of otherdims: the number of right-hand sides
  Vector matrix_;
};

Shape with_first(Index first, const Shape& otherdims) {
  Shape shape{first};
  shape.insert(shape.end(), otherdims.begin(), otherdims.end());
  return shape;
}

}  // namespace

template <Scalar T, MemorySpace Space>
MatrixMultOperator<T, Space>::MatrixMultOperator(Index rows, Index cols, std::span<const T> values,
                                                 const Shape& otherdims)
    : AccumulatingOperator<T, Space>(with_first(cols, otherdims), with_first(rows, otherdims),
                                     "MatrixMult"),
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
  matrix_ = Vector(Shape{rows, cols});
  memory::copy_bytes<Space, Host>(matrix_.data(), values.data(), values.size() * sizeof(T));
}

template <Scalar T, MemorySpace Space>
void MatrixMultOperator<T, Space>::forward_add(T alpha, const Vector& x, T beta, Vector& y) const {
  kernels::gemm(Space{}, false, rows_, cols_, matrix_.data(), columns_, alpha, x.data(), beta,
                y.data());
}

template <Scalar T, MemorySpace Space>
void MatrixMultOperator<T, Space>::adjoint_add(T alpha, const Vector& y, T beta, Vector& x) const {
  kernels::gemm(Space{}, true, rows_, cols_, matrix_.data(), columns_, alpha, y.data(), beta,
                x.data());
}

template <Scalar T, MemorySpace Space>
LocalOperator<T, Space> MatrixMult(Index rows, Index cols, std::span<const T> values,
                                   const Shape& otherdims) {
  return LocalOperator<T, Space>::template make<MatrixMultOperator<T, Space>>(rows, cols, values,
                                                                              otherdims);
}

template <Scalar T, MemorySpace Space>
LocalOperator<T, Space> MatrixMult(const Eigen::Ref<const EigenRowMajorMatrix<T>>& matrix,
                                   const Shape& otherdims) {
  // A Ref may have an outer stride: copy into a contiguous row-major matrix first.
  const EigenRowMajorMatrix<T> contiguous = matrix;
  return MatrixMult<T, Space>(contiguous.rows(), contiguous.cols(),
                              std::span<const T>(contiguous.data(), std::size_t(contiguous.size())),
                              otherdims);
}

#define DISTLOPS_INSTANTIATE_MATRIX_MULT(T, S)                                                   \
  template LocalOperator<T, S> MatrixMult<T, S>(Index, Index, std::span<const T>, const Shape&); \
  template LocalOperator<T, S> MatrixMult<T, S>(const Eigen::Ref<const EigenRowMajorMatrix<T>>&, \
                                                const Shape&);
DISTLOPS_FOR_EACH_SCALAR_AND_SPACE(DISTLOPS_INSTANTIATE_MATRIX_MULT)

}  // namespace distlops::local
