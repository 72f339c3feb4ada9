// SPDX-License-Identifier: BSD-3-Clause
// Copyright (c) 2026 The distlops authors
// The README's DistributedArray example, compiled and run at 1 to 4 ranks so that it stays
// correct: layouts, algebra, reductions, redistribution, ghost cells, BROADCAST, masks and
// stacked arrays.
//
//     mpiexec -n 3 ./readme_arrays
#include <distlops/distlops.hpp>

#include <cstdio>
#include <vector>

using namespace distlops;

int main(int argc, char** argv) {
  Environment environment(argc, argv);  // initialises MPI, finalises it at scope exit
  const Communicator world = Communicator::world();

  // A 4 x 6 global array split along axis 1: on 4 ranks the columns go 2, 2, 1, 1.
  const Layout layout(world, {4, 6}, Partition::SCATTER, /*axis=*/1);
  std::vector<double> global(24);
  for (std::size_t i = 0; i < global.size(); ++i)
    global[i] = double(i);
  // Each rank keeps its block of the global array.
  auto x = DistributedArray<double>::from_global(layout, global);
  auto y = 2.0 * x + 1.0;  // element-wise, no communication
  y.axpy(-1.0, x);         // y += -1 * x

  const double d = x.dot(y);                        // the same value on every rank
  const double n2 = y.norm();                       // ord 2; also 0, 1, p, +-infinity
  const auto column_norms = y.norm(2, /*axis=*/0);  // 6 values, on every rank
  const std::vector<double> all = y.gather();       // the global array on every rank

  const auto by_rows = y.redistribute(/*axis=*/0);                   // now split by rows
  const LocalArray<double> ghosted = by_rows.add_ghost_cells(1, 1);  // + neighbours' rows

  const Layout replicated(world, {6}, Partition::BROADCAST);  // the whole array on every rank
  // A mask has one colour per rank. Pairs of ranks (0-1, 2-3, ...) each hold one replica,
  // split between the two; reductions stay inside each pair.
  std::vector<int> pairs(static_cast<std::size_t>(world.size()));
  for (int r = 0; r < world.size(); ++r)
    pairs[static_cast<std::size_t>(r)] = r / 2;
  const Layout masked(world, {8}, LayoutOptions{.mask = pairs});

  StackedDistributedArray<double> s(std::vector{x, y});  // two arrays seen as one vector
  const double s_norm = s.norm();
  if (world.rank() == 0) std::printf("dot %g, norm %g, stacked norm %g\n", d, n2, s_norm);
}
