// SPDX-License-Identifier: BSD-3-Clause
// Copyright (c) 2026 The distlops authors
#include "distlops/core/layout.hpp"

#include <algorithm>
#include <array>
#include <numeric>
#include <optional>

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

std::string grid_to_string(std::span<const int> grid) {
  return to_string(Shape(grid.begin(), grid.end()));
}

int normalise_axis(int axis, int ndim) {
  if (axis < -ndim || axis >= ndim) {
    throw InvalidArgument("Layout: axis " + std::to_string(axis) +
                          " is out of range for an array of " + std::to_string(ndim) +
                          " dimension(s)");
  }
  return axis < 0 ? axis + ndim : axis;
}

// The coordinate along `axis` of `rank` in a row-major grid.
int grid_coordinate(std::span<const int> grid, int rank, std::size_t axis) {
  int stride = 1;
  for (std::size_t k = axis + 1; k < grid.size(); ++k)
    stride *= grid[k];
  return (rank / stride) % grid[axis];
}

// "(0, 2)-(4, 6)": a box's corners, for messages.
std::string box_to_string(const ArrayBox& box) {
  return to_string(box.lower) + "-" + to_string(box.upper);
}

// Every ordered way of writing `ranks` as a product of `ndim` factors, those with the fewest
// factors above 1 first (so that boxes which are a slab become one).
std::vector<std::vector<int>> grid_candidates(int ranks, std::size_t ndim) {
  std::vector<std::vector<int>> candidates;
  std::vector<int> grid(ndim, 1);
  auto fill = [&](auto&& self, std::size_t axis, int left) -> void {
    if (axis + 1 == ndim) {
      grid[axis] = left;
      candidates.push_back(grid);
      return;
    }
    for (int factor = 1; factor <= left; ++factor) {
      if (left % factor != 0) continue;
      grid[axis] = factor;
      self(self, axis + 1, left / factor);
    }
  };
  fill(fill, 0, ranks);
  auto cut = [](const std::vector<int>& g) {
    return std::count_if(g.begin(), g.end(), [](int e) { return e > 1; });
  };
  std::stable_sort(candidates.begin(), candidates.end(),
                   [&](const auto& a, const auto& b) { return cut(a) < cut(b); });
  return candidates;
}

// The cuts of `grid` when `boxes` are its boxes in rank order; nothing otherwise.
std::optional<std::vector<std::vector<Index>>> cuts_of_boxes(const std::vector<ArrayBox>& boxes,
                                                             const std::vector<int>& grid,
                                                             const Shape& shape) {
  const std::size_t ndim = shape.size();
  std::vector<std::vector<Index>> cuts(ndim);
  std::vector<int> stride(ndim, 1);
  for (std::size_t k = ndim - 1; k-- > 0;)
    stride[k] = stride[k + 1] * grid[k + 1];
  for (std::size_t k = 0; k < ndim; ++k) {
    cuts[k].push_back(0);
    for (int c = 0; c < grid[k]; ++c) {
      const ArrayBox& box = boxes[static_cast<std::size_t>(c * stride[k])];
      if (box.lower[k] != cuts[k].back()) return std::nullopt;
      cuts[k].push_back(box.upper[k]);
    }
    if (cuts[k].back() != shape[k]) return std::nullopt;
  }
  for (std::size_t r = 0; r < boxes.size(); ++r) {
    for (std::size_t k = 0; k < ndim; ++k) {
      const int c = grid_coordinate(grid, static_cast<int>(r), k);
      if (boxes[r].lower[k] != cuts[k][c] || boxes[r].upper[k] != cuts[k][c + 1]) {
        return std::nullopt;
      }
    }
  }
  return cuts;
}

