// SPDX-License-Identifier: BSD-3-Clause
// Copyright (c) 2026 The distlops authors
// ConvolveND and Convolve2D by the direct method (convolvend_kernels.hpp): the argument checks
// both forms share, the local operator on one rank's array, and the distributed one: the ghost
// cells along the cut axes it convolves (GhostExchange over the extended box), the block copied
// into the extended block meanwhile, then the same kernel.
#include "distlops/operators/signal/convolvend.hpp"

#include <algorithm>

#include "../support.hpp"
#include "../two_way_operator.hpp"
#include "convolvend_kernels.hpp"
#include "distlops/core/collective_check.hpp"
#include "distlops/core/instantiate.hpp"
#include "distlops/core/kernels.hpp"

// The checked description of a ConvolveND, shared by the local and the distributed operator: the
// filter laid out on every axis of the array (extent 1 where nothing is convolved) and its
// offsets per array axis. A named namespace: the distributed operator's constructor captures a
// Spec in a lambda (see docs/architecture.md on the unity build).
namespace distlops::convolve_nd {

template <class T>
struct Spec {
  Shape taps;             // per array axis
  Shape offset;           // per array axis
  std::vector<T> filter;  // h in C order of `taps`, then conj(h)
};

/// Checks the arguments of ConvolveND on arrays of shape `dims` (InvalidArgument, named `op`)
/// and lays the filter out on the array's axes.
template <class T>
Spec<T> checked_spec(const std::string& op, const Shape& dims, std::span<const T> filter,
                     const Shape& filter_shape, const std::vector<Index>& offset,
                     const std::vector<int>& axes) {
  detail::check_shape(op, "dims", dims);
  const int ndim = static_cast<int>(dims.size());
  const auto count = static_cast<int>(filter_shape.size());
  if (ndim > kernels::max_convolve_dimensions) {
    throw InvalidArgument(op + ": arrays of at most " +
                          std::to_string(kernels::max_convolve_dimensions) +
                          " dimensions, got dims " + to_string(dims));
  }
  if (count == 0 || count > ndim) {
    throw InvalidArgument(op + ": the filter shape " + to_string(filter_shape) + " needs 1 to " +
                          std::to_string(ndim) + " axes (dims " + to_string(dims) + ")");
  }
  for (Index extent : filter_shape) {
    if (extent < 1) {
      throw InvalidArgument(op + ": the filter shape " + to_string(filter_shape) +
                            " has an empty axis");
    }
  }
  if (static_cast<Index>(filter.size()) != element_count(filter_shape)) {
    throw InvalidArgument(op + ": the filter has " + std::to_string(filter.size()) +
                          " values, its shape " + to_string(filter_shape) + " needs " +
                          std::to_string(element_count(filter_shape)));
  }
  std::vector<int> filter_axes = axes;
  if (filter_axes.empty()) {
    for (int i = 0; i < count; ++i)
      filter_axes.push_back(ndim - count + i);
  }
  if (static_cast<int>(filter_axes.size()) != count) {
    throw InvalidArgument(op + ": " + std::to_string(filter_axes.size()) +
                          " axes for a filter of shape " + to_string(filter_shape));
  }
  if (!offset.empty() && static_cast<int>(offset.size()) != count) {
    throw InvalidArgument(op + ": " + std::to_string(offset.size()) +
                          " offsets for a filter of shape " + to_string(filter_shape));
  }
  Spec<T> spec;
  spec.taps.assign(static_cast<std::size_t>(ndim), 1);
  spec.offset.assign(static_cast<std::size_t>(ndim), 0);
  std::vector<int> seen(static_cast<std::size_t>(ndim), 0);
  std::vector<int> array_axis(static_cast<std::size_t>(count));
  for (int i = 0; i < count; ++i) {
    const int a = detail::normalise_axis(op, filter_axes[static_cast<std::size_t>(i)], ndim);
    if (seen[static_cast<std::size_t>(a)]++) {
      throw InvalidArgument(op + ": axis " + std::to_string(a) + " is given twice");
    }
    array_axis[static_cast<std::size_t>(i)] = a;
    const Index taps = filter_shape[static_cast<std::size_t>(i)];
    const Index o = offset.empty() ? 0 : offset[static_cast<std::size_t>(i)];
    if (o < 0 || o >= taps) {
      throw InvalidArgument(op + ": offset " + std::to_string(o) + " of filter axis " +
                            std::to_string(i) + " is outside [0, " + std::to_string(taps) + ")");
    }
    spec.taps[static_cast<std::size_t>(a)] = taps;
    spec.offset[static_cast<std::size_t>(a)] = o;
  }
  // Filter element (i_0, ..., i_{count-1}) goes to the point with i_j on array axis axes[j].
  const Shape strides = detail::strides_of(spec.taps);
  spec.filter.assign(filter.size(), T(0));
  Index flat = 0;
  for (detail::MultiIndex m(filter_shape); m.valid(); m.next(), ++flat) {
    Index target = 0;
    for (int i = 0; i < count; ++i)
      target += m[static_cast<std::size_t>(i)] *
                strides[static_cast<std::size_t>(array_axis[static_cast<std::size_t>(i)])];
    spec.filter[static_cast<std::size_t>(target)] = filter[static_cast<std::size_t>(flat)];
  }
  for (std::size_t i = 0; i < filter.size(); ++i)
    spec.filter.push_back(conjugate(spec.filter[i]));
  return spec;
}

kernels::ConvolveGeometry geometry(const Shape& taps, const Shape& offset, bool adjoint,
                                   const Shape& out, const Shape& in, const Shape& origin) {
  kernels::ConvolveGeometry g;
  g.ndim = static_cast<int>(out.size());
  g.sign = adjoint ? 1 : -1;
  for (std::size_t a = 0; a < out.size(); ++a) {
    g.out_extent[a] = out[a];
    g.in_extent[a] = in[a];
    g.taps[a] = taps[a];
    g.base[a] = origin[a] + (adjoint ? -offset[a] : offset[a]);
  }
  return g;
}

// Convolve2D's arguments as ConvolveND's, for a 2-d filter (InvalidArgument otherwise).
struct Arguments2D {
  std::vector<Index> offset;
  std::vector<int> axes;
};

Arguments2D arguments_2d(const Shape& filter_shape, std::array<Index, 2> offset,
                         std::array<int, 2> axes) {
  if (filter_shape.size() != 2) {
    throw InvalidArgument("Convolve2D: the filter must be 2-d, got shape " +
                          to_string(filter_shape));
  }
  return {{offset.begin(), offset.end()}, {axes.begin(), axes.end()}};
}

}  // namespace distlops::convolve_nd

