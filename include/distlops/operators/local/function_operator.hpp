// SPDX-License-Identifier: BSD-3-Clause
// Copyright (c) 2026 The distlops authors
#pragma once
/// \file function_operator.hpp
/// `local::FunctionOperator`: an operator from two user callables, PyLops'
/// `FunctionOperator(f, fc, n, m)`: `forward(x, y)` computes y = A x for x of the model shape
/// and y of the data shape, `adjoint(y, x)` computes x = A^H y. Both must write every element
/// of their output (it may hold garbage on entry) and must not keep references to their
/// arguments. The adjoint is required: a dot test (dottest.hpp) checks that the pair is
/// consistent.
///
/// In the Cuda space the callables receive device arrays (`LocalArray<T, Cuda>`: data() is
/// device memory). They must do their work on the device, on the library's stream
/// (cuda_context.hpp) or synchronised with it, since the operator's callers go on with stream
/// ordered work as soon as they return; host code that dereferences data() would fault.
///
/// Errors: InvalidArgument for an empty callable or a bad shape. An exception thrown by a callable
/// propagates; inside a distributed operator (BlockDiag, VStack, HStack, Replicated, Sliding) it
/// is raised on every rank (the operator then agrees on failures with one small allreduce per
/// apply).

#include <functional>
#include <string>

#include "distlops/core/instantiate.hpp"
#include "distlops/operators/linear_operator.hpp"

namespace distlops::local {

/// The operator object of FunctionOperator(): applies the user's forward and adjoint callables.
template <Scalar T, MemorySpace Space = Host>
class CallableOperator final : public LinearOperatorBase<LocalArray<T, Space>> {
 public:
  /// The vector type of domain and range.
  using Vector = LocalArray<T, Space>;
  /// Computes its second argument from its first.
  using Function = std::function<void(const Vector&, Vector&)>;

  /// An operator from arrays of shape `model` to arrays of shape `data` named `name`.
  /// @throws InvalidArgument for an empty callable or a bad shape.
  CallableOperator(Function forward, Function adjoint, Shape model, Shape data, std::string name);

  /// y = forward(x).
  void forward(const Vector& x, Vector& y) const override;
  /// x = adjoint(y).
  void adjoint(const Vector& y, Vector& x) const override;
  /// True: the callables are user code, which may throw on some ranks only.
  bool runs_user_code() const override { return true; }

 private:
  Function forward_;
  Function adjoint_;
};

/// The operator with the given forward and adjoint, from arrays of shape `model` to arrays of
/// shape `data`.
template <Scalar T, MemorySpace Space = Host>
LocalOperator<T, Space> FunctionOperator(typename CallableOperator<T, Space>::Function forward,
                                         typename CallableOperator<T, Space>::Function adjoint,
                                         const Shape& model, const Shape& data,
                                         std::string name = "FunctionOperator") {
  return LocalOperator<T, Space>::template make<CallableOperator<T, Space>>(
      std::move(forward), std::move(adjoint), model, data, std::move(name));
}

/// The square operator on arrays of shape `shape`.
template <Scalar T, MemorySpace Space = Host>
LocalOperator<T, Space> FunctionOperator(typename CallableOperator<T, Space>::Function forward,
                                         typename CallableOperator<T, Space>::Function adjoint,
                                         const Shape& shape,
                                         std::string name = "FunctionOperator") {
  return FunctionOperator<T, Space>(std::move(forward), std::move(adjoint), shape, shape,
                                    std::move(name));
}

DISTLOPS_EXTERN_TEMPLATE_CLASS(CallableOperator)

}  // namespace distlops::local
