// SPDX-License-Identifier: BSD-3-Clause
// Copyright (c) 2026 The distlops authors
#pragma once
/// \file vstack.hpp
/// VStack and HStack of local operators (PyLops-MPI's MPIVStack and MPIHStack).
///
/// VStack: every rank holds blocks A_i with the same domain; the model is replicated
/// (BROADCAST) and the data are SCATTER, each rank's part being the concatenation of its
/// blocks' outputs. The adjoint sums A_i^H y_i locally, then over ranks (one allreduce).
///
/// HStack is its adjoint structure (SCATTER model split into the blocks' domains, replicated
/// data; the forward sums over blocks and ranks): HStack(A_0, A_1, ...) is
/// VStack(A_0^H, A_1^H, ...)^H, the same code read backwards.

#include <initializer_list>
#include <string>
#include <vector>

#include "distlops/core/gpu_collectives.hpp"
#include "distlops/core/instantiate.hpp"
#include "distlops/operators/stack/local_blocks.hpp"

namespace distlops {

/// The operator object of VStack(): model a BROADCAST vector of the blocks' common domain shape,
/// data a flat SCATTER vector whose rank-r part is [A_r0 x; A_r1 x; ...].
template <Scalar T, MemorySpace Space = Host>
class VStackOperator final : public LinearOperatorBase<DistributedArray<T, Space>> {
 public:
  /// The library's own code: nothing to agree on after an apply.
  bool runs_user_code() const override { return false; }
  /// The vector type of domain and range.
  using Array = DistributedArray<T, Space>;
  /// Views of the blocks' pieces of this rank's data.
  using Blocks = detail::LocalBlocks<T, Space>;
  /// Collective over `comm`. Every block of every rank must have the same domain shape
  /// (ShapeMismatch on every rank otherwise, worded as `wording` says).
  VStackOperator(std::vector<LocalOperator<T, Space>> ops, const Communicator& comm,
                 detail::StackWording wording = {})
      : VStackOperator(detail::agreed_blocks(ops, comm, wording.name), comm,
                       Blocks::shapes_of(ops, Blocks::Side::domain),
                       Blocks(ops, Blocks::Side::range), wording) {}

  /// y_r = [A_r0 x; A_r1 x; ...] on every rank. No communication.
  void forward(const Array& x, Array& y) const override {
    detail::apply_blocks(agree_failures_, this->range().communicator(), [&] {
      for (std::size_t i = 0; i < ops_.size(); ++i) {
        ops_[i].implementation().forward(model_.at(0, x.data()), out_.at(i, y.data()));
      }
    });
  }
  /// y_r = alpha [A_r0 x; ...] + beta y_r on every rank.
  void forward_add(T alpha, const Array& x, T beta, Array& y) const override {
    detail::apply_blocks(agree_failures_, this->range().communicator(), [&] {
      for (std::size_t i = 0; i < ops_.size(); ++i) {
        ops_[i].implementation().forward_add(alpha, model_.at(0, x.data()), beta,
                                             out_.at(i, y.data()));
      }
    });
  }
  /// x = sum_r sum_i A_ri^H y_ri: local sums, then one allreduce over the communicator.
  void adjoint(const Array& y, Array& x) const override {
    LocalArray<T, Space>& model = model_.at(0, x.data());
    if (ops_.empty()) model.fill(T(0));
    detail::apply_blocks(agree_failures_, x.communicator(), [&] {
      for (std::size_t i = 0; i < ops_.size(); ++i) {
        ops_[i].implementation().adjoint_add(T(1), out_.at(i, y.data()), i == 0 ? T(0) : T(1),
                                             model);
      }
    });
    allreduce_sum_in_place<T, Space>(x.communicator(), x.data(), x.local_size());
  }

 private:
  VStackOperator(const std::vector<LocalOperator<T, Space>>& ops, const Communicator& comm,
                 const std::vector<Shape>& local_domains, Blocks out, detail::StackWording wording)
      : LinearOperatorBase<Array>(
            Layout(comm,
                   detail::agree_on_shape(
                       comm, local_domains,
                       std::string(wording.name) + ": block " + wording.shared_side + "s"),
                   Partition::BROADCAST),
            Layout::from_local_shape(comm, {out.total()}),
            "VStack(" + detail::joined_names(ops) + ")"),
        ops_(ops),
        model_(std::vector<Shape>{this->domain().global_shape()}),
        out_(std::move(out)),
        agree_failures_(detail::any_block_runs_user_code(ops_, comm)) {}

  std::vector<LocalOperator<T, Space>> ops_;
  Blocks model_;  // the whole replicated model, seen with the blocks' domain shape
  Blocks out_;
  bool agree_failures_;  // some rank's blocks run user code: agree on their failures
};

/// Vertical stack of this rank's local operators (collective over `comm`).
template <Scalar T, MemorySpace Space>
LinearOperator<T, Space> VStack(std::vector<LocalOperator<T, Space>> ops,
                                const Communicator& comm = Communicator::world()) {
  return LinearOperator<T, Space>::template make<VStackOperator<T, Space>>(std::move(ops), comm);
}
/// VStack of a braced list of local operators.
template <Scalar T, MemorySpace Space>
LinearOperator<T, Space> VStack(std::initializer_list<LocalOperator<T, Space>> ops,
                                const Communicator& comm = Communicator::world()) {
  return VStack(std::vector<LocalOperator<T, Space>>(ops), comm);
}
/// Horizontal stack of this rank's local operators (collective over `comm`): the adjoint of
/// the VStack of their adjoints, named HStack(...).
template <Scalar T, MemorySpace Space>
LinearOperator<T, Space> HStack(std::vector<LocalOperator<T, Space>> ops,
                                const Communicator& comm = Communicator::world()) {
  std::string name = "HStack(" + detail::joined_names(ops) + ")";
  for (LocalOperator<T, Space>& op : ops)
    op = op.adjoint();
  const auto vstack = LinearOperator<T, Space>::template make<VStackOperator<T, Space>>(
      std::move(ops), comm, detail::StackWording{"HStack", "range"});
  return LinearOperator<T, Space>::template make<
      AdjointOperator<DistributedArray<T, Space>, DistributedArray<T, Space>>>(vstack,
                                                                               std::move(name));
}
/// HStack of a braced list of local operators.
template <Scalar T, MemorySpace Space>
LinearOperator<T, Space> HStack(std::initializer_list<LocalOperator<T, Space>> ops,
                                const Communicator& comm = Communicator::world()) {
  return HStack(std::vector<LocalOperator<T, Space>>(ops), comm);
}

DISTLOPS_EXTERN_TEMPLATE_CLASS(VStackOperator)

}  // namespace distlops