namespace distlops {

namespace {

// One direction: the kernel's geometry and where its taps start in the filters.
struct ConvolveNDDirection {
  kernels::ConvolveGeometry geometry;
  Index weights = 0;
};

template <Scalar T, MemorySpace Space>
class LocalConvolveNDOperator final : public detail::TwoWayOperator<T, Space, ConvolveNDDirection> {
 public:
  LocalConvolveNDOperator(const Shape& dims, std::span<const T> filter, const Shape& filter_shape,
                          const std::vector<Index>& offset, const std::vector<int>& axes,
                          std::string name)
      : detail::TwoWayOperator<T, Space, ConvolveNDDirection>(dims, dims, std::move(name)) {
    const convolve_nd::Spec<T> spec =
        convolve_nd::checked_spec<T>(this->name(), dims, filter, filter_shape, offset, axes);
    const Shape origin(dims.size(), 0);
    this->forward_ = {convolve_nd::geometry(spec.taps, spec.offset, false, dims, dims, origin), 0};
    this->adjoint_ = {convolve_nd::geometry(spec.taps, spec.offset, true, dims, dims, origin),
                      static_cast<Index>(filter.size())};
    filters_ = detail::copy_to_space<T, Space>(spec.filter);
  }

 private:
  void apply(const ConvolveNDDirection& direction, T alpha, const T* in, T beta,
             T* out) const override {
    kernels::convolvend(Space{}, direction.geometry, filters_.data() + direction.weights, alpha, in,
                        beta, out);
  }

