// SPDX-License-Identifier: BSD-3-Clause
// Copyright (c) 2026 The distlops authors
#pragma once
/// \file linear_operator.hpp
/// Linear operators. An operator object derives from `LinearOperatorBase<Domain, Range>` and
/// implements y = A x (`forward`) and x = A^H y (`adjoint`); users hold it through
/// `BasicLinearOperator<Domain, Range>`, a cheap-to-copy handle to the immutable object, and
/// compose handles like matrices: `2.0 * A.adjoint() * B + C`.
///
/// Domain and Range are vector types: DistributedArray (LinearOperator), StackedDistributedArray
/// (StackedLinearOperator) or LocalArray (LocalOperator, acting on one rank's data). Their
/// scalar types are usually the same; they may also be a real type and the complex type of its
/// precision (a real-to-complex FFT maps real arrays to complex ones), see operator_scalar_t.
///
/// Operators keep their temporaries in workspaces allocated on first use: applying an operator
/// a second time allocates nothing. Workspaces make operator objects unsafe to apply from
/// several threads at once.

#include <memory>
#include <optional>
#include <string>
#include <utility>

#include "distlops/core/error.hpp"
#include "distlops/core/log_view.hpp"
#include "distlops/operators/vdot_sink.hpp"
#include "distlops/operators/vector_traits.hpp"

namespace distlops {

/// The scalars an operator from vectors of Domain to vectors of Range is linear over, its
/// `value_type`: the scalar type of both when they hold the same one; the real type when one
/// holds real values and the other complex values of the same precision. Such a mixed operator
/// (a real-to-complex FFT, or its adjoint) is linear over the reals only: it is scaled by real
/// numbers, and its adjoint is the adjoint for the real inner product Re <u, v> of the complex
/// side, so that Re <A x, y> = <x, A^H y> for real x (see dottest).
template <class Domain, class Range>
using operator_scalar_t =
    std::conditional_t<std::is_same_v<typename Domain::value_type, typename Range::value_type>,
                       typename Domain::value_type, real_type_t<typename Domain::value_type>>;

/// Base class of every operator object: A maps vectors of the domain layout to vectors of
/// the range layout.
template <class Domain, class Range = Domain>
class LinearOperatorBase {
 public:
  /// The type of x in y = A x.
  using domain_type = Domain;
  /// The type of y in y = A x.
  using range_type = Range;
  /// The scalars the operator is linear over (see operator_scalar_t).
  using value_type = operator_scalar_t<Domain, Range>;
  /// The memory space of both vectors (Host or Cuda).
  using space_type = typename Domain::space_type;
  /// The layout type of the domain (Layout, StackedLayout or a local shape).
  using domain_layout_type = vector_layout_t<Domain>;
  /// The layout type of the range.
  using range_layout_type = vector_layout_t<Range>;
  static_assert(std::is_same_v<real_type_t<typename Domain::value_type>,
                               real_type_t<typename Range::value_type>>,
                "domain and range must hold scalars of the same precision");
  static_assert(std::is_same_v<space_type, typename Range::space_type>,
                "domain and range must live in the same memory space");

  /// Records the layouts of x and y and the name that errors and logs show.
  LinearOperatorBase(domain_layout_type domain, range_layout_type range, std::string name)
      : domain_(std::move(domain)), range_(std::move(range)), name_(std::move(name)) {}
  virtual ~LinearOperatorBase() = default;
  LinearOperatorBase(const LinearOperatorBase&) = delete;
  LinearOperatorBase& operator=(const LinearOperatorBase&) = delete;

  /// The layout of x.
  const domain_layout_type& domain() const { return domain_; }
  /// The layout of y.
  const range_layout_type& range() const { return range_; }
  /// The readable name used in error messages and the event log.
  const std::string& name() const { return name_; }
  /// Whether applying runs code the library does not control: true for an operator of the
  /// user's (a subclass of this class written outside the library), false for the library's
  /// own, which override it (composites and callables say what they hold). Such code may throw
  /// on some ranks only: an apply through the handle of an operator that runs user code agrees
  /// on its outcome over the ranks (one allreduce of four words after it; collective_check.hpp's
  /// agree_on_user_code), and the distributed operators that hold local ones agree on their
  /// blocks' failures. A user's operator that never throws on some ranks only may return false.
  virtual bool runs_user_code() const { return true; }

