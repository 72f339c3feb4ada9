// SPDX-License-Identifier: BSD-3-Clause
// Copyright (c) 2026 The distlops authors
#pragma once
// The examples' command lines, parsed with CLI11 on every rank: the same verdict everywhere,
// the text (the help, or the error) printed by rank 0 alone, and the same exit status on every
// rank, so that mpiexec neither hangs nor mixes the ranks' messages.
//
//     CLI::App app("what the program does");
//     app.add_option("--niter", niter, "iterations")->check(CLI::NonNegativeNumber);
//     if (const auto status = parse_command_line(app, argc, argv, comm)) return *status;
#include <CLI/CLI.hpp>
#include <optional>

#include "distlops/core/communicator.hpp"

namespace distlops::examples {

/// Exit status of a bad command line (CLI11's own codes vary with the error).
constexpr int bad_command_line = 2;

/// Parses the arguments into `app` on every rank of `comm`. Returns nothing when the program
/// should go on; otherwise the status to exit with, the same on every rank: 0 after --help
/// (rank 0 printed the help to stdout), bad_command_line after an error, including a
/// CLI::ValidationError thrown by the app's callback (rank 0 printed it to stderr with a hint
/// to --help). Collective.
std::optional<int> parse_command_line(CLI::App& app, int argc, char** argv,
                                      const Communicator& comm);

}  // namespace distlops::examples
