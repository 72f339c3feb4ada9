// SPDX-License-Identifier: BSD-3-Clause
// Copyright (c) 2026 The distlops authors
#pragma once
// Command-line parsing with CLI11 in an MPI program: every rank parses the same argv, so every
// rank reaches the same verdict; only the printing rank writes the message (or --help), and
// every rank returns the same exit code, so no rank goes on alone into a collective.
#include <CLI/CLI.hpp>

#include <optional>
#include <ostream>

namespace distlops::bench {

/// Parses argv into `app`. Returns nothing when the program should go on, or the status every
/// rank should exit with (0 after --help, CLI11's code for a bad argument); `print` selects
/// the rank that writes CLI11's message to stdout (help) or stderr (errors).
inline std::optional<int> parse_on_every_rank(CLI::App& app, int argc, char** argv, bool print) {
  try {
    app.parse(argc, argv);
    return std::nullopt;
  } catch (const CLI::ParseError& error) {
    if (print) return app.exit(error);
    std::ostream silent(nullptr);
    return app.exit(error, silent, silent);
  }
}

}  // namespace distlops::bench
