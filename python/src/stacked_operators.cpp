// SPDX-License-Identifier: BSD-3-Clause
// Copyright (c) 2026 The distlops authors
// The operators on StackedDistributedArray: the stacks of distributed operators
// (StackedBlockDiag, StackedVStack, StackedHStack), the gradient, and the compositions that mix
// plain and stacked vectors.
#include <nanobind/stl/vector.h>

#include <vector>

#include "bindings.hpp"
#include "distlops/core/distributed_array.hpp"
#include "distlops/core/stacked_distributed_array.hpp"
#include "distlops/operators/derivative/derivatives.hpp"
#include "distlops/operators/stack/stacked.hpp"
#include "operator_binding.hpp"

namespace distlops::python {
namespace {

template <class T>
void bind_for_type(nb::module_& m) {
  const char* t = dtype_name<T>();
  using DA = DistributedArray<T, Host>;
  using SDA = StackedDistributedArray<T, Host>;
  bind_operator<SDA, SDA>(m, class_name("StackedLinearOperator", t));
  bind_operator<DA, SDA>(m, class_name("ToStackedLinearOperator", t));
  bind_operator<SDA, DA>(m, class_name("FromStackedLinearOperator", t));
  // Every chain A * B over plain (DA) and stacked (SDA) vectors but DA -> DA -> DA (operators.cpp).
  bind_composition<DA, DA, SDA>(m);
  bind_composition<DA, SDA, DA>(m);
  bind_composition<DA, SDA, SDA>(m);
  bind_composition<SDA, DA, DA>(m);
  bind_composition<SDA, DA, SDA>(m);
  bind_composition<SDA, SDA, DA>(m);
  bind_composition<SDA, SDA, SDA>(m);

  m.def(class_name("StackedBlockDiag", t).c_str(), [](std::vector<LinearOperator<T, Host>> ops) {
    return StackedBlockDiag<T, Host>(std::move(ops));
  });
  m.def(class_name("StackedVStack", t).c_str(), [](std::vector<LinearOperator<T, Host>> ops) {
    return StackedVStack<T, Host>(std::move(ops));
  });
  m.def(class_name("StackedHStack", t).c_str(), [](std::vector<LinearOperator<T, Host>> ops) {
    return StackedHStack<T, Host>(std::move(ops));
  });
  m.def(class_name("Gradient", t).c_str(), [](const Layout& layout, std::vector<double> sampling,
                                              bool edge, DerivativeKind kind) {
    return Gradient<T, Host>(layout, {.sampling = std::move(sampling), .edge = edge, .kind = kind});
  });
}

}  // namespace

void bind_stacked_operators(nb::module_& m) {
  nb::enum_<DerivativeKind>(m, "DerivativeKind")
      .value("forward", DerivativeKind::forward)
      .value("backward", DerivativeKind::backward)
      .value("centered", DerivativeKind::centered);
  for_each_scalar([&]<class T>() { bind_for_type<T>(m); });
}

}  // namespace distlops::python
