// SPDX-License-Identifier: BSD-3-Clause
// Copyright (c) 2026 The distlops authors
#pragma once
/// \file stencil.hpp
/// The per-point finite-difference formulas of FirstDerivative, SecondDerivative, Laplacian and
/// Gradient, local and distributed: the one source of PyLops' formulas, read by the host
/// planning of StencilOperator and by its device kernel. Plain inline functions of integers
/// and reals, without containers or exceptions (DISTLOPS_HOST_DEVICE marks them for CUDA).
///
/// Along one axis of length n, a derivative is an n x n banded matrix D; its row i is
/// returned as a `Stencil` (the positions relative to i and the weights of the samples that
/// y[i] combines: y[i] = sum_s weight[s] * x[i + offset[s]]). The adjoint uses the columns of
/// D, returned in the same form: x[j] = sum_s weight[s] * y[j + offset[s]]. Weights are real,
/// so the adjoint is the transpose. Rows that PyLops leaves at zero have an empty stencil.
///
/// The rows follow PyLops 2.8 (with h the sampling step):
///   first derivative, forward:   y[i] = (x[i+1] - x[i]) / h            for i < n-1, y[n-1] = 0
///   first derivative, backward:  y[i] = (x[i] - x[i-1]) / h            for i > 0,   y[0] = 0
///   first derivative, centered, order 3: y[i] = (x[i+1] - x[i-1]) / (2h) for 0 < i < n-1;
///     with `edge`, y[0] = (x[1] - x[0]) / h and y[n-1] = (x[n-1] - x[n-2]) / h, else 0
///   first derivative, centered, order 5:
///     y[i] = (x[i-2]/12 - 2x[i-1]/3 + 2x[i+1]/3 - x[i+2]/12) / h       for 1 < i < n-2;
///     with `edge`, rows 0 and n-1 as in order 3 and rows 1 and n-2 the order-3 centered
///     difference; else 0
///   second derivative, forward:  y[i] = (x[i] - 2x[i+1] + x[i+2]) / h^2 for i < n-2, else 0
///   second derivative, backward: y[i] = (x[i-2] - 2x[i-1] + x[i]) / h^2 for i > 1, else 0
///   second derivative, centered: y[i] = (x[i-1] - 2x[i] + x[i+1]) / h^2 for 0 < i < n-1;
///     with `edge`, y[0] = (x[0] - 2x[1] + x[2]) / h^2 and
///     y[n-1] = (x[n-3] - 2x[n-2] + x[n-1]) / h^2, else 0
/// `edge` only changes centered derivatives (as in PyLops). The minimum lengths with `edge`
/// (2 for order 3, 3 for order 5 and for second derivatives) are checked by StencilOperator;
/// without `edge` any length is valid (rows the formula cannot reach are zero).

#include "distlops/core/types.hpp"

#include "distlops/core/host_device.hpp"
#include "distlops/operators/derivative_kind.hpp"

namespace distlops::stencil {

/// No row or column has more than 5 points.
inline constexpr int max_points = 5;
/// No row or column reaches further than 2 samples from its position.
inline constexpr int radius = 2;

/// The samples one output point combines: y[i] = sum_s weight[s] * x[i + offset[s]].
template <class R>
struct Stencil {
  /// Number of points used (at most max_points; 0 for a zero row).
  int count = 0;
  /// Position of each point relative to the output index.
  int offset[max_points] = {};
  /// Weight of each point.
  R weight[max_points] = {};

