// SPDX-License-Identifier: BSD-3-Clause
// Copyright (c) 2026 The distlops authors
#pragma once
// The command line of an example that takes no options: --help, and an error for anything
// else, handled as CommandLine::parse does (command_line.hpp). Declared apart so that such
// an example does not compile CLI11, which costs several seconds of one core per program.
#include <optional>
#include <string>

#include "distlops/core/communicator.hpp"

namespace distlops::examples {

/// Returns nothing when the arguments are empty; otherwise the status to exit with, the same on
/// every rank: 0 after --help (rank 0 printed `description` and the exit statuses), 2 for any other
/// argument (rank 0 printed the error). Collective.
std::optional<int> parse_no_options(const std::string& description, const std::string& program,
                                    int argc, char** argv, const Communicator& comm);

}  // namespace distlops::examples
