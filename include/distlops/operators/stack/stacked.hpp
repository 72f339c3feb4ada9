// SPDX-License-Identifier: BSD-3-Clause
// Copyright (c) 2026 The distlops authors
#pragma once
/// \file stacked.hpp
/// Stacks of distributed operators acting on StackedDistributedArray (PyLops-MPI's
/// MPIStackedBlockDiag and MPIStackedVStack, plus the horizontal stack for completeness):
///
///   StackedBlockDiag([A_1, ..., A_n]) : [x_1; ...; x_n] -> [A_1 x_1; ...; A_n x_n]
///   StackedVStack([A_1, ..., A_n])    : x -> [A_1 x; ...; A_n x]   (all A_i share a domain)
///   StackedHStack([A_1, ..., A_n])    : [x_1; ...; x_n] -> sum_i A_i x_i (all share a range)
///
/// The blocks keep their own layouts and communication; the stacks add none and allocate no
/// temporaries (sums accumulate in the output).

#include <initializer_list>
#include <vector>

#include <string>

#include "distlops/core/instantiate.hpp"
#include "distlops/operators/stack/local_blocks.hpp"

namespace distlops {

/// The operator object of StackedBlockDiag(): [x_1; ...; x_n] -> [A_1 x_1; ...; A_n x_n], block i
/// of the stacked domain (range) being A_i's domain (range) layout.
template <Scalar T, MemorySpace Space = Host>
class StackedBlockDiagOperator final
    : public LinearOperatorBase<StackedDistributedArray<T, Space>> {
 public:
  /// The vector type of domain and range.
  using Stacked = StackedDistributedArray<T, Space>;
  /// The block-diagonal stack of `ops`; InvalidArgument for an empty list.
  explicit StackedBlockDiagOperator(std::vector<LinearOperator<T, Space>> ops)
      : LinearOperatorBase<Stacked>(layouts(ops, true), layouts(ops, false),
                                    "StackedBlockDiag(" + detail::joined_names(ops) + ")"),
        ops_(std::move(ops)) {}
  /// y_i = A_i x_i for every block, with the blocks' own communication.
  void forward(const Stacked& x, Stacked& y) const override {
    for (std::size_t i = 0; i < ops_.size(); ++i)
      ops_[i].implementation().forward(x[i], y[i]);
  }
  /// x_i = A_i^H y_i for every block.
  void adjoint(const Stacked& y, Stacked& x) const override {
    for (std::size_t i = 0; i < ops_.size(); ++i)
      ops_[i].implementation().adjoint(y[i], x[i]);
  }
  /// y_i = alpha A_i x_i + beta y_i for every block.
  void forward_add(T alpha, const Stacked& x, T beta, Stacked& y) const override {
    for (std::size_t i = 0; i < ops_.size(); ++i) {
      ops_[i].implementation().forward_add(alpha, x[i], beta, y[i]);
    }
  }
  /// x_i = alpha A_i^H y_i + beta x_i for every block.
  void adjoint_add(T alpha, const Stacked& y, T beta, Stacked& x) const override {
    for (std::size_t i = 0; i < ops_.size(); ++i) {
      ops_[i].implementation().adjoint_add(alpha, y[i], beta, x[i]);
    }
  }

 private:
  static StackedLayout layouts(const std::vector<LinearOperator<T, Space>>& ops, bool domain) {
    if (ops.empty()) throw InvalidArgument("StackedBlockDiag: no operators");
    StackedLayout result;
    for (const auto& op : ops)
      result.push_back(domain ? op.domain() : op.range());
    return result;
  }
  std::vector<LinearOperator<T, Space>> ops_;
};

/// The operator object of StackedVStack(): x -> [A_1 x; ...; A_n x], the A_i sharing their domain
/// layout; the stacked range holds their range layouts.
template <Scalar T, MemorySpace Space = Host>
class StackedVStackOperator final
    : public LinearOperatorBase<DistributedArray<T, Space>, StackedDistributedArray<T, Space>> {
 public:
  /// The model type.
  using Array = DistributedArray<T, Space>;
  /// The data type.
  using Stacked = StackedDistributedArray<T, Space>;
  /// InvalidArgument for no operator, ShapeMismatch when the domains differ (worded as
  /// `wording` says: StackedHStack is built as the adjoint of a StackedVStack).
  explicit StackedVStackOperator(std::vector<LinearOperator<T, Space>> ops,
                                 detail::StackWording wording = {"StackedVStack", "domain"})
      : LinearOperatorBase<Array, Stacked>(common_domain(ops, wording), ranges(ops),
                                           "StackedVStack(" + detail::joined_names(ops) + ")"),
        ops_(std::move(ops)) {}
  /// y_i = A_i x for every block.
  void forward(const Array& x, Stacked& y) const override {
    for (std::size_t i = 0; i < ops_.size(); ++i)
      ops_[i].implementation().forward(x, y[i]);
  }
  /// y_i = alpha A_i x + beta y_i for every block.
  void forward_add(T alpha, const Array& x, T beta, Stacked& y) const override {
    for (std::size_t i = 0; i < ops_.size(); ++i) {
      ops_[i].implementation().forward_add(alpha, x, beta, y[i]);
    }
  }
  /// x = sum_i A_i^H y_i, accumulated in x.
  void adjoint(const Stacked& y, Array& x) const override { adjoint_add(T(1), y, T(0), x); }
  /// x = alpha sum_i A_i^H y_i + beta x.
  void adjoint_add(T alpha, const Stacked& y, T beta, Array& x) const override {
    for (std::size_t i = 0; i < ops_.size(); ++i) {
      ops_[i].implementation().adjoint_add(alpha, y[i], i == 0 ? beta : T(1), x);
    }
  }

 private:
  static Layout common_domain(const std::vector<LinearOperator<T, Space>>& ops,
                              detail::StackWording wording) {
    const std::string what = wording.name;
    if (ops.empty()) throw InvalidArgument(what + ": no operators");
    for (std::size_t i = 1; i < ops.size(); ++i) {
      if (ops[i].domain() != ops[0].domain()) {
        throw ShapeMismatch(what + ": operator " + std::to_string(i) + " (" + ops[i].name() +
                            ") has " + wording.shared_side + " " + ops[i].domain().describe() +
                            ", operator 0 (" + ops[0].name() + ") " + ops[0].domain().describe());
      }
    }
    return ops[0].domain();
  }
  static StackedLayout ranges(const std::vector<LinearOperator<T, Space>>& ops) {
    StackedLayout result;
    for (const auto& op : ops)
      result.push_back(op.range());
    return result;
  }
  std::vector<LinearOperator<T, Space>> ops_;
};

/// The block-diagonal stack of distributed operators (PyLops-MPI's MPIStackedBlockDiag); no
/// communication of its own. InvalidArgument for an empty list.
template <Scalar T, MemorySpace Space>
StackedLinearOperator<T, Space> StackedBlockDiag(std::vector<LinearOperator<T, Space>> ops) {
  return StackedLinearOperator<T, Space>::template make<StackedBlockDiagOperator<T, Space>>(
      std::move(ops));
}
/// StackedBlockDiag of a braced list of operators.
template <Scalar T, MemorySpace Space>
StackedLinearOperator<T, Space> StackedBlockDiag(
    std::initializer_list<LinearOperator<T, Space>> ops) {
  return StackedBlockDiag(std::vector<LinearOperator<T, Space>>(ops));
}

/// The vertical stack of distributed operators sharing their domain layout (PyLops-MPI's
/// MPIStackedVStack): model a DistributedArray, data a StackedDistributedArray. InvalidArgument
/// for an empty list, ShapeMismatch on every rank when the domains differ.
template <Scalar T, MemorySpace Space>
BasicLinearOperator<DistributedArray<T, Space>, StackedDistributedArray<T, Space>> StackedVStack(
    std::vector<LinearOperator<T, Space>> ops) {
  return BasicLinearOperator<DistributedArray<T, Space>, StackedDistributedArray<T, Space>>::
      template make<StackedVStackOperator<T, Space>>(std::move(ops));
}
/// StackedVStack of a braced list of operators.
template <Scalar T, MemorySpace Space>
BasicLinearOperator<DistributedArray<T, Space>, StackedDistributedArray<T, Space>> StackedVStack(
    std::initializer_list<LinearOperator<T, Space>> ops) {
  return StackedVStack(std::vector<LinearOperator<T, Space>>(ops));
}

/// The horizontal stack: the adjoint of the StackedVStack of the adjoints, named
/// StackedHStack(...); the operators must share their range.
template <Scalar T, MemorySpace Space>
BasicLinearOperator<StackedDistributedArray<T, Space>, DistributedArray<T, Space>> StackedHStack(
    std::vector<LinearOperator<T, Space>> ops) {
  using Array = DistributedArray<T, Space>;
  using Stacked = StackedDistributedArray<T, Space>;
  std::string name = "StackedHStack(" + detail::joined_names(ops) + ")";
  for (LinearOperator<T, Space>& op : ops)
    op = op.adjoint();
  const auto vstack =
      BasicLinearOperator<Array, Stacked>::template make<StackedVStackOperator<T, Space>>(
          std::move(ops), detail::StackWording{"StackedHStack", "range"});
  return BasicLinearOperator<Stacked, Array>::template make<AdjointOperator<Array, Stacked>>(
      vstack, std::move(name));
}
/// StackedHStack of a braced list of operators.
template <Scalar T, MemorySpace Space>
BasicLinearOperator<StackedDistributedArray<T, Space>, DistributedArray<T, Space>> StackedHStack(
    std::initializer_list<LinearOperator<T, Space>> ops) {
  return StackedHStack(std::vector<LinearOperator<T, Space>>(ops));
}

DISTLOPS_EXTERN_TEMPLATE_CLASS(StackedBlockDiagOperator)
DISTLOPS_EXTERN_TEMPLATE_CLASS(StackedVStackOperator)

}  // namespace distlops
