// SPDX-License-Identifier: BSD-3-Clause
// Copyright (c) 2026 The distlops authors
#pragma once
/// \file partition.hpp
/// How a distributed array's data are spread over the ranks (PyLops-MPI's Partition).

#include "distlops/core/detail/enum_names.hpp"

namespace distlops {

/// How a distributed array's data are spread over the ranks of its communicator (or of its
/// mask group), with PyLops-MPI's names.
enum class Partition {
  /// Each rank owns a distinct block along the distribution axis.
  SCATTER,
  /// Every rank holds the whole array. Data entering from one rank (from_global,
  /// assign_global) are broadcast once; afterwards replicas stay equal because every rank
  /// performs the same deterministic operations (no broadcast per write, unlike PyLops-MPI).
  BROADCAST,
  /// Every rank holds the whole array and nothing is ever broadcast: the replicas are the
  /// user's responsibility.
  UNSAFE_BROADCAST,
};

/// The enumerator's name ("SCATTER", ...), for messages; "unknown" for a value outside the enum.
constexpr const char* to_string(Partition partition) {
  return detail::enum_name(partition, std::array{"SCATTER", "BROADCAST", "UNSAFE_BROADCAST"});
}

/// True for the partitions in which every rank holds the whole array.
constexpr bool is_replicated(Partition partition) {
  return partition != Partition::SCATTER;
}

}  // namespace distlops
