// SPDX-License-Identifier: BSD-3-Clause
// Copyright (c) 2026 The distlops authors
#pragma once
// Helpers shared by the tests: deterministic random data (identical on every rank, so every
// rank can build the same global reference), tolerances per scalar type, comparisons.
#include <catch2/catch.hpp>

#include <algorithm>
#include <cmath>
#include <complex>
#include <random>
#include <span>
#include <string>
#include <vector>

// The core headers only: each test includes the operators and solvers it uses (the umbrella
// header distlops/distlops.hpp costs every program the parsing of all of them).
#include "distlops/core/communicator.hpp"
#include "distlops/core/distributed_array.hpp"
#include "distlops/core/error.hpp"
#include "distlops/core/layout.hpp"
#include "distlops/core/local_array.hpp"
#include "distlops/core/random.hpp"
#include "distlops/core/stacked_distributed_array.hpp"
#include "distlops/core/types.hpp"

#define DISTLOPS_SCALAR_TYPES float, double, std::complex<float>, std::complex<double>

namespace distlops::testing {

inline Communicator world() {
  return Communicator::world();
}

/// n values uniform in [-1, 1] (complex: both parts), the same on every rank for a seed.
template <class T>
std::vector<T> random_values(Index n, std::uint64_t seed) {
  std::mt19937_64 engine(seed);
  std::uniform_real_distribution<double> uniform(-1.0, 1.0);
  std::vector<T> values(static_cast<std::size_t>(n));
  for (T& value : values) {
    if constexpr (is_complex_v<T>) {
      const double re = uniform(engine);
      const double im = uniform(engine);
      value = T(static_cast<real_type_t<T>>(re), static_cast<real_type_t<T>>(im));
    } else {
      value = static_cast<T>(uniform(engine));
    }
  }
  return values;
}

/// A random scalar of type T (complex types get a non-zero imaginary part).
template <class T>
T random_scalar(std::uint64_t seed) {
  return random_values<T>(1, seed)[0] + T(real_type_t<T>(0.5));
}

/// Relative tolerance for results of short computations in precision T.
template <class T>
constexpr double tolerance() {
  return std::is_same_v<real_type_t<T>, float> ? 2e-5 : 1e-12;
}

/// max_i |a_i - b_i| <= rtol * max(1, max_i |b_i|)
template <class T>
bool all_close(std::span<const T> actual, std::span<const T> expected, double rtol) {
  if (actual.size() != expected.size()) return false;
  double scale = 1.0, error = 0.0;
  for (std::size_t i = 0; i < expected.size(); ++i) {
    scale = std::max(scale, static_cast<double>(std::abs(expected[i])));
    error = std::max(error, static_cast<double>(std::abs(actual[i] - expected[i])));
  }
  return error <= rtol * scale;
}

template <class T>
bool all_close(const std::vector<T>& actual, const std::vector<T>& expected,
               double rtol = tolerance<T>()) {
  return all_close(std::span<const T>(actual), std::span<const T>(expected), rtol);
}

template <class T>
bool close(T actual, T expected, double rtol = tolerance<T>()) {
  return std::abs(actual - expected) <=
         rtol * std::max(1.0, static_cast<double>(std::abs(expected)));
}

/// Restores the message chunk limit when it goes out of scope.
class ChunkLimit {
 public:
  explicit ChunkLimit(std::size_t bytes) : saved_(message_chunk_bytes()) {
    set_message_chunk_bytes(bytes);
  }
  ~ChunkLimit() { set_message_chunk_bytes(saved_); }
  ChunkLimit(const ChunkLimit&) = delete;
  ChunkLimit& operator=(const ChunkLimit&) = delete;

 private:
  std::size_t saved_;
};

/// Global shapes and axes every array test runs on: uneven splits, fewer items than ranks
/// (ranks owning nothing), 1-d to 3-d, distribution along the first and later axes.
struct ShapeCase {
  Shape shape;
  int axis;
};
inline std::vector<ShapeCase> shape_cases() {
  return {{{7}, 0},       {{2}, 0},       {{1}, 0},       {{5, 3}, 0},
          {{5, 3}, 1},    {{2, 6}, 1},    {{3, 4, 5}, 0}, {{3, 4, 5}, 1},
          {{3, 4, 5}, 2}, {{2, 1, 3}, 1}, {{0, 3}, 0},    {{4, 2}, -1}};
}

inline std::string describe(const ShapeCase& c) {
  return "shape " + to_string(c.shape) + " axis " + std::to_string(c.axis);
}

/// C-order strides of a shape.
inline Shape strides_of(const Shape& shape) {
  Shape strides(shape.size(), 1);
  for (std::size_t k = shape.size(); k-- > 1;)
    strides[k - 1] = strides[k] * shape[k];
  return strides;
}

/// The block of a global C-order array at [offset, offset + extent) along `axis`, computed
/// with plain index arithmetic (independent of the library's box copies).
template <class T>
std::vector<T> slice_along(const std::vector<T>& global, const Shape& shape, int axis, Index offset,
                           Index extent) {
  const Shape strides = strides_of(shape);
  Shape block = shape;
  block[axis] = extent;
  const Index count = element_count(block);
  std::vector<T> result(static_cast<std::size_t>(count));
  const Shape block_strides = strides_of(block);
  for (Index flat = 0; flat < count; ++flat) {
    Index remainder = flat, source = 0;
    for (std::size_t k = 0; k < block.size(); ++k) {
      Index index = remainder / block_strides[k];
      remainder %= block_strides[k];
      if (static_cast<int>(k) == axis) index += offset;
      source += index * strides[k];
    }
    result[static_cast<std::size_t>(flat)] = global[static_cast<std::size_t>(source)];
  }
  return result;
}

}  // namespace distlops::testing