// Raises InvalidArgument unless `boxes` (one per rank) tile an array of `shape`: every box
// inside it, no two non-empty boxes overlapping, and their sizes adding up to its size.
void check_tiling(const std::vector<ArrayBox>& boxes, const Shape& shape, int ranks) {
  if (static_cast<int>(boxes.size()) != ranks) {
    throw InvalidArgument("Layout: " + std::to_string(boxes.size()) + " boxes given for " +
                          std::to_string(ranks) + " ranks");
  }
  const std::size_t ndim = shape.size();
  Index covered = 0;
  for (std::size_t r = 0; r < boxes.size(); ++r) {
    const ArrayBox& box = boxes[r];
    bool inside = box.lower.size() == ndim && box.upper.size() == ndim;
    for (std::size_t k = 0; inside && k < ndim; ++k)
      inside = 0 <= box.lower[k] && box.lower[k] <= box.upper[k] && box.upper[k] <= shape[k];
    if (!inside) {
      throw InvalidArgument("Layout: the box " + box_to_string(box) + " of rank " +
                            std::to_string(r) + " does not lie in the global shape " +
                            to_string(shape) + " (lower <= upper, both within the shape)");
    }
    covered += box.size();
  }
  // Non-empty boxes by their lower corner along axis 0: only those starting before a box ends
  // along that axis can overlap it.
  std::vector<std::size_t> order;
  for (std::size_t r = 0; r < boxes.size(); ++r) {
    if (boxes[r].size() > 0) order.push_back(r);
  }
  std::sort(order.begin(), order.end(),
            [&](std::size_t a, std::size_t b) { return boxes[a].lower[0] < boxes[b].lower[0]; });
  for (std::size_t i = 0; i < order.size(); ++i) {
    const ArrayBox& a = boxes[order[i]];
    for (std::size_t j = i + 1; j < order.size() && boxes[order[j]].lower[0] < a.upper[0]; ++j) {
      const ArrayBox& b = boxes[order[j]];
      bool overlap = true;
      for (std::size_t k = 0; overlap && k < ndim; ++k)
        overlap = std::max(a.lower[k], b.lower[k]) < std::min(a.upper[k], b.upper[k]);
      if (overlap) {
        const std::size_t first = std::min(order[i], order[j]);
        const std::size_t second = std::max(order[i], order[j]);
        throw InvalidArgument("Layout: the boxes of ranks " + std::to_string(first) + " and " +
                              std::to_string(second) + " overlap: " + box_to_string(boxes[first]) +
                              " and " + box_to_string(boxes[second]));
      }
    }
  }
  const Index total = element_count(shape);
  if (covered != total) {
    throw InvalidArgument("Layout: the boxes cover " + std::to_string(covered) + " of the " +
                          std::to_string(total) + " elements of the global shape " +
                          to_string(shape) + ": they leave a gap");
  }
}

// The cuts of a grid over `shape`: the default split, or `extents` (validated).
std::vector<std::vector<Index>> grid_cuts(const std::vector<int>& grid,
                                          const std::vector<std::vector<Index>>& extents,
                                          const Shape& shape, int ranks) {
  const std::size_t ndim = shape.size();
  if (grid.size() != ndim) {
    throw InvalidArgument("Layout: the grid " + grid_to_string(grid) + " has " +
                          std::to_string(grid.size()) + " entries, the global shape " +
                          to_string(shape) + " " + std::to_string(ndim) + " axes");
  }
  Index product = 1;
  for (int parts : grid) {
    if (parts < 1) {
      throw InvalidArgument("Layout: the grid " + grid_to_string(grid) + " has an entry below 1");
    }
    product = std::min<Index>(product * parts, Index(1) << 40);
  }
  if (product != ranks) {
    throw InvalidArgument(
        "Layout: the grid " + grid_to_string(grid) + " has " +
        (product >= (Index(1) << 40) ? std::string("too many") : std::to_string(product)) +
        " parts, but the communicator has " + std::to_string(ranks) +
        " ranks (the product of the grid's entries must be the rank count)");
  }
  if (!extents.empty() && extents.size() != ndim) {
    throw InvalidArgument("Layout: grid_extents has " + std::to_string(extents.size()) +
                          " axes, the global shape " + to_string(shape) + " " +
                          std::to_string(ndim));
  }
  std::vector<std::vector<Index>> cuts(ndim);
  for (std::size_t k = 0; k < ndim; ++k) {
    std::vector<Index> parts = extents.empty() ? default_split(shape[k], grid[k]) : extents[k];
    if (static_cast<int>(parts.size()) != grid[k]) {
      throw InvalidArgument("Layout: grid_extents gives " + std::to_string(parts.size()) +
                            " parts along axis " + std::to_string(k) + ", the grid " +
                            std::to_string(grid[k]));
    }
    cuts[k].push_back(0);
    for (Index part : parts) {
      if (part < 0) {
        throw InvalidArgument("Layout: negative part in grid_extents along axis " +
                              std::to_string(k));
      }
      cuts[k].push_back(cuts[k].back() + part);
    }
    if (cuts[k].back() != shape[k]) {
      throw InvalidArgument("Layout: grid_extents " + list_to_string(parts) + " along axis " +
                            std::to_string(k) + " sum to " + std::to_string(cuts[k].back()) +
                            ", but the global shape " + to_string(shape) + " has " +
                            std::to_string(shape[k]));
    }
  }
  return cuts;
}

}  // namespace

