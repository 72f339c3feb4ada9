// SPDX-License-Identifier: BSD-3-Clause
// Copyright (c) 2026 The distlops authors
#pragma once
/// \file derivatives.hpp
/// The finite differences with PyLops' formulas, each name's local and distributed forms:
/// FirstDerivative, SecondDerivative and Laplacian on one rank's array (`local::`), and the
/// distributed FirstDerivative, SecondDerivative, Laplacian and Gradient along any axis of an
/// N-d array distributed along any axis.
///
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
///
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
///
/// `local::Laplacian`: the weighted sum of second derivatives along several axes of an N-d
/// array (C order), PyLops' `Laplacian(dims, axes, weights, sampling, edge, kind)`:
/// y = sum_k weights[k] * D2(axes[k], sampling[k]) x, with the second derivatives above (same
/// `kind` and `edge` on every axis). Domain and range have the
/// shape `dims`. The sum is evaluated in one pass over the output.
///
/// As PyLops 2.8: `axes`, `weights` and `sampling` have the same length (default: the last two
/// axes, weights 1, sampling 1); an axis may appear twice (the terms add up). A single axis or
/// a 1-d array is allowed. Weights are real. Differences from PyLops: PyLops before 2.8
/// applied `kind` to the first axis only; a zero or non-finite sampling is rejected.
/// Errors: InvalidArgument for lists of different lengths, an empty list, an axis out of
/// range, a bad sampling, or `edge` on an axis shorter than 3 samples.
///
/// The distributed derivatives: along the distribution axis the planes near the block edges
/// come from the neighbouring ranks (any number of them: a rank may own a single plane, or
/// none); along other axes no communication happens. Each is one fused pass over the data.
/// The formulas are those of stencil.hpp and the engine StencilOperator, the same as the local
/// derivatives': they accept the same arguments (any axis length; `edge` needs 2 or 3 samples).
///
/// Differences from PyLops / PyLops-MPI: the Laplacian applies `kind` to every axis (as
/// PyLops-MPI and PyLops 2.8 do; PyLops before 2.8 applied it to the first axis only), the
/// derivatives accept arrays distributed along any axis and any split, and BROADCAST arrays are
/// differentiated locally instead of being converted to SCATTER.

#include <string>
#include <vector>

#include "distlops/core/instantiate.hpp"
#include "distlops/operators/derivative/derivative_terms.hpp"
#include "distlops/operators/derivative_kind.hpp"
#include "distlops/operators/linear_operator.hpp"
#include "distlops/operators/stack/stacked.hpp"

