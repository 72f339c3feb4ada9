// SPDX-License-Identifier: BSD-3-Clause
// Copyright (c) 2026 The distlops authors
#pragma once
/// \file reshape.hpp
/// `reshape(op, domain, range)`: an operator seen with other layouts whose every rank holds as
/// many elements, the vectors passed on as views (no copy, no communication).
///
/// PyLops-MPI keeps every vector flat, so any two of its operators with as many rows stack and
/// add. distlops' operators declare the layouts they map: the stacks of local operators
/// (BlockDiag, VStack, HStack) map flat vectors, the derivatives and FFTs N-d arrays. Applying
/// one to a vector of the other shape works (the vector is viewed), but stacking or adding two
/// such operators needs equal layouts:
///
///     const Layout grid(comm, {ny, nx, nz});                  // split along y
///     const auto G = reshape(BlockDiag(blocks, comm), grid, grid);
///     const auto A = StackedVStack<double, Host>({G, eps * Laplacian<double>(grid, {...})});
///
/// `Reshape<T>(from, to)` is the operator of that view itself: the identity from vectors of
/// layout `from` to vectors of layout `to` (same local sizes), whose apply copies this rank's
/// elements and moves nothing between ranks. It composes where a product needs matching layouts
/// (`Reshape<double>(flat, grid) * F * Reshape<double>(grid, flat)`).

#include <string>

#include "distlops/core/kernels.hpp"
#include "distlops/operators/linear_operator.hpp"

namespace distlops {

namespace detail {

/// Whether vectors of layout `from` can be seen with layout `to` without a copy: the rule of
/// vector_traits::can_view, on layouts.
inline bool viewable_as(const Layout& from, const Layout& to) {
  if (!from.valid() || !to.valid()) return false;
  const bool partitions_fit =
      from.partition() == to.partition() || (from.replicated() && to.replicated());
  if (!partitions_fit || from.global_size() != to.global_size() || from.size() != to.size() ||
      from.mask() != to.mask()) {
    return false;
  }
  for (int r = 0; r < from.size(); ++r) {
    if (from.local_size(r) != to.local_size(r)) return false;
  }
  return from.communicator().congruent(to.communicator());
}
inline bool viewable_as(const StackedLayout& from, const StackedLayout& to) {
  if (from.size() != to.size()) return false;
  for (std::size_t i = 0; i < from.size(); ++i) {
    if (from.is_nested(i) != to.is_nested(i)) return false;
    const bool fits =
        from.is_nested(i) ? viewable_as(from.nested(i), to.nested(i)) : viewable_as(from[i], to[i]);
    if (!fits) return false;
  }
  return true;
}
inline bool viewable_as(const Shape& from, const Shape& to) {
  return element_count(from) == element_count(to);
}

}  // namespace detail

/// `op` with domain layout `domain` and range layout `range`: applying it views its vectors
/// with op's own layouts and applies op.
template <class Domain, class Range = Domain>
class ReshapedOperator final : public LinearOperatorBase<Domain, Range> {
 public:
  /// The operator's scalar type.
  using T = operator_scalar_t<Domain, Range>;
  /// `op` with layouts `domain` and `range` (checked by reshape()); keeps op's name.
  ReshapedOperator(BasicLinearOperator<Domain, Range> op, vector_layout_t<Domain> domain,
                   vector_layout_t<Range> range)
      : LinearOperatorBase<Domain, Range>(std::move(domain), std::move(range), op.name()),
        op_(std::move(op)) {}
  /// The operator seen with the new layouts.
  const BasicLinearOperator<Domain, Range>& original() const { return op_; }
  /// y = op x, x and y viewed with op's layouts.
  void forward(const Domain& x, Range& y) const override { op_.apply(x, y); }
  /// x = op^H y, x and y viewed with op's layouts.
  void adjoint(const Range& y, Domain& x) const override { op_.apply_adjoint(y, x); }
  /// y = alpha op x + beta y.
  void forward_add(T alpha, const Domain& x, T beta, Range& y) const override {
    op_.apply_add(alpha, x, beta, y);
  }
  /// x = alpha op^H y + beta x.
  void adjoint_add(T alpha, const Range& y, T beta, Domain& x) const override {
    op_.apply_adjoint_add(alpha, y, beta, x);
  }

  bool runs_user_code() const override { return op_.implementation().runs_user_code(); }

