// SPDX-License-Identifier: BSD-3-Clause
// Copyright (c) 2026 The distlops authors
#pragma once
// A 1-d layout of n items split unevenly over the world communicator: the last rank owns
// nothing (with 2 or more ranks), the middle ones 1, 2, ... items while n lasts (nothing after)
// and rank 0 the rest.

#include <algorithm>
#include <vector>

#include "distlops/core/layout.hpp"
#include "test_support.hpp"

namespace distlops::testing {

inline Layout uneven_layout(Index n) {
  const Communicator comm = world();
  const int p = comm.size();
  LayoutOptions options;
  Index others = 0;
  std::vector<Shape> shapes(static_cast<std::size_t>(p), Shape{0});
  for (int r = 1; r < p - 1; ++r) {
    const Index items = std::min<Index>(r, n - others);
    shapes[static_cast<std::size_t>(r)] = Shape{items};
    others += items;
  }
  shapes[0] = Shape{n - others};
  options.local_shapes = shapes;
  return Layout(comm, {n}, options);
}

}  // namespace distlops::testing
