// SPDX-License-Identifier: BSD-3-Clause
// Copyright (c) 2026 The distlops authors
// The terms of the derivatives (derivative_terms.hpp), the local FirstDerivative,
// SecondDerivative and Laplacian and the distributed ones with Gradient: PyLops' arguments
// turned into a StencilOperator.
#include <cmath>
#include <span>

#include "distlops/core/collective_check.hpp"
#include "distlops/core/instantiate.hpp"
#include "distlops/operators/derivative/derivative_terms.hpp"
#include "distlops/operators/derivative/derivatives.hpp"

namespace distlops {

namespace {

void check_sampling(const std::string& op, double sampling) {
  if (sampling == 0.0 || !std::isfinite(sampling)) {
    throw InvalidArgument(op + ": sampling must be finite and non-zero, got " +
                          std::to_string(sampling));
  }
}

}  // namespace

namespace detail {

StencilTerm first_derivative_term(const std::string& op, int axis, double sampling,
                                  DerivativeKind kind, bool edge, int order) {
  check_sampling(op, sampling);
  return {axis, {1, kind, order, edge, 1.0 / sampling}};
}

StencilTerm second_derivative_term(const std::string& op, int axis, double sampling, double weight,
                                   DerivativeKind kind, bool edge) {
  check_sampling(op, sampling);
  return {axis, {2, kind, 3, edge, weight / (sampling * sampling)}};
}

std::vector<StencilTerm> laplacian_terms(const std::string& op, const std::vector<int>& axes,
                                         const std::vector<double>& weights,
                                         const std::vector<double>& sampling, DerivativeKind kind,
                                         bool edge) {
  const std::size_t count = axes.size();
  if (count == 0 || weights.size() != count || sampling.size() != count) {
    throw InvalidArgument(op + ": axes, weights and sampling must be non-empty and of the same " +
                          "length, got " + std::to_string(count) + ", " +
                          std::to_string(weights.size()) + " and " +
                          std::to_string(sampling.size()));
  }
  std::vector<StencilTerm> terms;
  for (std::size_t k = 0; k < count; ++k)
    terms.push_back(second_derivative_term(op, axes[k], sampling[k], weights[k], kind, edge));
  return terms;
}

}  // namespace detail

namespace local {

template <Scalar T, MemorySpace Space>
LocalOperator<T, Space> FirstDerivative(const Shape& dims, const FirstDerivativeOptions& options) {
  const std::string op = "FirstDerivative";
  return LocalOperator<T, Space>::template make<StencilOperator<LocalArray<T, Space>>>(
      dims,
      std::vector<StencilTerm>{distlops::detail::first_derivative_term(
          op, options.axis, options.sampling, options.kind, options.edge, options.order)},
      op);
}

template <Scalar T, MemorySpace Space>
LocalOperator<T, Space> SecondDerivative(const Shape& dims,
                                         const SecondDerivativeOptions& options) {
  const std::string op = "SecondDerivative";
  return LocalOperator<T, Space>::template make<StencilOperator<LocalArray<T, Space>>>(
      dims,
      std::vector<StencilTerm>{distlops::detail::second_derivative_term(
          op, options.axis, options.sampling, 1.0, options.kind, options.edge)},
      op);
}

template <Scalar T, MemorySpace Space>
LocalOperator<T, Space> Laplacian(const Shape& dims, const LaplacianOptions& options) {
  const std::string op = "Laplacian";
  return LocalOperator<T, Space>::template make<StencilOperator<LocalArray<T, Space>>>(
      dims,
      distlops::detail::laplacian_terms(op, options.axes, options.weights, options.sampling,
                                        options.kind, options.edge),
      op);
}

}  // namespace local

namespace {

// The options of a distributed derivative must be the same on every rank (a sampling that
// differs would mix the ranks' scalings): their fingerprint and the terms' verdict are agreed
// before the stencil plan's collectives. The plan's own checks then see the same terms and
// layout everywhere.
Fingerprint fingerprint_of(const Layout& layout, const DerivativeOptions& options) {
  Fingerprint arguments;
  arguments.add(layout.fingerprint()).add(options.axis).add(options.sampling);
  arguments.add(options.kind).add(options.edge).add(options.order);
  return arguments;
}

template <class MakeTerms>
std::vector<StencilTerm> agreed_terms(const std::string& op, const Layout& layout,
                                      const Fingerprint& arguments, MakeTerms&& make_terms) {
  std::vector<StencilTerm> terms;
  collective_check(layout.communicator(), arguments, op + ": the options or the layout",
                   [&] { terms = make_terms(); });
  return terms;
}

}  // namespace

template <Scalar T, MemorySpace Space>
LinearOperator<T, Space> FirstDerivative(const Layout& layout, const DerivativeOptions& options) {
  const std::string op = "FirstDerivative";
  return LinearOperator<T, Space>::template make<StencilOperator<DistributedArray<T, Space>>>(
      layout,
      agreed_terms(op, layout, fingerprint_of(layout, options),
                   [&] {
                     return std::vector<StencilTerm>{
                         detail::first_derivative_term(op, options.axis, options.sampling,
                                                       options.kind, options.edge, options.order)};
                   }),
      op);
}

template <Scalar T, MemorySpace Space>
LinearOperator<T, Space> SecondDerivative(const Layout& layout, const DerivativeOptions& options) {
  const std::string op = "SecondDerivative";
  return LinearOperator<T, Space>::template make<StencilOperator<DistributedArray<T, Space>>>(
      layout,
      agreed_terms(op, layout, fingerprint_of(layout, options),
                   [&] {
                     return std::vector<StencilTerm>{detail::second_derivative_term(
                         op, options.axis, options.sampling, 1.0, options.kind, options.edge)};
                   }),
      op);
}

template <Scalar T, MemorySpace Space>
LinearOperator<T, Space> Laplacian(const Layout& layout, const LaplacianOptions& options) {
  const std::string op = "Laplacian";
  Fingerprint arguments;
  arguments.add(layout.fingerprint()).add(std::span<const int>(options.axes));
  arguments.add(std::span<const double>(options.weights));
  arguments.add(std::span<const double>(options.sampling)).add(options.edge).add(options.kind);
  return LinearOperator<T, Space>::template make<StencilOperator<DistributedArray<T, Space>>>(
      layout,
      agreed_terms(op, layout, arguments,
                   [&] {
                     return detail::laplacian_terms(op, options.axes, options.weights,
                                                    options.sampling, options.kind, options.edge);
                   }),
      op);
}

template <Scalar T, MemorySpace Space>
BasicLinearOperator<DistributedArray<T, Space>, StackedDistributedArray<T, Space>> Gradient(
    const Layout& layout, const GradientOptions& options) {
  const int ndim = layout.ndim();
  std::vector<double> sampling = options.sampling;
  if (sampling.empty()) sampling.assign(static_cast<std::size_t>(ndim), 1.0);
  if (sampling.size() == 1) sampling.assign(static_cast<std::size_t>(ndim), sampling[0]);
  Fingerprint arguments;
  arguments.add(layout.fingerprint()).add(std::span<const double>(sampling));
  arguments.add(options.edge).add(options.kind);
  collective_check(layout.communicator(), arguments, "Gradient: the options or the layout", [&] {
    if (static_cast<int>(sampling.size()) != ndim) {
      throw InvalidArgument("Gradient: " + std::to_string(sampling.size()) +
                            " samplings given for an array of " + std::to_string(ndim) +
                            " dimension(s)");
    }
  });
  std::vector<LinearOperator<T, Space>> components;
  for (int axis = 0; axis < ndim; ++axis) {
    components.push_back(FirstDerivative<T, Space>(
        layout,
        {.axis = axis, .sampling = sampling[axis], .kind = options.kind, .edge = options.edge}));
  }
  return StackedVStack(std::move(components));
}

DISTLOPS_INSTANTIATE_FUNCTIONS(DISTLOPS_DETAIL_DERIVATIVES)

}  // namespace distlops
