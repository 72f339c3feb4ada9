// SPDX-License-Identifier: BSD-3-Clause
// Copyright (c) 2026 The distlops authors
// StencilOperator: the plan (boxes of constant stencils, ghost planes) made once from the
// formulas of stencil.hpp; the host loops over boxes; the Cuda space's single launch.
#include "distlops/operators/derivative/stencil_operator.hpp"

#include <algorithm>
#include <array>
#include <cmath>
#include <complex>
#include <map>

#include "../support.hpp"
#include "distlops/core/instantiate.hpp"
#include "distlops/core/kernels.hpp"
#include "stencil_kernels.hpp"

namespace distlops {

namespace {

// Most taps one output point combines: every term's points, none merged.
constexpr int max_taps = 16 * stencil::max_points;

// The rows of one term along its axis of global length n (its columns for the adjoint): the
// rows within `width` of either end have their own stencils; those between share one,
// translated (stencil::edge_width).
struct AxisStencil {
  AxisStencil(const stencil::Spec<double>& term_spec, bool columns, Index n)
      : spec(term_spec), adjoint(columns), length(n), width(stencil::edge_width(columns)) {}

  bool has_interior() const { return length > 2 * width; }
  /// Row g, or the interior stencil when `interior`.
  stencil::Stencil<double> at(Index g) const { return stencil::at(spec, adjoint, g, length); }
  stencil::Stencil<double> interior() const { return at(width); }

  /// Smallest and largest offset of any row (0 and 0 without any point).
  std::pair<Index, Index> reach() const {
    Index low = 0, high = 0;
    auto visit = [&](Index g) {
      const stencil::Stencil<double> points = at(g);
      for (int s = 0; s < points.count; ++s) {
        low = std::min<Index>(low, points.offset[s]);
        high = std::max<Index>(high, points.offset[s]);
      }
    };
    for (Index g = 0; g < std::min(width, length); ++g)
      visit(g);
    if (has_interior()) visit(width);
    for (Index g = std::max(width, length - width); g < length; ++g)
      visit(g);
    return {low, high};
  }

