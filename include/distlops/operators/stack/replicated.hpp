// SPDX-License-Identifier: BSD-3-Clause
// Copyright (c) 2026 The distlops authors
#pragma once
/// \file replicated.hpp
/// Replicated: a local operator applied to replicated (BROADCAST or UNSAFE_BROADCAST) arrays,
/// every rank computing the whole result (PyLops-MPI's MPILinearOperator /
/// asmpilinearoperator). No communication: replicas stay equal because every rank does the
/// same computation on the same data.

#include "distlops/core/instantiate.hpp"
#include "distlops/operators/stack/local_blocks.hpp"

namespace distlops {

/// The operator object of Replicated(): the local operator applied to every rank's replica of
/// replicated arrays; domain and range are replicated layouts of the operator's shapes.
template <Scalar T, MemorySpace Space = Host>
class ReplicatedOperator final : public LinearOperatorBase<DistributedArray<T, Space>> {
 public:
  /// The library's own code: nothing to agree on after an apply.
  bool runs_user_code() const override { return false; }
  /// The vector type of domain and range.
  using Array = DistributedArray<T, Space>;
  /// Collective over `comm` (layout construction).
  /// @throws InvalidArgument when `partition` is not BROADCAST or UNSAFE_BROADCAST.
  ReplicatedOperator(LocalOperator<T, Space> op, const Communicator& comm, Partition partition)
      : LinearOperatorBase<Array>(Layout(comm, op.domain(), replicated(partition)),
                                  Layout(comm, op.range(), replicated(partition)), op.name()),
        op_(std::move(op)),
        x_view_(LocalArray<T, Space>::wrap(op_.domain(), nullptr)),
        y_view_(LocalArray<T, Space>::wrap(op_.range(), nullptr)),
        agree_failures_(detail::any_block_runs_user_code(std::vector{op_}, comm)) {}
  /// y = A x on this rank's replica. No communication.
  void forward(const Array& x, Array& y) const override {
    detail::apply_blocks(agree_failures_, this->domain().communicator(),
                         [&] { op_.implementation().forward(bind(x_view_, x), bind(y_view_, y)); });
  }
  /// x = A^H y on this rank's replica. No communication.
  void adjoint(const Array& y, Array& x) const override {
    detail::apply_blocks(agree_failures_, this->domain().communicator(),
                         [&] { op_.implementation().adjoint(bind(y_view_, y), bind(x_view_, x)); });
  }
  /// y = alpha A x + beta y on this rank's replica.
  void forward_add(T alpha, const Array& x, T beta, Array& y) const override {
    detail::apply_blocks(agree_failures_, this->domain().communicator(), [&] {
      op_.implementation().forward_add(alpha, bind(x_view_, x), beta, bind(y_view_, y));
    });
  }
  /// x = alpha A^H y + beta x on this rank's replica.
  void adjoint_add(T alpha, const Array& y, T beta, Array& x) const override {
    detail::apply_blocks(agree_failures_, this->domain().communicator(), [&] {
      op_.implementation().adjoint_add(alpha, bind(y_view_, y), beta, bind(x_view_, x));
    });
  }
  /// The local operator every rank applies.
  const LocalOperator<T, Space>& local_operator() const { return op_; }

 private:
  static Partition replicated(Partition partition) {
    if (!is_replicated(partition)) {
      throw InvalidArgument(std::string("Replicated: the partition must be BROADCAST or "
                                        "UNSAFE_BROADCAST, got ") +
                            to_string(partition));
    }
    return partition;
  }
  static LocalArray<T, Space>& bind(LocalArray<T, Space>& view, const Array& array) {
    view.rebind(const_cast<T*>(array.data()));
    return view;
  }
  LocalOperator<T, Space> op_;
  mutable LocalArray<T, Space> x_view_;
  mutable LocalArray<T, Space> y_view_;
  bool agree_failures_;  // some rank's operator runs user code: agree on its failures
};

/// `op` applied to replicated arrays on every rank of `comm`.
template <Scalar T, MemorySpace Space>
LinearOperator<T, Space> Replicated(LocalOperator<T, Space> op,
                                    const Communicator& comm = Communicator::world(),
                                    Partition partition = Partition::BROADCAST) {
  return LinearOperator<T, Space>::template make<ReplicatedOperator<T, Space>>(std::move(op), comm,
                                                                               partition);
}

DISTLOPS_EXTERN_TEMPLATE_CLASS(ReplicatedOperator)

}  // namespace distlops