 private:
  BasicLinearOperator<Domain, Range> op_;
};

/// `op` seen with layouts `domain` and `range`, which must hold as many elements on every rank
/// as op's domain and range (same partition kind, mask and communicator group): a flat
/// BlockDiag seen on an N-d grid, an N-d operator seen on flat vectors. ShapeMismatch on every
/// rank otherwise (layouts are known to every rank). No communication.
template <class Domain, class Range>
BasicLinearOperator<Domain, Range> reshape(const BasicLinearOperator<Domain, Range>& op,
                                           const vector_layout_t<Domain>& domain,
                                           const vector_layout_t<Range>& range) {
  const auto check = [&](const auto& from, const auto& to, const char* side, const auto& traits) {
    if (!detail::viewable_as(from, to)) {
      throw ShapeMismatch("reshape(" + op.name() + "): the " + side + " " + traits.describe(from) +
                          " does not hold as many elements on every " + "rank as the operator's " +
                          traits.describe(to));
    }
  };
  check(domain, op.domain(), "domain", vector_traits<Domain>{});
  check(range, op.range(), "range", vector_traits<Range>{});
  if (domain == op.domain() && range == op.range()) return op;
  // Reshaping a reshaped operator reshapes the original (which may need no wrapper at all).
  if (const auto* reshaped =
          dynamic_cast<const ReshapedOperator<Domain, Range>*>(&op.implementation())) {
    return reshape(reshaped->original(), domain, range);
  }
  return BasicLinearOperator<Domain, Range>::template make<ReshapedOperator<Domain, Range>>(
      op, domain, range);
}

/// The identity between two layouts of equal local sizes (distributed arrays) or two shapes of
/// as many elements (local arrays): this rank's elements are copied in order.
template <class Vector>
class ReshapeOperator final : public LinearOperatorBase<Vector> {
 public:
  /// The library's own code: nothing to agree on after an apply.
  bool runs_user_code() const override { return false; }
  /// The scalar type of the vectors.
  using T = typename Vector::value_type;
  /// The memory space of the vectors.
  using Space = typename Vector::space_type;
  /// The identity from layout (shape) `from` to `to`.
  /// @throws ShapeMismatch on every rank unless every rank holds as many elements in both;
  /// InvalidArgument on every rank when `from` or `to` differs between ranks (distributed
  /// arrays: one allreduce agrees on both).
  ReshapeOperator(vector_layout_t<Vector> from, vector_layout_t<Vector> to)
      : LinearOperatorBase<Vector>(std::move(from), std::move(to), "Reshape") {
    const auto check = [&] {
      if (!detail::viewable_as(this->domain(), this->range())) {
        const vector_traits<Vector> traits;
        throw ShapeMismatch("Reshape: " + traits.describe(this->range()) +
                            " does not hold as many elements on every rank as " +
                            traits.describe(this->domain()));
      }
    };
    if constexpr (std::is_same_v<vector_layout_t<Vector>, Layout>) {
      if (const Communicator* comm = vector_traits<Vector>::communicator(this->domain())) {
        Fingerprint layouts;
        layouts.add(this->domain().fingerprint());
        layouts.add(this->range().valid() ? this->range().fingerprint() : std::uint64_t{0});
        collective_check(*comm, layouts, "Reshape: the layouts from and to", check);
        return;
      }
    }
    check();
  }
  void forward(const Vector& x, Vector& y) const override { copy(x, y); }
  void adjoint(const Vector& y, Vector& x) const override { copy(y, x); }
  /// y = alpha x + beta y, element by element in this rank's order.
  void forward_add(T alpha, const Vector& x, T beta, Vector& y) const override {
    accumulate(alpha, x, beta, y);
  }
  /// x = alpha y + beta x, element by element in this rank's order.
  void adjoint_add(T alpha, const Vector& y, T beta, Vector& x) const override {
    accumulate(alpha, y, beta, x);
  }

 private:
  static Index count(const Vector& v) {
    if constexpr (requires { v.local_size(); }) {
      return v.local_size();
    } else {
      return v.size();
    }
  }
  static void copy(const Vector& in, Vector& out) {
    kernels::copy(Space{}, count(in), in.data(), out.data());
  }
  static void accumulate(T alpha, const Vector& in, T beta, Vector& out) {
    const Index n = count(in);
    if (beta == T(0)) {  // out is not read: it may hold NaN
      kernels::copy(Space{}, n, in.data(), out.data());
      if (alpha != T(1)) kernels::scale(Space{}, n, alpha, out.data());
    } else {
      kernels::axpby(Space{}, n, alpha, in.data(), beta, out.data());
    }
  }
};

/// The identity from vectors of layout `from` to vectors of layout `to`; ShapeMismatch on every
/// rank unless every rank holds as many elements in both (same partition kind, mask and group),
/// InvalidArgument when `from` or `to` differs between ranks. Collective: one allreduce.
template <Scalar T, MemorySpace Space = Host>
LinearOperator<T, Space> Reshape(const Layout& from, const Layout& to) {
  return LinearOperator<T, Space>::template make<ReshapeOperator<DistributedArray<T, Space>>>(from,
                                                                                              to);
}
/// The identity from local arrays of shape `from` to local arrays of shape `to` (as many
/// elements).
template <Scalar T, MemorySpace Space = Host>
LocalOperator<T, Space> Reshape(const Shape& from, const Shape& to) {
  return LocalOperator<T, Space>::template make<ReshapeOperator<LocalArray<T, Space>>>(from, to);
}

}  // namespace distlops
