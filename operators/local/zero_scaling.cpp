// SPDX-License-Identifier: BSD-3-Clause
// Copyright (c) 2026 The distlops authors
// Zero and Scaling: one kernel call per apply.
#include "../support.hpp"
#include "distlops/core/instantiate.hpp"
#include "distlops/operators/local/scaling.hpp"
#include "distlops/operators/local/zero.hpp"

namespace distlops::local {

namespace {

template <Scalar T, MemorySpace Space>
class ZeroOperator final : public AccumulatingOperator<T, Space> {
 public:
  using Vector = typename AccumulatingOperator<T, Space>::Vector;

  ZeroOperator(Shape data, Shape model);

  void forward_add(T alpha, const Vector& x, T beta, Vector& y) const override;
  void adjoint_add(T alpha, const Vector& y, T beta, Vector& x) const override;
};

template <Scalar T, MemorySpace Space>
class ScalingOperator final : public AccumulatingOperator<T, Space> {
 public:
  using Vector = typename AccumulatingOperator<T, Space>::Vector;

  ScalingOperator(Shape shape, T scale);

  T scale() const { return scale_; }

  void forward_add(T alpha, const Vector& x, T beta, Vector& y) const override;
  void adjoint_add(T alpha, const Vector& y, T beta, Vector& x) const override;

 private:
  T scale_;
};

}  // namespace

template <Scalar T, MemorySpace Space>
ZeroOperator<T, Space>::ZeroOperator(Shape data, Shape model)
    : AccumulatingOperator<T, Space>(std::move(model), std::move(data), "Zero") {
  detail::check_shape(this->name(), "N (the data shape)", this->range());
  detail::check_shape(this->name(), "M (the model shape)", this->domain());
}

template <Scalar T, MemorySpace Space>
void ZeroOperator<T, Space>::forward_add(T, const Vector&, T beta, Vector& y) const {
  detail::scale_or_zero(Space{}, y.size(), beta, y.data());
}

template <Scalar T, MemorySpace Space>
void ZeroOperator<T, Space>::adjoint_add(T, const Vector&, T beta, Vector& x) const {
  detail::scale_or_zero(Space{}, x.size(), beta, x.data());
}

template <Scalar T, MemorySpace Space>
ScalingOperator<T, Space>::ScalingOperator(Shape shape, T scale)
    : AccumulatingOperator<T, Space>(shape, shape, "Scaling"), scale_(scale) {
  detail::check_shape(this->name(), "shape", this->domain());
}

template <Scalar T, MemorySpace Space>
void ScalingOperator<T, Space>::forward_add(T alpha, const Vector& x, T beta, Vector& y) const {
  kernels::axpby(Space{}, x.size(), alpha * scale_, x.data(), beta, y.data());
}

template <Scalar T, MemorySpace Space>
void ScalingOperator<T, Space>::adjoint_add(T alpha, const Vector& y, T beta, Vector& x) const {
  kernels::axpby(Space{}, y.size(), alpha * conjugate(scale_), y.data(), beta, x.data());
}

template <Scalar T, MemorySpace Space>
LocalOperator<T, Space> Zero(const Shape& data, const Shape& model) {
  return LocalOperator<T, Space>::template make<ZeroOperator<T, Space>>(data, model);
}

DISTLOPS_INSTANTIATE_FUNCTIONS(DISTLOPS_DETAIL_ZERO)
template <Scalar T, MemorySpace Space>
LocalOperator<T, Space> Scaling(const Shape& shape, T scale) {
  return LocalOperator<T, Space>::template make<ScalingOperator<T, Space>>(shape, scale);
}

DISTLOPS_INSTANTIATE_FUNCTIONS(DISTLOPS_DETAIL_SCALING)

}  // namespace distlops::local
