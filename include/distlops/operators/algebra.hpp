// SPDX-License-Identifier: BSD-3-Clause
// Copyright (c) 2026 The distlops authors
#pragma once
/// \file algebra.hpp
/// The operator objects behind the algebra of BasicLinearOperator: adjoint, transpose,
/// conjugate, scaling, sum, product, integer power and identity. Each holds at most one or two
/// workspaces, allocated on first use.

#include <iomanip>
#include <sstream>
#include <string>

#include "distlops/operators/linear_operator.hpp"

namespace distlops {

namespace detail {

template <class T>
std::string scalar_text(const T& value) {
  std::ostringstream text;
  text << std::setprecision(6);
  if constexpr (is_complex_v<T>) {
    text << "(" << value.real() << (value.imag() < 0 ? "" : "+") << value.imag() << "j)";
  } else {
    text << value;
  }
  return text.str();
}

template <class Domain, class Range>
std::string dimension_text(const BasicLinearOperator<Domain, Range>& op) {
  return std::to_string(op.rows()) + " x " + std::to_string(op.cols());
}

// y = conj(A conj(x)), conj(x) formed in `workspace`: the forward of conj(A), the adjoint of A^T.
template <class Domain, class Range>
void conjugated_forward(const BasicLinearOperator<Domain, Range>& op, Domain& workspace,
                        const Domain& x, Range& y) {
  workspace.copy_from(x).conj_in_place();
  op.implementation().forward(workspace, y);
  y.conj_in_place();
}

// x = conj(A^H conj(y)): the adjoint of conj(A), the forward of A^T.
template <class Domain, class Range>
void conjugated_adjoint(const BasicLinearOperator<Domain, Range>& op, Range& workspace,
                        const Range& y, Domain& x) {
  workspace.copy_from(y).conj_in_place();
  op.implementation().adjoint(workspace, x);
  x.conj_in_place();
}

}  // namespace detail

/// A^H: the forward of the adjoint is the adjoint of the original and vice versa.
template <class Domain, class Range>
class AdjointOperator final : public LinearOperatorBase<Range, Domain> {
 public:
  /// The operator's scalar type.
  using T = operator_scalar_t<Domain, Range>;
  /// The adjoint of `op`, named `op.name() + ".H"`.
  explicit AdjointOperator(BasicLinearOperator<Domain, Range> op)
      : AdjointOperator(op, op.name() + ".H") {}
  /// The adjoint under another name: an operator defined as the adjoint of another one
  /// (HStack, the adjoint of a VStack) keeps its own name.
  AdjointOperator(BasicLinearOperator<Domain, Range> op, std::string name)
      : LinearOperatorBase<Range, Domain>(op.range(), op.domain(), std::move(name)),
        op_(std::move(op)) {}
  /// The operator A this is the adjoint of.
  const BasicLinearOperator<Domain, Range>& original() const { return op_; }
  void forward(const Range& x, Domain& y) const override { op_.implementation().adjoint(x, y); }
  void adjoint(const Domain& y, Range& x) const override { op_.implementation().forward(y, x); }
  /// y = alpha A^H x + beta y, through A's own adjoint_add.
  void forward_add(T alpha, const Range& x, T beta, Domain& y) const override {
    op_.implementation().adjoint_add(alpha, x, beta, y);
  }
  /// x = alpha A y + beta x, through A's own forward_add.
  void adjoint_add(T alpha, const Domain& y, T beta, Range& x) const override {
    op_.implementation().forward_add(alpha, y, beta, x);
  }

  bool runs_user_code() const override { return op_.implementation().runs_user_code(); }

 private:
  BasicLinearOperator<Domain, Range> op_;
};

/// conj(A) x = conj(A conj(x)); for real types this is A itself.
template <class Domain, class Range>
class ConjugateOperator final : public LinearOperatorBase<Domain, Range> {
 public:
  /// The conjugate of `op`, named `conj(...)`.
  explicit ConjugateOperator(BasicLinearOperator<Domain, Range> op)
      : LinearOperatorBase<Domain, Range>(op.domain(), op.range(), "conj(" + op.name() + ")"),
        op_(std::move(op)) {}
  /// The operator A this is the conjugate of.
  const BasicLinearOperator<Domain, Range>& original() const { return op_; }
  void forward(const Domain& x, Range& y) const override {
    detail::conjugated_forward(op_, this->domain_workspace(), x, y);
  }
  void adjoint(const Range& y, Domain& x) const override {
    detail::conjugated_adjoint(op_, this->range_workspace(), y, x);
  }

  bool runs_user_code() const override { return op_.implementation().runs_user_code(); }

