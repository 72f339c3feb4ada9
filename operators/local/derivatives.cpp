// FirstDerivative, SecondDerivative and Laplacian: PyLops' arguments turned into the terms of
// a StencilOperator.
#include <cmath>

#include "distlops/core/instantiate.hpp"
#include "distlops/operators/local/first_derivative.hpp"
#include "distlops/operators/local/laplacian.hpp"
#include "distlops/operators/local/second_derivative.hpp"
#include "support.hpp"

namespace distlops::local {

namespace {

void check_sampling(const std::string& op, double sampling) {
  if (sampling == 0.0 || !std::isfinite(sampling)) {
    throw InvalidArgument(op + ": sampling must be finite and non-zero, got " +
                          std::to_string(sampling));
  }
}

StencilTerm second_derivative_term(const std::string& op, const Shape& dims, int axis,
                                   double sampling, double weight, DerivativeKind kind, bool edge) {
  check_sampling(op, sampling);
  return {detail::normalise_axis(op, axis, static_cast<int>(dims.size())),
          {2, kind, 3, edge, weight / (sampling * sampling)}};
}

}  // namespace

template <Scalar T, MemorySpace Space>
LocalOperator<T, Space> FirstDerivative(const Shape& dims, const FirstDerivativeOptions& options) {
  const std::string op = "FirstDerivative";
  detail::check_shape(op, "dims", dims);
  check_sampling(op, options.sampling);
  const StencilTerm term{detail::normalise_axis(op, options.axis, static_cast<int>(dims.size())),
                         {1, options.kind, options.order, options.edge, 1.0 / options.sampling}};
  return LocalOperator<T, Space>::template make<StencilOperator<T, Space>>(
      dims, std::vector<StencilTerm>{term}, op);
}

template <Scalar T, MemorySpace Space>
LocalOperator<T, Space> SecondDerivative(const Shape& dims,
                                         const SecondDerivativeOptions& options) {
  const std::string op = "SecondDerivative";
  detail::check_shape(op, "dims", dims);
  const StencilTerm term = second_derivative_term(op, dims, options.axis, options.sampling, 1.0,
                                                  options.kind, options.edge);
  return LocalOperator<T, Space>::template make<StencilOperator<T, Space>>(
      dims, std::vector<StencilTerm>{term}, op);
}

template <Scalar T, MemorySpace Space>
LocalOperator<T, Space> Laplacian(const Shape& dims, const LaplacianOptions& options) {
  const std::string op = "Laplacian";
  detail::check_shape(op, "dims", dims);
  const std::size_t count = options.axes.size();
  if (count == 0 || options.weights.size() != count || options.sampling.size() != count) {
    throw InvalidArgument(op + ": axes, weights and sampling must be non-empty and of the same " +
                          "length, got " + std::to_string(count) + ", " +
                          std::to_string(options.weights.size()) + " and " +
                          std::to_string(options.sampling.size()));
  }
  std::vector<StencilTerm> terms;
  for (std::size_t k = 0; k < count; ++k) {
    terms.push_back(second_derivative_term(op, dims, options.axes[k], options.sampling[k],
                                           options.weights[k], options.kind, options.edge));
  }
  return LocalOperator<T, Space>::template make<StencilOperator<T, Space>>(dims, terms, op);
}

#define DISTLOPS_INSTANTIATE_DERIVATIVES(T, S)                                                     \
  template LocalOperator<T, S> FirstDerivative<T, S>(const Shape&, const FirstDerivativeOptions&); \
  template LocalOperator<T, S> SecondDerivative<T, S>(const Shape&,                                \
                                                      const SecondDerivativeOptions&);             \
  template LocalOperator<T, S> Laplacian<T, S>(const Shape&, const LaplacianOptions&);

DISTLOPS_FOR_EACH_SCALAR_AND_SPACE(DISTLOPS_INSTANTIATE_DERIVATIVES)

}  // namespace distlops::local
