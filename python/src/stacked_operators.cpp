// SPDX-License-Identifier: BSD-3-Clause
// Copyright (c) 2026 The distlops authors
// The operators on StackedDistributedArray: the stacks of distributed operators
// (StackedBlockDiag, StackedVStack, StackedHStack), the gradient, and the compositions that mix
// plain and stacked vectors.
#include <nanobind/stl/string.h>
#include <nanobind/stl/vector.h>

#include <string>

#include <vector>

#include "bindings.hpp"
#include "distlops/core/distributed_array.hpp"
#include "distlops/core/stacked_distributed_array.hpp"
#include "distlops/operators/derivative/derivatives.hpp"
#include "distlops/operators/stack/stacked.hpp"
#include "operator_binding.hpp"

namespace distlops::python {
namespace {

// The blocks of a stack from the extension's operator handles of dtype T, whatever their
// sides; TypeError naming the first other object, InvalidArgument for an empty list.
template <class T>
std::vector<StackBlock<T, Host>> stack_blocks(const std::vector<nb::handle>& ops) {
  using DA = DistributedArray<T, Host>;
  using SDA = StackedDistributedArray<T, Host>;
  if (ops.empty()) throw InvalidArgument("stacked operators need at least one operator");
  std::vector<StackBlock<T, Host>> blocks;
  for (std::size_t i = 0; i < ops.size(); ++i) {
    const nb::handle op = ops[i];
    if (nb::isinstance<BasicLinearOperator<DA, DA>>(op)) {
      blocks.emplace_back(nb::cast<BasicLinearOperator<DA, DA>>(op));
    } else if (nb::isinstance<BasicLinearOperator<DA, SDA>>(op)) {
      blocks.emplace_back(nb::cast<BasicLinearOperator<DA, SDA>>(op));
    } else if (nb::isinstance<BasicLinearOperator<SDA, DA>>(op)) {
      blocks.emplace_back(nb::cast<BasicLinearOperator<SDA, DA>>(op));
    } else if (nb::isinstance<BasicLinearOperator<SDA, SDA>>(op)) {
      blocks.emplace_back(nb::cast<BasicLinearOperator<SDA, SDA>>(op));
    } else {
      throw nb::type_error(("operator " + std::to_string(i) + " is a " +
                            nb::cast<std::string>(nb::str(op.type())) + ", not a distributed " +
                            dtype_name<T>() + " operator")
                               .c_str());
    }
  }
  return blocks;
}

template <class T>
void bind_stacked_operators_for_type(nb::module_& m) {
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

  // The stacks take blocks of the four kinds; a block with a stacked side nests the stack's
  // vector on that side. The kind of the stacks' shared side follows the first block.
  m.def(class_name("StackedBlockDiag", t).c_str(), [](const std::vector<nb::handle>& ops) {
    return StackedBlockDiag<T, Host>(stack_blocks<T>(ops));
  });
  m.def(class_name("StackedVStack", t).c_str(), [](const std::vector<nb::handle>& ops) {
    std::vector<StackBlock<T, Host>> blocks = stack_blocks<T>(ops);
    return blocks[0].nested_domain() ? nb::cast(StackedVStack<SDA>(std::move(blocks)))
                                     : nb::cast(StackedVStack<DA>(std::move(blocks)));
  });
  m.def(class_name("StackedHStack", t).c_str(), [](const std::vector<nb::handle>& ops) {
    std::vector<StackBlock<T, Host>> blocks = stack_blocks<T>(ops);
    return blocks[0].nested_range() ? nb::cast(StackedHStack<SDA>(std::move(blocks)))
                                    : nb::cast(StackedHStack<DA>(std::move(blocks)));
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
  for_each_scalar([&]<class T>() { bind_stacked_operators_for_type<T>(m); });
}

}  // namespace distlops::python
