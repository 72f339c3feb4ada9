// SPDX-License-Identifier: BSD-3-Clause
// Copyright (c) 2026 The distlops authors
#pragma once
// Output paths checked before any work, so that a run never computes results it cannot keep.
#include <string>

#include "distlops/core/communicator.hpp"

namespace distlops::examples {

/// Makes `directory` (and its parents) when missing and proves that every rank can create files
/// in it: each rank creates and removes a probe file there. Throws ExitError with
/// exit_status::output, its message `what` (the option that names the directory: "--output
/// out") and the reason, on every rank alike. Collective.
void prepare_output_directory(const std::string& what, const std::string& directory,
                              const Communicator& comm);

/// Rank 0's `text` on every rank (what went wrong in a step that rank 0 alone performs, so
/// that every rank stops alike). Collective.
std::string rank0_text(const Communicator& comm, const std::string& text);

/// What prevents this process from writing the file `path`: its folder missing or not a
/// folder, `path` a folder, or the file not writable; empty when nothing does. An existing file
/// is left as it is and a missing one is not left behind.
std::string output_file_problem(const std::string& path);

}  // namespace distlops::examples
