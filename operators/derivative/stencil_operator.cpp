#include "distlops/operators/derivative/stencil_operator.hpp"

#include <algorithm>
#include <map>

#include "../cuda/device_kernels.hpp"
#include "../local/support.hpp"
#include "distlops/core/instantiate.hpp"

namespace distlops {

namespace {

std::vector<StencilTerm> transposed_terms(const std::vector<StencilTerm>& terms) {
  std::vector<StencilTerm> result;
  for (const StencilTerm& term : terms)
    result.push_back({term.axis, term.rule.transposed()});
  return result;
}

}  // namespace

template <Scalar T, MemorySpace Space>
StencilOperator<T, Space>::StencilOperator(const Layout& layout, std::vector<StencilTerm> terms,
                                           std::string name)
    : LinearOperatorBase<Array>(layout, layout, std::move(name)) {
  const int ndim = layout.ndim();
  if (terms.empty()) throw InvalidArgument(this->name() + ": no stencil terms");
  if (ndim > max_dimensions) {
    throw InvalidArgument(this->name() + ": arrays of at most " + std::to_string(max_dimensions) +
                          " dimensions are supported, got " + std::to_string(ndim));
  }
  for (StencilTerm& term : terms) {
    if (term.axis < -ndim || term.axis >= ndim) {
      throw InvalidArgument(this->name() + ": axis " + std::to_string(term.axis) +
                            " is out of range for an array of " + std::to_string(ndim) +
                            " dimension(s)");
    }
    if (term.axis < 0) term.axis += ndim;
    const Index n = layout.global_shape()[static_cast<std::size_t>(term.axis)];
    if (term.rule.length != n) {
      throw ShapeMismatch(this->name() + ": a stencil made for " +
                          std::to_string(term.rule.length) + " samples is applied along axis " +
                          std::to_string(term.axis) + " of length " + std::to_string(n));
    }
  }
  distributed_axis_ = layout.replicated() ? -1 : layout.axis();
  local_shape_ = layout.local_shape();
  local_strides_ = local::detail::strides_of(local_shape_);
  block_start_ = layout.replicated() ? 0 : layout.offset(layout.rank());
  std::vector<StencilTerm> adjoint_terms = transposed_terms(terms);
  forward_ = make_plan(std::move(terms));
  adjoint_ = make_plan(std::move(adjoint_terms));
}

template <Scalar T, MemorySpace Space>
auto StencilOperator<T, Space>::make_plan(std::vector<StencilTerm> terms) const -> Plan {
  const Layout& layout = this->domain();
  const int ndim = layout.ndim();
  const int a = distributed_axis_;
  Plan plan;
  plan.terms = std::move(terms);

  // Ghost planes along the distributed axis: as far as the taps of its terms reach.
  Index front = 0, back = 0;
  for (const StencilTerm& term : plan.terms) {
    if (term.axis != a) continue;
    front = std::max(front, -term.rule.min_offset());
    back = std::max(back, term.rule.max_offset());
  }
  if (a >= 0 && layout.size() > 1 && (front > 0 || back > 0)) {
    plan.exchange.emplace(layout, front, back, GhostReach::any);
    plan.front_strides = local::detail::strides_of(plan.exchange->front_shape());
    plan.back_strides = local::detail::strides_of(plan.exchange->back_shape());
  }

  // Segments: along each axis, the interior rows (every term on the axis in its interior and,
  // along the distributed axis, every source local) form one segment; other rows are single.
  plan.segments.resize(static_cast<std::size_t>(ndim));
  for (int k = 0; k < ndim; ++k) {
    const Index extent = local_shape_[static_cast<std::size_t>(k)];
    const Index shift = k == a ? block_start_ : 0;  // global index of local row 0
    Index first = 0, last = extent;                 // candidate interior rows [first, last)
    bool has_terms = false;
    for (const StencilTerm& term : plan.terms) {
      if (term.axis != k) continue;
      has_terms = true;
      const BandRule& rule = term.rule;
      first = std::max(first, static_cast<Index>(rule.front_rows.size()) - shift);
      last = std::min(last, rule.length - static_cast<Index>(rule.back_rows.size()) - shift);
      if (k == a) {
        for (const StencilTap& tap : rule.interior) {
          first = std::max(first, -tap.offset);
          last = std::min(last, extent - tap.offset);
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

  // Boxes: every combination of one segment per axis, with the taps of all terms merged.
  std::vector<std::size_t> index(static_cast<std::size_t>(ndim), 0);
  for (const auto& segments : plan.segments) {
    if (segments.empty()) return plan;  // this rank holds no data
  }
  while (true) {
    Box box;
    box.segment = index;
    std::map<std::pair<int, Index>, double> merged;
    for (const StencilTerm& term : plan.terms) {
      const Segment& segment = plan.segments[static_cast<std::size_t>(term.axis)][index[term.axis]];
      const Index shift = term.axis == a ? block_start_ : 0;
      const StencilRow& row =
          segment.interior ? term.rule.interior : term.rule.row(segment.start + shift);
      for (const StencilTap& tap : row) {
        // Offset 0 is the same point whatever the axis.
        const int axis = tap.offset == 0 ? -1 : term.axis;
        merged[{axis, tap.offset}] += tap.weight;
        if (plan.exchange && term.axis == a && !segment.interior) {
          const Index source = segment.start + tap.offset;
          if (source < 0 || source >= local_shape_[static_cast<std::size_t>(a)])
            box.needs_ghosts = true;
        }
      }
    }
    for (const auto& [key, weight] : merged)
      box.taps.push_back({key.first, key.second, weight});
    if (static_cast<int>(box.taps.size()) > max_taps) {
      throw InvalidArgument(this->name() + ": more than " + std::to_string(max_taps) +
                            " taps per point");
    }
    plan.boxes.push_back(std::move(box));
    int k = ndim - 1;
    while (k >= 0 && ++index[k] == plan.segments[k].size())
      index[k--] = 0;
    if (k < 0) break;
  }
  // Boxes that need ghost planes go last: the others are computed while the planes travel.
  std::stable_partition(plan.boxes.begin(), plan.boxes.end(),
                        [](const Box& box) { return !box.needs_ghosts; });
  return plan;
}

template <Scalar T, MemorySpace Space>
void StencilOperator<T, Space>::run(const Plan& plan, const Array& in, Array& out, T alpha,
                                    T beta) const {
  if constexpr (!std::same_as<Space, Host>) {
    run_device(plan, in, out, alpha, beta);
    return;
  }
  if (!plan.exchange) {
    for (const Box& box : plan.boxes)
      run_box(plan, box, in.data(), out.data(), alpha, beta);
    return;
  }
  const Index front_size = element_count(plan.exchange->front_shape());
  const Index back_size = element_count(plan.exchange->back_shape());
  if (front_ghosts_.size() < front_size) front_ghosts_ = Buffer<T, Space>(front_size);
  if (back_ghosts_.size() < back_size) back_ghosts_ = Buffer<T, Space>(back_size);
  GhostExchange::Pending pending =
      plan.exchange->begin(Host{}, in.data(), front_ghosts_.data(), back_ghosts_.data());
  std::size_t next = 0;
  for (; next < plan.boxes.size() && !plan.boxes[next].needs_ghosts; ++next) {
    run_box(plan, plan.boxes[next], in.data(), out.data(), alpha, beta);
  }
  plan.exchange->end(pending);
  for (; next < plan.boxes.size(); ++next) {
    run_box(plan, plan.boxes[next], in.data(), out.data(), alpha, beta);
  }
}

template <Scalar T, MemorySpace Space>
void StencilOperator<T, Space>::run_box(const Plan& plan, const Box& box, const T* in, T* out,
                                        T alpha, T beta) const {
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
  std::array<const T*, max_taps> sources;
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
    kernels::combine(Host{}, run.count, count, coefficients.data(), sources.data(), beta,
                     out + base);
    // Next line: odometer over every axis but the last.
    int k = last_axis - 1;
    for (; k >= 0; --k) {
      const Segment& segment = plan.segments[k][box.segment[k]];
      if (++index[k] < segment.start + segment.count) break;
      index[k] = segment.start;
    }
    if (k < 0) return;
  }
}

// The Cuda space: the ghost planes first (through the space's transport), then one kernel per box,
// with the taps resolved on the host as run_box does.
template <Scalar T, MemorySpace Space>
void StencilOperator<T, Space>::run_device(const Plan& plan, const Array& in, Array& out, T alpha,
                                           T beta) const {
#if DISTLOPS_WITH_CUDA
  if constexpr (std::same_as<Space, Cuda>) {
    if (plan.exchange) {
      const Index front_size = element_count(plan.exchange->front_shape());
      const Index back_size = element_count(plan.exchange->back_shape());
      if (front_ghosts_.size() < front_size) front_ghosts_ = Buffer<T, Space>(front_size);
      if (back_ghosts_.size() < back_size) back_ghosts_ = Buffer<T, Space>(back_size);
      plan.exchange->exchange(transport_(in.communicator()), in.data(), front_ghosts_.data(),
                              back_ghosts_.data());
    }
    const int ndim = static_cast<int>(local_shape_.size());
    const int a = distributed_axis_;
    for (const Box& box : plan.boxes) {
      device_ops::StencilBox<T> kernel_box;
      kernel_box.ndim = ndim;
      kernel_box.distributed_axis = a;
      kernel_box.count = static_cast<int>(box.taps.size());
      for (int k = 0; k < ndim; ++k) {
        const Segment& segment = plan.segments[k][box.segment[k]];
        kernel_box.start[k] = segment.start;
        kernel_box.extent[k] = segment.count;
        kernel_box.strides[k] = local_strides_[k];
        if (plan.exchange) {
          kernel_box.front_strides[k] = plan.front_strides[k];
          kernel_box.back_strides[k] = plan.back_strides[k];
        }
      }
      const Index row_a = a >= 0 ? plan.segments[a][box.segment[a]].start : 0;
      for (int t = 0; t < kernel_box.count; ++t) {
        const Tap& tap = box.taps[t];
        kernel_box.coefficient[t] = alpha * T(static_cast<real_type_t<T>>(tap.weight));
        kernel_box.shift[t] = tap.axis < 0 ? 0 : tap.offset * local_strides_[tap.axis];
        if (box.needs_ghosts && tap.axis == a) {
          const Index source = row_a + tap.offset;
          if (source < 0) {
            kernel_box.ghost[t] = 1;
            kernel_box.ghost_plane[t] = plan.exchange->front() + source;
          } else if (source >= local_shape_[a]) {
            kernel_box.ghost[t] = 2;
            kernel_box.ghost_plane[t] = source - local_shape_[a];
          }
        }
      }
      device_ops::stencil_box(Cuda{}, kernel_box, in.data(), front_ghosts_.data(),
                              back_ghosts_.data(), beta, out.data());
    }
    return;
  }
#endif
  (void)plan, (void)in, (void)out, (void)alpha, (void)beta;
  throw DeviceError(this->name() + ": this build has no CUDA backend");
}

DISTLOPS_INSTANTIATE_TEMPLATE_CLASS(StencilOperator)

}  // namespace distlops
