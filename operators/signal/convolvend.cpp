// SPDX-License-Identifier: BSD-3-Clause
// Copyright (c) 2026 The distlops authors
// Distributed ConvolveND: the ghost planes along the split axis (GhostExchange), the block and
// its planes joined by box copies, then the local kernel (convolvend_kernels.hpp).
#include "distlops/operators/signal/convolvend.hpp"

#include "../box_kernels.hpp"
#include "../local/convolvend_spec.hpp"
#include "../local/support.hpp"
#include "distlops/core/collective_check.hpp"
#include "distlops/core/instantiate.hpp"

namespace distlops {

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
  local::detail::ConvolveSpec<T> spec;
  collective_check(layout.communicator(), fingerprint, op + "'s filter, offset and axes", [&] {
    if (layout.partition() == Partition::UNSAFE_BROADCAST) {
      throw InvalidArgument(op +
                            ": an UNSAFE_BROADCAST layout is not supported (its replicas "
                            "may differ); use BROADCAST or SCATTER");
    }
    spec = local::detail::convolve_spec<T>(op, layout.global_shape(), filter, filter_shape, offset,
                                           axes);
  });
  taps_ = spec.taps;
  offsets_ = spec.offset;
  filters_ = local::detail::copy_to_space<T, Space>(spec.filter);
  local_shape_ = layout.local_shape();
  adjoint_.adjoint = true;
  adjoint_.weights = static_cast<Index>(filter.size());
  const Index a = layout.replicated() ? -1 : layout.axis();
  // Split along a convolved axis: forward y[i] reads x[i + o - k], the planes from
  // i - (taps - 1 - o) to i + o; the adjoint reads the reverse.
  if (a >= 0 && taps_[static_cast<std::size_t>(a)] > 1) {
    split_axis_ = static_cast<int>(a);
    const Index taps = taps_[static_cast<std::size_t>(a)];
    const Index o = offsets_[static_cast<std::size_t>(a)];
    forward_.exchange.emplace(layout, taps - 1 - o, o, GhostReach::any);
    adjoint_.exchange.emplace(layout, o, taps - 1 - o, GhostReach::any);
  }
  for (Direction* d : {&forward_, &adjoint_}) {
    d->extended = local_shape_;
    d->origin.assign(local_shape_.size(), 0);
    if (d->exchange) {
      const Index front = d->exchange->front(), back = d->exchange->back();
      d->ghosts = front > 0 || back > 0;
      d->extended[static_cast<std::size_t>(a)] += front + back;
      d->origin[static_cast<std::size_t>(a)] = front;
    }
  }
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
  // Every rank of the plan takes part in the exchange, also one that receives nothing: its
  // neighbours may need its planes.
  if (d.exchange) {
    const GhostExchange& exchange = *d.exchange;
    const Index front_size = element_count(exchange.front_shape());
    const Index back_size = element_count(exchange.back_shape());
    if (front_.size() < front_size) front_ = Buffer<T, Space>(front_size);
    if (back_.size() < back_size) back_ = Buffer<T, Space>(back_size);
    if constexpr (std::same_as<Space, Host>) {
      exchange.exchange(Host{}, in.data(), front_.data(), back_.data());
    } else {
      exchange.exchange(transport_(in.communicator()), in.data(), front_.data(), back_.data());
    }
    if (d.ghosts) source = join(d, in.data());
  }
  if (element_count(local_shape_) == 0) return;
  const kernels::ConvolveGeometry geometry = local::detail::convolve_geometry(
      taps_, offsets_, d.adjoint, local_shape_, d.extended, d.origin);
  kernels::convolvend(Space{}, geometry, filters_.data() + d.weights, alpha, source, beta,
                      out.data());
}

// The front planes, the block and the back planes, one after the other along the split axis.
template <Scalar T, MemorySpace Space>
const T* ConvolveNDOperator<T, Space>::join(const Direction& d, const T* block) const {
  const GhostExchange& exchange = *d.exchange;
  const Index extended_size = element_count(d.extended);
  if (extended_.size() < extended_size) extended_ = Buffer<T, Space>(extended_size);
  const auto a = static_cast<std::size_t>(split_axis_);
  const Shape out_strides = local::detail::strides_of(d.extended);
  Index position = 0;
  const std::pair<const T*, Shape> parts[] = {{front_.data(), exchange.front_shape()},
                                              {block, local_shape_},
                                              {back_.data(), exchange.back_shape()}};
  for (const auto& [data, shape] : parts) {
    if (element_count(shape) > 0) {
      kernels::BoxAxpby box;
      box.extent = shape;
      box.out_strides = out_strides;
      box.in_strides = local::detail::strides_of(shape);
      box.in_first = Shape(shape.size(), 0);
      box.in_last = shape;
      box.out_offset = position * out_strides[a];
      kernels::box_axpby(Space{}, box, T(1), data, T(0), extended_.data());
    }
    position += shape[a];
  }
  return extended_.data();
}

DISTLOPS_INSTANTIATE_TEMPLATE_CLASS(ConvolveNDOperator)

}  // namespace distlops
