// SPDX-License-Identifier: BSD-3-Clause
// Copyright (c) 2026 The distlops authors
#include "support.hpp"

namespace distlops::detail {

void check_shape(const std::string& op, const char* what, const Shape& shape) {
  if (shape.empty()) {
    throw InvalidArgument(op + ": " + what + " must have at least one axis, got ()");
  }
  for (Index extent : shape) {
    if (extent < 0) {
      throw InvalidArgument(op + ": " + what + " has a negative extent: " + to_string(shape));
    }
  }
  // Sizes, strides and splits are products of these extents: refuse them before any overflows.
  if (!extents_fit(shape)) {
    throw InvalidArgument(op + ": the extents of " + what + " " + to_string(shape) +
                          " multiply past the largest index (2^63 - 1)");
  }
}

int normalise_axis(const std::string& op, int axis, int ndim) {
  if (axis < -ndim || axis >= ndim) {
    throw InvalidArgument(op + ": axis " + std::to_string(axis) +
                          " is out of range for an array of " + std::to_string(ndim) +
                          " dimension(s)");
  }
  return axis < 0 ? axis + ndim : axis;
}

std::string list_text(std::span<const Index> values) {
  std::string text = "[";
  for (std::size_t i = 0; i < values.size(); ++i) {
    if (i > 0) text += ", ";
    text += std::to_string(values[i]);
  }
  return text + "]";
}

Shape strides_of(const Shape& shape) {
  Shape strides(shape.size(), 1);
  for (std::size_t k = shape.size(); k-- > 1;)
    strides[k - 1] = strides[k] * shape[k];
  return strides;
}

AxisSplit split_at(const Shape& shape, int axis) {
  AxisSplit split;
  split.axis = axis;
  for (int k = 0; k < static_cast<int>(shape.size()); ++k) {
    const Index extent = shape[static_cast<std::size_t>(k)];
    if (k < axis) {
      split.outer *= extent;
    } else if (k == axis) {
      split.length = extent;
    } else {
      split.inner *= extent;
    }
  }
  return split;
}

AxisSplit checked_split(const std::string& op, const Shape& dims, int axis) {
  check_shape(op, "dims", dims);
  return split_at(dims, normalise_axis(op, axis, static_cast<int>(dims.size())));
}

MultiIndex::MultiIndex(Shape extents) : extents_(std::move(extents)), index_(extents_.size(), 0) {
  for (Index extent : extents_)
    valid_ = valid_ && extent > 0;
}

void MultiIndex::next() {
  for (std::size_t k = extents_.size(); k-- > 0;) {
    if (++index_[k] < extents_[k]) return;
    index_[k] = 0;
  }
  valid_ = false;
}

}  // namespace distlops::detail
