// SPDX-License-Identifier: BSD-3-Clause
// Copyright (c) 2026 The distlops authors
// Diagonal: rows of the (outer, length, inner) view scaled by one weight each, or element-wise
// products when the weights run along the innermost axis.
#include "distlops/operators/local/diagonal.hpp"

#include "../support.hpp"
#include "diagonal_kernels.hpp"
#include "distlops/core/instantiate.hpp"

namespace distlops::local {

namespace {

template <Scalar T, MemorySpace Space>
class DiagonalOperator final : public AccumulatingOperator<T, Space> {
 public:
  using Vector = typename AccumulatingOperator<T, Space>::Vector;

  /// `diag` in host memory; `dims` empty means (diag.size()); `axis` counts from the end when
  /// negative.
  DiagonalOperator(std::span<const T> diag, Shape dims, int axis);

  void forward_add(T alpha, const Vector& x, T beta, Vector& y) const override;
  void adjoint_add(T alpha, const Vector& y, T beta, Vector& x) const override;

 private:
  Vector diag_;  // d and conj(d) in Space
  Vector conj_diag_;
  Index outer_ = 1;   // product of the extents before the broadcast axis
  Index length_ = 0;  // number of weights
  Index inner_ = 1;   // product of the extents after it
};

}  // namespace

template <Scalar T, MemorySpace Space>
DiagonalOperator<T, Space>::DiagonalOperator(std::span<const T> diag, Shape dims, int axis)
    : AccumulatingOperator<T, Space>(dims.empty() ? Shape{Index(diag.size())} : dims,
                                     dims.empty() ? Shape{Index(diag.size())} : dims, "Diagonal") {
  const Shape& shape = this->domain();
  const detail::AxisSplit split = detail::checked_split(this->name(), shape, axis);
  const auto count = static_cast<Index>(diag.size());
  if (count == split.length) {
    outer_ = split.outer;
    inner_ = split.inner;
  } else if (count == element_count(shape)) {
    outer_ = 1;
    inner_ = 1;
  } else {
    throw ShapeMismatch("Diagonal: " + std::to_string(count) + " weights fit neither dims[" +
                        std::to_string(split.axis) + "] = " + std::to_string(split.length) +
                        " nor the " + std::to_string(element_count(shape)) + " elements of dims " +
                        to_string(shape));
  }
  length_ = count;
  std::vector<T> conjugated(diag.begin(), diag.end());
  for (T& value : conjugated)
    value = conjugate(value);
  diag_ = Vector(Shape{count});
  conj_diag_ = Vector(Shape{count});
  memory::copy_bytes<Space, Host>(diag_.data(), diag.data(), diag.size() * sizeof(T));
  memory::copy_bytes<Space, Host>(conj_diag_.data(), conjugated.data(), diag.size() * sizeof(T));
}

template <Scalar T, MemorySpace Space>
void DiagonalOperator<T, Space>::forward_add(T alpha, const Vector& x, T beta, Vector& y) const {
  kernels::diagonal(Space{}, outer_, length_, inner_, alpha, diag_.data(), x.data(), beta,
                    y.data());
}

template <Scalar T, MemorySpace Space>
void DiagonalOperator<T, Space>::adjoint_add(T alpha, const Vector& y, T beta, Vector& x) const {
  kernels::diagonal(Space{}, outer_, length_, inner_, alpha, conj_diag_.data(), y.data(), beta,
                    x.data());
}

template <Scalar T, MemorySpace Space>
LocalOperator<T, Space> Diagonal(std::span<const T> diag, const Shape& dims, int axis) {
  return LocalOperator<T, Space>::template make<DiagonalOperator<T, Space>>(diag, dims, axis);
}

DISTLOPS_INSTANTIATE_FUNCTIONS(DISTLOPS_DETAIL_DIAGONAL)

}  // namespace distlops::local
