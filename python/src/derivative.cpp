// SPDX-License-Identifier: BSD-3-Clause
// Copyright (c) 2026 The distlops authors
// The operators of include/distlops/operators/derivative/: FirstDerivative and SecondDerivative
// on one rank's arrays, and the distributed FirstDerivative, SecondDerivative, Laplacian and
// Gradient; kinds by PyLops' names.
#include <nanobind/stl/string.h>
#include <nanobind/stl/vector.h>

#include <string>
#include <utility>
#include <vector>

#include "distlops/core/stacked_distributed_array.hpp"
#include "distlops/operators/derivative/derivatives.hpp"
#include "factory_binding.hpp"

namespace distlops::python {
namespace {

template <class T>
LocalOperator<T, Host> local_first_derivative(const Shape& dims, int axis, double sampling,
                                              const std::string& kind, bool edge) {
  return local::FirstDerivative<T, Host>(
      dims, {.axis = axis, .sampling = sampling, .kind = derivative_kind(kind), .edge = edge});
}

template <class T>
LocalOperator<T, Host> local_second_derivative(const Shape& dims, int axis, double sampling,
                                               const std::string& kind, bool edge) {
  return local::SecondDerivative<T, Host>(
      dims, {.axis = axis, .sampling = sampling, .kind = derivative_kind(kind), .edge = edge});
}

template <class T>
LinearOperator<T, Host> first_derivative(const Layout& layout, int axis, double sampling,
                                         const std::string& kind, bool edge, int order) {
  return FirstDerivative<T, Host>(layout, {.axis = axis,
                                           .sampling = sampling,
                                           .kind = derivative_kind(kind),
                                           .edge = edge,
                                           .order = order});
}

template <class T>
LinearOperator<T, Host> second_derivative(const Layout& layout, int axis, double sampling,
                                          const std::string& kind, bool edge) {
  return SecondDerivative<T, Host>(
      layout, {.axis = axis, .sampling = sampling, .kind = derivative_kind(kind), .edge = edge});
}

template <class T>
LinearOperator<T, Host> laplacian(const Layout& layout, std::vector<int> axes,
                                  std::vector<double> weights, std::vector<double> sampling,
                                  bool edge, const std::string& kind) {
  return Laplacian<T, Host>(layout, {.axes = std::move(axes),
                                     .weights = std::move(weights),
                                     .sampling = std::move(sampling),
                                     .edge = edge,
                                     .kind = derivative_kind(kind)});
}

template <class T>
BasicLinearOperator<DistributedArray<T, Host>, StackedDistributedArray<T, Host>> gradient(
    const Layout& layout, std::vector<double> sampling, bool edge, const std::string& kind) {
  return Gradient<T, Host>(
      layout, {.sampling = std::move(sampling), .edge = edge, .kind = derivative_kind(kind)});
}

}  // namespace

void bind_derivative(nb::module_& m) {
  Factories factories(m, "derivative");
  factories.local("FirstDerivative", []<class T>() { return &local_first_derivative<T>; });
  factories.local("SecondDerivative", []<class T>() { return &local_second_derivative<T>; });
  factories.distributed("FirstDerivative", []<class T>() { return &first_derivative<T>; });
  factories.distributed("SecondDerivative", []<class T>() { return &second_derivative<T>; });
  factories.distributed("Laplacian", []<class T>() { return &laplacian<T>; });
  factories.distributed("Gradient", []<class T>() { return &gradient<T>; });
  // new_operator.sh: bindings of new operators above this line
}

}  // namespace distlops::python
