// SPDX-License-Identifier: BSD-3-Clause
// Copyright (c) 2026 The distlops authors
#pragma once
/// \file block_diag.hpp
/// BlockDiag: a block-diagonal operator whose blocks are local operators; every rank applies
/// its own blocks to its part of the vector (PyLops-MPI's MPIBlockDiag). Model and data are
/// SCATTER vectors whose local sizes are the sums of the sizes of the rank's blocks. No
/// communication in forward or adjoint, except one small allreduce per apply when some rank's
/// blocks run user code (a callable that may throw on that rank only: every rank then raises).

#include <initializer_list>
#include <vector>

#include "distlops/core/instantiate.hpp"
#include "distlops/operators/stack/local_blocks.hpp"

namespace distlops {

/// The operator object of BlockDiag(): y_r = diag(A_r0, A_r1, ...) x_r on every rank r. Model and
/// data are flat SCATTER vectors; rank r's part of the model holds as many elements as the
/// domains of its blocks together, its part of the data as their ranges (a rank without blocks
/// owns nothing).
template <Scalar T, MemorySpace Space = Host>
class BlockDiagOperator final : public LinearOperatorBase<DistributedArray<T, Space>> {
 public:
  /// The library's own code: nothing to agree on after an apply.
  bool runs_user_code() const override { return false; }
  /// The vector type of domain and range.
  using Array = DistributedArray<T, Space>;
  /// Collective: the ranks exchange the sizes of their blocks. `mask` is given to both
  /// layouts (reductions on model and data run inside the mask groups).
  BlockDiagOperator(std::vector<LocalOperator<T, Space>> ops, const Communicator& comm,
                    std::vector<int> mask = {})
      : BlockDiagOperator(detail::agreed_blocks(std::move(ops), comm, "BlockDiag"), comm, mask, 0) {
  }

  /// y = A x: each block applied to its piece of this rank's x. No communication.
  void forward(const Array& x, Array& y) const override {
    detail::apply_blocks(agree_failures_, this->domain().communicator(), [&] {
      for (std::size_t i = 0; i < ops_.size(); ++i) {
        ops_[i].implementation().forward(in_.at(i, x.data()), out_.at(i, y.data()));
      }
    });
  }
  /// x = A^H y: each block's adjoint applied to its piece of this rank's y. No communication.
  void adjoint(const Array& y, Array& x) const override {
    detail::apply_blocks(agree_failures_, this->domain().communicator(), [&] {
      for (std::size_t i = 0; i < ops_.size(); ++i) {
        ops_[i].implementation().adjoint(out_.at(i, y.data()), in_.at(i, x.data()));
      }
    });
  }
  /// y = alpha A x + beta y, block by block.
  void forward_add(T alpha, const Array& x, T beta, Array& y) const override {
    detail::apply_blocks(agree_failures_, this->domain().communicator(), [&] {
      for (std::size_t i = 0; i < ops_.size(); ++i) {
        ops_[i].implementation().forward_add(alpha, in_.at(i, x.data()), beta,
                                             out_.at(i, y.data()));
      }
    });
  }
  /// x = alpha A^H y + beta x, block by block.
  void adjoint_add(T alpha, const Array& y, T beta, Array& x) const override {
    detail::apply_blocks(agree_failures_, this->domain().communicator(), [&] {
      for (std::size_t i = 0; i < ops_.size(); ++i) {
        ops_[i].implementation().adjoint_add(alpha, out_.at(i, y.data()), beta,
                                             in_.at(i, x.data()));
      }
    });
  }
  /// This rank's local operators, in order.
  const std::vector<LocalOperator<T, Space>>& blocks() const { return ops_; }

 private:
  BlockDiagOperator(std::vector<LocalOperator<T, Space>> ops, const Communicator& comm,
                    const std::vector<int>& mask, int)
      : BlockDiagOperator(
            ops, comm, mask,
            detail::LocalBlocks<T, Space>(ops, detail::LocalBlocks<T, Space>::Side::domain),
            detail::LocalBlocks<T, Space>(ops, detail::LocalBlocks<T, Space>::Side::range)) {}
  BlockDiagOperator(std::vector<LocalOperator<T, Space>> ops, const Communicator& comm,
                    const std::vector<int>& mask, detail::LocalBlocks<T, Space> in,
                    detail::LocalBlocks<T, Space> out)
      : LinearOperatorBase<Array>(
            Layout::from_local_shape(comm, {in.total()}, Partition::SCATTER, 0, mask),
            Layout::from_local_shape(comm, {out.total()}, Partition::SCATTER, 0, mask),
            "BlockDiag(" + detail::joined_names(ops) + ")"),
        ops_(std::move(ops)),
        in_(std::move(in)),
        out_(std::move(out)),
        agree_failures_(detail::any_block_runs_user_code(ops_, comm)) {}

  std::vector<LocalOperator<T, Space>> ops_;
  detail::LocalBlocks<T, Space> in_;
  detail::LocalBlocks<T, Space> out_;
  bool agree_failures_;  // some rank's blocks run user code: agree on their failures
};

/// The block-diagonal operator of this rank's local operators `ops` (collective over `comm`).
template <Scalar T, MemorySpace Space>
LinearOperator<T, Space> BlockDiag(std::vector<LocalOperator<T, Space>> ops,
                                   const Communicator& comm = Communicator::world(),
                                   std::vector<int> mask = {}) {
  return LinearOperator<T, Space>::template make<BlockDiagOperator<T, Space>>(std::move(ops), comm,
                                                                              std::move(mask));
}
/// BlockDiag of a braced list of local operators.
template <Scalar T, MemorySpace Space>
LinearOperator<T, Space> BlockDiag(std::initializer_list<LocalOperator<T, Space>> ops,
                                   const Communicator& comm = Communicator::world(),
                                   std::vector<int> mask = {}) {
  return BlockDiag(std::vector<LocalOperator<T, Space>>(ops), comm, std::move(mask));
}

DISTLOPS_EXTERN_TEMPLATE_CLASS(BlockDiagOperator)

}  // namespace distlops
