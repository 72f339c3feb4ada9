// SPDX-License-Identifier: BSD-3-Clause
// Copyright (c) 2026 The distlops authors
#pragma once
// The examples' --space: whether every rank can run in the memory space a user named.
#include <string>

#include "distlops/core/communicator.hpp"
#include "distlops/core/memory_space.hpp"

namespace distlops::examples {

/// Why not every rank can run in `space` (the same text on every rank), or an empty string when
/// all can. Collective.
inline std::string space_unavailable_reason(const std::string& space, const Communicator& comm) {
  if (space != Cuda::name) return {};
  if (!cuda_built()) return "--space cuda needs a build with the CUDA backend";
  const int without_device = comm.allreduce(cuda_device_count() == 0 ? 1 : 0, ReduceOp::sum);
  if (without_device == 0) return {};
  return "--space cuda, but " + std::to_string(without_device) + " of " +
         std::to_string(comm.size()) + " rank(s) see no CUDA device";
}

}  // namespace distlops::examples
