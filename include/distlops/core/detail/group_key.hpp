// SPDX-License-Identifier: BSD-3-Clause
// Copyright (c) 2026 The distlops authors
#pragma once
/// \file group_key.hpp
/// A small number that names a group of ranks for the rest of the process, under which the
/// library keeps what belongs to the ranks of a communicator rather than to one handle: device
/// transports, NCCL communicators, the verdict on shared devices.

#include "distlops/core/communicator.hpp"

namespace distlops::detail {

/// The key of comm's group of ranks (its ranks in MPI_COMM_WORLD, in its order): communicators
/// over the same ranks in the same order have the same key, on every rank of them. Local (no
/// communication). The first call for an MPI communicator asks MPI for its group (two group
/// calls); the key is then stored with the communicator as an MPI attribute, so that later
/// calls, through any handle, cost one attribute lookup. MPI deletes the attribute when the
/// communicator is freed: a communicator created later at the same handle is looked up afresh.
int group_key(const Communicator& comm);

}  // namespace distlops::detail