  /// y = A x. x has the domain layout and y the range layout; y may hold garbage on entry;
  /// x and y never alias.
  virtual void forward(const Domain& x, Range& y) const = 0;
  /// x = A^H y.
  virtual void adjoint(const Range& y, Domain& x) const = 0;
  /// y = alpha A x + beta y (y is not read when beta == 0). The default goes through a
  /// workspace; operators that can accumulate directly override it.
  virtual void forward_add(value_type alpha, const Domain& x, value_type beta, Range& y) const {
    if (beta == value_type(0)) {
      forward(x, y);
      if (alpha != value_type(1)) y.scale(alpha);
      return;
    }
    Range& scratch = range_workspace();
    forward(x, scratch);
    y.axpby(alpha, scratch, beta);
  }
  /// x = alpha A^H y + beta x (x is not read when beta == 0).
  virtual void adjoint_add(value_type alpha, const Range& y, value_type beta, Domain& x) const {
    if (beta == value_type(0)) {
      adjoint(y, x);
      if (alpha != value_type(1)) x.scale(alpha);
      return;
    }
    Domain& scratch = domain_workspace();
    adjoint(y, scratch);
    x.axpby(alpha, scratch, beta);
  }
  /// y = A x and, in the same pass, this rank's partial sums of x^H y added into `sink`
  /// (vdot_sink.hpp); returns true. The default applies the operator and returns false without
  /// touching the sink: the caller then reduces x^H y itself (ScalarSlots::add_apply_real_vdot),
  /// so that an operator without a fused kernel gives exactly the results of apply + vdot.
  /// Operators override it where reading x once instead of twice pays (the stencil operators on
  /// the host); operators whose domain and range differ keep the default.
  virtual bool forward_vdot(const Domain& x, Range& y, VdotSink& sink) const {
    (void)sink;
    forward(x, y);
    return false;
  }

 protected:
  /// A range vector owned by the operator, allocated on first use.
  Range& range_workspace() const {
    if (!range_workspace_) range_workspace_.emplace(range_);
    return *range_workspace_;
  }
  /// A domain vector owned by the operator, allocated on first use.
  Domain& domain_workspace() const {
    if (!domain_workspace_) domain_workspace_.emplace(domain_);
    return *domain_workspace_;
  }

 private:
  domain_layout_type domain_;
  range_layout_type range_;
  std::string name_;
  mutable std::optional<Range> range_workspace_;
  mutable std::optional<Domain> domain_workspace_;
};

template <class Domain, class Range>
class BasicLinearOperator;

namespace detail {
template <class D, class R>
BasicLinearOperator<R, D> make_adjoint(const BasicLinearOperator<D, R>& op);
template <class D, class R>
BasicLinearOperator<R, D> make_transpose(const BasicLinearOperator<D, R>& op);
template <class D, class R>
BasicLinearOperator<D, R> make_conjugate(const BasicLinearOperator<D, R>& op);
template <class D, class M, class R>
BasicLinearOperator<D, R> make_product(const BasicLinearOperator<M, R>& a,
                                       const BasicLinearOperator<D, M>& b);
template <class D, class R>
BasicLinearOperator<D, R> make_sum(const BasicLinearOperator<D, R>& a,
                                   const BasicLinearOperator<D, R>& b,
                                   operator_scalar_t<D, R> sign);
template <class D, class R>
BasicLinearOperator<D, R> make_scaled(operator_scalar_t<D, R> scale,
                                      const BasicLinearOperator<D, R>& op);
}  // namespace detail

/// Handle to an operator object; copies share the object.
template <class Domain, class Range = Domain>
class BasicLinearOperator {
 public:
  /// The type of x in y = A x.
  using domain_type = Domain;
  /// The type of y in y = A x.
  using range_type = Range;
  /// The scalars of scaling and apply_add (operator_scalar_t: real for an operator between
  /// real and complex arrays).
  using value_type = operator_scalar_t<Domain, Range>;
  /// The real type of value_type (norms, tolerances).
  using real_type = real_type_t<value_type>;
  /// The memory space of both vectors (Host or Cuda).
  using space_type = typename Domain::space_type;
  /// The layout type of the domain.
  using domain_layout_type = vector_layout_t<Domain>;
  /// The layout type of the range.
  using range_layout_type = vector_layout_t<Range>;
  /// The operator object type the handle points to.
  using Implementation = LinearOperatorBase<Domain, Range>;

  /// An empty handle; only assignable.
  BasicLinearOperator() = default;
  /// Wraps an operator object; shares it with other handles.
  /// @throws InvalidArgument if `implementation` is null.
  explicit BasicLinearOperator(std::shared_ptr<const Implementation> implementation)
      : implementation_(std::move(implementation)) {
    if (!implementation_) throw InvalidArgument("LinearOperator: null operator object");
  }
  /// Builds the operator object of type Op from `args`.
  template <class Op, class... Args>
  static BasicLinearOperator make(Args&&... args) {
    return BasicLinearOperator(std::make_shared<const Op>(std::forward<Args>(args)...));
  }

