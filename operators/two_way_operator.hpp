// SPDX-License-Identifier: BSD-3-Clause
// Copyright (c) 2026 The distlops authors
#pragma once
// The base of the local operators whose forward and adjoint are one computation in two
// directions (a window and its reverse, a permutation and its inverse, weights and their
// conjugates, a product and its transpose): the derived class describes each direction once, in
// forward_ and adjoint_, and computes out = alpha A in + beta out for a direction in apply().
#include "distlops/operators/local/accumulating_operator.hpp"

namespace distlops::detail {

template <Scalar T, MemorySpace Space, class Direction>
class TwoWayOperator : public local::AccumulatingOperator<T, Space> {
 public:
  using local::AccumulatingOperator<T, Space>::AccumulatingOperator;

  void forward_add(T alpha, const LocalArray<T, Space>& x, T beta,
                   LocalArray<T, Space>& y) const final {
    apply(forward_, alpha, x.data(), beta, y.data());
  }
  void adjoint_add(T alpha, const LocalArray<T, Space>& y, T beta,
                   LocalArray<T, Space>& x) const final {
    apply(adjoint_, alpha, y.data(), beta, x.data());
  }

 protected:
  /// out = alpha A in + beta out in `direction`, pointers of Space (out not read when beta == 0).
  virtual void apply(const Direction& direction, T alpha, const T* in, T beta, T* out) const = 0;

  Direction forward_{};  ///< Set by the derived class's constructor.
  Direction adjoint_{};  ///< Set by the derived class's constructor.
};

}  // namespace distlops::detail