Shape ArrayBox::extent() const {
  Shape extent(lower.size());
  for (std::size_t k = 0; k < lower.size() && k < upper.size(); ++k)
    extent[k] = upper[k] - lower[k];
  return extent;
}

Index ArrayBox::size() const {
  const Shape e = extent();
  for (Index x : e) {
    if (x <= 0) return 0;
  }
  return element_count(e);
}

std::vector<Index> default_split(Index n, int parts) {
  std::vector<Index> extents(static_cast<std::size_t>(parts));
  for (int r = 0; r < parts; ++r)
    extents[r] = n / parts + (r < n % parts ? 1 : 0);
  return extents;
}

std::vector<int> default_grid(const Shape& shape, int ranks, std::span<const int> axes) {
  const int ndim = static_cast<int>(shape.size());
  if (ndim == 0) throw InvalidArgument("default_grid: the shape has no axis");
  if (ranks < 1) {
    throw InvalidArgument("default_grid: needs at least one rank, got " + std::to_string(ranks));
  }
  std::vector<int> candidates;
  for (int axis : axes) {
    if (axis < -ndim || axis >= ndim) {
      throw InvalidArgument("default_grid: axis " + std::to_string(axis) +
                            " is out of range for an array of " + std::to_string(ndim) +
                            " dimension(s)");
    }
    const int normal = axis < 0 ? axis + ndim : axis;
    if (std::find(candidates.begin(), candidates.end(), normal) != candidates.end()) {
      throw InvalidArgument("default_grid: axis " + std::to_string(axis) + " is given twice");
    }
    candidates.push_back(normal);
  }
  if (candidates.empty()) {
    candidates.resize(static_cast<std::size_t>(ndim));
    std::iota(candidates.begin(), candidates.end(), 0);
  }
  std::sort(candidates.begin(), candidates.end());
  std::vector<int> primes;
  for (int left = ranks, p = 2; left > 1;) {
    if (static_cast<long long>(p) * p > left) {
      primes.push_back(left);
      break;
    }
    if (left % p == 0) {
      primes.push_back(p);
      left /= p;
    } else {
      ++p;
    }
  }
  std::sort(primes.rbegin(), primes.rend());
  std::vector<int> grid(static_cast<std::size_t>(ndim), 1);
  for (int p : primes) {
    int best = -1;
    bool best_fits = false;
    for (int k : candidates) {
      const bool fits = static_cast<Index>(grid[k]) * p <= shape[k];
      if (best < 0 || (fits && !best_fits)) {
        best = k;
        best_fits = fits;
        continue;
      }
      if (fits != best_fits) continue;
      // Longer parts win: shape[k] / grid[k] > shape[best] / grid[best].
      if (static_cast<long double>(shape[k]) / grid[k] >
          static_cast<long double>(shape[best]) / grid[best]) {
        best = k;
      }
    }
    grid[static_cast<std::size_t>(best)] *= p;
  }
  return grid;
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
  // The new settings only when given, so that slabs keep their fingerprints.
  if (!options.grid.empty() || !options.grid_extents.empty() || !options.boxes.empty()) {
    fingerprint.add(std::span<const int>(options.grid));
    for (const std::vector<Index>& parts : options.grid_extents)
      fingerprint.add(std::span<const Index>(parts));
    fingerprint.add(options.boxes.size());
    for (const ArrayBox& box : options.boxes)
      fingerprint.add(std::span<const Index>(box.lower)).add(std::span<const Index>(box.upper));
  }

  collective_check(
      comm, fingerprint,
      "Layout: the global shape, partition, axis, local shapes, grid, boxes "
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
        const int axis = normalise_axis(options.axis, ndim);
        if (!options.mask.empty()) {
          if (static_cast<int>(options.mask.size()) != size) {
            throw InvalidArgument("Layout: the mask has " + std::to_string(options.mask.size()) +
                                  " entries, expected one per rank (" + std::to_string(size) + ")");
          }
          for (int colour : options.mask) {
            if (colour < 0) throw InvalidArgument("Layout: mask colours must be non-negative");
          }
        }
        const bool by_grid = !options.grid.empty() || !options.grid_extents.empty();
        const bool by_boxes = !options.boxes.empty();
        const int ways = int(!options.local_shapes.empty()) + int(by_grid) + int(by_boxes);
        if (ways > 1) {
          throw InvalidArgument(
              "Layout: give at most one of local shapes, a grid (with its extents) and boxes");
        }
        if ((by_grid || by_boxes) && is_replicated(options.partition)) {
          throw InvalidArgument(std::string("Layout: a grid or boxes cut a SCATTER array, not a ") +
                                to_string(options.partition) + " one");
        }
        if (by_grid) {
          std::vector<int> grid = options.grid;
          if (grid.empty()) {
            for (const std::vector<Index>& parts : options.grid_extents)
              grid.push_back(static_cast<int>(parts.size()));
          }
          std::vector<std::vector<Index>> cuts = grid_cuts(grid, options.grid_extents, shape, size);
          set_grid(*data, std::move(grid), std::move(cuts), axis);
          return;
        }
        if (by_boxes) {
          check_tiling(options.boxes, shape, size);
          for (const std::vector<int>& grid : grid_candidates(size, shape.size())) {
            if (auto cuts = cuts_of_boxes(options.boxes, grid, shape)) {
              set_grid(*data, grid, std::move(*cuts), axis);
              return;
            }
          }
          data->axis = -1;
          data->corners.reserve(static_cast<std::size_t>(2 * ndim * size));
          for (const ArrayBox& box : options.boxes) {
            data->corners.insert(data->corners.end(), box.lower.begin(), box.lower.end());
            data->corners.insert(data->corners.end(), box.upper.begin(), box.upper.end());
          }
          return;
        }
        const Index axis_extent = shape[static_cast<std::size_t>(axis)];
        std::vector<Index> extents;
        if (options.local_shapes.empty()) {
          extents = is_replicated(options.partition) ? std::vector<Index>(size, axis_extent)
                                                     : default_split(axis_extent, size);
        } else {
          if (static_cast<int>(options.local_shapes.size()) != size) {
            throw InvalidArgument("Layout: " + std::to_string(options.local_shapes.size()) +
                                  " local shapes given for " + std::to_string(size) + " ranks");
          }
          extents.resize(static_cast<std::size_t>(size));
          for (int r = 0; r < size; ++r) {
            const Shape& local = options.local_shapes[static_cast<std::size_t>(r)];
            bool fits = local.size() == shape.size();
            for (std::size_t k = 0; fits && k < shape.size(); ++k) {
              if (static_cast<int>(k) != axis || is_replicated(options.partition)) {
                fits = local[k] == shape[k];
              } else {
                fits = local[k] >= 0;
              }
            }
            if (!fits) {
              throw InvalidArgument("Layout: local shape " + to_string(local) + " of rank " +
                                    std::to_string(r) + " does not fit the global shape " +
                                    to_string(shape) + " distributed along axis " +
                                    std::to_string(axis) + " with partition " +
                                    to_string(options.partition));
            }
            extents[static_cast<std::size_t>(r)] = local[static_cast<std::size_t>(axis)];
          }
          if (!is_replicated(options.partition)) {
            const Index total = std::accumulate(extents.begin(), extents.end(), Index{0});
            if (total != axis_extent) {
              throw InvalidArgument("Layout: local extents " + list_to_string(extents) +
                                    " along axis " + std::to_string(axis) + " sum to " +
                                    std::to_string(total) + ", but the global shape " +
                                    to_string(shape) + " has " + std::to_string(axis_extent));
            }
          }
        }
        if (is_replicated(options.partition)) {
          data->axis = axis;
          data->grid.assign(shape.size(), 1);
          for (Index n : shape)
            data->cuts.push_back({0, n});
          data->extents = std::move(extents);
          data->offsets.assign(static_cast<std::size_t>(size) + 1, 0);
          data->offsets.back() = axis_extent;
          return;
        }
        std::vector<int> grid(shape.size(), 1);
        grid[static_cast<std::size_t>(axis)] = size;
        std::vector<std::vector<Index>> cuts;
        for (Index n : shape)
          cuts.push_back({0, n});
        std::vector<Index>& along = cuts[static_cast<std::size_t>(axis)];
        along.assign(1, 0);
        for (Index e : extents)
          along.push_back(along.back() + e);
        set_grid(*data, std::move(grid), std::move(cuts), axis);
      });
  finish(*data);
  data_ = std::move(data);
}

