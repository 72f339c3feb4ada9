// SPDX-License-Identifier: BSD-3-Clause
// Copyright (c) 2026 The distlops authors
#pragma once
/// \file first_derivative.hpp
/// `local::FirstDerivative`: the first derivative along one axis of an N-d array (C order),
/// PyLops' `FirstDerivative(dims, axis, sampling, kind, edge, order)`. Domain and range have
/// the shape `dims`.
///
/// Formulas (stencil.hpp): forward and backward first-order differences, centered differences
/// of accuracy order 3 (two points) or 5 (four points), divided by `sampling`. Rows the
/// formula cannot reach are zero; with `edge`, centered derivatives use one-sided
/// differences on the first and last rows (and, for order 5, the order-3 difference on the
/// second and second-to-last rows). `edge` is ignored by forward and backward derivatives,
/// as in PyLops.
///
/// Differences from PyLops: the adjoint is the exact transpose also for the shortest axes
/// (PyLops' order-5 adjoint with `edge` counts row 1 twice when the axis has 3 samples);
/// `order` must be 3 or 5 whatever the kind; a zero or non-finite `sampling` is rejected.
/// Errors: InvalidArgument for an axis out of range, an order other than 3 or 5, a bad
/// sampling, or an axis shorter than the edge formulas need (2 samples for order 3, 3 for
/// order 5).

#include "distlops/core/instantiate.hpp"
#include "distlops/operators/derivative_kind.hpp"
#include "distlops/operators/linear_operator.hpp"

namespace distlops::local {

/// Options of local::FirstDerivative (PyLops' keyword arguments, same defaults).
struct FirstDerivativeOptions {
  int axis = -1;  ///< negative values count from the end
  /// Sample spacing along the axis (non-zero, finite); the differences are divided by it.
  double sampling = 1.0;
  /// Stencil: forward, backward or centered (default).
  DerivativeKind kind = DerivativeKind::centered;
  /// Centered kinds only: one-sided differences on the end rows instead of zeros.
  bool edge = false;
  int order = 3;  ///< 3 or 5, for centered derivatives
};

/// d/dx along `options.axis` of arrays of shape `dims`.
template <Scalar T, MemorySpace Space = Host>
LocalOperator<T, Space> FirstDerivative(const Shape& dims,
                                        const FirstDerivativeOptions& options = {});

/// \cond
#define DISTLOPS_DETAIL_EXTERN_FIRST_DERIVATIVE(T, S)                     \
  extern template LocalOperator<T, S> FirstDerivative<T, S>(const Shape&, \
                                                            const FirstDerivativeOptions&);
DISTLOPS_FOR_EACH_SCALAR_AND_SPACE(DISTLOPS_DETAIL_EXTERN_FIRST_DERIVATIVE)
#undef DISTLOPS_DETAIL_EXTERN_FIRST_DERIVATIVE
/// \endcond

}  // namespace distlops::local
