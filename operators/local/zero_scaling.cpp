// Zero and Scaling: one kernel call per apply.
#include "distlops/core/instantiate.hpp"
#include "distlops/operators/local/scaling.hpp"
#include "distlops/operators/local/zero.hpp"
#include "support.hpp"

namespace distlops::local {

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

DISTLOPS_INSTANTIATE_TEMPLATE_CLASS(ZeroOperator)
DISTLOPS_INSTANTIATE_TEMPLATE_CLASS(ScalingOperator)

}  // namespace distlops::local
