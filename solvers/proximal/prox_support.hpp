// SPDX-License-Identifier: BSD-3-Clause
// Copyright (c) 2026 The distlops authors
#pragma once
// What the sources of the proximal operators share (internal to the library): layout checks
// that build their message only on failure, the fingerprints of layouts, the copy into an
// output that may be the input, the walk over the contiguous local blocks of a vector (paired
// with those of weights), and the check of a factor sigma.
#include <cmath>
#include <limits>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "distlops/core/collective_check.hpp"
#include "distlops/core/error.hpp"
#include "distlops/operators/vector_traits.hpp"
#include "distlops/solvers/detail/progress.hpp"
#include "distlops/solvers/detail/vectors.hpp"

namespace distlops::detail {

/// +infinity, the value of an indicator function outside its set.
inline constexpr double prox_infinity = std::numeric_limits<double>::infinity();

template <class V>
bool same_layout(const V& a, const V& b) {
  return vector_traits<V>::has_layout(a, b.layout());
}

/// ShapeMismatch "<owner>: <role> is expected with <x's layout>, got <v's>" unless v has x's
/// layout.
template <class V>
void require_same_layout(const V& v, const V& x, const std::string& owner, const char* role) {
  if (!same_layout(v, x)) {
    throw ShapeMismatch(owner + ": " + role + " is expected with " +
                        vector_traits<V>::describe(x.layout()) + ", got " +
                        vector_traits<V>::describe(v.layout()));
  }
}

/// ShapeMismatch "<owner>: <role> is expected with <layout>, got <v's>" unless v, a vector the
/// function holds, has the layout of the vectors it is applied to.
template <class V>
void require_layout(const V& v, const vector_layout_t<V>& layout, const std::string& owner,
                    const char* role) {
  if (!vector_traits<V>::has_layout(v, layout)) {
    throw ShapeMismatch(owner + ": " + role + " is expected with " +
                        vector_traits<V>::describe(layout) + ", got " +
                        vector_traits<V>::describe(v.layout()));
  }
}

/// Whether vectors of layout `from` are seen with layout `to` (the same layout, or a view:
/// vector_traits::can_view on layouts).
inline bool fits_layout(const Layout& from, const Layout& to) {
  return from.valid() && to.valid() && (from == to || views_alike(from, to));
}
inline bool fits_layout(const StackedLayout& from, const StackedLayout& to) {
  if (from.size() != to.size()) return false;
  for (std::size_t i = 0; i < from.size(); ++i) {
    if (from.is_nested(i) != to.is_nested(i)) return false;
    const bool fits =
        from.is_nested(i) ? fits_layout(from.nested(i), to.nested(i)) : fits_layout(from[i], to[i]);
    if (!fits) return false;
  }
  return true;
}

/// Mixes a layout (and a stack's nesting) into a fingerprint.
inline void add_layout(Fingerprint& fingerprint, const Layout& layout) {
  fingerprint.add(layout.valid() ? layout.fingerprint() : std::uint64_t{0});
}
inline void add_layout(Fingerprint& fingerprint, const StackedLayout& layout) {
  fingerprint.add(layout.size());
  for (std::size_t i = 0; i < layout.size(); ++i) {
    fingerprint.add(layout.is_nested(i));
    if (layout.is_nested(i)) {
      add_layout(fingerprint, layout.nested(i));
    } else {
      add_layout(fingerprint, layout[i]);
    }
  }
}
/// The same of an optional vector's layout (a mark when absent).
template <class V>
void add_layout_of(Fingerprint& fingerprint, const std::optional<V>& v) {
  fingerprint.add(v.has_value());
  if (v) add_layout(fingerprint, v->layout());
}

/// The communicator calls on x agree over (null for an array without one).
template <Scalar T, MemorySpace Space>
const Communicator* communicator_of(const DistributedArray<T, Space>& x) {
  return x.empty() ? nullptr : &x.layout().communicator();
}
template <Scalar T, MemorySpace Space>
const Communicator* communicator_of(const StackedDistributedArray<T, Space>& x) {
  for (std::size_t i = 0; i < x.narrays(); ++i) {
    const Communicator* comm =
        x.is_nested(i) ? communicator_of(x.nested(i)) : communicator_of(x[i]);
    if (comm) return comm;
  }
  return nullptr;
}

/// out = x unless they are the same object.
template <class V>
void copy_into(const V& x, V& out) {
  if (&x != &out) out.copy_from(x);
}

/// The contiguous local blocks of v (one for a distributed array, one per leaf of a stack).
template <class V, class P>
std::vector<std::pair<P, Index>> blocks_of(V& v) {
  std::vector<std::pair<P, Index>> blocks;
  for_each_block(v, [&](P data, Index n, Index) { blocks.emplace_back(data, n); });
  return blocks;
}

/// Calls f(x_block, w_block_or_null, n) for the blocks of x, paired with those of the weights.
template <class V, class F>
void for_each_weighted_block(V& x, const V* weights, F&& f) {
  using T = typename V::value_type;
  const auto xs = blocks_of<V, T*>(x);
  std::vector<std::pair<const T*, Index>> ws;
  if (weights) ws = blocks_of<const V, const T*>(*weights);
  for (std::size_t i = 0; i < xs.size(); ++i)
    f(xs[i].first, weights ? ws[i].first : nullptr, xs[i].second);
}

/// The complaint about a factor sigma that is not finite and non-negative (empty when it is).
inline std::string sigma_problem(const std::string& owner, double sigma) {
  if (sigma >= 0 && std::isfinite(sigma)) return {};
  return owner + ": sigma must be finite and non-negative, got " + format_parameter(sigma);
}

}  // namespace distlops::detail
