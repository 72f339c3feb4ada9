// SPDX-License-Identifier: BSD-3-Clause
// Copyright (c) 2026 The distlops authors
#pragma once
// The exit statuses of the examples, the benchmark driver and scripts/demo.sh: one table
// (exit_statuses.txt beside this header, which every --help prints), and the error that ends a
// program with one of them.
#include <stdexcept>
#include <string>

namespace distlops::examples {

namespace exit_status {
inline constexpr int success = 0;
/// The work failed: an error while it ran, or a failed --check.
inline constexpr int failure = 1;
/// A bad command line; nothing ran.
inline constexpr int usage = 2;
/// An input file is missing, unreadable or does not fit the options; nothing ran.
inline constexpr int input = 3;
/// An output path cannot be written; nothing ran.
inline constexpr int output = 4;
/// What was asked for cannot run here: a memory space, pictures without matplotlib, the Python
/// example without PyLops (automake's and CTest's "skipped").
inline constexpr int unavailable = 77;
}  // namespace exit_status

/// exit_statuses.txt: the table every --help prints after the options.
const std::string& exit_status_table();

/// An error that ends the program with `status`, raised alike on every rank; rank 0 prints
/// its message.
class ExitError : public std::runtime_error {
 public:
  ExitError(int status, const std::string& message)
      : std::runtime_error(message), status_(status) {}
  int status() const { return status_; }

 private:
  int status_;
};

}  // namespace distlops::examples
