// SPDX-License-Identifier: BSD-3-Clause
// Copyright (c) 2026 The distlops authors
// Zero and Scaling: one kernel call per apply.
#include "../support.hpp"
#include "../two_way_operator.hpp"
#include "distlops/core/instantiate.hpp"
#include "distlops/operators/local/scaling.hpp"
#include "distlops/operators/local/zero.hpp"

namespace distlops::local {

namespace {

// The direction: the size of the output (Zero writes beta * out).
template <Scalar T, MemorySpace Space>
class ZeroOperator final : public detail::TwoWayOperator<T, Space, Index> {
 public:
  ZeroOperator(Shape data, Shape model)
      : detail::TwoWayOperator<T, Space, Index>(std::move(model), std::move(data), "Zero") {
    detail::check_shape(this->name(), "N (the data shape)", this->range());
    detail::check_shape(this->name(), "M (the model shape)", this->domain());
    this->forward_ = element_count(this->range());
    this->adjoint_ = element_count(this->domain());
  }

 private:
  void apply(const Index& size, T, const T*, T beta, T* out) const override {
    detail::scale_or_zero(Space{}, size, beta, out);
  }
};

// The direction: the factor, scale or conj(scale).
template <Scalar T, MemorySpace Space>
class ScalingOperator final : public detail::TwoWayOperator<T, Space, T> {
 public:
  ScalingOperator(Shape shape, T scale)
      : detail::TwoWayOperator<T, Space, T>(shape, shape, "Scaling") {
    detail::check_shape(this->name(), "shape", this->domain());
    this->forward_ = scale;
    this->adjoint_ = conjugate(scale);
  }

 private:
  void apply(const T& factor, T alpha, const T* in, T beta, T* out) const override {
    kernels::axpby(Space{}, element_count(this->domain()), alpha * factor, in, beta, out);
  }
};

}  // namespace

template <Scalar T, MemorySpace Space>
LocalOperator<T, Space> Zero(const Shape& data, const Shape& model) {
  return LocalOperator<T, Space>::template make<ZeroOperator<T, Space>>(data, model);
}

template <Scalar T, MemorySpace Space>
LocalOperator<T, Space> Scaling(const Shape& shape, T scale) {
  return LocalOperator<T, Space>::template make<ScalingOperator<T, Space>>(shape, scale);
}

DISTLOPS_FOR_EACH_SCALAR_AND_SPACE_ARG(DISTLOPS_DETAIL_ZERO, )
DISTLOPS_FOR_EACH_SCALAR_AND_SPACE_ARG(DISTLOPS_DETAIL_SCALING, )

}  // namespace distlops::local
