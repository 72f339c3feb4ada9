// SPDX-License-Identifier: BSD-3-Clause
// Copyright (c) 2026 The distlops authors
#include "distlops/core/collective_check.hpp"
#include "distlops/operators/stack/local_blocks.hpp"

namespace distlops::detail {

Shape agree_on_shape(const Communicator& comm, const std::vector<Shape>& local,
                     const std::string& what) {
  collective_check(comm, [&] {
    for (std::size_t i = 1; i < local.size(); ++i) {
      if (local[i] != local[0]) {
        throw ShapeMismatch(what + ": on rank " + std::to_string(comm.rank()) + ", block " +
                            std::to_string(i) + " has shape " + to_string(local[i]) +
                            ", block 0 has " + to_string(local[0]));
      }
    }
  });
  // Every rank sends (ndim, extents...) padded to the longest shape; ndim -1: no blocks.
  const int ndim = local.empty() ? -1 : static_cast<int>(local[0].size());
  const int longest = std::max(0, comm.allreduce(ndim, ReduceOp::max));
  std::vector<Index> mine(static_cast<std::size_t>(longest) + 1, 0);
  mine[0] = ndim;
  for (int k = 0; k < ndim; ++k)
    mine[k + 1] = local[0][k];
  std::vector<Index> all(mine.size() * static_cast<std::size_t>(comm.size()));
  comm.allgather(mine.data(), static_cast<Index>(mine.size()), all.data());
  int reference = -1;
  Shape shape;
  for (int r = 0; r < comm.size(); ++r) {
    const Index* entry = all.data() + r * mine.size();
    if (entry[0] < 0) continue;
    Shape candidate(entry + 1, entry + 1 + entry[0]);
    if (reference < 0) {
      reference = r;
      shape = candidate;
    } else if (candidate != shape) {
      throw ShapeMismatch(what + ": the blocks of rank " + std::to_string(r) + " have shape " +
                          to_string(candidate) + ", those of rank " + std::to_string(reference) +
                          " " + to_string(shape));
    }
  }
  if (reference < 0) throw InvalidArgument(what + ": no rank holds any block");
  return shape;
}

}  // namespace distlops::detail
