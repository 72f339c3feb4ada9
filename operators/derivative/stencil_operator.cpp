// SPDX-License-Identifier: BSD-3-Clause
// Copyright (c) 2026 The distlops authors
// StencilOperator: the plan (the ghost exchange across the block's faces, the kernels' geometry,
// the host's walk) made once from the formulas of stencil.hpp; an apply exchanges the ghost
// cells while the kernel computes the part of the block that needs none.
#include "distlops/operators/derivative/stencil_operator.hpp"

#include <algorithm>
#include <cmath>

#include "../support.hpp"
#include "distlops/core/instantiate.hpp"
#include "distlops/core/kernels.hpp"
#include "stencil_kernels.hpp"

namespace distlops {

namespace {

// The widest reach of the term's rows along its axis (its columns for the adjoint): the planes
// it reads before and after a row, as the smallest and largest offset of any row.
std::pair<Index, Index> reach_of(const stencil::Spec<double>& spec, bool adjoint, Index length) {
  const Index width = stencil::edge_width(adjoint);
  Index low = 0, high = 0;
  auto visit = [&](Index g) {
    const stencil::Stencil<double> points = stencil::at(spec, adjoint, g, length);
    for (int s = 0; s < points.count; ++s) {
      low = std::min<Index>(low, points.offset[s]);
      high = std::max<Index>(high, points.offset[s]);
    }
  };
  for (Index g = 0; g < std::min(width, length); ++g)
    visit(g);
  if (length > 2 * width) visit(width);
  for (Index g = std::max(width, length - width); g < length; ++g)
    visit(g);
  return {low, high};
}

void check_term(const std::string& op, const StencilTerm& term, const Shape& shape) {
  const stencil::Spec<double>& s = term.spec;
  if (s.derivative != 1 && s.derivative != 2) {
    throw InvalidArgument(op + ": the derivative must be of order 1 or 2, got " +
                          std::to_string(s.derivative));
  }
  if (s.derivative == 1 && s.order != 3 && s.order != 5) {
    throw InvalidArgument(op + ": order must be 3 or 5, got " + std::to_string(s.order));
  }
  if (!std::isfinite(s.scale)) {
    throw InvalidArgument(op + ": the stencil weights are not finite (scale " +
                          std::to_string(s.scale) + ")");
  }
  // The one-sided edge formulas read 2 (first derivative, order 3) or 3 samples.
  const Index length = shape[static_cast<std::size_t>(term.axis)];
  const Index needed = s.derivative == 1 && s.order == 3 ? 2 : 3;
  if (s.kind == DerivativeKind::centered && s.edge && length < needed) {
    throw InvalidArgument(op + ": edge = true needs at least " + std::to_string(needed) +
                          " samples along axis " + std::to_string(term.axis) + ", got " +
                          std::to_string(length) + " (shape " + to_string(shape) + ")");
  }
}

// The exchange of the ghost cells: the host's through the exchange's own MPI transport, other
// spaces' through theirs.
template <class T>
GhostExchange::Pending begin_faces(const GhostExchange& exchange, Host, const KeptTransport<Host>&,
                                   const Communicator&, const T* in, T* faces) {
  return exchange.begin_faces(Host{}, in, faces);
}
template <class T, class Space>
GhostExchange::Pending begin_faces(const GhostExchange& exchange, Space,
                                   const KeptTransport<Space>& transport, const Communicator& comm,
                                   const T* in, T* faces) {
  return exchange.begin_faces(transport(comm), in, faces);
}

}  // namespace

template <class Vector>
struct StencilOperator<Vector>::Plan {
  std::optional<GhostExchange> exchange;
  kernels::StencilPoints<real_type_t<T>> points;
  kernels::StencilWalk walk;
};

template <class Vector>
StencilOperator<Vector>::StencilOperator(layout_type layout, std::vector<StencilTerm> terms,
                                         std::string name)
    : LinearOperatorBase<Vector>(layout, layout, std::move(name)) {
  const std::string& op = this->name();
  if constexpr (distributed) {
    global_shape_ = layout.global_shape();
    local_shape_ = layout.local_shape();
    block_start_ = layout.box().lower;
  } else {
    detail::check_shape(op, "dims", layout);
    global_shape_ = local_shape_ = layout;
    block_start_.assign(layout.size(), 0);
  }
  const int ndim = static_cast<int>(global_shape_.size());
  if (terms.empty()) throw InvalidArgument(op + ": no derivative term");
  static_assert(max_dimensions == kernels::max_stencil_dimensions &&
                max_terms == kernels::max_stencil_terms);
  if (ndim > max_dimensions || static_cast<int>(terms.size()) > max_terms) {
    throw InvalidArgument(op + ": at most " + std::to_string(max_terms) + " terms on arrays of " +
                          "at most " + std::to_string(max_dimensions) + " dimensions, got " +
                          std::to_string(terms.size()) + " terms and " + std::to_string(ndim) +
                          " dimensions");
  }
  for (StencilTerm& term : terms) {
    term.axis = detail::normalise_axis(op, term.axis, ndim);
    check_term(op, term, global_shape_);
    const stencil::Spec<double>& s = term.spec;
    terms_.push_back({term.axis, {s.derivative, s.kind, s.order, s.edge, real_type_t<T>(s.scale)}});
  }
  forward_ = make_plan(false, terms);
  adjoint_ = make_plan(true, terms);
  // Made here, not at the first apply: a solver's loop (CG's fused q = A c) allocates nothing.
  Index faces = 0;
  for (const Plan* plan : {forward_.get(), adjoint_.get()})
    faces = std::max(faces, plan->exchange ? plan->exchange->faces_size() : Index(0));
  ghosts_ = Buffer<T, Space>(faces);
  vdot_partials_ =
      Buffer<double, Space>(kernels::stencil_vdot_scratch(Space{}, element_count(local_shape_)));
}

template <class Vector>
auto StencilOperator<Vector>::make_plan(bool adjoint, const std::vector<StencilTerm>& terms) const
    -> std::shared_ptr<const Plan> {
  auto plan = std::make_shared<Plan>();
  const int ndim = static_cast<int>(global_shape_.size());
  // The geometry, with the weights in double for the host's walk.
  kernels::StencilPoints<double> points;
  points.ndim = ndim;
  points.count = static_cast<int>(terms.size());
  const Shape strides = detail::strides_of(local_shape_);
  for (int k = 0; k < ndim; ++k) {
    points.extent[k] = local_shape_[k];
    points.strides[k] = strides[k];
    points.block_start[k] = block_start_[k];
  }
  for (int t = 0; t < points.count; ++t) {
    points.axis[t] = terms[t].axis;
    points.length[t] = global_shape_[static_cast<std::size_t>(terms[t].axis)];
    points.spec[t] = terms[t].spec;
  }
  if constexpr (distributed) {
    // Ghost cells across the faces, along every cut axis, as far as the stencils of its terms
    // reach; none for a rank that owns nothing (the exchange clips at the array's ends).
    const Layout& layout = this->domain();
    std::vector<GhostWidths> widths(static_cast<std::size_t>(ndim));
    bool any = false;
    for (const StencilTerm& term : terms) {
      const auto [low, high] =
          reach_of(term.spec, adjoint, global_shape_[static_cast<std::size_t>(term.axis)]);
      GhostWidths& w = widths[static_cast<std::size_t>(term.axis)];
      w.front = std::max(w.front, -low);
      w.back = std::max(w.back, high);
      any = any || low < 0 || high > 0;
    }
    if (!layout.replicated() && layout.size() > 1 && any) {
      if (element_count(local_shape_) == 0) widths.assign(widths.size(), GhostWidths{});
      plan->exchange.emplace(layout, widths, GhostReach::any, GhostRegion::faces);
      for (int k = 0; k < ndim; ++k) {
        points.front_width[k] = plan->exchange->widths()[k].front;
        points.back_width[k] = plan->exchange->widths()[k].back;
        points.front_offset[k] = plan->exchange->face_offset(k, false);
        points.back_offset[k] = plan->exchange->face_offset(k, true);
      }
    }
  }
  plan->walk = kernels::stencil_walk(Space{}, points, adjoint, sizeof(T));
  // The same geometry in the precision of T for the kernels.
  kernels::StencilPoints<real_type_t<T>>& own = plan->points;
  own.ndim = points.ndim;
  own.count = points.count;
  for (int k = 0; k < ndim; ++k) {
    own.extent[k] = points.extent[k];
    own.strides[k] = points.strides[k];
    own.block_start[k] = points.block_start[k];
    own.front_width[k] = points.front_width[k];
    own.back_width[k] = points.back_width[k];
    own.front_offset[k] = points.front_offset[k];
    own.back_offset[k] = points.back_offset[k];
  }
  for (int t = 0; t < points.count; ++t) {
    own.axis[t] = points.axis[t];
    own.length[t] = points.length[t];
    own.spec[t] = terms_[t].spec;
  }
  return plan;
}

template <class Vector>
bool StencilOperator<Vector>::forward_vdot(const Vector& x, Vector& y, VdotSink& sink) const {
  const Index points = element_count(local_shape_);
  if (points > kernels::fused_stencil_points_limit(Space{})) {
    run(false, x, y, T(1), T(0));
    return false;
  }
  // The block's group as ScalarSlots' own reductions find it, asked for on every rank.
  const Communicator* group = nullptr;
  if constexpr (distributed) {
    if (!x.layout().replicated()) group = &x.layout().sub_communicator();
  }
  double* target = sink.target(group);
  run(false, x, y, T(1), T(0), {target, sink.imaginary() ? target + 1 : nullptr});
  return true;
}

template <class Vector>
void StencilOperator<Vector>::run(bool adjoint, const Vector& in, Vector& out, T alpha, T beta,
                                  VdotOut vdot) const {
  const Plan& plan = adjoint ? *adjoint_ : *forward_;
  const kernels::StencilVdot fused{vdot.re, vdot.im, vdot.re ? vdot_partials_.data() : nullptr};
  auto apply = [&](kernels::StencilPart part) {
    kernels::stencil_apply(Space{}, plan.walk, plan.points, part, alpha, in.data(), ghosts_.data(),
                           beta, out.data(), fused);
  };
  if (!plan.exchange) {
    apply(kernels::StencilPart::all);
    return;
  }
  if constexpr (distributed) {
    GhostExchange::Pending pending = begin_faces(*plan.exchange, Space{}, transport_,
                                                 in.communicator(), in.data(), ghosts_.data());
    apply(kernels::StencilPart::inner);
    plan.exchange->end(pending);
    apply(kernels::StencilPart::edges);
  }
}

#define DISTLOPS_DETAIL_INSTANTIATE_STENCIL_OPERATOR(T, SPACE) \
  DISTLOPS_DETAIL_STENCIL_OPERATOR(, T, SPACE)
DISTLOPS_FOR_EACH_SCALAR_AND_SPACE(DISTLOPS_DETAIL_INSTANTIATE_STENCIL_OPERATOR)
#undef DISTLOPS_DETAIL_INSTANTIATE_STENCIL_OPERATOR

}  // namespace distlops
