// SPDX-License-Identifier: BSD-3-Clause
// Copyright (c) 2026 The distlops authors
// The operators of include/distlops/operators/derivative/: FirstDerivative and SecondDerivative
// on one rank's arrays, and the distributed FirstDerivative, SecondDerivative, Laplacian and
// Gradient in each memory space; kinds by PyLops' names.
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

template <class T, class Space>
LinearOperator<T, Space> first_derivative(const Layout& layout, int axis, double sampling,
                                          const std::string& kind, bool edge, int order) {
  return FirstDerivative<T, Space>(layout, {.axis = axis,
                                            .sampling = sampling,
                                            .kind = derivative_kind(kind),
                                            .edge = edge,
                                            .order = order});
}

template <class T, class Space>
LinearOperator<T, Space> second_derivative(const Layout& layout, int axis, double sampling,
                                           const std::string& kind, bool edge) {
  return SecondDerivative<T, Space>(
      layout, {.axis = axis, .sampling = sampling, .kind = derivative_kind(kind), .edge = edge});
}

template <class T, class Space>
LinearOperator<T, Space> laplacian(const Layout& layout, std::vector<int> axes,
                                   std::vector<double> weights, std::vector<double> sampling,
                                   bool edge, const std::string& kind) {
  return Laplacian<T, Space>(layout, {.axes = std::move(axes),
                                      .weights = std::move(weights),
                                      .sampling = std::move(sampling),
                                      .edge = edge,
                                      .kind = derivative_kind(kind)});
}

template <class T, class Space>
BasicLinearOperator<DistributedArray<T, Space>, StackedDistributedArray<T, Space>> gradient(
    const Layout& layout, std::vector<double> sampling, bool edge, const std::string& kind) {
  return Gradient<T, Space>(
      layout, {.sampling = std::move(sampling), .edge = edge, .kind = derivative_kind(kind)});
}

}  // namespace

void bind_derivative(nb::module_& m) {
  Factories factories(m, "derivative");
  factories.local("FirstDerivative", []<class T>() { return &local_first_derivative<T>; });
  factories.local("SecondDerivative", []<class T>() { return &local_second_derivative<T>; });
  factories.distributed("FirstDerivative",
                        []<class T, class Space>() { return &first_derivative<T, Space>; });
  factories.distributed("SecondDerivative",
                        []<class T, class Space>() { return &second_derivative<T, Space>; });
  factories.distributed("Laplacian", []<class T, class Space>() { return &laplacian<T, Space>; });
  factories.distributed("Gradient", []<class T, class Space>() { return &gradient<T, Space>; });
  // new_operator.sh: bindings of new operators above this line
}

}  // namespace distlops::python
