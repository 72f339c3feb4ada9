// SPDX-License-Identifier: BSD-3-Clause
// Copyright (c) 2026 The distlops authors
#pragma once
// What the sources of the proximal operators share (internal to the library): layout checks
// that build their message only on failure, the copy into an output that may be the input,
// the walk over the contiguous local blocks of a vector (paired with those of weights), and
// the check of a factor sigma.
#include <cmath>
#include <limits>
#include <string>
#include <utility>
#include <vector>

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

/// InvalidArgument unless sigma is finite and non-negative.
inline void require_sigma(const std::string& owner, double sigma) {
  if (!(sigma >= 0) || !std::isfinite(sigma)) {
    throw InvalidArgument(owner + ": sigma must be finite and non-negative, got " +
                          format_parameter(sigma));
  }
}

}  // namespace distlops::detail
