// SPDX-License-Identifier: BSD-3-Clause
// Copyright (c) 2026 The distlops authors
#pragma once
/// \file vector_traits.hpp
/// What operators need to know about the vectors they map: DistributedArray (described by a
/// Layout), StackedDistributedArray (StackedLayout) and LocalArray (its Shape). Operators and
/// solvers are written once against this interface.

#include <optional>
#include <string>

#include "distlops/core/distributed_array.hpp"
#include "distlops/core/local_array.hpp"
#include "distlops/core/stacked_distributed_array.hpp"

namespace distlops {

/// What operators and solvers use of a vector type V: its layout type, sizes, descriptions and
/// whether a vector fits a layout. Specialised for DistributedArray, StackedDistributedArray and
/// LocalArray.
template <class V>
struct vector_traits;

/// Vectors split or replicated over ranks, described by a Layout.
template <Scalar T, MemorySpace Space>
struct vector_traits<DistributedArray<T, Space>> {
  /// The vector type described.
  using vector_type = DistributedArray<T, Space>;
  /// What describes the vector's distribution: a Layout.
  using layout_type = Layout;
  /// Global number of elements.
  static Index size(const Layout& layout) { return layout.global_size(); }
  /// A readable description of the layout for error messages.
  static std::string describe(const Layout& layout) { return layout.describe(); }
  /// Whether `v` has exactly `layout` (an empty array has none).
  static bool has_layout(const vector_type& v, const Layout& layout) {
    return !v.empty() && v.layout() == layout;
  }
  /// Whether `v` can be seen with `layout` without copying: same partition (or both
  /// replicated) and global size, same local size on every rank (an N-d array and a flat
  /// vector whose split matches).
  static bool can_view(const vector_type& v, const Layout& layout) {
    if (v.empty() || !layout.valid()) return false;
    const Layout& own = v.layout();
    // BROADCAST and UNSAFE_BROADCAST store data alike: either may be seen as the other.
    const bool partitions_fit =
        own.partition() == layout.partition() || (own.replicated() && layout.replicated());
    if (!partitions_fit || own.global_size() != layout.global_size() ||
        own.size() != layout.size() || own.mask() != layout.mask()) {
      return false;
    }
    for (int r = 0; r < own.size(); ++r) {
      if (own.local_size(r) != layout.local_size(r)) return false;
    }
    return own.communicator().congruent(layout.communicator());
  }
};

/// Stacks of distributed arrays, described by a StackedLayout.
template <Scalar T, MemorySpace Space>
struct vector_traits<StackedDistributedArray<T, Space>> {
  /// The vector type described.
  using vector_type = StackedDistributedArray<T, Space>;
  /// What describes the stack: a StackedLayout (one layout per block, possibly nested).
  using layout_type = StackedLayout;
  /// Global number of elements over all blocks.
  static Index size(const StackedLayout& layout) { return layout.global_size(); }
  /// A readable description of the stacked layout for error messages.
  static std::string describe(const StackedLayout& layout) { return layout.describe(); }
  /// Whether every block of `v` has exactly the corresponding layout.
  static bool has_layout(const vector_type& v, const StackedLayout& layout) {
    return v.has_layout(layout);
  }
  /// Whether `v` can be seen with `layout` without copying: the same nesting, and every block
  /// viewable with the corresponding layout as a DistributedArray is (so stacks of flat
  /// vectors reach operators on N-d blocks, as plain flat vectors do).
  static bool can_view(const vector_type& v, const StackedLayout& layout) {
    if (v.narrays() != layout.size()) return false;
    for (std::size_t i = 0; i < layout.size(); ++i) {
      if (v.is_nested(i) != layout.is_nested(i)) return false;
      const bool fits = layout.is_nested(i)
                            ? can_view(v.nested(i), layout.nested(i))
                            : vector_traits<DistributedArray<T, Space>>::can_view(v[i], layout[i]);
      if (!fits) return false;
    }
    return true;
  }
};

/// One rank's N-d array, described by its Shape; never communicates.
template <Scalar T, MemorySpace Space>
struct vector_traits<LocalArray<T, Space>> {
  /// The vector type described.
  using vector_type = LocalArray<T, Space>;
  /// What describes a local array: its shape.
  using layout_type = Shape;
  /// Number of elements.
  static Index size(const Shape& shape) { return element_count(shape); }
  /// A readable description of the shape for error messages.
  static std::string describe(const Shape& shape) { return "shape " + to_string(shape); }
  /// Whether `v` has exactly `shape`.
  static bool has_layout(const vector_type& v, const Shape& shape) { return v.shape() == shape; }
  /// Whether `v` can be seen with `shape` without copying: as many elements (a C-order reshape).
  static bool can_view(const vector_type& v, const Shape& shape) {
    return v.size() == element_count(shape);
  }
};

/// The layout type of vector type V: Layout, StackedLayout or Shape.
template <class V>
using vector_layout_t = typename vector_traits<V>::layout_type;

/// A vector seen with a required layout: the vector itself when its layout is the required
/// one, otherwise a view without copy (ShapeMismatch when neither is possible); for a stacked
/// vector, every block viewed with its layout. Inputs are
/// adapted through get_const(); outputs, constructed from a non-const vector, through get().
template <class V>
class LayoutAdapter {
 public:
  /// `owner` and `operation` name the call in the error message (built only on error, so
  /// that applying an operator costs no string operations).
  LayoutAdapter(const V& vector, const vector_layout_t<V>& layout, const std::string& owner,
                const char* operation, const char* role)
      : vector_(const_cast<V*>(&vector)) {
    using traits = vector_traits<V>;
    if (traits::has_layout(vector, layout)) return;
    if (traits::can_view(vector, layout)) {
      view_.emplace(vector_->view(layout));
      return;
    }
    throw ShapeMismatch(owner + operation + ": " + role + " is expected with " +
                        traits::describe(layout) + ", got " + describe_vector(vector));
  }
  /// The output vector with the required layout (the vector itself or a view of it).
  V& get() { return view_ ? *view_ : *vector_; }
  /// The input vector with the required layout (the vector itself or a view of it).
  const V& get_const() const { return view_ ? *view_ : *vector_; }

 private:
  static std::string describe_vector(const V& vector) {
    if constexpr (std::is_same_v<vector_layout_t<V>, Layout>) {
      return vector.empty() ? std::string("an empty array") : vector.layout().describe();
    } else if constexpr (std::is_same_v<vector_layout_t<V>, Shape>) {
      return "shape " + to_string(vector.shape());
    } else {
      return vector.layout().describe();
    }
  }
  V* vector_;
  std::optional<V> view_;
};

}  // namespace distlops