  /// Appends the point at relative `position` with weight `value`.
  DISTLOPS_HOST_DEVICE constexpr void add(int position, R value) {
    offset[count] = position;
    weight[count] = value;
    ++count;
  }
};

/// One derivative along one axis: first (1) or second (2) derivative, its kind, the accuracy
/// order of centered first derivatives (3 or 5), the edge flag, and the factor of every
/// weight (1/h, or weight/h^2 in a Laplacian).
template <class R>
struct Spec {
  /// 1 for a first derivative, 2 for a second derivative.
  int derivative = 1;
  /// Forward, backward or centered stencil.
  DerivativeKind kind = DerivativeKind::centered;
  /// Accuracy order of centered first derivatives: 3 or 5.
  int order = 3;
  /// One-sided formulas on the end rows (centered kinds only).
  bool edge = false;
  /// Factor of every weight: 1/h, or weight/h^2 in a Laplacian.
  R scale = R(1);
};

/// Row i of the first derivative along an axis of length n.
template <class R>
DISTLOPS_HOST_DEVICE constexpr Stencil<R> first_derivative_row(const Spec<R>& spec, Index i,
                                                               Index n) {
  Stencil<R> row;
  const R h = spec.scale;
  const R half = R(0.5) * h;
  switch (spec.kind) {
    case DerivativeKind::forward:
      if (i + 1 < n) {
        row.add(0, -h);
        row.add(1, h);
      }
      break;
    case DerivativeKind::backward:
      if (i > 0) {
        row.add(-1, -h);
        row.add(0, h);
      }
      break;
    case DerivativeKind::centered:
      if (spec.edge && i == 0 && n >= 2) {
        row.add(0, -h);
        row.add(1, h);
      } else if (spec.edge && i == n - 1 && n >= 2) {
        row.add(-1, -h);
        row.add(0, h);
      } else if (spec.order == 5 && i >= 2 && i + 2 < n) {
        row.add(-2, h / R(12));
        row.add(-1, R(-2) * h / R(3));
        row.add(1, R(2) * h / R(3));
        row.add(2, -h / R(12));
      } else if ((spec.order == 3 || spec.edge) && i >= 1 && i + 1 < n) {
        // Order 3 inside; order 5 with `edge` on rows 1 and n-2.
        row.add(-1, -half);
        row.add(1, half);
      }
      break;
  }
  return row;
}

/// Row i of the second derivative along an axis of length n.
template <class R>
DISTLOPS_HOST_DEVICE constexpr Stencil<R> second_derivative_row(const Spec<R>& spec, Index i,
                                                                Index n) {
  Stencil<R> row;
  const R h2 = spec.scale;
  int first = 0;  // position of the first of the three points relative to i
  switch (spec.kind) {
    case DerivativeKind::forward:
      if (i + 2 >= n) return row;
      first = 0;
      break;
    case DerivativeKind::backward:
      if (i < 2) return row;
      first = -2;
      break;
    case DerivativeKind::centered:
      if (spec.edge && i == 0 && n >= 3) {
        first = 0;
      } else if (spec.edge && i == n - 1 && n >= 3) {
        first = -2;
      } else if (i >= 1 && i + 1 < n) {
        first = -1;
      } else {
        return row;
      }
      break;
  }
  row.add(first, h2);
  row.add(first + 1, R(-2) * h2);
  row.add(first + 2, h2);
  return row;
}

/// Row i of the derivative described by `spec`.
template <class R>
DISTLOPS_HOST_DEVICE constexpr Stencil<R> row(const Spec<R>& spec, Index i, Index n) {
  return spec.derivative == 1 ? first_derivative_row(spec, i, n)
                              : second_derivative_row(spec, i, n);
}

/// Column j of the same matrix, the stencil of the adjoint: the rows i = j - radius ... j +
/// radius that reach j, with the weight they give it.
template <class R>
DISTLOPS_HOST_DEVICE constexpr Stencil<R> column(const Spec<R>& spec, Index j, Index n) {
  Stencil<R> result;
  for (int d = -radius; d <= radius; ++d) {
    const Index i = j + d;
    if (i < 0 || i >= n) continue;
    const Stencil<R> r = row(spec, i, n);
    for (int s = 0; s < r.count; ++s) {
      if (r.offset[s] == -d) result.add(d, r.weight[s]);
    }
  }
  return result;
}

/// Row or column stencil: the stencil of the forward or of the adjoint at position i.
template <class R>
DISTLOPS_HOST_DEVICE constexpr Stencil<R> at(const Spec<R>& spec, bool adjoint, Index i, Index n) {
  return adjoint ? column(spec, i, n) : row(spec, i, n);
}

/// Positions [edge_width, n - edge_width) all share one stencil, translated: rows further than
/// `radius` from both ends, and columns further than 2 `radius` (all the rows they gather
/// from are then inner rows).
DISTLOPS_HOST_DEVICE constexpr Index edge_width(bool adjoint) {
  return adjoint ? 2 * radius : radius;
}

}  // namespace distlops::stencil