 private:
  BasicLinearOperator<Domain, Range> op_;
};

/// A^T = conj(A^H): A^T y = conj(A^H conj(y)), and (A^T)^H x = conj(A conj(x)).
template <class Domain, class Range>
class TransposeOperator final : public LinearOperatorBase<Range, Domain> {
 public:
  /// The transpose of `op`, named `op.name() + ".T"`.
  explicit TransposeOperator(BasicLinearOperator<Domain, Range> op)
      : LinearOperatorBase<Range, Domain>(op.range(), op.domain(), op.name() + ".T"),
        op_(std::move(op)) {}
  /// The operator A this is the transpose of.
  const BasicLinearOperator<Domain, Range>& original() const { return op_; }
  // The domain of A^T is A's range, its range A's domain.
  void forward(const Range& y, Domain& x) const override {
    detail::conjugated_adjoint(op_, this->domain_workspace(), y, x);
  }
  void adjoint(const Domain& x, Range& y) const override {
    detail::conjugated_forward(op_, this->range_workspace(), x, y);
  }

  bool runs_user_code() const override { return op_.implementation().runs_user_code(); }

 private:
  BasicLinearOperator<Domain, Range> op_;
};

/// s A.
template <class Domain, class Range>
class ScaledOperator final : public LinearOperatorBase<Domain, Range> {
 public:
  /// The operator's scalar type.
  using T = operator_scalar_t<Domain, Range>;
  /// `scale` times `op`.
  ScaledOperator(T scale, BasicLinearOperator<Domain, Range> op)
      : LinearOperatorBase<Domain, Range>(op.domain(), op.range(),
                                          detail::scalar_text(scale) + " * " + op.name()),
        scale_(scale),
        op_(std::move(op)) {}
  /// The factor s.
  T scale() const { return scale_; }
  /// The operator A that is scaled.
  const BasicLinearOperator<Domain, Range>& original() const { return op_; }
  void forward(const Domain& x, Range& y) const override {
    op_.implementation().forward_add(scale_, x, T(0), y);
  }
  void adjoint(const Range& y, Domain& x) const override {
    op_.implementation().adjoint_add(conjugate(scale_), y, T(0), x);
  }
  void forward_add(T alpha, const Domain& x, T beta, Range& y) const override {
    op_.implementation().forward_add(alpha * scale_, x, beta, y);
  }
  void adjoint_add(T alpha, const Range& y, T beta, Domain& x) const override {
    op_.implementation().adjoint_add(alpha * conjugate(scale_), y, beta, x);
  }

  bool runs_user_code() const override { return op_.implementation().runs_user_code(); }

 private:
  T scale_;
  BasicLinearOperator<Domain, Range> op_;
};

/// A + sign B, accumulated in the output without temporaries.
template <class Domain, class Range>
class SumOperator final : public LinearOperatorBase<Domain, Range> {
 public:
  /// The operator's scalar type.
  using T = operator_scalar_t<Domain, Range>;
  /// a + sign b; `sign` is 1 or -1. The layouts are checked by the caller (operator+).
  SumOperator(BasicLinearOperator<Domain, Range> a, BasicLinearOperator<Domain, Range> b, T sign)
      : LinearOperatorBase<Domain, Range>(
            a.domain(), a.range(),
            "(" + a.name() + (sign == T(1) ? " + " : " - ") + b.name() + ")"),
        a_(std::move(a)),
        b_(std::move(b)),
        sign_(sign) {}
  void forward(const Domain& x, Range& y) const override {
    a_.implementation().forward(x, y);
    b_.implementation().forward_add(sign_, x, T(1), y);
  }
  void adjoint(const Range& y, Domain& x) const override {
    a_.implementation().adjoint(y, x);
    b_.implementation().adjoint_add(conjugate(sign_), y, T(1), x);
  }
  void forward_add(T alpha, const Domain& x, T beta, Range& y) const override {
    a_.implementation().forward_add(alpha, x, beta, y);
    b_.implementation().forward_add(alpha * sign_, x, T(1), y);
  }
  void adjoint_add(T alpha, const Range& y, T beta, Domain& x) const override {
    a_.implementation().adjoint_add(alpha, y, beta, x);
    b_.implementation().adjoint_add(alpha * conjugate(sign_), y, T(1), x);
  }

  bool runs_user_code() const override {
    return a_.implementation().runs_user_code() || b_.implementation().runs_user_code();
  }

