// SPDX-License-Identifier: BSD-3-Clause
// Copyright (c) 2026 The distlops authors
#pragma once
/// \file vector_traits.hpp
/// What operators need to know about the vectors they map: DistributedArray (described by a
/// Layout), StackedDistributedArray (StackedLayout) and LocalArray (its Shape). Operators and
/// solvers are written once against this interface.

#include <optional>
#include <string>

#include "distlops/core/collective_check.hpp"
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
  /// Whether `v` can be seen with `layout` without copying (views_alike: an N-d array and a
  /// flat vector whose split matches).
  static bool can_view(const vector_type& v, const Layout& layout) {
    return !v.empty() && views_alike(v.layout(), layout);
  }
  /// The communicator a verdict on `layout` is agreed over (null for an invalid layout).
  static const Communicator* communicator(const Layout& layout) {
    return layout.valid() ? &layout.communicator() : nullptr;
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
  /// The communicator a verdict on `layout` is agreed over: the first block's (null when no
  /// block has one).
  static const Communicator* communicator(const StackedLayout& layout) {
    for (std::size_t i = 0; i < layout.size(); ++i) {
      const Communicator* comm =
          layout.is_nested(i) ? communicator(layout.nested(i)) : &layout[i].communicator();
      if (comm) return comm;
    }
    return nullptr;
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
  /// Null: one rank's data, nothing to agree on across ranks.
  static const Communicator* communicator(const Shape&) { return nullptr; }
};

/// The layout type of vector type V: Layout, StackedLayout or Shape.
template <class V>
using vector_layout_t = typename vector_traits<V>::layout_type;

/// A vector seen with a required layout: the vector itself when its layout is the required
/// one, otherwise a view without copy (ShapeMismatch when neither is possible); for a stacked
/// vector, every block viewed with its layout. Inputs are adapted through get_const(); outputs,
/// constructed from a non-const vector, through get().
///
/// The verdict is agreed over the ranks (vectors may differ between ranks): by the
/// constructor, or with `Agreement::deferred` by agree(), which agrees on two adapters with
/// one allreduce. Inside an AgreedOperands scope the check stays local.
template <class V>
class LayoutAdapter {
 public:
  /// When the verdict is agreed over the ranks: in the constructor, or later by agree().
  enum class Agreement {
    now,       ///< in the constructor
    deferred,  ///< by agree(), possibly together with a second adapter
  };

  /// `owner` and `operation` name the call in the error message (built only on error, so
  /// that applying an operator costs no string operations).
  LayoutAdapter(const V& vector, const vector_layout_t<V>& layout, const std::string& owner,
                const char* operation, const char* role, Agreement agreement = Agreement::now)
      : vector_(const_cast<V*>(&vector)), layout_(&layout) {
    using traits = vector_traits<V>;
    if (traits::has_layout(vector, layout)) {
      fits_ = true;
    } else if (traits::can_view(vector, layout)) {
      // The local check has passed: the view's own agreement would be a second allreduce.
      const AgreedOperands agreed;
      view_.emplace(vector_->view(layout));
      fits_ = true;
    } else {
      failure_ = owner + operation + ": " + role + " is expected with " + traits::describe(layout) +
                 ", got " + describe_vector(vector);
    }
    if (agreement == Agreement::now) agree(nullptr);
  }
  /// Agrees on this adapter's verdict and `other`'s (when not null) over the ranks: the same
  /// ShapeMismatch on every rank when a vector does not fit on some rank. Collective, except
  /// inside an AgreedOperands scope.
  template <class W>
  void agree(const LayoutAdapter<W>* other) const {
    const bool fits = fits_ && (!other || other->fits_);
    const Communicator* comm = vector_traits<V>::communicator(*layout_);
    if (!comm || detail::operands_agreed()) {
      if (!fits) throw ShapeMismatch(fits_ ? other->failure_ : failure_);
      return;
    }
    // The verdict alone: vectors that fit on every rank are seen with the operator's layouts,
    // agreed at its construction, whatever layouts they carry on each rank.
    collective_check(*comm, [&] {
      if (!fits) throw ShapeMismatch(fits_ ? other->failure_ : failure_);
    });
  }
  /// agree() with no second adapter.
  void agree(std::nullptr_t) const { agree<V>(nullptr); }

  /// The output vector with the required layout (the vector itself or a view of it).
  V& get() { return view_ ? *view_ : *vector_; }
  /// The input vector with the required layout (the vector itself or a view of it).
  const V& get_const() const { return view_ ? *view_ : *vector_; }

 private:
  template <class W>
  friend class LayoutAdapter;

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
  const vector_layout_t<V>* layout_;
  std::optional<V> view_;
  bool fits_ = false;
  std::string failure_;
};

}  // namespace distlops
