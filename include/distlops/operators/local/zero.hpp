#pragma once
/// \file zero.hpp
/// `local::Zero`: PyLops' `Zero(N, M)`, the operator that maps arrays of the model shape `M`
/// to zeros of the data shape `N` (and back in the adjoint). The input is never read.

#include "distlops/core/instantiate.hpp"
#include "distlops/operators/local/accumulating_operator.hpp"

namespace distlops::local {

template <Scalar T, MemorySpace Space = Host>
class ZeroOperator final : public AccumulatingOperator<T, Space> {
 public:
  using Vector = typename AccumulatingOperator<T, Space>::Vector;

  ZeroOperator(Shape data, Shape model);

  void forward_add(T alpha, const Vector& x, T beta, Vector& y) const override;
  void adjoint_add(T alpha, const Vector& y, T beta, Vector& x) const override;
};

/// The zero operator from arrays of shape `model` to arrays of shape `data`.
template <Scalar T, MemorySpace Space = Host>
LocalOperator<T, Space> Zero(const Shape& data, const Shape& model) {
  return LocalOperator<T, Space>::template make<ZeroOperator<T, Space>>(data, model);
}

/// The square zero operator on arrays of shape `shape`.
template <Scalar T, MemorySpace Space = Host>
LocalOperator<T, Space> Zero(const Shape& shape) {
  return Zero<T, Space>(shape, shape);
}

DISTLOPS_EXTERN_TEMPLATE_CLASS(ZeroOperator)

}  // namespace distlops::local
