// SPDX-License-Identifier: BSD-3-Clause
// Copyright (c) 2026 The distlops authors
#include "distlops/core/layout.hpp"

#include <algorithm>
#include <array>
#include <numeric>

#include "distlops/core/collective_check.hpp"
#include "distlops/core/error.hpp"

namespace distlops {

namespace {

std::string list_to_string(std::span<const Index> values) {
  std::string text = "[";
  for (std::size_t i = 0; i < values.size(); ++i) {
    if (i > 0) text += ", ";
    text += std::to_string(values[i]);
  }
  return text + "]";
}

int normalise_axis(int axis, int ndim) {
  if (axis < -ndim || axis >= ndim) {
    throw InvalidArgument("Layout: axis " + std::to_string(axis) +
                          " is out of range for an array of " + std::to_string(ndim) +
                          " dimension(s)");
  }
  return axis < 0 ? axis + ndim : axis;
}

}  // namespace

std::vector<Index> default_split(Index n, int parts) {
  std::vector<Index> extents(static_cast<std::size_t>(parts));
  for (int r = 0; r < parts; ++r)
    extents[r] = n / parts + (r < n % parts ? 1 : 0);
  return extents;
}

Layout::Layout(const Communicator& comm, Shape global_shape, Partition partition, int axis)
    : Layout(comm, std::move(global_shape), LayoutOptions{.partition = partition, .axis = axis}) {}

Layout::Layout(const Communicator& comm, Shape global_shape, const LayoutOptions& options) {
  auto data = std::make_shared<Data>();
  data->comm = comm;
  data->global_shape = std::move(global_shape);
  data->partition = options.partition;
  data->mask = options.mask;
  const int size = comm.size();

  Fingerprint fingerprint;
  fingerprint.add(std::span<const Index>(data->global_shape))
      .add(options.partition)
      .add(options.axis)
      .add(std::span<const int>(options.mask));
  for (const Shape& shape : options.local_shapes)
    fingerprint.add(std::span<const Index>(shape));

  collective_check(
      comm, fingerprint,
      "Layout: the global shape, partition, axis, local shapes "
      "or mask",
      [&] {
        const Shape& shape = data->global_shape;
        const int ndim = static_cast<int>(shape.size());
        if (ndim == 0)
          throw InvalidArgument("Layout: the global shape must have at least one axis");
        for (Index extent : shape) {
          if (extent < 0) {
            throw InvalidArgument("Layout: negative extent in global shape " + to_string(shape));
          }
        }
        if (!extents_fit(shape)) {
          throw InvalidArgument("Layout: the extents of the global shape " + to_string(shape) +
                                " multiply past the largest index (2^63 - 1)");
        }
        if (options.partition != Partition::SCATTER && options.partition != Partition::BROADCAST &&
            options.partition != Partition::UNSAFE_BROADCAST) {
          throw InvalidArgument("Layout: unknown partition");
        }
        data->axis = normalise_axis(options.axis, ndim);
        if (!options.mask.empty()) {
          if (static_cast<int>(options.mask.size()) != size) {
            throw InvalidArgument("Layout: the mask has " + std::to_string(options.mask.size()) +
                                  " entries, expected one per rank (" + std::to_string(size) + ")");
          }
          for (int colour : options.mask) {
            if (colour < 0) throw InvalidArgument("Layout: mask colours must be non-negative");
          }
        }
        const Index axis_extent = shape[static_cast<std::size_t>(data->axis)];
        if (options.local_shapes.empty()) {
          data->extents = is_replicated(options.partition) ? std::vector<Index>(size, axis_extent)
                                                           : default_split(axis_extent, size);
          return;
        }
        if (static_cast<int>(options.local_shapes.size()) != size) {
          throw InvalidArgument("Layout: " + std::to_string(options.local_shapes.size()) +
                                " local shapes given for " + std::to_string(size) + " ranks");
        }
        data->extents.resize(static_cast<std::size_t>(size));
        for (int r = 0; r < size; ++r) {
          const Shape& local = options.local_shapes[static_cast<std::size_t>(r)];
          bool fits = local.size() == shape.size();
          for (std::size_t k = 0; fits && k < shape.size(); ++k) {
            if (static_cast<int>(k) != data->axis || is_replicated(options.partition)) {
              fits = local[k] == shape[k];
            } else {
              fits = local[k] >= 0;
            }
          }
          if (!fits) {
            throw InvalidArgument(
                "Layout: local shape " + to_string(local) + " of rank " + std::to_string(r) +
                " does not fit the global shape " + to_string(shape) + " distributed along axis " +
                std::to_string(data->axis) + " with partition " + to_string(options.partition));
          }
          data->extents[static_cast<std::size_t>(r)] = local[static_cast<std::size_t>(data->axis)];
        }
        if (!is_replicated(options.partition)) {
          const Index total = std::accumulate(data->extents.begin(), data->extents.end(), Index{0});
          if (total != axis_extent) {
            throw InvalidArgument("Layout: local extents " + list_to_string(data->extents) +
                                  " along axis " + std::to_string(data->axis) + " sum to " +
                                  std::to_string(total) + ", but the global shape " +
                                  to_string(shape) + " has " + std::to_string(axis_extent));
          }
        }
      });

  data->offsets.assign(static_cast<std::size_t>(size) + 1, 0);
  if (!is_replicated(data->partition)) {
    for (int r = 0; r < size; ++r)
      data->offsets[r + 1] = data->offsets[r] + data->extents[r];
  } else {
    data->offsets[static_cast<std::size_t>(size)] = data->global_shape[data->axis];
  }
  data->global_size = element_count(data->global_shape);
  data->slab_size = 1;
  for (int k = 0; k < static_cast<int>(data->global_shape.size()); ++k) {
    if (k != data->axis) data->slab_size *= data->global_shape[k];
  }
  Fingerprint fingerprint_of_layout;
  fingerprint_of_layout.add(std::span<const Index>(data->global_shape))
      .add(data->partition)
      .add(data->axis)
      .add(std::span<const Index>(data->extents))
      .add(std::span<const int>(data->mask));
  data->fingerprint = fingerprint_of_layout.value();
  data->sub_comm = data->mask.empty() ? comm : comm.split(data->mask[comm.rank()], comm.rank());
  data_ = std::move(data);
}

Layout Layout::from_local_shape(const Communicator& comm, const Shape& local_shape,
                                Partition partition, int axis, std::vector<int> mask) {
  const int ndim = static_cast<int>(local_shape.size());
  const std::vector<int> all_ndims = comm.allgather(ndim);
  collective_check(comm, [&] {
    for (int r = 0; r < comm.size(); ++r) {
      if (all_ndims[r] != all_ndims[0]) {
        throw InvalidArgument("Layout::from_local_shape: rank " + std::to_string(r) +
                              " gives a local shape of " + std::to_string(all_ndims[r]) +
                              " dimensions, rank 0 one of " + std::to_string(all_ndims[0]));
      }
    }
    if (ndim == 0) throw InvalidArgument("Layout::from_local_shape: empty local shape");
    normalise_axis(axis, ndim);
  });
  const int normal_axis = axis < 0 ? axis + ndim : axis;
  std::vector<Index> flat(static_cast<std::size_t>(ndim) * comm.size());
  comm.allgather(local_shape.data(), ndim, flat.data());
  std::vector<Shape> local_shapes(static_cast<std::size_t>(comm.size()));
  for (int r = 0; r < comm.size(); ++r) {
    local_shapes[r].assign(flat.begin() + r * ndim, flat.begin() + (r + 1) * ndim);
  }
  Shape global_shape = local_shapes[0];
  if (!is_replicated(partition)) {
    global_shape[normal_axis] = 0;
    for (const Shape& local : local_shapes)
      global_shape[normal_axis] += local[normal_axis];
  }
  return Layout(comm, std::move(global_shape),
                LayoutOptions{.partition = partition,
                              .axis = normal_axis,
                              .local_shapes = std::move(local_shapes),
                              .mask = std::move(mask)});
}

const Layout::Data& Layout::get() const {
  if (!data_) throw InvalidArgument("Layout: use of an empty layout");
  return *data_;
}

Shape Layout::local_shape(int rank) const {
  Shape shape = get().global_shape;
  shape[static_cast<std::size_t>(get().axis)] = local_extent(rank);
  return shape;
}

std::vector<Shape> Layout::local_shapes() const {
  std::vector<Shape> shapes;
  for (int r = 0; r < size(); ++r)
    shapes.push_back(local_shape(r));
  return shapes;
}

Index Layout::local_size(int rank) const {
  return local_extent(rank) * get().slab_size;
}

Layout Layout::with_axis(int axis) const {
  return Layout(communicator(), global_shape(),
                LayoutOptions{.partition = partition(), .axis = axis, .mask = mask()});
}

Layout Layout::with_partition(Partition new_partition) const {
  return Layout(communicator(), global_shape(),
                LayoutOptions{.partition = new_partition, .axis = this->axis(), .mask = mask()});
}

bool Layout::operator==(const Layout& other) const {
  if (data_ == other.data_) return true;
  if (!data_ || !other.data_) return false;
  const Data& a = *data_;
  const Data& b = *other.data_;
  return a.global_shape == b.global_shape && a.partition == b.partition && a.axis == b.axis &&
         a.extents == b.extents && a.mask == b.mask && a.comm.congruent(b.comm);
}

namespace {

// Whether the blocks, concatenated in rank order, are the array in row-major order: replicated,
// nothing before the distribution axis, or a single rank holding data.
bool blocks_in_global_order(const Layout& layout) {
  if (layout.replicated()) return true;
  Index before = 1;
  for (int k = 0; k < layout.axis(); ++k)
    before *= layout.global_shape()[static_cast<std::size_t>(k)];
  if (before <= 1) return true;
  int holders = 0;
  for (int r = 0; r < layout.size(); ++r)
    holders += layout.local_size(r) > 0 ? 1 : 0;
  return holders <= 1;
}

// A slab decomposition is fixed by the extents before the distribution axis, along it and after
// it; two layouts with the same three hold the same elements in the same order on every rank
// (size-1 axes added or removed, axes merged on either side of the distribution axis).
std::array<Index, 3> slab_extents(const Layout& layout) {
  std::array<Index, 3> extents{1, layout.global_shape()[static_cast<std::size_t>(layout.axis())],
                               1};
  for (int k = 0; k < layout.ndim(); ++k) {
    if (k == layout.axis()) continue;
    extents[k < layout.axis() ? 0 : 2] *= layout.global_shape()[static_cast<std::size_t>(k)];
  }
  return extents;
}

}  // namespace

bool views_alike(const Layout& a, const Layout& b) {
  if (!a.valid() || !b.valid()) return false;
  const bool partitions_fit = a.partition() == b.partition() || (a.replicated() && b.replicated());
  if (!partitions_fit || a.global_size() != b.global_size() || a.size() != b.size() ||
      a.mask() != b.mask()) {
    return false;
  }
  for (int r = 0; r < a.size(); ++r) {
    if (a.local_size(r) != b.local_size(r)) return false;
  }
  if (!a.communicator().congruent(b.communicator())) return false;
  // A flat side reads each rank's block in its local C order (PyLops-MPI's flattened
  // arrays); two N-d layouts must hold the same elements in the same order.
  const bool split_alike = slab_extents(a) == slab_extents(b);
  const bool flat = a.ndim() == 1 || b.ndim() == 1;
  return split_alike || flat || (blocks_in_global_order(a) && blocks_in_global_order(b));
}

std::string Layout::describe() const {
  if (!data_) return "empty layout";
  std::string text = "shape " + to_string(global_shape()) + ", " + to_string(partition());
  text += " along axis " + std::to_string(axis());
  if (!replicated()) text += ", local extents " + list_to_string(local_extents());
  if (masked()) {
    std::vector<Index> colours(mask().begin(), mask().end());
    text += ", mask " + list_to_string(colours);
  }
  return text;
}

}  // namespace distlops
