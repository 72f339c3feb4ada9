#pragma once
/// \file derivatives.hpp
/// Distributed finite differences with PyLops' formulas (edge rows included): FirstDerivative,
/// SecondDerivative, Laplacian and Gradient, along any axis of an N-d array distributed along
/// any axis. Along the distribution axis the planes near the block edges come from the
/// neighbouring ranks (any number of them: a rank may own a single plane, or none); along
/// other axes no communication happens. Each is one fused pass over the data.
///
/// Differences from PyLops / PyLops-MPI: the Laplacian applies `kind` to every axis (as
/// PyLops-MPI does; serial PyLops applies it to the first axis only), the derivatives accept
/// arrays distributed along any axis and any split, and BROADCAST arrays are differentiated
/// locally instead of being converted to SCATTER.

#include <string>
#include <vector>

#include "distlops/operators/derivative/stencil_operator.hpp"
#include "distlops/operators/stack/stacked.hpp"

namespace distlops {

struct DerivativeOptions {
  /// Axis along which to differentiate (negative values count from the end).
  int axis = 0;
  double sampling = 1.0;
  DerivativeKind kind = DerivativeKind::centered;
  /// One-sided differences on the first and last samples (centered kinds only).
  bool edge = false;
  /// Order of centered first derivatives: 3 or 5.
  int order = 3;
};

struct LaplacianOptions {
  std::vector<int> axes = {-2, -1};
  std::vector<double> weights = {1.0, 1.0};
  std::vector<double> sampling = {1.0, 1.0};
  bool edge = false;
  DerivativeKind kind = DerivativeKind::centered;
};

struct GradientOptions {
  /// One sampling per axis; empty: 1 along every axis; a single value: the same everywhere.
  std::vector<double> sampling = {};
  bool edge = false;
  DerivativeKind kind = DerivativeKind::centered;
};

namespace detail {
inline int normal_axis(int axis, const Layout& layout, const char* what) {
  const int ndim = layout.ndim();
  if (axis < -ndim || axis >= ndim) {
    throw InvalidArgument(std::string(what) + ": axis " + std::to_string(axis) +
                          " is out of range for an array of " + std::to_string(ndim) +
                          " dimension(s)");
  }
  return axis < 0 ? axis + ndim : axis;
}
inline Index axis_length(const Layout& layout, int axis) {
  return layout.global_shape()[static_cast<std::size_t>(axis)];
}
}  // namespace detail

/// dx/d(axis) on arrays of `layout` (domain and range). Collective.
template <Scalar T, MemorySpace Space = Host>
LinearOperator<T, Space> FirstDerivative(const Layout& layout,
                                         const DerivativeOptions& options = {}) {
  const int axis = detail::normal_axis(options.axis, layout, "FirstDerivative");
  BandRule rule = first_derivative_rule(detail::axis_length(layout, axis), options.kind,
                                        options.order, options.edge, options.sampling);
  return LinearOperator<T, Space>::template make<StencilOperator<T, Space>>(
      layout, std::vector<StencilTerm>{{axis, std::move(rule)}}, "FirstDerivative");
}

/// d^2x/d(axis)^2 on arrays of `layout`. Collective.
template <Scalar T, MemorySpace Space = Host>
LinearOperator<T, Space> SecondDerivative(const Layout& layout,
                                          const DerivativeOptions& options = {}) {
  const int axis = detail::normal_axis(options.axis, layout, "SecondDerivative");
  BandRule rule = second_derivative_rule(detail::axis_length(layout, axis), options.kind,
                                         options.edge, options.sampling);
  return LinearOperator<T, Space>::template make<StencilOperator<T, Space>>(
      layout, std::vector<StencilTerm>{{axis, std::move(rule)}}, "SecondDerivative");
}

/// sum over `axes` of weight * d^2x/d(axis)^2, in one pass. Collective.
template <Scalar T, MemorySpace Space = Host>
LinearOperator<T, Space> Laplacian(const Layout& layout, const LaplacianOptions& options = {}) {
  if (options.axes.size() != options.weights.size() ||
      options.axes.size() != options.sampling.size() || options.axes.empty()) {
    throw InvalidArgument(
        "Laplacian: axes, weights and sampling must have the same, non-zero "
        "length (got " +
        std::to_string(options.axes.size()) + ", " + std::to_string(options.weights.size()) + ", " +
        std::to_string(options.sampling.size()) + ")");
  }
  std::vector<StencilTerm> terms;
  for (std::size_t i = 0; i < options.axes.size(); ++i) {
    const int axis = detail::normal_axis(options.axes[i], layout, "Laplacian");
    terms.push_back({axis, second_derivative_rule(detail::axis_length(layout, axis), options.kind,
                                                  options.edge, options.sampling[i])
                               .scaled(options.weights[i])});
  }
  return LinearOperator<T, Space>::template make<StencilOperator<T, Space>>(
      layout, std::move(terms), "Laplacian");
}

/// The gradient: one first derivative per axis, stacked (the output is a
/// StackedDistributedArray with one block per axis, as in PyLops-MPI). Collective.
template <Scalar T, MemorySpace Space = Host>
BasicLinearOperator<DistributedArray<T, Space>, StackedDistributedArray<T, Space>> Gradient(
    const Layout& layout, const GradientOptions& options = {}) {
  const int ndim = layout.ndim();
  std::vector<double> sampling = options.sampling;
  if (sampling.empty()) sampling.assign(static_cast<std::size_t>(ndim), 1.0);
  if (sampling.size() == 1) sampling.assign(static_cast<std::size_t>(ndim), sampling[0]);
  if (static_cast<int>(sampling.size()) != ndim) {
    throw InvalidArgument("Gradient: " + std::to_string(sampling.size()) +
                          " samplings given for an array of " + std::to_string(ndim) +
                          " dimension(s)");
  }
  std::vector<LinearOperator<T, Space>> components;
  for (int axis = 0; axis < ndim; ++axis) {
    components.push_back(FirstDerivative<T, Space>(
        layout,
        {.axis = axis, .sampling = sampling[axis], .kind = options.kind, .edge = options.edge}));
  }
  return StackedVStack(std::move(components));
}

}  // namespace distlops
