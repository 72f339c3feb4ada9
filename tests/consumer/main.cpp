// SPDX-License-Identifier: BSD-3-Clause
// Copyright (c) 2026 The distlops authors
// Uses an installed distlops: builds a distributed vector, checks a gather and two reductions
// against their closed forms, and exits non-zero (on every rank alike) when a result is wrong.
// With an argument, also checks that it runs on that many ranks, so that a launcher starting
// separate single-rank jobs cannot pass for a parallel run. The library's version() must be the
// headers' version: a program built against one release must not load another's library.
#include <cmath>
#include <cstdlib>
#include <iostream>
#include <limits>
#include <string>
#include <vector>

#include "distlops/config.hpp"
#include "distlops/distlops.hpp"

int main(int argc, char** argv) {
  distlops::Environment environment(argc, argv);
  const distlops::Communicator world = distlops::Communicator::world();
  const int expected_ranks = argc > 1 ? std::atoi(argv[1]) : 0;

  // x = (1, 2, ..., n), split over the ranks with the default (uneven) split.
  const distlops::Index n = 1001;
  std::vector<double> global(static_cast<std::size_t>(n));
  for (distlops::Index i = 0; i < n; ++i)
    global[static_cast<std::size_t>(i)] = static_cast<double>(i + 1);
  const distlops::Layout layout(world, {n});
  const auto x = distlops::DistributedArray<double>::from_global(layout, global);

  // sum k^2 = n (n + 1) (2 n + 1) / 6 and max |k| = n.
  const double expected_dot = static_cast<double>(n * (n + 1) * (2 * n + 1) / 6);
  const double dot = x.dot(x);
  const double max_norm = x.norm(std::numeric_limits<double>::infinity());

  bool ok = std::abs(dot - expected_dot) <= 1e-12 * expected_dot &&
            max_norm == static_cast<double>(n) && x.gather() == global &&
            distlops::cuda_built() == DISTLOPS_WITH_CUDA &&
            distlops::version().string == DISTLOPS_VERSION_STRING &&
            distlops::version().major == DISTLOPS_VERSION_MAJOR &&
            distlops::version().minor == DISTLOPS_VERSION_MINOR &&
            distlops::version().patch == DISTLOPS_VERSION_PATCH;
  if (expected_ranks > 0) ok = ok && world.size() == expected_ranks;
  // Every rank exits with the same status.
  ok = world.allreduce(ok ? 1 : 0, distlops::ReduceOp::min) == 1;

  if (world.rank() == 0) {
    std::cout << "consumer: distlops " << distlops::version().string << " (headers "
              << DISTLOPS_VERSION_STRING << ")" << (DISTLOPS_WITH_CUDA ? " with" : " without")
              << " CUDA on " << world.size() << " rank(s): dot(x, x) = " << dot << " (expected "
              << expected_dot << "), norm_inf(x) = " << max_norm << " (expected " << n << ")";
    if (expected_ranks > 0) std::cout << ", expected " << expected_ranks << " rank(s)";
    std::cout << (ok ? "" : ": FAILED") << '\n';
  }
  return ok ? 0 : 1;
}