  Buffer<T, Space> filters_;  // h then conj(h), on the array's axes, in the space
};

}  // namespace

template <Scalar T, MemorySpace Space>
LocalOperator<T, Space> local::ConvolveND(const Shape& dims, std::span<const T> filter,
                                          const Shape& filter_shape,
                                          const std::vector<Index>& offset,
                                          const std::vector<int>& axes) {
  return LocalOperator<T, Space>::template make<LocalConvolveNDOperator<T, Space>>(
      dims, filter, filter_shape, offset, axes, "ConvolveND");
}

template <Scalar T, MemorySpace Space>
LocalOperator<T, Space> local::Convolve2D(const Shape& dims, std::span<const T> filter,
                                          const Shape& filter_shape, std::array<Index, 2> offset,
                                          std::array<int, 2> axes) {
  const convolve_nd::Arguments2D nd = convolve_nd::arguments_2d(filter_shape, offset, axes);
  return LocalOperator<T, Space>::template make<LocalConvolveNDOperator<T, Space>>(
      dims, filter, filter_shape, nd.offset, nd.axes, "Convolve2D");
}

template <Scalar T, MemorySpace Space>
LinearOperator<T, Space> ConvolveND(const Layout& layout, std::span<const T> filter,
                                    const Shape& filter_shape, const std::vector<Index>& offset,
                                    const std::vector<int>& axes) {
  return LinearOperator<T, Space>::template make<ConvolveNDOperator<T, Space>>(
      layout, filter, filter_shape, offset, axes, "ConvolveND");
}

template <Scalar T, MemorySpace Space>
LinearOperator<T, Space> Convolve2D(const Layout& layout, std::span<const T> filter,
                                    const Shape& filter_shape, std::array<Index, 2> offset,
                                    std::array<int, 2> axes) {
  // The shape is each rank's input: the verdict is agreed before the operator's collectives.
  convolve_nd::Arguments2D nd;
  collective_check(layout.communicator(),
                   [&] { nd = convolve_nd::arguments_2d(filter_shape, offset, axes); });
  return LinearOperator<T, Space>::template make<ConvolveNDOperator<T, Space>>(
      layout, filter, filter_shape, nd.offset, nd.axes, "Convolve2D");
}

DISTLOPS_FOR_EACH_SCALAR_AND_SPACE_ARG(DISTLOPS_DETAIL_CONVOLVEND, )

template <Scalar T, MemorySpace Space>
ConvolveNDOperator<T, Space>::ConvolveNDOperator(const Layout& layout, std::span<const T> filter,
                                                 const Shape& filter_shape,
                                                 const std::vector<Index>& offset,
                                                 const std::vector<int>& axes, std::string name)
    : LinearOperatorBase<Array>(layout, layout, std::move(name)) {
  const std::string& op = this->name();
  // The filter and its options are each rank's input: every rank must pass the same, and an
  // error on any rank is raised on all before the exchanges are planned (a collective).
  Fingerprint fingerprint;
  fingerprint.add(filter)
      .add(std::span<const Index>(filter_shape))
      .add(std::span<const Index>(offset))
      .add(std::span<const int>(axes));
  convolve_nd::Spec<T> spec;
  collective_check(layout.communicator(), fingerprint, op + "'s filter, offset and axes", [&] {
    if (layout.partition() == Partition::UNSAFE_BROADCAST) {
      throw InvalidArgument(op +
                            ": an UNSAFE_BROADCAST layout is not supported (its replicas "
                            "may differ); use BROADCAST or SCATTER");
    }
    spec =
        convolve_nd::checked_spec<T>(op, layout.global_shape(), filter, filter_shape, offset, axes);
  });
  taps_ = spec.taps;
  offsets_ = spec.offset;
  filters_ = detail::copy_to_space<T, Space>(spec.filter);
  local_shape_ = layout.local_shape();
  block_corner_.assign(local_shape_.size(), 0);
  adjoint_.adjoint = true;
  adjoint_.weights = static_cast<Index>(filter.size());
  // Cut along a convolved axis: forward y[i] reads x[i + o - k], the planes from
  // i - (taps - 1 - o) to i + o; the adjoint reads the reverse. A rank that owns nothing asks
  // for nothing.
  bool convolved_cut = false;
  if (!layout.replicated()) {
    for (int a : layout.cut_axes())
      convolved_cut = convolved_cut || taps_[static_cast<std::size_t>(a)] > 1;
  }
  const bool owns = element_count(local_shape_) > 0;
  Index extended_size = 0;
  for (Direction* d : {&forward_, &adjoint_}) {
    d->extended = local_shape_;
    d->origin = block_corner_;
    if (!convolved_cut) continue;
    std::vector<GhostWidths> widths(local_shape_.size());
    for (std::size_t a = 0; a < widths.size() && owns; ++a) {
      const Index before = taps_[a] - 1 - offsets_[a], after = offsets_[a];
      widths[a] = d->adjoint ? GhostWidths{after, before} : GhostWidths{before, after};
    }
    d->exchange.emplace(layout, widths, GhostReach::any, GhostRegion::full);
    d->extended = d->exchange->ghosted_shape();
    d->origin = d->exchange->interior_corner();
    d->ghosts = d->extended != local_shape_;
    if (d->ghosts) extended_size = std::max(extended_size, element_count(d->extended));
  }
  extended_ = Buffer<T, Space>(extended_size);
}

template <Scalar T, MemorySpace Space>
void ConvolveNDOperator<T, Space>::forward_add(T alpha, const Array& x, T beta, Array& y) const {
  run(forward_, alpha, x, beta, y);
}

template <Scalar T, MemorySpace Space>
void ConvolveNDOperator<T, Space>::adjoint_add(T alpha, const Array& y, T beta, Array& x) const {
  run(adjoint_, alpha, y, beta, x);
}

template <Scalar T, MemorySpace Space>
void ConvolveNDOperator<T, Space>::run(const Direction& d, T alpha, const Array& in, T beta,
                                       Array& out) const {
  const T* source = in.data();
  // Every rank of the plan takes part in the exchange, also one that receives nothing: others
  // may need its cells.
  if (d.exchange) {
    GhostExchange::Pending pending =
        d.exchange->begin(transport_(in.communicator()), in.data(), extended_.data());
    if (d.ghosts) {
      kernels::copy_box(Space{}, sizeof(T), in.data(), {local_shape_, block_corner_},
                        extended_.data(), {d.extended, d.origin}, local_shape_);
      source = extended_.data();
    }
    d.exchange->end(pending);
  }
  if (element_count(local_shape_) == 0) return;
  const kernels::ConvolveGeometry geometry =
      convolve_nd::geometry(taps_, offsets_, d.adjoint, local_shape_, d.extended, d.origin);
  kernels::convolvend(Space{}, geometry, filters_.data() + d.weights, alpha, source, beta,
                      out.data());
}

DISTLOPS_INSTANTIATE_TEMPLATE_CLASS(ConvolveNDOperator)

}  // namespace distlops
