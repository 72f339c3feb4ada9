// SPDX-License-Identifier: BSD-3-Clause
// Copyright (c) 2026 The distlops authors
// A tour of distlops::DistributedArray: how data are laid out over the ranks, and what the
// collective operations (reductions, redistribution, ghost cells) compute.
//
// Run it on a few ranks, for example:
//   mpiexec -n 2 --oversubscribe ./build/examples/distributed_arrays
//
// Every rank runs the same program. Output that differs between ranks (local shapes, local
// values) is gathered to rank 0 and printed there in rank order; output that is the same on
// every rank (reductions return the same value everywhere) is printed by rank 0 alone.
#include <cmath>
#include <complex>
#include <cstddef>
#include <iostream>
#include <limits>
#include <numeric>
#include <span>
#include <sstream>
#include <string>
#include <vector>

#include "distlops/config.hpp"
#include "distlops/distlops.hpp"
#include "support/no_options.hpp"

namespace {

using distlops::Communicator;
using distlops::DistributedArray;
using distlops::Index;
using distlops::Layout;
using distlops::LayoutOptions;
using distlops::Partition;
using distlops::Shape;

/// "[1, 2, 3]"
template <class T>
std::string format(std::span<const T> values) {
  std::ostringstream out;
  out << '[';
  for (std::size_t i = 0; i < values.size(); ++i)
    out << (i == 0 ? "" : ", ") << values[i];
  out << ']';
  return out.str();
}

template <class T>
std::string format(const std::vector<T>& values) {
  return format(std::span<const T>(values));
}

/// Prints every rank's `text` on rank 0, in rank order. Each rank's standard output is
/// forwarded separately by mpiexec, so lines printed by several ranks interleave in no
/// particular order even with barriers between them; gathering the text to one rank is the
/// reliable way to get ordered output. Collective.
void print_in_rank_order(const Communicator& comm, const std::string& text) {
  const std::vector<Index> counts = comm.allgather(static_cast<Index>(text.size()));
  std::vector<Index> displacements(counts.size() + 1, 0);
  std::partial_sum(counts.begin(), counts.end(), displacements.begin() + 1);
  std::string all(static_cast<std::size_t>(comm.rank() == 0 ? displacements.back() : 0), '\0');
  comm.gatherv(text.data(), static_cast<Index>(text.size()), all.data(), counts,
               std::span<const Index>(displacements).first(counts.size()), 0);
  if (comm.rank() == 0) std::cout << all << std::flush;
}

/// Rank 0 prints a line (for values that every rank holds alike).
void print_once(const Communicator& comm, const std::string& text) {
  if (comm.rank() == 0) std::cout << text << '\n' << std::flush;
}

/// One line per rank: the array's global shape, this rank's local shape and where its block
/// starts along the distribution axis, and its local values.
template <class T>
void print_layout(const DistributedArray<T>& x) {
  const Layout& layout = x.layout();
  std::ostringstream line;
  line << "  rank " << layout.rank() << ": global shape " << distlops::to_string(x.global_shape())
       << ", " << distlops::to_string(x.partition()) << " along axis " << x.axis()
       << ", local shape " << distlops::to_string(x.local_shape()) << ", offset "
       << layout.offset(layout.rank());
  if (x.layout().masked()) line << ", mask colour " << x.mask()[layout.rank()];
  line << ", local values " << format(x.local()) << '\n';
  print_in_rank_order(x.communicator(), line.str());
}

/// 0, 1, 2, ... as values of type T.
template <class T>
std::vector<T> ramp(Index n, T start = T(0)) {
  std::vector<T> values(static_cast<std::size_t>(n));
  for (Index i = 0; i < n; ++i)
    values[static_cast<std::size_t>(i)] = start + T(static_cast<double>(i));
  return values;
}

void tour(const Communicator& comm) {
  const int size = comm.size();
  print_once(comm, "distlops " + std::to_string(DISTLOPS_VERSION_MAJOR) + "." +
                       std::to_string(DISTLOPS_VERSION_MINOR) + "." +
                       std::to_string(DISTLOPS_VERSION_PATCH) + " on " + std::to_string(size) +
                       " rank(s)\n");

  // ---- SCATTER: each rank owns one block along the distribution axis -------------------------
  // A Layout describes how a global array is spread over the ranks. Building one is collective
  // (the ranks agree on it), after which every rank knows every rank's block. The default split
  // of n items over P ranks gives n / P + 1 items to the first n % P ranks and n / P to the
  // others (PyLops-MPI's rule): 7 items on 2 ranks are split 4 + 3.
  print_once(comm, "SCATTER of a 1-d array of 7 elements (values 1..7):");
  const Layout line_layout(comm, {7});
  // from_global: every rank passes the whole global array and keeps its own block.
  const auto x = DistributedArray<double>::from_global(line_layout, ramp<double>(7, 1.0));
  print_layout(x);

  // A 2-d array split along its second axis: each rank owns a block of columns. The values are
  // 10 * row + column, so each local value shows where it sits in the global array.
  print_once(comm, "\nSCATTER of a 3 x 5 array along axis 1 (value = 10 * row + column):");
  const Layout grid_layout(comm, {3, 5}, Partition::SCATTER, /*axis=*/1);
  std::vector<double> grid_values;
  for (Index row = 0; row < 3; ++row)
    for (Index column = 0; column < 5; ++column)
      grid_values.push_back(static_cast<double>(10 * row + column));
  const auto grid = DistributedArray<double>::from_global(grid_layout, grid_values);
  print_layout(grid);

  // Custom local shapes (one per rank) override the default split; they are validated
  // collectively. Here the last rank owns two more columns than the default split gives it.
  if (size >= 2) {
    std::vector<Shape> local_shapes = grid_layout.local_shapes();
    local_shapes.front()[1] -= 1;
    local_shapes.back()[1] += 1;
    const Layout custom(comm, {3, 5}, LayoutOptions{.axis = 1, .local_shapes = local_shapes});
    print_once(comm, "\nThe same array with custom local shapes:");
    print_layout(DistributedArray<double>::from_global(custom, grid_values));
  }

  // ---- BROADCAST: every rank holds the whole array -------------------------------------------
  // Data entering from outside are broadcast once from rank 0; afterwards the replicas stay
  // equal because every rank performs the same operations on them.
  print_once(comm, "\nBROADCAST of a 1-d array of 4 elements:");
  const Layout replicated(comm, {4}, Partition::BROADCAST);
  auto b = DistributedArray<double>::from_global(replicated, ramp<double>(4));
  b *= 2.0;
  b += 1.0;
  print_layout(b);
  b.check_replicas();  // a debug check: throws ReplicaMismatch if the replicas differ
  print_once(comm, "  replicas agree after b = 2 b + 1");

  // ---- masks: several independent replicas, reductions inside each -----------------------
  // Ranks with the same mask colour form a group that holds one replica of a vector, itself
  // split over the group's ranks. The global array is the concatenation of the replicas, and
  // reductions run inside each group (PyLops-MPI's semantics). Here the ranks form up to two
  // groups, each holding the vector 1..5 split over its own ranks.
  const int groups = size >= 2 ? 2 : 1;
  const Index n = 5;
  std::vector<int> mask(static_cast<std::size_t>(size));
  std::vector<Shape> masked_shapes(static_cast<std::size_t>(size));
  for (int group = 0; group < groups; ++group) {
    // The ranks [first, last) of this group share the n items with the default split.
    const int first = group * size / groups, last = (group + 1) * size / groups;
    const std::vector<Index> split = distlops::default_split(n, last - first);
    for (int r = first; r < last; ++r) {
      mask[static_cast<std::size_t>(r)] = group;
      masked_shapes[static_cast<std::size_t>(r)] = {split[static_cast<std::size_t>(r - first)]};
    }
  }
  std::vector<double> replicas;
  for (int group = 0; group < groups; ++group)
    for (double value : ramp<double>(n, 1.0))
      replicas.push_back(value);
  const Layout masked_layout(comm, {groups * n},
                             LayoutOptions{.local_shapes = masked_shapes, .mask = mask});
  const auto m = DistributedArray<double>::from_global(masked_layout, replicas);
  print_once(comm, "\nMasked SCATTER: " + std::to_string(groups) +
                       " replica(s) of the vector 1..5, one per mask colour:");
  print_layout(m);
  std::ostringstream masked_norm;
  masked_norm << "  rank " << comm.rank() << ": norm within its group " << m.norm()
              << " (sqrt(55) = " << std::sqrt(55.0) << "), group's array "
              << format(m.gather(/*masked=*/true)) << '\n';
  print_in_rank_order(comm, masked_norm.str());

  // ---- algebra and reductions ----------------------------------------------------------------
  // Element-wise operations act on the local blocks without communication. Reductions are
  // collective and return the same value on every rank.
  print_once(comm, "\nReductions of x = (1, ..., 7):");
  const DistributedArray<double> y = 2.0 * x - 1.0;  // 1, 3, 5, ..., 13
  std::ostringstream reductions;
  reductions << "  dot(x, x) = " << x.dot(x) << " (1 + 4 + ... + 49 = 140)\n"
             << "  dot(x, 2x - 1) = " << x.dot(y) << '\n';
  // dot is bilinear, vdot conjugates its first argument (as numpy.dot and numpy.vdot).
  std::vector<std::complex<double>> complex_values;
  for (double value : ramp<double>(7, 1.0))
    complex_values.emplace_back(value, value);
  const auto z = DistributedArray<std::complex<double>>::from_global(line_layout, complex_values);
  reductions << "  z = (1 + 1i, ..., 7 + 7i): dot(z, z) = " << z.dot(z)
             << ", vdot(z, z) = " << z.vdot(z) << " (expected 280i and 280)\n";
  // Norms of the flattened array for several orders, as numpy.linalg.norm.
  constexpr double infinity = std::numeric_limits<double>::infinity();
  for (double ord : {0.0, 1.0, 2.0, 3.0, infinity, -infinity})
    reductions << "  norm(x, ord = " << ord << ") = " << x.norm(ord) << '\n';
  // Norms along an axis give an array without that axis, on every rank.
  reductions << "  2-d array: norm along axis 0 (per column) = " << format(grid.norm(2, /*axis=*/0))
             << "\n  2-d array: max |value| along axis 1 (per row) = "
             << format(grid.norm(infinity, 1)) << '\n';
  print_once(comm, reductions.str());

  // ---- redistribution ------------------------------------------------------------------------
  // The same global array, now split along axis 0 (by rows) instead of axis 1. The data move
  // between ranks; the global array is unchanged.
  print_once(comm, "The 3 x 5 array redistributed along axis 0:");
  const DistributedArray<double> by_rows = grid.redistribute(/*axis=*/0);
  print_layout(by_rows);
  print_once(comm, std::string("  gathered array unchanged: ") +
                       (by_rows.gather() == grid_values ? "yes" : "NO"));

  // ---- ghost cells ---------------------------------------------------------------------------
  // Stencils need the planes just beyond a rank's block. add_ghost_cells(front, back) returns
  // the local block extended by `front` planes of the previous rank and `back` planes of the
  // next one (the first rank has no previous and the last no next).
  print_once(comm, "\nx = (1, ..., 7) with one ghost cell on each side:");
  const distlops::LocalArray<double> ghosted = x.add_ghost_cells(1, 1);
  std::ostringstream ghost_line;
  ghost_line << "  rank " << comm.rank() << ": local " << format(x.local()) << " -> ghosted "
             << format(ghosted.span()) << '\n';
  print_in_rank_order(comm, ghost_line.str());
}

}  // namespace

int main(int argc, char** argv) {
  // Initialises MPI here and finalises it when `environment` goes out of scope.
  distlops::Environment environment(argc, argv);
  const Communicator comm = Communicator::world();
  if (const auto status = distlops::examples::parse_no_options(
          "A tour of DistributedArray: how data are laid out over the ranks, and what the "
          "reductions, redistribution and ghost cells compute. Run it on a few ranks.",
          "distributed_arrays", argc, argv, comm)) {
    return *status;
  }
  try {
    tour(comm);
  } catch (const distlops::Error& error) {
    // Errors are raised on every rank alike, so every rank gets here and none is left waiting.
    if (comm.rank() == 0) std::cerr << "error: " << error.what() << '\n';
    return 1;
  }
  return 0;
}
