// SPDX-License-Identifier: BSD-3-Clause
// Copyright (c) 2026 The distlops authors
#include "distlops/core/reshape_plan.hpp"

#include <algorithm>

#include "distlops/core/error.hpp"
#include "distlops/core/log_view.hpp"

namespace distlops {

namespace {

Communicator reshape_communicator_of(const Layout& layout) {
  if (!layout.valid()) throw InvalidArgument("redistribute: empty layout");
  return layout.communicator();
}

// Whether every rank's block is the same box in both layouts (masks aside).
bool same_boxes(const Layout& a, const Layout& b) {
  if (a.replicated() != b.replicated()) return false;
  if (a.replicated()) return true;
  for (int r = 0; r < a.size(); ++r) {
    for (int k = 0; k < a.ndim(); ++k) {
      if (a.box_lower(r, k) != b.box_lower(r, k) || a.box_upper(r, k) != b.box_upper(r, k)) {
        return false;
      }
    }
  }
  return true;
}

// The part of `rank`'s box of `from` that lies in the box `within` (global coordinates), with
// its corner relative to `origin`.
BlockBox intersection(const Layout& from, int rank, const ArrayBox& within, const Shape& origin) {
  BlockBox box;
  const std::size_t ndim = origin.size();
  box.corner.resize(ndim);
  box.extent.resize(ndim);
  box.count = 1;
  for (std::size_t k = 0; k < ndim; ++k) {
    const auto axis = static_cast<int>(k);
    const Index lo = std::max(from.box_lower(rank, axis), within.lower[k]);
    const Index hi = std::min(from.box_upper(rank, axis), within.upper[k]);
    box.extent[k] = std::max<Index>(0, hi - lo);
    box.corner[k] = std::max<Index>(0, lo - origin[k]);
    box.count *= box.extent[k];
  }
  return box;
}

}  // namespace

ReshapePlan::ReshapePlan(const Layout& source, const Layout& destination)
    : source_(source), destination_(destination), host_transport_(reshape_communicator_of(source)) {
  if (!source.valid() || !destination.valid()) {
    throw InvalidArgument("redistribute: empty layout");
  }
  if (source.global_shape() != destination.global_shape()) {
    throw ShapeMismatch("redistribute: the global shapes differ: " + source.describe() + " vs " +
                        destination.describe());
  }
  if (!source.communicator().congruent(destination.communicator())) {
    throw ShapeMismatch("redistribute: the layouts live on different communicators");
  }
  exchange_.source_block = source.local_shape();
  exchange_.destination_block = destination.local_shape();
  // Every rank holds the whole array, or already its destination block: copies only.
  local_only_ = source.replicated() || same_boxes(source, destination);
  origin_.assign(source.global_shape().size(), 0);
  local_corner_ = origin_;
  if (source.replicated() && !destination.replicated()) local_corner_ = destination.box().lower;
  if (local_only_) return;
  const int size = source.size();
  const int me = source.rank();
  const ArrayBox mine_before = source.box(me);
  const ArrayBox mine_after = destination.box(me);
  exchange_.sends.reserve(static_cast<std::size_t>(size));
  exchange_.receives.reserve(static_cast<std::size_t>(size));
  for (int r = 0; r < size; ++r) {
    exchange_.sends.push_back(intersection(destination, r, mine_before, mine_before.lower));
    exchange_.receives.push_back(intersection(source, r, mine_after, mine_after.lower));
  }
}

namespace {

// Elements of the boxes that go to (or come from) ranks other than `me`.
Index elements_off_rank(const std::vector<BlockBox>& boxes, int me) {
  Index elements = 0;
  for (std::size_t r = 0; r < boxes.size(); ++r) {
    if (static_cast<int>(r) != me) elements += boxes[r].count;
  }
  return elements;
}

// Per rank, the elements of `boxes`; of a plan that only copies, the rank's own block.
std::vector<Index> counts_of(const std::vector<BlockBox>& boxes, bool local_only,
                             const Layout& destination) {
  std::vector<Index> counts(static_cast<std::size_t>(destination.size()), 0);
  if (local_only) {
    counts[static_cast<std::size_t>(destination.rank())] = destination.local_size();
    return counts;
  }
  for (std::size_t r = 0; r < counts.size(); ++r)
    counts[r] = boxes[r].count;
  return counts;
}

}  // namespace

Index ReshapePlan::bytes_sent(std::size_t element_size) const {
  return elements_off_rank(exchange_.sends, source_.rank()) * static_cast<Index>(element_size);
}

Index ReshapePlan::bytes_received(std::size_t element_size) const {
  return elements_off_rank(exchange_.receives, source_.rank()) * static_cast<Index>(element_size);
}

std::vector<Index> ReshapePlan::send_counts() const {
  return counts_of(exchange_.sends, local_only_, destination_);
}

std::vector<Index> ReshapePlan::receive_counts() const {
  return counts_of(exchange_.receives, local_only_, destination_);
}

void ReshapePlan::execute_bytes(Transport& transport, std::size_t element_size, const void* source,
                                void* destination) const {
  const log_view::ScopedEvent event(log_view::EventKind::exchange, "redistribute");
  if (!transport.communicator().congruent(source_.communicator())) {
    throw InvalidArgument("redistribute: the transport's communicator is not the layouts'");
  }
  if (!local_only_) {
    transport.exchange_boxes(exchange_, element_size, source, destination, prepared_);
    return;
  }
  // The destination block is a box of the source block: the whole array of a replicated
  // source, or the same box.
  const Shape& block = exchange_.destination_block;
  if (element_count(block) == 0) return;
  transport.copy_box(element_size, source, {exchange_.source_block, local_corner_}, destination,
                     {block, origin_}, block);
}

}  // namespace distlops