void Layout::set_grid(Data& data, std::vector<int> grid, std::vector<std::vector<Index>> cuts,
                      int axis) {
  // A grid with at most one entry above 1 is a slab: along that axis, or `axis` when none.
  int cut = -1, cut_count = 0;
  for (std::size_t k = 0; k < grid.size(); ++k) {
    if (grid[k] > 1) {
      cut = static_cast<int>(k);
      ++cut_count;
    }
  }
  data.grid = std::move(grid);
  data.cuts = std::move(cuts);
  if (cut_count > 1) {
    data.axis = -1;
    return;
  }
  data.axis = cut_count == 1 ? cut : axis;
  const std::vector<Index>& along = data.cuts[static_cast<std::size_t>(data.axis)];
  data.offsets = along;
  data.extents.resize(along.size() - 1);
  for (std::size_t r = 0; r + 1 < along.size(); ++r)
    data.extents[r] = along[r + 1] - along[r];
}

void Layout::finish(Data& data) {
  const int size = data.comm.size();
  const std::size_t ndim = data.global_shape.size();
  data.global_size = element_count(data.global_shape);
  data.sizes.resize(static_cast<std::size_t>(size));
  for (int r = 0; r < size; ++r) {
    if (is_replicated(data.partition)) {
      data.sizes[r] = data.global_size;
      continue;
    }
    Index count = 1;
    for (std::size_t k = 0; k < ndim; ++k) {
      Index lower = 0, upper = 0;
      if (data.grid.empty()) {
        lower = data.corners[2 * ndim * r + k];
        upper = data.corners[2 * ndim * r + ndim + k];
      } else {
        const int c = grid_coordinate(data.grid, r, k);
        lower = data.cuts[k][c];
        upper = data.cuts[k][c + 1];
      }
      count *= upper - lower;
    }
    data.sizes[r] = count;
  }
  Fingerprint fingerprint;
  fingerprint.add(std::span<const Index>(data.global_shape)).add(data.partition);
  if (data.axis >= 0) {
    // Slabs hash as they always have.
    fingerprint.add(data.axis).add(std::span<const Index>(data.extents));
  } else if (!data.grid.empty()) {
    fingerprint.add(std::string_view("grid")).add(std::span<const int>(data.grid));
    for (const std::vector<Index>& cut : data.cuts)
      fingerprint.add(std::span<const Index>(cut));
  } else {
    fingerprint.add(std::string_view("boxes")).add(std::span<const Index>(data.corners));
  }
  fingerprint.add(std::span<const int>(data.mask));
  data.fingerprint = fingerprint.value();
  data.sub_comm = data.mask.empty()
                      ? data.comm
                      : data.comm.split(data.mask[data.comm.rank()], data.comm.rank());
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

Layout Layout::from_local_box(const Communicator& comm, const Shape& global_shape,
                              const ArrayBox& local_box, std::vector<int> mask) {
  const Index ndim = static_cast<Index>(global_shape.size());
  // The corners' lengths first: the gather below needs the same count from every rank.
  const std::vector<Index> lengths = comm.allgather(local_box.lower.size() == local_box.upper.size()
                                                        ? static_cast<Index>(local_box.lower.size())
                                                        : Index(-1));
  collective_check(comm, [&] {
    for (int r = 0; r < comm.size(); ++r) {
      if (lengths[r] != ndim) {
        throw InvalidArgument("Layout::from_local_box: the box of rank " + std::to_string(r) +
                              " does not have two corners of " + std::to_string(ndim) +
                              " entries, one per axis of the global shape " +
                              to_string(global_shape));
      }
    }
  });
  std::vector<Index> mine(local_box.lower.begin(), local_box.lower.end());
  mine.insert(mine.end(), local_box.upper.begin(), local_box.upper.end());
  std::vector<Index> all(static_cast<std::size_t>(2 * ndim * comm.size()));
  comm.allgather(mine.data(), 2 * ndim, all.data());
  std::vector<ArrayBox> boxes(static_cast<std::size_t>(comm.size()));
  for (int r = 0; r < comm.size(); ++r) {
    const auto first = all.begin() + 2 * ndim * r;
    boxes[r].lower.assign(first, first + ndim);
    boxes[r].upper.assign(first + ndim, first + 2 * ndim);
  }
  return Layout(comm, global_shape,
                LayoutOptions{.mask = std::move(mask), .boxes = std::move(boxes)});
}

const Layout::Data& Layout::get() const {
  if (!data_) throw InvalidArgument("Layout: use of an empty layout");
  return *data_;
}

const Layout::Data& Layout::slab(const char* query) const {
  const Data& data = get();
  if (data.axis < 0) {
    // The one check of every slab-only code path (the operators that take slabs only among
    // them): layouts agree between ranks, so every rank raises it alike.
    throw InvalidArgument(std::string("Layout::") + query + ": the layout (" + describe() +
                          ") is cut along several axes or in boxes and has no single "
                          "distribution axis; this needs a slab (one cut axis) or a replicated "
                          "layout: move the array to a slab first (DistributedArray::"
                          "redistribute, ReshapePlan), or use box(rank) and the grid's queries");
  }
  return data;
}

int Layout::axis() const {
  return slab("axis").axis;
}

std::span<const Index> Layout::local_extents() const {
  return slab("local_extents").extents;
}

std::span<const Index> Layout::offsets() const {
  return slab("offsets").offsets;
}

Index Layout::box_lower(int rank, int axis) const {
  const Data& data = get();
  const auto k = static_cast<std::size_t>(axis);
  if (is_replicated(data.partition)) return 0;
  if (data.grid.empty()) return data.corners[2 * data.global_shape.size() * rank + k];
  return data.cuts[k][grid_coordinate(data.grid, rank, k)];
}

Index Layout::box_upper(int rank, int axis) const {
  const Data& data = get();
  const auto k = static_cast<std::size_t>(axis);
  if (is_replicated(data.partition)) return data.global_shape[k];
  const std::size_t ndim = data.global_shape.size();
  if (data.grid.empty()) return data.corners[2 * ndim * rank + ndim + k];
  return data.cuts[k][grid_coordinate(data.grid, rank, k) + 1];
}

ArrayBox Layout::box(int rank) const {
  ArrayBox box;
  const int nd = ndim();
  box.lower.resize(static_cast<std::size_t>(nd));
  box.upper.resize(static_cast<std::size_t>(nd));
  for (int k = 0; k < nd; ++k) {
    box.lower[k] = box_lower(rank, k);
    box.upper[k] = box_upper(rank, k);
  }
  return box;
}

std::vector<int> Layout::cut_axes() const {
  const Data& data = get();
  std::vector<int> axes;
  if (is_replicated(data.partition)) return axes;
  for (int k = 0; k < ndim(); ++k) {
    bool cut = false;
    if (!data.grid.empty()) {
      cut = data.grid[k] > 1;
    } else {
      for (int r = 0; r < size() && !cut; ++r) {
        cut =
            local_size(r) > 0 && (box_lower(r, k) != 0 || box_upper(r, k) != data.global_shape[k]);
      }
    }
    if (cut) axes.push_back(k);
  }
  return axes;
}

std::span<const int> Layout::grid() const {
  const Data& data = get();
  if (data.grid.empty()) {
    throw InvalidArgument("Layout::grid: the boxes of the layout (" + describe() +
                          ") form no process grid");
  }
  return data.grid;
}

std::span<const Index> Layout::grid_offsets(int axis) const {
  (void)grid();
  const int nd = ndim();
  if (axis < 0 || axis >= nd) {
    throw InvalidArgument("Layout::grid_offsets: axis " + std::to_string(axis) +
                          " is out of range for an array of " + std::to_string(nd) +
                          " dimension(s)");
  }
  return get().cuts[static_cast<std::size_t>(axis)];
}

std::vector<int> Layout::grid_coordinates(int rank) const {
  const std::span<const int> g = grid();
  std::vector<int> coordinates(g.size());
  for (std::size_t k = 0; k < g.size(); ++k)
    coordinates[k] = grid_coordinate(g, rank, k);
  return coordinates;
}

int Layout::grid_rank(std::span<const int> coordinates) const {
  const std::span<const int> g = grid();
  if (coordinates.size() != g.size()) {
    throw InvalidArgument("Layout::grid_rank: " + std::to_string(coordinates.size()) +
                          " coordinates for a grid of " + std::to_string(g.size()) + " axes");
  }
  int rank = 0;
  for (std::size_t k = 0; k < g.size(); ++k) {
    if (coordinates[k] < 0 || coordinates[k] >= g[k]) {
      throw InvalidArgument("Layout::grid_rank: coordinate " + std::to_string(coordinates[k]) +
                            " is outside the grid " + grid_to_string(g) + " along axis " +
                            std::to_string(k));
    }
    rank = rank * g[k] + coordinates[k];
  }
  return rank;
}

Shape Layout::local_shape(int rank) const {
  if (replicated()) return global_shape();
  Shape shape(static_cast<std::size_t>(ndim()));
  for (int k = 0; k < ndim(); ++k)
    shape[k] = box_upper(rank, k) - box_lower(rank, k);
  return shape;
}

std::vector<Shape> Layout::local_shapes() const {
  std::vector<Shape> shapes;
  for (int r = 0; r < size(); ++r)
    shapes.push_back(local_shape(r));
  return shapes;
}

Layout Layout::with_axis(int axis) const {
  return Layout(communicator(), global_shape(),
                LayoutOptions{.partition = partition(), .axis = axis, .mask = mask()});
}

Layout Layout::with_partition(Partition new_partition) const {
  if (is_slab()) {
    return Layout(communicator(), global_shape(),
                  LayoutOptions{.partition = new_partition, .axis = axis(), .mask = mask()});
  }
  if (is_replicated(new_partition)) {
    return Layout(communicator(), global_shape(),
                  LayoutOptions{.partition = new_partition, .mask = mask()});
  }
  LayoutOptions options{.mask = mask()};
  if (has_grid()) {
    options.grid.assign(grid().begin(), grid().end());
    for (int k = 0; k < ndim(); ++k) {
      const std::span<const Index> cuts = grid_offsets(k);
      std::vector<Index> parts;
      for (std::size_t c = 0; c + 1 < cuts.size(); ++c)
        parts.push_back(cuts[c + 1] - cuts[c]);
      options.grid_extents.push_back(std::move(parts));
    }
  } else {
    for (int r = 0; r < size(); ++r)
      options.boxes.push_back(box(r));
  }
  return Layout(communicator(), global_shape(), options);
}

Layout Layout::with_grid(std::vector<int> new_grid) const {
  return Layout(communicator(), global_shape(),
                LayoutOptions{.mask = mask(), .grid = std::move(new_grid)});
}

bool Layout::operator==(const Layout& other) const {
  if (data_ == other.data_) return true;
  if (!data_ || !other.data_) return false;
  const Data& a = *data_;
  const Data& b = *other.data_;
  return a.global_shape == b.global_shape && a.partition == b.partition && a.axis == b.axis &&
         a.grid == b.grid && a.cuts == b.cuts && a.corners == b.corners && a.mask == b.mask &&
         a.comm.congruent(b.comm);
}

namespace {

// Whether the blocks, concatenated in rank order, are the array in row-major order: replicated,
// a slab with nothing before the distribution axis, or a single rank holding data.
bool blocks_in_global_order(const Layout& layout) {
  if (layout.replicated()) return true;
  if (layout.is_slab()) {
    Index before = 1;
    for (int k = 0; k < layout.axis(); ++k)
      before *= layout.global_shape()[static_cast<std::size_t>(k)];
    if (before <= 1) return true;
  }
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

// Every rank's box without the axes of extent 1, and the shape without them: two layouts that
// agree on these hold the same elements in the same order.
std::vector<Index> squeezed_boxes(const Layout& layout) {
  std::vector<Index> values;
  for (int k = 0; k < layout.ndim(); ++k) {
    if (layout.global_shape()[static_cast<std::size_t>(k)] != 1)
      values.push_back(layout.global_shape()[static_cast<std::size_t>(k)]);
  }
  values.push_back(-1);
  for (int r = 0; r < layout.size(); ++r) {
    if (layout.local_size(r) == 0) continue;
    values.push_back(r);
    for (int k = 0; k < layout.ndim(); ++k) {
      if (layout.global_shape()[static_cast<std::size_t>(k)] == 1) continue;
      values.push_back(layout.box_lower(r, k));
      values.push_back(layout.box_upper(r, k));
    }
  }
  return values;
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
  const bool split_alike = a.is_slab() && b.is_slab() ? slab_extents(a) == slab_extents(b)
                                                      : squeezed_boxes(a) == squeezed_boxes(b);
  const bool flat = a.ndim() == 1 || b.ndim() == 1;
  return split_alike || flat || (blocks_in_global_order(a) && blocks_in_global_order(b));
}

std::string Layout::describe() const {
  if (!data_) return "empty layout";
  const Data& data = *data_;
  std::string text = "shape " + to_string(global_shape()) + ", " + to_string(partition());
  if (data.axis >= 0) {
    text += " along axis " + std::to_string(data.axis);
    if (!replicated()) text += ", local extents " + list_to_string(data.extents);
  } else if (!data.grid.empty()) {
    text += " over grid " + grid_to_string(data.grid) + ", parts ";
    for (std::size_t k = 0; k < data.cuts.size(); ++k) {
      std::vector<Index> parts;
      for (std::size_t c = 0; c + 1 < data.cuts[k].size(); ++c)
        parts.push_back(data.cuts[k][c + 1] - data.cuts[k][c]);
      text += (k > 0 ? " x " : "") + list_to_string(parts);
    }
  } else {
    constexpr int shown = 8;
    text += " in boxes [";
    for (int r = 0; r < size() && r < shown; ++r)
      text += (r > 0 ? ", " : "") + box_to_string(box(r));
    if (size() > shown) text += ", ... (" + std::to_string(size()) + " boxes)";
    text += "]";
  }
  if (masked()) {
    std::vector<Index> colours(mask().begin(), mask().end());
    text += ", mask " + list_to_string(colours);
  }
  return text;
}

}  // namespace distlops