 private:
  BasicLinearOperator<Domain, Range> a_, b_;
  T sign_;
};

/// A B with one workspace vector between them (B's range).
template <class Domain, class Middle, class Range>
class ProductOperator final : public LinearOperatorBase<Domain, Range> {
 public:
  /// The operator's scalar type.
  using T = operator_scalar_t<Domain, Range>;
  /// a * b. The layouts are checked by the caller (operator*).
  ProductOperator(BasicLinearOperator<Middle, Range> a, BasicLinearOperator<Domain, Middle> b)
      : LinearOperatorBase<Domain, Range>(b.domain(), a.range(),
                                          "(" + a.name() + " * " + b.name() + ")"),
        a_(std::move(a)),
        b_(std::move(b)) {}
  void forward(const Domain& x, Range& y) const override {
    Middle& middle = workspace();
    b_.implementation().forward(x, middle);
    a_.implementation().forward(middle, y);
  }
  void adjoint(const Range& y, Domain& x) const override {
    Middle& middle = workspace();
    a_.implementation().adjoint(y, middle);
    b_.implementation().adjoint(middle, x);
  }
  void forward_add(T alpha, const Domain& x, T beta, Range& y) const override {
    if constexpr (std::is_convertible_v<T, operator_scalar_t<Middle, Range>>) {
      Middle& middle = workspace();
      b_.implementation().forward(x, middle);
      a_.implementation().forward_add(alpha, middle, beta, y);
    } else {
      // Complex scalars that A, an operator from real arrays, does not take (a product through
      // real values, such as F F^H of a real-to-complex F): through the range workspace.
      LinearOperatorBase<Domain, Range>::forward_add(alpha, x, beta, y);
    }
  }
  void adjoint_add(T alpha, const Range& y, T beta, Domain& x) const override {
    if constexpr (std::is_convertible_v<T, operator_scalar_t<Domain, Middle>>) {
      Middle& middle = workspace();
      a_.implementation().adjoint(y, middle);
      b_.implementation().adjoint_add(alpha, middle, beta, x);
    } else {
      LinearOperatorBase<Domain, Range>::adjoint_add(alpha, y, beta, x);
    }
  }

  bool runs_user_code() const override {
    return a_.implementation().runs_user_code() || b_.implementation().runs_user_code();
  }

 private:
  Middle& workspace() const {
    if (!middle_) middle_.emplace(b_.range());
    return *middle_;
  }
  BasicLinearOperator<Middle, Range> a_;
  BasicLinearOperator<Domain, Middle> b_;
  mutable std::optional<Middle> middle_;
};

/// A^k for a square operator (domain layout equal to range layout), k >= 0; two workspaces
/// whatever k.
template <class Vector>
class PowerOperator final : public LinearOperatorBase<Vector, Vector> {
 public:
  /// `op` applied `exponent` times (checked by pow).
  PowerOperator(BasicLinearOperator<Vector, Vector> op, int exponent)
      : LinearOperatorBase<Vector, Vector>(op.domain(), op.range(),
                                           op.name() + "^" + std::to_string(exponent)),
        op_(std::move(op)),
        exponent_(exponent) {}
  void forward(const Vector& x, Vector& y) const override { repeat(x, y, false); }
  void adjoint(const Vector& y, Vector& x) const override { repeat(y, x, true); }

  bool runs_user_code() const override { return op_.implementation().runs_user_code(); }

