// SPDX-License-Identifier: BSD-3-Clause
// Copyright (c) 2026 The distlops authors
// The operators of include/distlops/operators/stack/: BlockDiag, VStack and HStack of each rank's
// local operators, Replicated (a local operator on replicated arrays), and the stacks of
// distributed operators on StackedDistributedArray (StackedBlockDiag, StackedVStack,
// StackedHStack) with the handles and compositions that mix plain and stacked vectors.
#include <nanobind/stl/string.h>
#include <nanobind/stl/vector.h>

#include <string>
#include <utility>
#include <vector>

#include "distlops/core/distributed_array.hpp"
#include "distlops/core/stacked_distributed_array.hpp"
#include "distlops/operators/stack/block_diag.hpp"
#include "distlops/operators/stack/replicated.hpp"
#include "distlops/operators/stack/stacked.hpp"
#include "distlops/operators/stack/vstack.hpp"
#include "factory_binding.hpp"
#include "operator_binding.hpp"

namespace distlops::python {
namespace {

template <class T>
using Locals = std::vector<LocalOperator<T, Host>>;

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
LinearOperator<T, Host> block_diag(Locals<T> ops, const Communicator& comm, std::vector<int> mask) {
  return BlockDiag<T, Host>(std::move(ops), comm, std::move(mask));
}

template <class T>
LinearOperator<T, Host> vstack(Locals<T> ops, const Communicator& comm) {
  return VStack<T, Host>(std::move(ops), comm);
}

template <class T>
LinearOperator<T, Host> hstack(Locals<T> ops, const Communicator& comm) {
  return HStack<T, Host>(std::move(ops), comm);
}

// The stacks take blocks of the four kinds; a block with a stacked side nests the stack's
// vector on that side. The kind of the stacks' shared side follows the first block. They read
// Python objects: they take back the GIL that distributed factories release.
template <class T>
StackedLinearOperator<T, Host> stacked_block_diag(const std::vector<nb::handle>& ops) {
  nb::gil_scoped_acquire gil;
  return StackedBlockDiag<T, Host>(stack_blocks<T>(ops));
}

template <class T>
nb::object stacked_vstack(const std::vector<nb::handle>& ops) {
  nb::gil_scoped_acquire gil;
  std::vector<StackBlock<T, Host>> blocks = stack_blocks<T>(ops);
  return blocks[0].nested_domain()
             ? nb::cast(StackedVStack<StackedDistributedArray<T, Host>>(std::move(blocks)))
             : nb::cast(StackedVStack<DistributedArray<T, Host>>(std::move(blocks)));
}

template <class T>
nb::object stacked_hstack(const std::vector<nb::handle>& ops) {
  nb::gil_scoped_acquire gil;
  std::vector<StackBlock<T, Host>> blocks = stack_blocks<T>(ops);
  return blocks[0].nested_range()
             ? nb::cast(StackedHStack<StackedDistributedArray<T, Host>>(std::move(blocks)))
             : nb::cast(StackedHStack<DistributedArray<T, Host>>(std::move(blocks)));
}

template <class T>
void bind_stacked_handles(nb::module_& m) {
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
}

}  // namespace

void bind_stack(nb::module_& m) {
  for_each_scalar([&]<class T>() { bind_stacked_handles<T>(m); });
  Factories factories(m, "stack");
  factories.distributed("BlockDiag", []<class T>() { return &block_diag<T>; });
  factories.distributed("VStack", []<class T>() { return &vstack<T>; });
  factories.distributed("HStack", []<class T>() { return &hstack<T>; });
  factories.distributed("Replicated", []<class T>() { return &Replicated<T, Host>; });
  factories.distributed("StackedBlockDiag", []<class T>() { return &stacked_block_diag<T>; });
  factories.distributed("StackedVStack", []<class T>() { return &stacked_vstack<T>; });
  factories.distributed("StackedHStack", []<class T>() { return &stacked_hstack<T>; });
  // new_operator.sh: bindings of new operators above this line
}

}  // namespace distlops::python
