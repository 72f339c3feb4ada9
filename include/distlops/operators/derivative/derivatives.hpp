// SPDX-License-Identifier: BSD-3-Clause
// Copyright (c) 2026 The distlops authors
#pragma once
/// \file derivatives.hpp
/// Distributed finite differences with PyLops' formulas (edge rows included): FirstDerivative,
/// SecondDerivative, Laplacian and Gradient, along any axis of an N-d array distributed along
/// any axis. Along the distribution axis the planes near the block edges come from the
/// neighbouring ranks (any number of them: a rank may own a single plane, or none); along
/// other axes no communication happens. Each is one fused pass over the data.
///
/// The formulas are those of stencil.hpp and the engine StencilOperator, the same as the local
/// derivatives': they accept the same arguments (any axis length; `edge` needs 2 or 3 samples).
///
/// Differences from PyLops / PyLops-MPI: the Laplacian applies `kind` to every axis (as
/// PyLops-MPI and PyLops 2.8 do; PyLops before 2.8 applied it to the first axis only), the
/// derivatives accept
/// arrays distributed along any axis and any split, and BROADCAST arrays are differentiated
/// locally instead of being converted to SCATTER.

#include <string>
#include <vector>

#include "distlops/core/instantiate.hpp"
#include "distlops/operators/derivative/derivative_terms.hpp"
#include "distlops/operators/stack/stacked.hpp"

namespace distlops {

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
#define DISTLOPS_DETAIL_DISTRIBUTED_DERIVATIVES(PREFIX, T, S)                                   \
  PREFIX template LinearOperator<T, S> FirstDerivative<T, S>(const Layout&,                     \
                                                             const DerivativeOptions&);         \
  PREFIX template LinearOperator<T, S> SecondDerivative<T, S>(const Layout&,                    \
                                                              const DerivativeOptions&);        \
  PREFIX template LinearOperator<T, S> Laplacian<T, S>(const Layout&, const LaplacianOptions&); \
  PREFIX template BasicLinearOperator<DistributedArray<T, S>, StackedDistributedArray<T, S>>    \
  Gradient<T, S>(const Layout&, const GradientOptions&);
#define DISTLOPS_DETAIL_EXTERN_DISTRIBUTED_DERIVATIVES(T, S) \
  DISTLOPS_DETAIL_DISTRIBUTED_DERIVATIVES(extern, T, S)
DISTLOPS_FOR_EACH_SCALAR_AND_SPACE(DISTLOPS_DETAIL_EXTERN_DISTRIBUTED_DERIVATIVES)
#undef DISTLOPS_DETAIL_EXTERN_DISTRIBUTED_DERIVATIVES
/// \endcond

}  // namespace distlops
