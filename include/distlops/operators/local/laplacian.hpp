// SPDX-License-Identifier: BSD-3-Clause
// Copyright (c) 2026 The distlops authors
#pragma once
/// \file laplacian.hpp
/// `local::Laplacian`: the weighted sum of second derivatives along several axes of an N-d
/// array (C order), PyLops' `Laplacian(dims, axes, weights, sampling, edge, kind)`:
/// y = sum_k weights[k] * D2(axes[k], sampling[k]) x, with the second derivatives of
/// second_derivative.hpp (same `kind` and `edge` on every axis). Domain and range have the
/// shape `dims`. The sum is evaluated in one pass over the output.
///
/// As PyLops 2.8: `axes`, `weights` and `sampling` have the same length (default: the last two
/// axes, weights 1, sampling 1); an axis may appear twice (the terms add up). A single axis or
/// a 1-d array is allowed. Weights are real. Differences from PyLops: PyLops before 2.8
/// applied `kind` to the first axis only; a zero or non-finite sampling is rejected.
/// Errors: InvalidArgument for lists of different lengths, an empty list, an axis out of
/// range, a bad sampling, or `edge` on an axis shorter than 3 samples.

#include <vector>

#include "distlops/core/instantiate.hpp"
#include "distlops/operators/derivative_kind.hpp"
#include "distlops/operators/linear_operator.hpp"

namespace distlops::local {

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

/// \cond
#define DISTLOPS_DETAIL_EXTERN_LAPLACIAN(T, S) \
  extern template LocalOperator<T, S> Laplacian<T, S>(const Shape&, const LaplacianOptions&);
DISTLOPS_FOR_EACH_SCALAR_AND_SPACE(DISTLOPS_DETAIL_EXTERN_LAPLACIAN)
#undef DISTLOPS_DETAIL_EXTERN_LAPLACIAN
/// \endcond

}  // namespace distlops::local