 private:
  void step(const Vector& in, Vector& out, bool adjoint) const {
    if (adjoint) {
      op_.implementation().adjoint(in, out);
    } else {
      op_.implementation().forward(in, out);
    }
  }
  void repeat(const Vector& in, Vector& out, bool adjoint) const {
    if (exponent_ == 0) {
      out.copy_from(in);
      return;
    }
    if (exponent_ == 1) {
      step(in, out, adjoint);
      return;
    }
    // in -> a -> b -> a ... -> out: the last step writes into out directly.
    Vector& a = this->range_workspace();
    Vector& b = this->domain_workspace();
    step(in, a, adjoint);
    Vector* current = &a;
    Vector* next = &b;
    for (int k = 1; k < exponent_ - 1; ++k) {
      step(*current, *next, adjoint);
      std::swap(current, next);
    }
    step(*current, out, adjoint);
  }
  BasicLinearOperator<Vector, Vector> op_;
  int exponent_;
};

/// The identity on a layout.
template <class Vector>
class IdentityOperator final : public LinearOperatorBase<Vector, Vector> {
 public:
  /// The library's own code: nothing to agree on after an apply.
  bool runs_user_code() const override { return false; }
  /// The scalar type of the vectors.
  using T = typename Vector::value_type;
  /// The identity on vectors of `layout`, named "Identity".
  explicit IdentityOperator(const vector_layout_t<Vector>& layout)
      : LinearOperatorBase<Vector, Vector>(layout, layout, "Identity") {}
  void forward(const Vector& x, Vector& y) const override { y.copy_from(x); }
  void adjoint(const Vector& y, Vector& x) const override { x.copy_from(y); }
  /// y = alpha x + beta y.
  void forward_add(T alpha, const Vector& x, T beta, Vector& y) const override {
    y.axpby(alpha, x, beta);
  }
  /// x = alpha y + beta x.
  void adjoint_add(T alpha, const Vector& y, T beta, Vector& x) const override {
    x.axpby(alpha, y, beta);
  }
};

namespace detail {

template <class D, class R>
BasicLinearOperator<R, D> make_adjoint(const BasicLinearOperator<D, R>& op) {
  // (A^H)^H is A itself: unwrap instead of stacking wrappers.
  if (const auto* adjoint = dynamic_cast<const AdjointOperator<R, D>*>(&op.implementation())) {
    return adjoint->original();
  }
  return BasicLinearOperator<R, D>::template make<AdjointOperator<D, R>>(op);
}

// Whether the operators between vectors of D and R are all real (transpose is adjoint, conj is
// the identity).
template <class D, class R>
inline constexpr bool real_operator_v =
    !is_complex_v<typename D::value_type> && !is_complex_v<typename R::value_type>;

template <class D, class R>
BasicLinearOperator<R, D> make_transpose(const BasicLinearOperator<D, R>& op) {
  if constexpr (real_operator_v<D, R>) {
    return make_adjoint(op);
  } else {
    return BasicLinearOperator<R, D>::template make<TransposeOperator<D, R>>(op);
  }
}

template <class D, class R>
BasicLinearOperator<D, R> make_conjugate(const BasicLinearOperator<D, R>& op) {
  if constexpr (real_operator_v<D, R>) {
    return op;
  } else {
    if (const auto* conj = dynamic_cast<const ConjugateOperator<D, R>*>(&op.implementation())) {
      return conj->original();
    }
    return BasicLinearOperator<D, R>::template make<ConjugateOperator<D, R>>(op);
  }
}

template <class D, class M, class R>
BasicLinearOperator<D, R> make_product(const BasicLinearOperator<M, R>& a,
                                       const BasicLinearOperator<D, M>& b) {
  if (!(a.domain() == b.range())) {
    throw ShapeMismatch("operator product " + a.name() + " * " + b.name() + ": the domain of " +
                        a.name() + " (" + dimension_text(a) + ", " +
                        vector_traits<M>::describe(a.domain()) + ") is not the range of " +
                        b.name() + " (" + dimension_text(b) + ", " +
                        vector_traits<M>::describe(b.range()) + ")");
  }
  return BasicLinearOperator<D, R>::template make<ProductOperator<D, M, R>>(a, b);
}

template <class D, class R>
BasicLinearOperator<D, R> make_sum(const BasicLinearOperator<D, R>& a,
                                   const BasicLinearOperator<D, R>& b,
                                   operator_scalar_t<D, R> sign) {
  if (!(a.domain() == b.domain()) || !(a.range() == b.range())) {
    throw ShapeMismatch(std::string("operator ") +
                        (sign == operator_scalar_t<D, R>(1) ? "sum " : "difference ") + a.name() +
                        " and " + b.name() + ": the operators map different spaces (" +
                        dimension_text(a) + " from " + vector_traits<D>::describe(a.domain()) +
                        " to " + vector_traits<R>::describe(a.range()) + " vs " +
                        dimension_text(b) + " from " + vector_traits<D>::describe(b.domain()) +
                        " to " + vector_traits<R>::describe(b.range()) + ")");
  }
  return BasicLinearOperator<D, R>::template make<SumOperator<D, R>>(a, b, sign);
}

template <class D, class R>
BasicLinearOperator<D, R> make_scaled(operator_scalar_t<D, R> scale,
                                      const BasicLinearOperator<D, R>& op) {
  // s (t A) = (s t) A.
  if (const auto* scaled = dynamic_cast<const ScaledOperator<D, R>*>(&op.implementation())) {
    return BasicLinearOperator<D, R>::template make<ScaledOperator<D, R>>(scale * scaled->scale(),
                                                                          scaled->original());
  }
  return BasicLinearOperator<D, R>::template make<ScaledOperator<D, R>>(scale, op);
}

}  // namespace detail

/// A^k for k >= 0 (A^0 is the identity). The operator must map a layout onto itself.
template <class V>
BasicLinearOperator<V, V> pow(const BasicLinearOperator<V, V>& op, int exponent) {
  if (exponent < 0) {
    throw InvalidArgument("pow(" + op.name() + ", " + std::to_string(exponent) +
                          "): the exponent must be non-negative");
  }
  if (!(op.domain() == op.range())) {
    throw ShapeMismatch("pow(" + op.name() + "): the operator is not square (" +
                        vector_traits<V>::describe(op.domain()) + " to " +
                        vector_traits<V>::describe(op.range()) + ")");
  }
  if (exponent == 1) return op;
  return BasicLinearOperator<V, V>::template make<PowerOperator<V>>(op, exponent);
}

/// The identity operator on vectors of `layout`.
template <class V>
BasicLinearOperator<V, V> identity(const vector_layout_t<V>& layout) {
  return BasicLinearOperator<V, V>::template make<IdentityOperator<V>>(layout);
}

}  // namespace distlops
