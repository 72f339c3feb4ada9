// SPDX-License-Identifier: BSD-3-Clause
// Copyright (c) 2026 The distlops authors
#pragma once
// Reference matrices of PyLops' FirstDerivative and SecondDerivative along one axis, written
// row by row from the slicing formulas of pylops/basicoperators/firstderivative.py and
// secondderivative.py: the inner rows first, then the edge rows overwriting them, as NumPy
// slice assignments do.
#include "distlops/operators/derivative/stencil.hpp"
#include "local_operator_checks.hpp"

namespace distlops::testing {

using distlops::DerivativeKind;

// PyLops' FirstDerivative along an axis of n samples with sampling h.
inline SparseRows<double> first_derivative_rows(Index n, double h, DerivativeKind kind, bool edge,
                                                int order) {
  SparseRows<double> d(n, n);
  if (kind == DerivativeKind::forward) {
    for (Index i = 0; i + 1 < n; ++i)  // y[:-1] = (x[1:] - x[:-1]) / h
      d.set(i, {{i, -1 / h}, {i + 1, 1 / h}});
  } else if (kind == DerivativeKind::backward) {
    for (Index i = 1; i < n; ++i)  // y[1:] = (x[1:] - x[:-1]) / h
      d.set(i, {{i - 1, -1 / h}, {i, 1 / h}});
  } else if (order == 3) {
    for (Index i = 1; i + 1 < n; ++i)  // y[1:-1] = 0.5 (x[2:] - x[:-2]) / h
      d.set(i, {{i - 1, -0.5 / h}, {i + 1, 0.5 / h}});
    if (edge) {
      d.set(0, {{0, -1 / h}, {1, 1 / h}});              // y[0] = x[1] - x[0]
      d.set(n - 1, {{n - 2, -1 / h}, {n - 1, 1 / h}});  // y[-1] = x[-1] - x[-2]
    }
  } else {
    for (Index i = 2; i + 2 < n; ++i) {  // y[2:-2] = x[:-4]/12 - 2x[1:-3]/3 + 2x[3:-1]/3 - x[4:]/12
      d.set(i, {{i - 2, 1 / (12 * h)},
                {i - 1, -2 / (3 * h)},
                {i + 1, 2 / (3 * h)},
                {i + 2, -1 / (12 * h)}});
    }
    if (edge) {
      d.set(0, {{0, -1 / h}, {1, 1 / h}});                  // y[0] = x[1] - x[0]
      d.set(1, {{0, -0.5 / h}, {2, 0.5 / h}});              // y[1] = 0.5 (x[2] - x[0])
      d.set(n - 2, {{n - 3, -0.5 / h}, {n - 1, 0.5 / h}});  // y[-2] = 0.5 (x[-1] - x[-3])
      d.set(n - 1, {{n - 2, -1 / h}, {n - 1, 1 / h}});      // y[-1] = x[-1] - x[-2]
    }
  }
  return d;
}

// PyLops' SecondDerivative along an axis of n samples with sampling h, times `weight` (a
// Laplacian's term).
inline SparseRows<double> second_derivative_rows(Index n, double h, DerivativeKind kind, bool edge,
                                                 double weight = 1.0) {
  SparseRows<double> d(n, n);
  const double w = weight / (h * h);
  auto three = [&](Index row, Index first) {
    d.set(row, {{first, w}, {first + 1, -2 * w}, {first + 2, w}});
  };
  if (kind == DerivativeKind::forward) {
    for (Index i = 0; i + 2 < n; ++i)  // y[:-2] = x[2:] - 2 x[1:-1] + x[:-2]
      three(i, i);
  } else if (kind == DerivativeKind::backward) {
    for (Index i = 2; i < n; ++i)  // y[2:] = x[2:] - 2 x[1:-1] + x[:-2]
      three(i, i - 2);
  } else {
    for (Index i = 1; i + 1 < n; ++i)  // y[1:-1] = x[2:] - 2 x[1:-1] + x[:-2]
      three(i, i - 1);
    if (edge) {
      three(0, 0);          // y[0] = x[0] - 2 x[1] + x[2]
      three(n - 1, n - 3);  // y[-1] = x[-3] - 2 x[-2] + x[-1]
    }
  }
  return d;
}

/// The input of the PyLops checks of derivatives and Laplacians:
/// i = np.arange(20); x = ((3 * i * i + 5 * i) % 11 - 5.0).reshape(4, 5)
template <class T>
LocalArray<T> pylops_grid() {
  LocalArray<T> x(Shape{4, 5});
  for (Index i = 0; i < 20; ++i)
    x.data()[i] = T(double((3 * i * i + 5 * i) % 11 - 5));
  return x;
}

/// Calls f(shape, axis, normalised axis, extent) for every axis of every shape, each axis
/// once by its index and the last one also as -1.
template <class F>
void for_each_axis(const std::vector<Shape>& shapes, F f) {
  for (const Shape& shape : shapes) {
    const int ndim = static_cast<int>(shape.size());
    for (int axis = -1; axis < ndim; ++axis) {
      const int normalised = axis < 0 ? axis + ndim : axis;
      f(shape, axis, normalised, shape[static_cast<std::size_t>(normalised)]);
    }
  }
}

}  // namespace distlops::testing
