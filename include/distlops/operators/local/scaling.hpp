#pragma once
/// \file scaling.hpp
/// `local::Scaling`: multiplication of every element by one scalar s on arrays of a shape;
/// the adjoint multiplies by conj(s). PyLops spells it `s * Identity(N)` (its scaled
/// operator); as an operator of its own it costs one axpby per apply and accumulates
/// y = alpha s x + beta y directly.

#include "distlops/core/instantiate.hpp"
#include "distlops/operators/local/accumulating_operator.hpp"

namespace distlops::local {

template <Scalar T, MemorySpace Space = Host>
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

/// s x on arrays of shape `shape`.
template <Scalar T, MemorySpace Space = Host>
LocalOperator<T, Space> Scaling(const Shape& shape, T scale) {
  return LocalOperator<T, Space>::template make<ScalingOperator<T, Space>>(shape, scale);
}

DISTLOPS_EXTERN_TEMPLATE_CLASS(ScalingOperator)

}  // namespace distlops::local