  /// True for a default-constructed handle, which every other call rejects.
  bool empty() const { return !implementation_; }
  /// The operator object (to reach an operator's own accessors through a dynamic_cast).
  /// @throws InvalidArgument on an empty handle.
  const Implementation& implementation() const { return get(); }
  /// The shared pointer to the operator object (null for an empty handle).
  const std::shared_ptr<const Implementation>& shared_implementation() const {
    return implementation_;
  }
  /// The layout of x (every call below throws InvalidArgument on an empty handle).
  const domain_layout_type& domain() const { return get().domain(); }
  /// The layout of y.
  const range_layout_type& range() const { return get().range(); }
  /// Global number of rows (range size).
  Index rows() const { return vector_traits<Range>::size(range()); }
  /// Global number of columns (domain size).
  Index cols() const { return vector_traits<Domain>::size(domain()); }
  /// The readable name used in error messages and the event log.
  const std::string& name() const { return get().name(); }

  /// y = A x in a new vector of the range layout. x may also be a vector of another layout
  /// whose data fit the domain without copy (e.g. a flat vector with the same split).
  Range apply(const Domain& x) const {
    Range y(range());
    apply(x, y);
    return y;
  }
  /// y = A x into caller-owned y (range layout or a view-compatible one): no allocation
  /// beyond the operator's workspaces on the first call.
  void apply(const Domain& x, Range& y) const {
    forward_call(".apply", x, y, [&](const Implementation& op, const Domain& in, Range& out) {
      op.forward(in, out);
    });
  }
  /// y = alpha A x + beta y (y is not read when beta == 0).
  void apply_add(value_type alpha, const Domain& x, value_type beta, Range& y) const {
    forward_call(".apply_add", x, y, [&](const Implementation& op, const Domain& in, Range& out) {
      op.forward_add(alpha, in, beta, out);
    });
  }
  /// y = A x and, where the operator has a fused kernel, this rank's partial sums of x^H y
  /// added into `sink` in the same pass: returns whether it did (LinearOperatorBase::forward_vdot).
  /// On false only y = A x was computed and the sink was not touched.
  bool apply_vdot(const Domain& x, Range& y, VdotSink& sink) const {
    return forward_call(".apply_vdot", x, y,
                        [&](const Implementation& op, const Domain& in, Range& out) {
                          return op.forward_vdot(in, out, sink);
                        });
  }
  /// x = A^H y in a new vector of the domain layout.
  Domain apply_adjoint(const Range& y) const {
    Domain x(domain());
    apply_adjoint(y, x);
    return x;
  }
  /// x = A^H y into caller-owned x (domain layout or a view-compatible one): no allocation beyond
  /// the operator's workspaces on the first call.
  void apply_adjoint(const Range& y, Domain& x) const {
    adjoint_call(
        ".apply_adjoint", y, x,
        [&](const Implementation& op, const Range& in, Domain& out) { op.adjoint(in, out); });
  }
  /// x = alpha A^H y + beta x (x is not read when beta == 0).
  void apply_adjoint_add(value_type alpha, const Range& y, value_type beta, Domain& x) const {
    adjoint_call(".apply_adjoint_add", y, x,
                 [&](const Implementation& op, const Range& in, Domain& out) {
                   op.adjoint_add(alpha, in, beta, out);
                 });
  }
  /// A x, as a shorthand for apply.
  Range operator*(const Domain& x) const { return apply(x); }

  /// The adjoint A^H (its adjoint is A again).
  BasicLinearOperator<Range, Domain> adjoint() const { return detail::make_adjoint(*this); }
  /// The adjoint A^H, PyLops' `.H`.
  BasicLinearOperator<Range, Domain> H() const { return adjoint(); }
  /// The transpose A^T = conj(A^H).
  BasicLinearOperator<Range, Domain> transpose() const { return detail::make_transpose(*this); }
  /// The element-wise complex conjugate conj(A) (A itself for real types).
  BasicLinearOperator conj() const { return detail::make_conjugate(*this); }

