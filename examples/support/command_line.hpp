// SPDX-License-Identifier: BSD-3-Clause
// Copyright (c) 2026 The distlops authors
#pragma once
// The command lines of the examples and of the benchmark driver, parsed with CLI11 on every
// rank: the same verdict everywhere, the text (the help, or the error) printed by rank 0 alone,
// and the same exit status on every rank, so that mpiexec neither hangs nor mixes the ranks'
// messages. CLI11 is compiled once, in command_line.cpp: its header costs several seconds of
// one core in every program that includes it, this one almost nothing.
//
//     CommandLine line("what the program does", "program");
//     line.option("--niter", niter, "iterations").non_negative().show_default();
//     if (const auto status = line.parse(argc, argv, comm)) return *status;
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "distlops/core/communicator.hpp"
#include "distlops/core/types.hpp"
#include "exit_status.hpp"

namespace CLI {
class App;
class Option;
}  // namespace CLI

namespace distlops::examples {

/// Exit status of a bad command line (CLI11's own codes vary with the error).
constexpr int bad_command_line = exit_status::usage;

/// Thrown by a check of several options (CommandLine::validate): CLI11 reports it as the error
/// of `option` with `message`, as it reports its own checks.
struct OptionError {
  std::string option;
  std::string message;
};

class CommandLine {
 public:
  /// The checks and presentation of one option; each returns the option, for chaining.
  class Option {
   public:
    Option& positive();
    Option& non_negative();
    /// lo <= value <= hi (integer options).
    Option& range(Index lo, Index hi);
    Option& one_of(const std::vector<std::string>& choices);
    /// `check` returns an empty string for a good value, else what is wrong with it.
    Option& check(std::function<std::string(const std::string&)> check);
    /// Lists of values: also split at `separator` (--shares 1,2,3).
    Option& delimiter(char separator);
    /// Lists of values: one value per occurrence of the option (--set a=1 --set b=2).
    Option& one_value_each_time();
    /// The value before parsing is shown in the help as the default.
    Option& show_default();
    /// The name of the value in the help (--check MAX).
    Option& value_name(const std::string& name);

   private:
    friend class CommandLine;
    explicit Option(CLI::Option* option) : option_(option) {}
    CLI::Option* option_;
  };

  CommandLine(const std::string& description, const std::string& program = "");
  ~CommandLine();
  CommandLine(const CommandLine&) = delete;
  CommandLine& operator=(const CommandLine&) = delete;

  Option option(const std::string& name, int& value, const std::string& help);
  Option option(const std::string& name, Index& value, const std::string& help);
  Option option(const std::string& name, double& value, const std::string& help);
  Option option(const std::string& name, std::string& value, const std::string& help);
  Option option(const std::string& name, std::vector<Index>& values, const std::string& help);
  Option option(const std::string& name, std::vector<std::string>& values, const std::string& help);
  void flag(const std::string& name, bool& value, const std::string& help);

  /// A check of several options, run after parsing; it throws OptionError.
  void validate(std::function<void()> check);

  /// Whether the option was given on the command line.
  bool given(const std::string& name) const;

  /// Parses the arguments on every rank of `comm`. Returns nothing when the program should go
  /// on; otherwise the status to exit with, the same on every rank: 0 after --help (rank 0
  /// printed the help, with the table of exit statuses, to stdout), bad_command_line after an
  /// error (rank 0 printed it to stderr with a hint to --help). Collective.
  std::optional<int> parse(int argc, char** argv, const Communicator& comm);

 private:
  std::unique_ptr<CLI::App> app_;
};

}  // namespace distlops::examples
