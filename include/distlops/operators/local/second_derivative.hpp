// SPDX-License-Identifier: BSD-3-Clause
// Copyright (c) 2026 The distlops authors
#pragma once
/// \file second_derivative.hpp
/// `local::SecondDerivative`: the second derivative along one axis of an N-d array (C order),
/// PyLops' `SecondDerivative(dims, axis, sampling, kind, edge)`. Domain and range have the
/// shape `dims`.
///
/// Formulas (stencil.hpp): the three-point second difference x[j] - 2 x[j+1] + x[j+2] divided
/// by sampling^2, written at row j (forward), j + 1 (centered) or j + 2 (backward); other rows
/// are zero. With `edge`, a centered derivative also writes the first and last rows with the
/// one-sided three-point formula; `edge` is ignored by forward and backward derivatives, as in
/// PyLops.
///
/// Differences from PyLops: a zero or non-finite `sampling` is rejected. Errors:
/// InvalidArgument for an axis out of range, a bad sampling, or `edge` on an axis shorter than
/// 3 samples.

#include "distlops/core/instantiate.hpp"
#include "distlops/operators/derivative_kind.hpp"
#include "distlops/operators/linear_operator.hpp"

namespace distlops::local {

/// Options of local::SecondDerivative (PyLops' keyword arguments, same defaults).
struct SecondDerivativeOptions {
  int axis = -1;  ///< negative values count from the end
  /// Sample spacing along the axis (non-zero, finite); the differences are divided by its square.
  double sampling = 1.0;
  /// Row the three-point difference is written at: forward (j), centered (j + 1, default) or
  /// backward (j + 2).
  DerivativeKind kind = DerivativeKind::centered;
  /// Centered kind only: the one-sided three-point formula on the first and last rows instead of
  /// zeros.
  bool edge = false;
};

/// d^2/dx^2 along `options.axis` of arrays of shape `dims`.
template <Scalar T, MemorySpace Space = Host>
LocalOperator<T, Space> SecondDerivative(const Shape& dims,
                                         const SecondDerivativeOptions& options = {});

/// \cond
#define DISTLOPS_DETAIL_EXTERN_SECOND_DERIVATIVE(T, S)                     \
  extern template LocalOperator<T, S> SecondDerivative<T, S>(const Shape&, \
                                                             const SecondDerivativeOptions&);
DISTLOPS_FOR_EACH_SCALAR_AND_SPACE(DISTLOPS_DETAIL_EXTERN_SECOND_DERIVATIVE)
#undef DISTLOPS_DETAIL_EXTERN_SECOND_DERIVATIVE
/// \endcond

}  // namespace distlops::local
