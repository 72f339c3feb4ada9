// SPDX-License-Identifier: BSD-3-Clause
// Copyright (c) 2026 The distlops authors
#pragma once
/// \file accumulating_operator.hpp
/// `local::AccumulatingOperator<T, Space>`: the base of local operators whose kernels compute
/// y = alpha A x + beta y directly. Such an operator implements forward_add and adjoint_add
/// only; forward and adjoint are the case alpha = 1, beta = 0 (the output is then written
/// without being read), so no operator needs a workspace for the accumulating applies.

#include <string>

#include "distlops/operators/linear_operator.hpp"

namespace distlops::local {

/// Base of the local operators whose kernels accumulate y = alpha A x + beta y: derived classes
/// implement forward_add and adjoint_add only.
template <Scalar T, MemorySpace Space = Host>
class AccumulatingOperator : public LinearOperatorBase<LocalArray<T, Space>> {
 public:
  /// The library's own code: nothing to agree on after an apply.
  bool runs_user_code() const override { return false; }
  /// The vector type of domain and range.
  using Vector = LocalArray<T, Space>;

  /// An operator from arrays of shape `domain` to arrays of shape `range`.
  AccumulatingOperator(Shape domain, Shape range, std::string name)
      : LinearOperatorBase<Vector>(std::move(domain), std::move(range), std::move(name)) {}

  /// y = A x: forward_add with alpha = 1, beta = 0 (y is not read).
  void forward(const Vector& x, Vector& y) const final { this->forward_add(T(1), x, T(0), y); }
  /// x = A^H y: adjoint_add with alpha = 1, beta = 0 (x is not read).
  void adjoint(const Vector& y, Vector& x) const final { this->adjoint_add(T(1), y, T(0), x); }
  /// y = alpha A x + beta y, computed by the operator's kernel (y is not read when beta == 0).
  void forward_add(T alpha, const Vector& x, T beta, Vector& y) const override = 0;
  /// x = alpha A^H y + beta x (x is not read when beta == 0).
  void adjoint_add(T alpha, const Vector& y, T beta, Vector& x) const override = 0;
};

}  // namespace distlops::local
