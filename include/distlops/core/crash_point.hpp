// SPDX-License-Identifier: BSD-3-Clause
// Copyright (c) 2026 The distlops authors
#pragma once
/// \file crash_point.hpp
/// Named points of the commit protocols of the writers (checkpoints, atomic file writes) at
/// which a test can kill the process, to prove that a job killed there leaves readable files.
///
/// The environment variable `DISTLOPS_CRASH_AT=<name>[:<hit>[:<rank>]]` makes the process
/// whose MPI_COMM_WORLD rank is `<rank>` (any rank when absent or -1) raise SIGKILL the
/// `<hit>`-th time (1 when absent) it passes the point `<name>`. Unset, a point costs one
/// branch on a value read once.

namespace distlops::detail {

/// Kills the process here when DISTLOPS_CRASH_AT names this point (see above).
void crash_point(const char* name);

}  // namespace distlops::detail
