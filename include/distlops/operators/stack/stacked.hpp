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
/// A block may itself map to or from a stacked array (Gradient, another stacked operator: see
/// StackBlock); that block of the stacked vector is then a nested stack. The blocks keep their
/// own layouts and communication; the stacks add none and allocate no temporaries (sums
/// accumulate in the output).

#include <initializer_list>
#include <type_traits>
#include <vector>

#include <string>

#include "distlops/core/instantiate.hpp"
#include "distlops/operators/stack/local_blocks.hpp"
#include "distlops/operators/stack/stack_block.hpp"

namespace distlops {

/// The operator object of StackedBlockDiag(): [x_1; ...; x_n] -> [A_1 x_1; ...; A_n x_n], block i
/// of the stacked domain (range) being A_i's domain (range) layout, nested where A_i's side is
/// itself stacked.
template <Scalar T, MemorySpace Space = Host>
class StackedBlockDiagOperator final
    : public LinearOperatorBase<StackedDistributedArray<T, Space>> {
 public:
  /// Whether a block runs user code: the handle then agrees on the stack's outcome.
  bool runs_user_code() const override {
    bool any = false;
    for (const StackBlock<T, Space>& block : blocks_)
      block.visit([&](const auto& op) { any = any || op.implementation().runs_user_code(); });
    return any;
  }
  /// The vector type of domain and range.
  using Stacked = StackedDistributedArray<T, Space>;
  /// The block-diagonal stack of `blocks`; InvalidArgument for an empty list or handle.
  explicit StackedBlockDiagOperator(std::vector<StackBlock<T, Space>> blocks)
      : LinearOperatorBase<Stacked>(layouts(blocks, true), layouts(blocks, false),
                                    "StackedBlockDiag(" + detail::joined_names(blocks) + ")"),
        blocks_(std::move(blocks)) {}
  /// The block-diagonal stack of array-to-array operators.
  explicit StackedBlockDiagOperator(const std::vector<LinearOperator<T, Space>>& ops)
      : StackedBlockDiagOperator(std::vector<StackBlock<T, Space>>(ops.begin(), ops.end())) {}
  /// y_i = A_i x_i for every block.
  void forward(const Stacked& x, Stacked& y) const override {
    each_block<false>(x, y, [](const auto& a, const auto& in, auto& out) { a.forward(in, out); });
  }
  /// x_i = A_i^H y_i for every block.
  void adjoint(const Stacked& y, Stacked& x) const override {
    each_block<true>(y, x, [](const auto& a, const auto& in, auto& out) { a.adjoint(in, out); });
  }
  /// y_i = alpha A_i x_i + beta y_i for every block.
  void forward_add(T alpha, const Stacked& x, T beta, Stacked& y) const override {
    each_block<false>(x, y, [&](const auto& a, const auto& in, auto& out) {
      a.forward_add(alpha, in, beta, out);
    });
  }
  /// x_i = alpha A_i^H y_i + beta x_i for every block.
  void adjoint_add(T alpha, const Stacked& y, T beta, Stacked& x) const override {
    each_block<true>(y, x, [&](const auto& a, const auto& in, auto& out) {
      a.adjoint_add(alpha, in, beta, out);
    });
  }

 private:
  template <class V, class S>
  static decltype(auto) item(S& stack, std::size_t i) {
    return detail::stack_item<V>(stack, i);
  }
  // body(A_i's implementation, item i of `in`, item i of `out`) for every block, the items seen
  // as A_i's domain and range (its range and domain for the adjoint).
  template <bool Adjoint, class Body>
  void each_block(const Stacked& in, Stacked& out, Body&& body) const {
    for (std::size_t i = 0; i < blocks_.size(); ++i) {
      blocks_[i].visit([&](const auto& op) {
        using Op = std::decay_t<decltype(op)>;
        using In = std::conditional_t<Adjoint, typename Op::range_type, typename Op::domain_type>;
        using Out = std::conditional_t<Adjoint, typename Op::domain_type, typename Op::range_type>;
        body(op.implementation(), item<In>(in, i), item<Out>(out, i));
      });
    }
  }
  static StackedLayout layouts(const std::vector<StackBlock<T, Space>>& blocks, bool domain) {
    if (blocks.empty()) throw InvalidArgument("StackedBlockDiag: no operators");
    StackedLayout result;
    for (const auto& block : blocks) {
      if (domain) {
        block.append_domain(result);
      } else {
        block.append_range(result);
      }
    }
    return result;
  }
  std::vector<StackBlock<T, Space>> blocks_;
};

/// The operator object of StackedVStack(): x -> [A_1 x; ...; A_n x], the A_i sharing their domain
/// layout; the stacked range holds their range layouts, nested where A_i's range is stacked.
/// Domain is the shared model type: a DistributedArray, or a StackedDistributedArray when the
/// blocks take stacked models (e.g. StackedBlockDiag blocks).
template <Scalar T, MemorySpace Space = Host, class Domain = DistributedArray<T, Space>>
class StackedVStackOperator final
    : public LinearOperatorBase<Domain, StackedDistributedArray<T, Space>> {
 public:
  /// Whether a block runs user code: the handle then agrees on the stack's outcome.
  bool runs_user_code() const override {
    bool any = false;
    for (const Block& block : blocks_)
      std::visit([&](const auto& op) { any = any || op.implementation().runs_user_code(); }, block);
    return any;
  }
  /// A plain data block.
  using Array = DistributedArray<T, Space>;
  /// The data type.
  using Stacked = StackedDistributedArray<T, Space>;
  /// A block taking the shared model: its data is plain or nested.
  using Block =
      std::variant<BasicLinearOperator<Domain, Array>, BasicLinearOperator<Domain, Stacked>>;
  /// InvalidArgument for no operator or an empty handle, ShapeMismatch when the domains differ
  /// (in layout or in kind) (worded as `wording` says: StackedHStack is built as the adjoint of
  /// a StackedVStack).
  explicit StackedVStackOperator(const std::vector<StackBlock<T, Space>>& blocks,
                                 detail::StackWording wording = {"StackedVStack", "domain"})
      : StackedVStackOperator(shared_domain_blocks(blocks, wording), blocks) {}
  /// The vertical stack of array-to-array operators.
  explicit StackedVStackOperator(
      const std::vector<LinearOperator<T, Space>>& ops,
      detail::StackWording wording = {"StackedVStack",
                                      "domain"}) requires std::is_same_v<Domain, Array>
      : StackedVStackOperator(std::vector<StackBlock<T, Space>>(ops.begin(), ops.end()), wording) {}
  /// y_i = A_i x for every block.
  void forward(const Domain& x, Stacked& y) const override {
    for (std::size_t i = 0; i < blocks_.size(); ++i) {
      std::visit(
          [&](const auto& op) {
            using Op = std::decay_t<decltype(op)>;
            op.implementation().forward(x, detail::stack_item<typename Op::range_type>(y, i));
          },
          blocks_[i]);
    }
  }
  /// y_i = alpha A_i x + beta y_i for every block.
  void forward_add(T alpha, const Domain& x, T beta, Stacked& y) const override {
    for (std::size_t i = 0; i < blocks_.size(); ++i) {
      std::visit(
          [&](const auto& op) {
            using Op = std::decay_t<decltype(op)>;
            op.implementation().forward_add(alpha, x, beta,
                                            detail::stack_item<typename Op::range_type>(y, i));
          },
          blocks_[i]);
    }
  }
  /// x = sum_i A_i^H y_i, accumulated in x.
  void adjoint(const Stacked& y, Domain& x) const override { adjoint_add(T(1), y, T(0), x); }
  /// x = alpha sum_i A_i^H y_i + beta x.
  void adjoint_add(T alpha, const Stacked& y, T beta, Domain& x) const override {
    for (std::size_t i = 0; i < blocks_.size(); ++i) {
      std::visit(
          [&](const auto& op) {
            using Op = std::decay_t<decltype(op)>;
            op.implementation().adjoint_add(
                alpha, detail::stack_item<typename Op::range_type>(y, i), i == 0 ? beta : T(1), x);
          },
          blocks_[i]);
    }
  }

 private:
  using DomainLayout = vector_layout_t<Domain>;
  struct Checked {
    std::vector<Block> blocks;
    DomainLayout domain;
  };
  StackedVStackOperator(Checked checked, const std::vector<StackBlock<T, Space>>& blocks)
      : LinearOperatorBase<Domain, Stacked>(std::move(checked.domain), ranges(blocks),
                                            "StackedVStack(" + detail::joined_names(blocks) + ")"),
        blocks_(std::move(checked.blocks)) {}
  // The blocks as operators on the shared model, once every domain (kind and layout) is
  // known to be the first one's: the layouts are global, so every rank reaches the same verdict.
  static Checked shared_domain_blocks(const std::vector<StackBlock<T, Space>>& blocks,
                                      detail::StackWording wording) {
    const std::string what = wording.name;
    if (blocks.empty()) throw InvalidArgument(what + ": no operators");
    Checked checked;
    for (std::size_t i = 0; i < blocks.size(); ++i) {
      if (blocks[i].empty()) {
        throw InvalidArgument(what + ": operator " + std::to_string(i) +
                              " is an empty operator handle");
      }
      const bool same = blocks[i].visit([&](const auto& op) {
        using Op = std::decay_t<decltype(op)>;
        if constexpr (std::is_same_v<typename Op::domain_type, Domain>) {
          if (i == 0) checked.domain = op.domain();
          if (op.domain() != checked.domain) return false;
          checked.blocks.emplace_back(op);
          return true;
        } else {
          return false;
        }
      });
      if (same) continue;
      const auto kind = [](const StackBlock<T, Space>& b) {
        return std::string(b.nested_domain() ? "stacked " : "");
      };
      const std::string mine = what + ": operator " + std::to_string(i) + " (" + blocks[i].name() +
                               ") has " + wording.shared_side + " " + kind(blocks[i]) +
                               blocks[i].describe_domain();
      if (i == 0) {
        throw ShapeMismatch(mine + ", where this stack's " + wording.shared_side + " is " +
                            (std::is_same_v<Domain, Array> ? "not " : "") + "stacked");
      }
      throw ShapeMismatch(mine + ", operator 0 (" + blocks[0].name() + ") " + kind(blocks[0]) +
                          blocks[0].describe_domain());
    }
    return checked;
  }
  static StackedLayout ranges(const std::vector<StackBlock<T, Space>>& blocks) {
    StackedLayout result;
    for (const auto& block : blocks)
      block.append_range(result);
    return result;
  }
  std::vector<Block> blocks_;
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
/// The block-diagonal stack of blocks of any kind (StackBlock): a block with a stacked domain
/// (range) is a nested stack of the stacked domain (range). With a braced list of mixed
/// operators, name the scalar type: `StackedBlockDiag<double>({A, StackedBlockDiag({B, C})})`.
template <Scalar T, MemorySpace Space = Host>
StackedLinearOperator<T, Space> StackedBlockDiag(std::vector<StackBlock<T, Space>> blocks) {
  return StackedLinearOperator<T, Space>::template make<StackedBlockDiagOperator<T, Space>>(
      std::move(blocks));
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
/// The vertical stack of blocks of any range kind sharing the model type Domain
/// (DistributedArray or StackedDistributedArray) and layout; a block with a stacked range is a
/// nested stack of the data: `StackedVStack<DistributedArray<double>>({A, eps * Gradient(...)})`.
/// ShapeMismatch on every rank when a block's domain differs in kind or layout.
template <class Domain>
BasicLinearOperator<
    Domain, StackedDistributedArray<typename Domain::value_type, typename Domain::space_type>>
StackedVStack(
    std::vector<StackBlock<typename Domain::value_type, typename Domain::space_type>> blocks) {
  using T = typename Domain::value_type;
  using Space = typename Domain::space_type;
  return BasicLinearOperator<Domain, StackedDistributedArray<T, Space>>::template make<
      StackedVStackOperator<T, Space, Domain>>(blocks);
}

/// The horizontal stack: the adjoint of the StackedVStack of the adjoints, named
/// StackedHStack(...); the operators must share their range.
template <Scalar T, MemorySpace Space>
BasicLinearOperator<StackedDistributedArray<T, Space>, DistributedArray<T, Space>> StackedHStack(
    std::vector<LinearOperator<T, Space>> ops) {
  return StackedHStack<DistributedArray<T, Space>>(
      std::vector<StackBlock<T, Space>>(ops.begin(), ops.end()));
}
/// StackedHStack of a braced list of operators.
template <Scalar T, MemorySpace Space>
BasicLinearOperator<StackedDistributedArray<T, Space>, DistributedArray<T, Space>> StackedHStack(
    std::initializer_list<LinearOperator<T, Space>> ops) {
  return StackedHStack(std::vector<LinearOperator<T, Space>>(ops));
}
/// The horizontal stack of blocks of any domain kind sharing the data type Range
/// (DistributedArray or StackedDistributedArray) and layout; a block with a stacked domain is a
/// nested stack of the model: `StackedHStack<DistributedArray<double>>({A, StackedHStack(...)})`.
template <class Range>
BasicLinearOperator<StackedDistributedArray<typename Range::value_type, typename Range::space_type>,
                    Range>
StackedHStack(
    std::vector<StackBlock<typename Range::value_type, typename Range::space_type>> blocks) {
  using T = typename Range::value_type;
  using Space = typename Range::space_type;
  using Stacked = StackedDistributedArray<T, Space>;
  std::string name = "StackedHStack(" + detail::joined_names(blocks) + ")";
  for (StackBlock<T, Space>& block : blocks)
    block = block.adjoint();
  const auto vstack =
      BasicLinearOperator<Range, Stacked>::template make<StackedVStackOperator<T, Space, Range>>(
          blocks, detail::StackWording{"StackedHStack", "range"});
  return BasicLinearOperator<Stacked, Range>::template make<AdjointOperator<Range, Stacked>>(
      vstack, std::move(name));
}

DISTLOPS_EXTERN_TEMPLATE_CLASS(StackedBlockDiagOperator)
DISTLOPS_EXTERN_TEMPLATE_CLASS(StackedVStackOperator)
// The library's instantiations of the stacks over stacked models: not API.
/// \cond
#define DISTLOPS_DECLARE_NESTED_VSTACK(T, S) \
  extern template class StackedVStackOperator<T, S, StackedDistributedArray<T, S>>;
DISTLOPS_FOR_EACH_SCALAR_AND_SPACE(DISTLOPS_DECLARE_NESTED_VSTACK)
#undef DISTLOPS_DECLARE_NESTED_VSTACK
/// \endcond

}  // namespace distlops
