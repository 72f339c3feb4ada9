#pragma once
/// \file scaling.hpp
/// `local::Scaling`: multiplication of every element by one scalar s on arrays of a shape;
/// the adjoint multiplies by conj(s). PyLops spells it `s * Identity(N)` (its scaled
/// operator); as an operator of its own it costs one axpby per apply and accumulates
/// y = alpha s x + beta y directly.

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

extern template class ScalingOperator<float, Host>;
extern template class ScalingOperator<double, Host>;
extern template class ScalingOperator<std::complex<float>, Host>;
extern template class ScalingOperator<std::complex<double>, Host>;
#if DISTLOPS_WITH_CUDA
extern template class ScalingOperator<float, Cuda>;
extern template class ScalingOperator<double, Cuda>;
extern template class ScalingOperator<std::complex<float>, Cuda>;
extern template class ScalingOperator<std::complex<double>, Cuda>;
#endif

}  // namespace distlops::local