namespace distlops {

namespace local {

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

/// Options of local::Laplacian (PyLops' keyword arguments, same defaults); axes, weights and
/// sampling have the same length.
struct LaplacianOptions {
  std::vector<int> axes = {-2, -1};  ///< negative values count from the end
  /// Weight of each axis' second derivative.
  std::vector<double> weights = {1.0, 1.0};
  /// Sample spacing along each axis (non-zero, finite).
  std::vector<double> sampling = {1.0, 1.0};
  /// As SecondDerivativeOptions::edge, on every axis.
  bool edge = false;
  /// As SecondDerivativeOptions::kind, on every axis (as PyLops 2.8).
  DerivativeKind kind = DerivativeKind::centered;
};

/// The Laplacian of arrays of shape `dims`.
template <Scalar T, MemorySpace Space = Host>
LocalOperator<T, Space> Laplacian(const Shape& dims, const LaplacianOptions& options = {});

}  // namespace local

/// Options of the distributed FirstDerivative and SecondDerivative (PyLops' keyword arguments;
/// the axis defaults to 0, PyLops-MPI's distributed axis).
struct DerivativeOptions {
  /// Axis along which to differentiate (negative values count from the end).
  int axis = 0;
  /// Sample spacing along the axis (non-zero, finite).
  double sampling = 1.0;
  /// Stencil: forward, backward or centered (default); see stencil.hpp for the rows.
  DerivativeKind kind = DerivativeKind::centered;
  /// One-sided differences on the first and last samples (centered kinds only).
  bool edge = false;
  /// Order of centered first derivatives: 3 or 5.
  int order = 3;
};

/// Options of the distributed Laplacian; axes, weights and sampling have the same length.
struct LaplacianOptions {
  /// Axes to differentiate along (negative values count from the end); an axis may repeat.
  std::vector<int> axes = {-2, -1};
  /// Weight of each axis' second derivative.
  std::vector<double> weights = {1.0, 1.0};
  /// Sample spacing along each axis (non-zero, finite).
  std::vector<double> sampling = {1.0, 1.0};
  /// One-sided formula on the first and last samples (centered kind only), on every axis.
  bool edge = false;
  /// Stencil of every axis' second derivative.
  DerivativeKind kind = DerivativeKind::centered;
};

/// Options of the distributed Gradient: the FirstDerivative options shared by every axis (order
/// 3).
struct GradientOptions {
  /// One sampling per axis; empty: 1 along every axis; a single value: the same everywhere.
  std::vector<double> sampling = {};
  /// One-sided differences on the first and last samples (centered kind only).
  bool edge = false;
  /// Stencil of every axis' first derivative.
  DerivativeKind kind = DerivativeKind::centered;
};

/// dx/d(axis) on arrays of `layout` (domain and range). Collective.
template <Scalar T, MemorySpace Space = Host>
LinearOperator<T, Space> FirstDerivative(const Layout& layout,
                                         const DerivativeOptions& options = {});

/// d^2x/d(axis)^2 on arrays of `layout`. Collective.
template <Scalar T, MemorySpace Space = Host>
LinearOperator<T, Space> SecondDerivative(const Layout& layout,
                                          const DerivativeOptions& options = {});

/// sum over `axes` of weight * d^2x/d(axis)^2, in one pass. Collective.
template <Scalar T, MemorySpace Space = Host>
LinearOperator<T, Space> Laplacian(const Layout& layout, const LaplacianOptions& options = {});

/// The gradient: one first derivative per axis, stacked (the output is a
/// StackedDistributedArray with one block per axis, as in PyLops-MPI). Collective.
template <Scalar T, MemorySpace Space = Host>
BasicLinearOperator<DistributedArray<T, Space>, StackedDistributedArray<T, Space>> Gradient(
    const Layout& layout, const GradientOptions& options = {});

/// \cond
#define DISTLOPS_DETAIL_DERIVATIVES(PREFIX, T, S)                                               \
  PREFIX template LocalOperator<T, S> local::FirstDerivative<T, S>(                             \
      const Shape&, const local::FirstDerivativeOptions&);                                      \
  PREFIX template LocalOperator<T, S> local::SecondDerivative<T, S>(                            \
      const Shape&, const local::SecondDerivativeOptions&);                                     \
  PREFIX template LocalOperator<T, S> local::Laplacian<T, S>(const Shape&,                      \
                                                             const local::LaplacianOptions&);   \
  PREFIX template LinearOperator<T, S> FirstDerivative<T, S>(const Layout&,                     \
                                                             const DerivativeOptions&);         \
  PREFIX template LinearOperator<T, S> SecondDerivative<T, S>(const Layout&,                    \
                                                              const DerivativeOptions&);        \
  PREFIX template LinearOperator<T, S> Laplacian<T, S>(const Layout&, const LaplacianOptions&); \
  PREFIX template BasicLinearOperator<DistributedArray<T, S>, StackedDistributedArray<T, S>>    \
  Gradient<T, S>(const Layout&, const GradientOptions&);
DISTLOPS_FOR_EACH_SCALAR_AND_SPACE_ARG(DISTLOPS_DETAIL_DERIVATIVES, extern)
/// \endcond

}  // namespace distlops