  stencil::Spec<double> spec;
  bool adjoint;
  Index length;
  Index width;
};

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

}  // namespace

template <class Vector>
StencilOperator<Vector>::StencilOperator(layout_type layout, std::vector<StencilTerm> terms,
                                         std::string name)
    : LinearOperatorBase<Vector>(layout, layout, std::move(name)) {
  const std::string& op = this->name();
  if constexpr (distributed) {
    global_shape_ = layout.global_shape();
    local_shape_ = layout.local_shape();
    distributed_axis_ = layout.replicated() ? -1 : layout.axis();
    block_start_ = layout.replicated() ? 0 : layout.offset(layout.rank());
  } else {
    detail::check_shape(op, "dims", layout);
    global_shape_ = local_shape_ = layout;
  }
  local_strides_ = detail::strides_of(local_shape_);
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
}

template <class Vector>
auto StencilOperator<Vector>::make_plan(bool adjoint, const std::vector<StencilTerm>& terms) const
    -> Plan {
  Plan plan;
  plan.adjoint = adjoint;
  if constexpr (distributed) {
    // Ghost planes along the distributed axis: as far as the stencils of its terms reach.
    const int a = distributed_axis_;
    const Layout& layout = this->domain();
    Index front = 0, back = 0;
    for (const StencilTerm& term : terms) {
      if (term.axis != a) continue;
      const auto [low, high] =
          AxisStencil(term.spec, adjoint, global_shape_[static_cast<std::size_t>(a)]).reach();
      front = std::max(front, -low);
      back = std::max(back, high);
    }
    if (a >= 0 && layout.size() > 1 && (front > 0 || back > 0)) {
      plan.exchange.emplace(layout, front, back, GhostReach::any);
      plan.front_strides = detail::strides_of(plan.exchange->front_shape());
      plan.back_strides = detail::strides_of(plan.exchange->back_shape());
    }
  }
  if constexpr (std::same_as<Space, Host>) make_boxes(plan, terms);
  return plan;
}

// Segments: along each axis, the interior rows (every term on the axis in its interior and,
// along the distributed axis, every source local) form one segment; other rows are single.
// Boxes: every combination of one segment per axis, with the taps of all terms merged.
template <class Vector>
void StencilOperator<Vector>::make_boxes(Plan& plan, const std::vector<StencilTerm>& terms) const {
  const int ndim = static_cast<int>(local_shape_.size());
  const int a = distributed_axis_;
  auto stencil_of = [&](const StencilTerm& term) {
    return AxisStencil(term.spec, plan.adjoint, global_shape_[static_cast<std::size_t>(term.axis)]);
  };
  plan.segments.resize(static_cast<std::size_t>(ndim));
  for (int k = 0; k < ndim; ++k) {
    const Index extent = local_shape_[static_cast<std::size_t>(k)];
    const Index shift = k == a ? block_start_ : 0;  // global index of local row 0
    Index first = 0, last = extent;                 // candidate interior rows [first, last)
    bool has_terms = false;
    for (const StencilTerm& term : terms) {
      if (term.axis != k) continue;
      has_terms = true;
      const AxisStencil rows = stencil_of(term);
      first = std::max(first, rows.width - shift);
      last = std::min(last, rows.length - rows.width - shift);
      if (k == a && rows.has_interior()) {
        const stencil::Stencil<double> inner = rows.interior();
        for (int s = 0; s < inner.count; ++s) {
          first = std::max<Index>(first, -inner.offset[s]);
          last = std::min<Index>(last, extent - inner.offset[s]);
        }
      }
    }
    std::vector<Segment>& segments = plan.segments[static_cast<std::size_t>(k)];
    if (!has_terms) {
      if (extent > 0) segments.push_back({0, extent, true});
      continue;
    }
    first = std::clamp<Index>(first, 0, extent);
    last = std::clamp<Index>(last, first, extent);
    for (Index p = 0; p < first; ++p)
      segments.push_back({p, 1, false});
    if (last > first) segments.push_back({first, last - first, true});
    for (Index p = last; p < extent; ++p)
      segments.push_back({p, 1, false});
  }

  for (const auto& segments : plan.segments) {
    if (segments.empty()) return;  // this rank holds no data
  }
  std::vector<std::size_t> index(static_cast<std::size_t>(ndim), 0);
  while (true) {
    Box box;
    box.segment = index;
    std::map<std::pair<int, Index>, double> merged;
    for (const StencilTerm& term : terms) {
      const Segment& segment = plan.segments[static_cast<std::size_t>(term.axis)][index[term.axis]];
      const Index shift = term.axis == a ? block_start_ : 0;
      const AxisStencil rows = stencil_of(term);
      const stencil::Stencil<double> points =
          segment.interior ? rows.interior() : rows.at(segment.start + shift);
      for (int s = 0; s < points.count; ++s) {
        // Offset 0 is the same point whatever the axis.
        const Index offset = points.offset[s];
        merged[{offset == 0 ? -1 : term.axis, offset}] += points.weight[s];
        if (plan.exchange && term.axis == a && !segment.interior) {
          const Index source = segment.start + offset;
          if (source < 0 || source >= local_shape_[static_cast<std::size_t>(a)])
            box.needs_ghosts = true;
        }
      }
    }
    for (const auto& [key, weight] : merged)
      box.taps.push_back({key.first, key.second, weight});
    plan.boxes.push_back(std::move(box));
    int k = ndim - 1;
    while (k >= 0 && ++index[k] == plan.segments[k].size())
      index[k--] = 0;
    if (k < 0) break;
  }
  // Boxes that need ghost planes go last: the others are computed while the planes travel.
  std::stable_partition(plan.boxes.begin(), plan.boxes.end(),
                        [](const Box& box) { return !box.needs_ghosts; });
}

template <class Vector>
bool StencilOperator<Vector>::forward_vdot(const Vector& x, Vector& y, VdotSink& sink) const {
  const Index points = element_count(local_shape_);
  if (!std::same_as<Space, Host> && points > kernels::max_fused_stencil_points) {
    run(false, x, y, T(1), T(0));
    return false;
  }
  // The block's group as ScalarSlots' own reductions find it, asked for on every rank.
  const Communicator* group = nullptr;
  if constexpr (distributed) {
    if (!x.layout().replicated()) group = &x.layout().sub_communicator();
  }
  double* target = sink.target(group);
  if constexpr (std::same_as<Space, Host>) {
    double partial[2] = {0.0, 0.0};
    run(false, x, y, T(1), T(0), {&partial[0], &partial[1]});
    target[0] += partial[0];
    if (sink.imaginary()) target[1] += partial[1];
  } else {
    const Index scratch = kernels::stencil_vdot_scratch(Space{}, points);
    if (vdot_partials_.size() < scratch) vdot_partials_ = Buffer<double, Space>(scratch);
    run(false, x, y, T(1), T(0), {target, sink.imaginary() ? target + 1 : nullptr});
  }
  return true;
}

template <class Vector>
void StencilOperator<Vector>::run(bool adjoint, const Vector& in, Vector& out, T alpha, T beta,
                                  VdotOut vdot) const {
  const Plan& plan = adjoint ? adjoint_ : forward_;
  if (plan.exchange) {
    const Index front_size = element_count(plan.exchange->front_shape());
    const Index back_size = element_count(plan.exchange->back_shape());
    if (front_ghosts_.size() < front_size) front_ghosts_ = Buffer<T, Space>(front_size);
    if (back_ghosts_.size() < back_size) back_ghosts_ = Buffer<T, Space>(back_size);
  }
  if constexpr (std::same_as<Space, Host>) {
    // An output larger than the cache is written around it: an ordinary store would read each
    // line of it first. With beta != 0 the kernel reads y anyway. The fused apply + vdot (CG's
    // q = A c) keeps ordinary stores: measured, streaming q made laplacian-cg 2048^2 slower per
    // iteration at 1 rank (docs/benchmarks.md), the next pass reading q right after.
    const std::size_t out_bytes = sizeof(T) * static_cast<std::size_t>(element_count(local_shape_));
    const kernels::Stores stores =
        beta == T(0) && !vdot.re ? kernels::stores_for_output(out_bytes) : kernels::Stores::cached;
    run_host(plan, in.data(), out.data(), alpha, beta, vdot, stores);
    if (stores == kernels::Stores::streaming) kernels::streaming_fence();
  } else {
    run_device(plan, in, out, alpha, beta, vdot);
  }
}

template <class Vector>
void StencilOperator<Vector>::run_host(const Plan& plan, const T* in, T* out, T alpha, T beta,
                                       VdotOut vdot, kernels::Stores stores) const {
  if (!plan.exchange) {
    for (const Box& box : plan.boxes)
      run_box(plan, box, in, out, alpha, beta, vdot, stores);
    return;
  }
  GhostExchange::Pending pending =
      plan.exchange->begin(Host{}, in, front_ghosts_.data(), back_ghosts_.data());
  std::size_t next = 0;
  for (; next < plan.boxes.size() && !plan.boxes[next].needs_ghosts; ++next) {
    run_box(plan, plan.boxes[next], in, out, alpha, beta, vdot, stores);
  }
  plan.exchange->end(pending);
  for (; next < plan.boxes.size(); ++next) {
    run_box(plan, plan.boxes[next], in, out, alpha, beta, vdot, stores);
  }
}

template <class Vector>
void StencilOperator<Vector>::run_box(const Plan& plan, const Box& box, const T* in, T* out,
                                      T alpha, T beta, VdotOut vdot, kernels::Stores stores) const {
  const int ndim = static_cast<int>(local_shape_.size());
  const int a = distributed_axis_;
  const int last_axis = ndim - 1;
  const Segment& run = plan.segments[last_axis][box.segment[last_axis]];
  const int count = static_cast<int>(box.taps.size());

  // Per tap: a fixed element offset from the current point, or a ghost plane.
  std::array<T, max_taps> coefficients;
  std::array<Index, max_taps> shift;
  std::array<int, max_taps> ghost;  // 0: local, 1: front ghosts, 2: back ghosts
  std::array<Index, max_taps> ghost_plane;
  const Index row_a =
      a >= 0 ? plan.segments[a][box.segment[a]].start : 0;  // the row, for single-row segments
  for (int t = 0; t < count; ++t) {
    const Tap& tap = box.taps[t];
    coefficients[t] = alpha * T(static_cast<real_type_t<T>>(tap.weight));
    ghost[t] = 0;
    shift[t] = tap.axis < 0 ? 0 : tap.offset * local_strides_[tap.axis];
    if (box.needs_ghosts && tap.axis == a) {
      const Index source = row_a + tap.offset;
      if (source < 0) {
        ghost[t] = 1;
        ghost_plane[t] = plan.exchange->front() + source;
      } else if (source >= local_shape_[a]) {
        ghost[t] = 2;
        ghost_plane[t] = source - local_shape_[a];
      }
    }
  }
  // The row form (kernels::stencil_row): the taps along the last axis, the point's own included,
  // are the 2 reach + 1 neighbours in the point's input row; the others are whole rows.
  int reach = 0;
  std::array<T, 2 * stencil::radius + 1> row_weights{};
  std::array<int, max_taps> other_taps;
  int others = 0;
  if constexpr (!is_complex_v<T>) {
    int in_row = 0;
    for (int t = 0; t < count; ++t) {
      const Tap& tap = box.taps[t];
      if (ghost[t] == 0 && (tap.axis < 0 || tap.axis == last_axis)) {
        if (tap.offset < -stencil::radius || tap.offset > stencil::radius) {
          in_row = -1;  // not representable: combine
          break;
        }
        row_weights[tap.offset + stencil::radius] = coefficients[t];
        reach = std::max<int>(reach, static_cast<int>(std::abs(tap.offset)));
        ++in_row;
      } else {
        other_taps[others++] = t;
      }
    }
    // Every offset of [-reach, reach] present once (the taps are distinct).
    if (in_row != 2 * reach + 1 || !kernels::stencil_row_supported(reach, others)) reach = 0;
  }
  std::array<const T*, max_taps> sources;
  std::array<T, max_taps> other_coefficients;
  for (int j = 0; j < others; ++j)
    other_coefficients[j] = coefficients[other_taps[j]];
  // The row form takes the box's lines in batches (kernels::stencil_rows interleaves them).
  constexpr int batch = 8;
  std::array<const T*, batch> batch_rows;
  std::array<T*, batch> batch_outs;
  std::array<const T*, batch * max_taps> batch_sources;
  std::array<T, batch> batch_partials;
  int batched = 0;
  auto flush = [&] {
    if (batched == 0) return;
    if constexpr (!is_complex_v<T>) {  // complex types go through combine
      const T* weights = row_weights.data() + (stencil::radius - reach);
      if (vdot.re) {
        kernels::stencil_rows_vdot(Host{}, run.count, batched, reach, weights, batch_rows.data(),
                                   others, other_coefficients.data(), batch_sources.data(),
                                   batch_outs.data(), batch_partials.data());
        // Added line by line, in the order of the lines, as one line at a time would.
        for (int k = 0; k < batched; ++k)
          *vdot.re += static_cast<double>(batch_partials[k]);
      } else {
        kernels::stencil_rows(Host{}, run.count, batched, reach, weights, batch_rows.data(), others,
                              other_coefficients.data(), batch_sources.data(), beta,
                              batch_outs.data(), stores);
      }
    }
    batched = 0;
  };
  std::array<Index, max_dimensions> index;
  for (int k = 0; k < ndim; ++k)
    index[k] = plan.segments[k][box.segment[k]].start;
  while (true) {
    Index base = 0;
    for (int k = 0; k < ndim; ++k)
      base += index[k] * local_strides_[k];
    for (int t = 0; t < count; ++t) {
      if (ghost[t] == 0) {
        sources[t] = in + base + shift[t];
        continue;
      }
      const Shape& strides = ghost[t] == 1 ? plan.front_strides : plan.back_strides;
      Index offset = ghost_plane[t] * strides[a];
      for (int k = 0; k < ndim; ++k) {
        if (k != a) offset += index[k] * strides[k];
      }
      sources[t] = (ghost[t] == 1 ? front_ghosts_.data() : back_ghosts_.data()) + offset;
    }
    if (reach > 0) {
      batch_rows[batched] = in + base;
      batch_outs[batched] = out + base;
      for (int j = 0; j < others; ++j)
        batch_sources[batched * others + j] = sources[other_taps[j]];
      if (++batched == batch) flush();
    } else {
      // The vdot below reads the line back: it must stay in the cache.
      kernels::combine(Host{}, run.count, count, coefficients.data(), sources.data(), beta,
                       out + base, vdot.re ? kernels::Stores::cached : stores);
      if (vdot.re) {
        // The line just written is still in cache: no second pass over memory.
        const T value = kernels::vdot(Host{}, run.count, in + base, out + base);
        *vdot.re += static_cast<double>(std::real(value));
        *vdot.im += static_cast<double>(std::imag(value));
      }
    }
    // Next line: odometer over every axis but the last.
    int k = last_axis - 1;
    for (; k >= 0; --k) {
      const Segment& segment = plan.segments[k][box.segment[k]];
      if (++index[k] < segment.start + segment.count) break;
      index[k] = segment.start;
    }
    if (k < 0) break;
  }
  flush();
}

// The Cuda space: the ghost planes first (through the space's transport), then one launch.
template <class Vector>
void StencilOperator<Vector>::run_device(const Plan& plan, const Vector& in, Vector& out, T alpha,
                                         T beta, VdotOut vdot) const {
  if constexpr (!std::same_as<Space, Host>) {
    if constexpr (distributed) {
      if (plan.exchange) {
        plan.exchange->exchange(transport_(in.communicator()), in.data(), front_ghosts_.data(),
                                back_ghosts_.data());
      }
    }
    if (element_count(local_shape_) == 0) return;
    kernels::StencilPoints<real_type_t<T>> points;
    points.ndim = static_cast<int>(local_shape_.size());
    points.count = static_cast<int>(terms_.size());
    points.distributed_axis = distributed_axis_;
    points.block_start = block_start_;
    points.front_planes = plan.exchange ? plan.exchange->front() : 0;
    for (int k = 0; k < points.ndim; ++k) {
      points.extent[k] = local_shape_[k];
      points.strides[k] = local_strides_[k];
      if (plan.exchange) {
        points.front_strides[k] = plan.front_strides[k];
        points.back_strides[k] = plan.back_strides[k];
      }
    }
    for (int t = 0; t < points.count; ++t) {
      points.axis[t] = terms_[t].axis;
      points.length[t] = global_shape_[static_cast<std::size_t>(terms_[t].axis)];
      points.spec[t] = terms_[t].spec;
    }
    if (vdot.re) {
      kernels::stencil_vdot(Space{}, points, in.data(), front_ghosts_.data(), back_ghosts_.data(),
                            out.data(), vdot_partials_.data(), vdot.re, vdot.im);
    } else {
      kernels::stencil(Space{}, points, plan.adjoint, alpha, in.data(), front_ghosts_.data(),
                       back_ghosts_.data(), beta, out.data());
    }
  } else {
    (void)vdot;
  }
}

#define DISTLOPS_DETAIL_INSTANTIATE_STENCIL_OPERATOR(T, SPACE) \
  DISTLOPS_DETAIL_STENCIL_OPERATOR(, T, SPACE)
DISTLOPS_FOR_EACH_SCALAR_AND_SPACE(DISTLOPS_DETAIL_INSTANTIATE_STENCIL_OPERATOR)
#undef DISTLOPS_DETAIL_INSTANTIATE_STENCIL_OPERATOR

}  // namespace distlops
