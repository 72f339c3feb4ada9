// SPDX-License-Identifier: BSD-3-Clause
// Copyright (c) 2026 The distlops authors
#pragma once
// The layouts the box-layout tests run on, for any rank count: slabs along every axis, the
// process grids 1x1, 2x1, 1x2, 2x2, 3x1, 1x3 and 3-d grids whose product is the rank count,
// uneven grids whose last parts are empty (ranks that own nothing), explicit boxes that form no
// grid (one of them cut along two axes from 3 ranks on), and the replicated layout; and the
// reference blocks cut from the global array.
#include <string>
#include <vector>

#include "distlops/core/layout.hpp"
#include "test_support.hpp"

namespace distlops::testing {

/// The grids of `ndim` axes (2 or 3) with `ranks` as their product, from the list the box
/// tests run on.
inline std::vector<std::vector<int>> box_test_grids(int ranks, std::size_t ndim) {
  const std::vector<std::vector<int>> planar = {{1, 1}, {2, 1}, {1, 2}, {2, 2},
                                                {3, 1}, {1, 3}, {4, 1}, {1, 4}};
  const std::vector<std::vector<int>> solid = {{1, 1, 1}, {2, 1, 1}, {1, 1, 2},
                                               {1, 3, 1}, {3, 1, 1}, {2, 2, 1},
                                               {1, 2, 2}, {2, 1, 2}, {4, 1, 1}};
  std::vector<std::vector<int>> grids;
  for (const std::vector<int>& grid : ndim == 2 ? planar : solid) {
    int product = 1;
    for (int parts : grid)
      product *= parts;
    if (product == ranks) grids.push_back(grid);
  }
  return grids;
}

/// A layout and its name for messages.
struct NamedLayout {
  std::string name;
  Layout layout;
};

/// "(2, 2)": a grid, for names.
inline std::string grid_name(const std::vector<int>& grid) {
  return to_string(Shape(grid.begin(), grid.end()));
}

/// Layouts of `shape` (2-d or 3-d, no axis shorter than 2) over `comm`: slabs along every
/// axis, every test grid, the default grid, an uneven grid with empty last parts, explicit
/// boxes in reverse rank order (no grid), and with `replicated` the BROADCAST layout.
inline std::vector<NamedLayout> box_test_layouts(const Communicator& comm, const Shape& shape,
                                                 bool replicated = true) {
  const int size = comm.size();
  const int ndim = static_cast<int>(shape.size());
  std::vector<NamedLayout> layouts;
  for (int axis = 0; axis < ndim; ++axis) {
    layouts.push_back(
        {"slab along axis " + std::to_string(axis), Layout(comm, shape, Partition::SCATTER, axis)});
  }
  for (const std::vector<int>& grid : box_test_grids(size, shape.size()))
    layouts.push_back(
        {"grid " + grid_name(grid), Layout(comm, shape, LayoutOptions{.grid = grid})});
  const std::vector<int> balanced = default_grid(shape, size);
  layouts.push_back({"default grid " + grid_name(balanced),
                     Layout(comm, shape, LayoutOptions{.grid = balanced})});
  // The grid cuts the first axis into `size` parts, the last one empty, and the others whole
  // (one more part than the axis has planes would do the same).
  std::vector<std::vector<Index>> extents;
  for (int k = 0; k < ndim; ++k)
    extents.push_back({shape[static_cast<std::size_t>(k)]});
  if (size > 1) {
    extents[0] = default_split(shape[0], size - 1);
    extents[0].push_back(0);
  }
  layouts.push_back({"uneven grid, the last rank empty",
                     Layout(comm, shape, LayoutOptions{.grid_extents = extents})});
  // Slabs of the first axis in reverse rank order, and split along the last axis in two
  // halves on rank 0: no grid in rank order.
  std::vector<ArrayBox> boxes;
  const std::vector<Index> parts = default_split(shape[0], size);
  Index upper = shape[0];
  for (int r = 0; r < size; ++r) {
    ArrayBox box{Shape(shape.size(), 0), shape};
    box.upper[0] = upper;
    box.lower[0] = upper - parts[static_cast<std::size_t>(r)];
    upper = box.lower[0];
    boxes.push_back(box);
  }
  layouts.push_back(
      {"boxes in reverse rank order", Layout(comm, shape, LayoutOptions{.boxes = boxes})});
  // The first half of axis 0 on rank 0, the second cut along axis 1 over the other ranks: two
  // cut axes from 3 ranks on, and no grid.
  if (size > 1) {
    std::vector<ArrayBox> corner{{Shape(shape.size(), 0), shape}};
    const Index half = shape[0] / 2;
    corner[0].upper[0] = half;
    const std::vector<Index> columns = default_split(shape[1], size - 1);
    Index column = 0;
    for (int r = 1; r < size; ++r) {
      ArrayBox box{Shape(shape.size(), 0), shape};
      box.lower[0] = half;
      box.lower[1] = column;
      column += columns[static_cast<std::size_t>(r - 1)];
      box.upper[1] = column;
      corner.push_back(box);
    }
    layouts.push_back({"half on rank 0, half cut along axis 1",
                       Layout(comm, shape, LayoutOptions{.boxes = corner})});
  }
  if (replicated) {
    layouts.push_back({"BROADCAST", Layout(comm, shape, Partition::BROADCAST)});
  }
  return layouts;
}

/// Calls f(i) with the C-order index i in an array of `shape` of every element of `box`, in C
/// order.
template <class F>
void for_each_in_box(const Shape& shape, const ArrayBox& box, F&& f) {
  const Index count = box.size();
  Shape index = box.lower;
  for (Index i = 0; i < count; ++i) {
    Index flat = 0;
    for (std::size_t k = 0; k < shape.size(); ++k)
      flat = flat * shape[k] + index[k];
    f(flat);
    for (std::size_t k = shape.size(); k-- > 0;) {
      if (++index[k] < box.upper[k]) break;
      index[k] = box.lower[k];
    }
  }
}

/// The elements of `box` of the C-order array `global` of `shape`, in C order.
template <class T>
std::vector<T> box_of(const std::vector<T>& global, const Shape& shape, const ArrayBox& box) {
  std::vector<T> values;
  for_each_in_box(shape, box,
                  [&](Index i) { values.push_back(global[static_cast<std::size_t>(i)]); });
  return values;
}

}  // namespace distlops::testing
