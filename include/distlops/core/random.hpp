// SPDX-License-Identifier: BSD-3-Clause
// Copyright (c) 2026 The distlops authors
#pragma once
/// \file random.hpp
/// Deterministic pseudo-random data that depend only on a key and the global index of an
/// element: the same global array whatever the number of ranks, the split or the partition.
/// U(key, i) is splitmix64's output function of s = (key * 2^32 + i + 1) * 0x9E3779B97F4A7C15,
/// scaled to [0, 1); V(key, i) = 2 U(key, i) - 1. Complex values are V(key, i) + 1j V(key + 1, i).

#include <cstdint>
#include <vector>

#include "distlops/core/distributed_array.hpp"
#include "distlops/core/local_array.hpp"
#include "distlops/core/stacked_distributed_array.hpp"

namespace distlops {

/// U(key, i) in [0, 1).
constexpr double uniform_value(std::uint64_t key, std::uint64_t index) {
  std::uint64_t z = ((key << 32) + index + 1) * 0x9E3779B97F4A7C15ULL;
  z ^= z >> 30;
  z *= 0xBF58476D1CE4E5B9ULL;
  z ^= z >> 27;
  z *= 0x94D049BB133111EBULL;
  z ^= z >> 31;
  return static_cast<double>(z >> 11) * 0x1.0p-53;
}

/// V(key, i) in [-1, 1).
constexpr double signed_uniform_value(std::uint64_t key, std::uint64_t index) {
  return 2.0 * uniform_value(key, index) - 1.0;
}

/// The value of type T at global index i for `key` (complex: V(key, i) + 1j V(key + 1, i)).
template <Scalar T>
constexpr T random_value(std::uint64_t key, std::uint64_t index) {
  using R = real_type_t<T>;
  if constexpr (is_complex_v<T>) {
    return T(static_cast<R>(signed_uniform_value(key, index)),
             static_cast<R>(signed_uniform_value(key + 1, index)));
  } else {
    return static_cast<T>(signed_uniform_value(key, index));
  }
}

/// Fills every element with random_value(key, its global C-order index), whatever the layout
/// (slab, grid, boxes, replicated). No communication.
template <Scalar T, MemorySpace Space>
void fill_random(DistributedArray<T, Space>& array, std::uint64_t key) {
  const Layout& layout = array.layout();
  const Shape& shape = layout.global_shape();
  const int ndim = layout.ndim();
  const ArrayBox box = layout.box();
  const Shape extent = box.extent();
  std::vector<T> values(static_cast<std::size_t>(array.local_size()));
  if (!values.empty()) {
    Shape stride(static_cast<std::size_t>(ndim), 1);
    for (int k = ndim - 1; k-- > 0;)
      stride[k] = stride[k + 1] * shape[k + 1];
    const Index row = extent.back();
    Shape index(static_cast<std::size_t>(ndim), 0);  // the row's position in the box
    for (std::size_t position = 0; position < values.size(); position += row) {
      Index first = 0;
      for (int k = 0; k < ndim; ++k)
        first += (box.lower[k] + index[k]) * stride[k];
      for (Index i = 0; i < row; ++i)
        values[position + i] = random_value<T>(key, static_cast<std::uint64_t>(first + i));
      for (int k = ndim - 1; k-- > 0;) {
        if (++index[k] < extent[k]) break;
        index[k] = 0;
      }
    }
  }
  memory::copy_bytes<Space, Host>(array.data(), values.data(), values.size() * sizeof(T));
}

/// Fills each block; block b (depth-first order) uses key + 2 b.
template <Scalar T, MemorySpace Space>
void fill_random(StackedDistributedArray<T, Space>& array, std::uint64_t key) {
  std::uint64_t block = 0;
  array.for_each_array(
      [&](DistributedArray<T, Space>& leaf) { fill_random(leaf, key + 2 * block++); });
}

/// Fills a local array with random_value(key, its C-order index).
template <Scalar T, MemorySpace Space>
void fill_random(LocalArray<T, Space>& array, std::uint64_t key) {
  std::vector<T> values(static_cast<std::size_t>(array.size()));
  for (std::size_t i = 0; i < values.size(); ++i)
    values[i] = random_value<T>(key, i);
  memory::copy_bytes<Space, Host>(array.data(), values.data(), values.size() * sizeof(T));
}

}  // namespace distlops