  // ---- algebra ---------------------------------------------------------------------------------
  /// Composition: (A * B) x = A (B x). B's range must be A's domain (ShapeMismatch otherwise).
  template <class D2>
  friend BasicLinearOperator<D2, Range> operator*(const BasicLinearOperator& a,
                                                  const BasicLinearOperator<D2, Domain>& b) {
    return detail::make_product(a, b);
  }
  /// Sum: (A + B) x = A x + B x. Both must have the same domain and range layouts
  /// (ShapeMismatch otherwise).
  friend BasicLinearOperator operator+(const BasicLinearOperator& a, const BasicLinearOperator& b) {
    return detail::make_sum(a, b, value_type(1));
  }
  /// Difference: (A - B) x = A x - B x.
  friend BasicLinearOperator operator-(const BasicLinearOperator& a, const BasicLinearOperator& b) {
    return detail::make_sum(a, b, value_type(-1));
  }
  /// Scaling: (s A) x = s (A x); the adjoint is conj(s) A^H.
  friend BasicLinearOperator operator*(value_type s, const BasicLinearOperator& a) {
    return detail::make_scaled(s, a);
  }
  /// Scaling: A s = s A.
  friend BasicLinearOperator operator*(const BasicLinearOperator& a, value_type s) {
    return detail::make_scaled(s, a);
  }
  /// Scaling by 1/s.
  friend BasicLinearOperator operator/(const BasicLinearOperator& a, value_type s) {
    return detail::make_scaled(value_type(1) / s, a);
  }
  /// Negation: -A.
  friend BasicLinearOperator operator-(const BasicLinearOperator& a) {
    return detail::make_scaled(value_type(-1), a);
  }

 private:
  template <class V>
  static constexpr auto deferred = LayoutAdapter<V>::Agreement::deferred;

  // Every apply: `body(operator object, input, output)` on `in` and `out` seen with the layouts
  // `in_layout` and `out_layout` (views where their data fit), agreed on together, in the event
  // log's scope of `kind` and through run(); `entry` names the apply, `in_name` and `out_name`
  // its vectors, in messages.
  template <class In, class Out, class Call>
  decltype(auto) call(log_view::EventKind kind, const char* entry, const In& in,
                      const vector_layout_t<In>& in_layout, const char* in_name, Out& out,
                      const vector_layout_t<Out>& out_layout, const char* out_name,
                      Call&& body) const {
    const log_view::ScopedEvent event(kind, name());
    LayoutAdapter<In> input(in, in_layout, name(), entry, in_name, deferred<In>);
    LayoutAdapter<Out> output(out, out_layout, name(), entry, out_name, deferred<Out>);
    input.agree(&output);
    using Result = decltype(body(get(), input.get_const(), output.get()));
    if constexpr (std::is_void_v<Result>) {
      run([&](const Implementation& op) { body(op, input.get_const(), output.get()); });
    } else {
      Result result{};
      run([&](const Implementation& op) { result = body(op, input.get_const(), output.get()); });
      return result;
    }
  }
  template <class Call>
  decltype(auto) forward_call(const char* entry, const Domain& x, Range& y, Call&& body) const {
    return call(log_view::EventKind::apply, entry, x, domain(), "x", y, range(), "y", body);
  }
  template <class Call>
  decltype(auto) adjoint_call(const char* entry, const Range& y, Domain& x, Call&& body) const {
    return call(log_view::EventKind::adjoint, entry, y, range(), "y", x, domain(), "x", body);
  }

  const Implementation& get() const {
    if (!implementation_) throw InvalidArgument("LinearOperator: use of an empty operator");
    return *implementation_;
  }
  /// call(operator object); inside the agreement on its outcome when it runs user code.
  template <class Call>
  void run(Call&& call) const {
    const Implementation& op = get();
    if (!op.runs_user_code()) {
      call(op);
      return;
    }
    const Fingerprint nothing;
    agree_on_user_code(vector_traits<Domain>::communicator(op.domain()), nothing,
                       "the outcome of user code", [&] { call(op); });
  }
  std::shared_ptr<const Implementation> implementation_;
};

/// Operators between distributed arrays.
template <Scalar T, MemorySpace Space = Host>
using LinearOperator = BasicLinearOperator<DistributedArray<T, Space>, DistributedArray<T, Space>>;
/// Operators between stacked arrays.
template <Scalar T, MemorySpace Space = Host>
using StackedLinearOperator =
    BasicLinearOperator<StackedDistributedArray<T, Space>, StackedDistributedArray<T, Space>>;
/// Operators on one rank's data.
template <Scalar T, MemorySpace Space = Host>
using LocalOperator = BasicLinearOperator<LocalArray<T, Space>, LocalArray<T, Space>>;

}  // namespace distlops

#include "distlops/operators/algebra.hpp"
