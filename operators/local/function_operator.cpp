// SPDX-License-Identifier: BSD-3-Clause
// Copyright (c) 2026 The distlops authors
// FunctionOperator: the user's callables behind the operator interface.
#include "distlops/operators/local/function_operator.hpp"

#include "../support.hpp"
#include "distlops/core/instantiate.hpp"

namespace distlops::local {

template <Scalar T, MemorySpace Space>
CallableOperator<T, Space>::CallableOperator(Function forward, Function adjoint, Shape model,
                                             Shape data, std::string name)
    : LinearOperatorBase<Vector>(std::move(model), std::move(data), std::move(name)),
      forward_(std::move(forward)),
      adjoint_(std::move(adjoint)) {
  detail::check_shape(this->name(), "the model shape", this->domain());
  detail::check_shape(this->name(), "the data shape", this->range());
  if (!forward_ || !adjoint_) {
    throw InvalidArgument(this->name() + ": both the forward and the adjoint function are " +
                          "required (got an empty " + (forward_ ? "adjoint" : "forward") +
                          " function)");
  }
}

template <Scalar T, MemorySpace Space>
void CallableOperator<T, Space>::forward(const Vector& x, Vector& y) const {
  forward_(x, y);
}

template <Scalar T, MemorySpace Space>
void CallableOperator<T, Space>::adjoint(const Vector& y, Vector& x) const {
  adjoint_(y, x);
}

DISTLOPS_INSTANTIATE_TEMPLATE_CLASS(CallableOperator)

}  // namespace distlops::local
