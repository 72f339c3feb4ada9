// SPDX-License-Identifier: BSD-3-Clause
// Copyright (c) 2026 The distlops authors
// The operators of include/distlops/operators/stack/: BlockDiag, VStack and HStack of each rank's
// local operators, Replicated (a local operator on replicated arrays), and the stacks of
// distributed operators on StackedDistributedArray (StackedBlockDiag, StackedVStack,
// StackedHStack) with the handles and compositions that mix plain and stacked vectors, in each
// memory space.
#include <nanobind/stl/string.h>
#include <nanobind/stl/vector.h>

#include <concepts>
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

template <class T, class Space>
using Locals = std::vector<LocalOperator<T, Space>>;

// The blocks of a stack from the extension's operator handles of dtype T, whatever their
// sides; TypeError naming the first other object, InvalidArgument for an empty list.
template <class T, class Space>
std::vector<StackBlock<T, Space>> stack_blocks(const std::vector<nb::handle>& ops) {
  using DA = DistributedArray<T, Space>;
  using SDA = StackedDistributedArray<T, Space>;
  if (ops.empty()) throw InvalidArgument("stacked operators need at least one operator");
  std::vector<StackBlock<T, Space>> blocks;
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
                            dtype_name<T>() + " operator of the " + Space::name + " space")
                               .c_str());
    }
  }
  return blocks;
}

template <class T, class Space>
LinearOperator<T, Space> block_diag(Locals<T, Space> ops, const Communicator& comm,
                                    std::vector<int> mask) {
  return BlockDiag<T, Space>(std::move(ops), comm, std::move(mask));
}

template <class T, class Space>
LinearOperator<T, Space> vstack(Locals<T, Space> ops, const Communicator& comm) {
  return VStack<T, Space>(std::move(ops), comm);
}

template <class T, class Space>
LinearOperator<T, Space> hstack(Locals<T, Space> ops, const Communicator& comm) {
  return HStack<T, Space>(std::move(ops), comm);
}

// The stacks take blocks of the four kinds; a block with a stacked side nests the stack's
// vector on that side. The kind of the stacks' shared side follows the first block. They read
// Python objects: they take back the GIL that distributed factories release.
template <class T, class Space>
StackedLinearOperator<T, Space> stacked_block_diag(const std::vector<nb::handle>& ops) {
  nb::gil_scoped_acquire gil;
  return StackedBlockDiag<T, Space>(stack_blocks<T, Space>(ops));
}

template <class T, class Space>
nb::object stacked_vstack(const std::vector<nb::handle>& ops) {
  nb::gil_scoped_acquire gil;
  std::vector<StackBlock<T, Space>> blocks = stack_blocks<T, Space>(ops);
  return blocks[0].nested_domain()
             ? nb::cast(StackedVStack<StackedDistributedArray<T, Space>>(std::move(blocks)))
             : nb::cast(StackedVStack<DistributedArray<T, Space>>(std::move(blocks)));
}

template <class T, class Space>
nb::object stacked_hstack(const std::vector<nb::handle>& ops) {
  nb::gil_scoped_acquire gil;
  std::vector<StackBlock<T, Space>> blocks = stack_blocks<T, Space>(ops);
  return blocks[0].nested_range()
             ? nb::cast(StackedHStack<StackedDistributedArray<T, Space>>(std::move(blocks)))
             : nb::cast(StackedHStack<DistributedArray<T, Space>>(std::move(blocks)));
}

template <class T, class Space>
void bind_stacked_handles(nb::module_& m) {
  const char* t = dtype_name<T>();
  const char* space = space_suffix<Space>();
  using DA = DistributedArray<T, Space>;
  using SDA = StackedDistributedArray<T, Space>;
  // The Cuda space's handles without their algebra (sums, scaling, transpose: operators.cpp).
  constexpr bool algebra = std::same_as<Space, Host>;
  bind_operator<SDA, SDA, algebra>(m, class_name("StackedLinearOperator", t, space));
  bind_operator<DA, SDA, algebra>(m, class_name("ToStackedLinearOperator", t, space));
  bind_operator<SDA, DA, algebra>(m, class_name("FromStackedLinearOperator", t, space));
  // Every chain A * B over plain (DA) and stacked (SDA) vectors but DA -> DA -> DA (operators.cpp);
  // in the Cuda space those from plain models, as its solvers (solvers.cpp).
  bind_composition<DA, DA, SDA>(m);
  bind_composition<DA, SDA, DA>(m);
  bind_composition<DA, SDA, SDA>(m);
  if constexpr (std::same_as<Space, Host>) {
    bind_composition<SDA, DA, DA>(m);
    bind_composition<SDA, DA, SDA>(m);
    bind_composition<SDA, SDA, DA>(m);
    bind_composition<SDA, SDA, SDA>(m);
  }
}

}  // namespace

void bind_stack(nb::module_& m) {
  for_each_space([&]<class Space>() {
    for_each_scalar([&]<class T>() { bind_stacked_handles<T, Space>(m); });
  });
  Factories factories(m, "stack");
  factories.distributed("BlockDiag", []<class T, class Space>() { return &block_diag<T, Space>; });
  factories.distributed("VStack", []<class T, class Space>() { return &vstack<T, Space>; });
  factories.distributed("HStack", []<class T, class Space>() { return &hstack<T, Space>; });
  factories.distributed("Replicated", []<class T, class Space>() { return &Replicated<T, Space>; });
  // StackedVStack in each space (a regularised problem's [Op; eps * D]); the other stacks of
  // distributed operators on the host.
  factories.distributed("StackedBlockDiag", []<class T>() { return &stacked_block_diag<T, Host>; });
  factories.distributed("StackedVStack",
                        []<class T, class Space>() { return &stacked_vstack<T, Space>; });
  factories.distributed("StackedHStack", []<class T>() { return &stacked_hstack<T, Host>; });
  // new_operator.sh: bindings of new operators above this line
}

}  // namespace distlops::python
