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

namespace {

// The StencilOperator `op` of the terms that make_terms() returns, on the arrays of `layout` (a
// Shape for local arrays). A distributed derivative's options must be the same on every rank (a
// sampling that differs would mix the ranks' scalings): their fingerprint `arguments` and the
// terms' verdict are agreed before the stencil plan's collectives, whose own checks then see
// the same terms and layout everywhere.
template <class Vector, class MakeTerms>
BasicLinearOperator<Vector, Vector> derivative_operator(const std::string& op,
                                                        const vector_layout_t<Vector>& layout,
                                                        Fingerprint arguments,
                                                        MakeTerms&& make_terms) {
  std::vector<StencilTerm> terms;
  if constexpr (std::is_same_v<vector_layout_t<Vector>, Layout>) {
    arguments.add(layout.fingerprint());
    collective_check(layout.communicator(), arguments, op + ": the options or the layout",
                     [&] { terms = make_terms(); });
  } else {
    terms = make_terms();
  }
  return BasicLinearOperator<Vector, Vector>::template make<StencilOperator<Vector>>(
      layout, std::move(terms), op);
}

// A derivative along one axis, of either form: the options of both forms have the same fields
// (but the order, which the local second derivative's lack), and `term` makes its stencil term.
template <class Vector, class Options, class Term>
BasicLinearOperator<Vector, Vector> one_axis_derivative(const std::string& op,
                                                        const vector_layout_t<Vector>& layout,
                                                        const Options& options, Term&& term) {
  Fingerprint arguments;
  arguments.add(options.axis).add(options.sampling).add(options.kind).add(options.edge);
  if constexpr (requires { options.order; }) arguments.add(options.order);
  return derivative_operator<Vector>(op, layout, arguments,
                                     [&] { return std::vector<StencilTerm>{term(op, options)}; });
}

template <class Vector, class Options>
BasicLinearOperator<Vector, Vector> first_derivative(const vector_layout_t<Vector>& layout,
                                                     const Options& options) {
  return one_axis_derivative<Vector>(
      "FirstDerivative", layout, options, [](const std::string& op, const Options& o) {
        return detail::first_derivative_term(op, o.axis, o.sampling, o.kind, o.edge, o.order);
      });
}

template <class Vector, class Options>
BasicLinearOperator<Vector, Vector> second_derivative(const vector_layout_t<Vector>& layout,
                                                      const Options& options) {
  return one_axis_derivative<Vector>(
      "SecondDerivative", layout, options, [](const std::string& op, const Options& o) {
        return detail::second_derivative_term(op, o.axis, o.sampling, 1.0, o.kind, o.edge);
      });
}

template <class Vector, class Options>
BasicLinearOperator<Vector, Vector> laplacian(const vector_layout_t<Vector>& layout,
                                              const Options& options) {
  const std::string op = "Laplacian";
  Fingerprint arguments;
  arguments.add(std::span<const int>(options.axes));
  arguments.add(std::span<const double>(options.weights));
  arguments.add(std::span<const double>(options.sampling)).add(options.edge).add(options.kind);
  return derivative_operator<Vector>(op, layout, arguments, [&] {
    return detail::laplacian_terms(op, options.axes, options.weights, options.sampling,
                                   options.kind, options.edge);
  });
}

}  // namespace

template <Scalar T, MemorySpace Space>
LocalOperator<T, Space> local::FirstDerivative(const Shape& dims,
                                               const FirstDerivativeOptions& options) {
  return first_derivative<LocalArray<T, Space>>(dims, options);
}

template <Scalar T, MemorySpace Space>
LocalOperator<T, Space> local::SecondDerivative(const Shape& dims,
                                                const SecondDerivativeOptions& options) {
  return second_derivative<LocalArray<T, Space>>(dims, options);
}

template <Scalar T, MemorySpace Space>
LocalOperator<T, Space> local::Laplacian(const Shape& dims, const LaplacianOptions& options) {
  return laplacian<LocalArray<T, Space>>(dims, options);
}

template <Scalar T, MemorySpace Space>
LinearOperator<T, Space> FirstDerivative(const Layout& layout, const DerivativeOptions& options) {
  return first_derivative<DistributedArray<T, Space>>(layout, options);
}

template <Scalar T, MemorySpace Space>
LinearOperator<T, Space> SecondDerivative(const Layout& layout, const DerivativeOptions& options) {
  return second_derivative<DistributedArray<T, Space>>(layout, options);
}

template <Scalar T, MemorySpace Space>
LinearOperator<T, Space> Laplacian(const Layout& layout, const LaplacianOptions& options) {
  return laplacian<DistributedArray<T, Space>>(layout, options);
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

DISTLOPS_FOR_EACH_SCALAR_AND_SPACE_ARG(DISTLOPS_DETAIL_DERIVATIVES, )

}  // namespace distlops
