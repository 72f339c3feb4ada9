// SPDX-License-Identifier: BSD-3-Clause
// Copyright (c) 2026 The distlops authors
#pragma once
// Helpers that the operators of every group share (not part of the installed API): argument
// checks with uniform messages, C-order index arithmetic, host data moved into a memory space,
// and the "y = alpha v + beta y" accumulation on segments, expressed through the per-space
// kernels so that only kernels change with the memory space.
#include <span>
#include <string>
#include <vector>

#include "distlops/core/buffer.hpp"
#include "distlops/core/error.hpp"
#include "distlops/core/kernels.hpp"
#include "distlops/core/types.hpp"

namespace distlops::detail {

/// Throws InvalidArgument unless `shape` has at least one axis and no negative extent.
void check_shape(const std::string& op, const char* what, const Shape& shape);

/// `axis` in [-ndim, ndim) counted from the end when negative (NumPy's rule), as [0, ndim).
int normalise_axis(const std::string& op, int axis, int ndim);

/// "[1, 2, 3]" for messages.
std::string list_text(std::span<const Index> values);

/// C-order strides (in elements) of an array of `shape`.
Shape strides_of(const Shape& shape);

/// An array seen as (outer, length, inner) around `axis`: `outer` is the product of the
/// extents before the axis, `inner` the product of those after it.
struct AxisSplit {
  int axis = 0;
  Index outer = 1;
  Index length = 1;
  Index inner = 1;
};
/// `axis` must lie in [0, shape.size()).
AxisSplit split_at(const Shape& shape, int axis);
/// The split of arrays of shape `dims` around `axis` (negative counts from the end), after
/// check_shape and normalise_axis.
AxisSplit checked_split(const std::string& op, const Shape& dims, int axis);

/// `dims` with the extent n of `axis` replaced by extent(n); unchanged when the axis is out of
/// range (for the range shape given to a base class before the constructor checks the axis).
template <class Extent>
Shape with_axis_extent(Shape dims, int axis, Extent extent) {
  const int ndim = static_cast<int>(dims.size());
  if (axis >= -ndim && axis < ndim) {
    Index& n = dims[static_cast<std::size_t>(axis < 0 ? axis + ndim : axis)];
    n = extent(n);
  }
  return dims;
}

/// The multi-indices of a shape in C order: `for (MultiIndex m(shape); m.valid(); m.next())`.
class MultiIndex {
 public:
  explicit MultiIndex(Shape extents);
  bool valid() const { return valid_; }
  void next();
  Index operator[](std::size_t axis) const { return index_[axis]; }

 private:
  Shape extents_;
  Shape index_;
  bool valid_ = true;
};

/// A copy of host values in memory of Space.
template <class T, MemorySpace Space>
Buffer<T, Space> copy_to_space(std::span<const T> values) {
  Buffer<T, Space> result(static_cast<Index>(values.size()));
  memory::copy_bytes<Space, Host>(result.data(), values.data(), values.size() * sizeof(T));
  return result;
}

/// y = beta y on n elements; y is set to zero without being read when beta == 0.
template <class T, MemorySpace Space>
void scale_or_zero(Space space, Index n, T beta, T* y) {
  if (n <= 0) return;
  if (beta == T(0)) {
    kernels::fill(space, n, T(0), y);
  } else if (beta != T(1)) {
    kernels::scale(space, n, beta, y);
  }
}

/// The most taps Convolve1D fuses into one pass of kernels::combine over a block.
inline constexpr int max_combined = 5;

}  // namespace distlops::detail
