// SPDX-License-Identifier: BSD-3-Clause
// Copyright (c) 2026 The distlops authors
#include "command_line.hpp"

#include <CLI/CLI.hpp>
#include <iostream>
#include <sstream>
#include <utility>

#include "no_options.hpp"
#include "support/exit_statuses.hpp"

namespace distlops::examples {

using Option = CommandLine::Option;

Option& Option::positive() {
  option_->check(CLI::PositiveNumber);
  return *this;
}

Option& Option::non_negative() {
  option_->check(CLI::NonNegativeNumber);
  return *this;
}

Option& Option::range(Index lo, Index hi) {
  option_->check(CLI::Range(lo, hi));
  return *this;
}

Option& Option::one_of(const std::vector<std::string>& choices) {
  option_->check(CLI::IsMember(choices));
  return *this;
}

Option& Option::check(std::function<std::string(const std::string&)> check) {
  option_->check(std::move(check));
  return *this;
}

Option& Option::delimiter(char separator) {
  option_->delimiter(separator);
  return *this;
}

Option& Option::one_value_each_time() {
  option_->allow_extra_args(false);
  return *this;
}

Option& Option::show_default() {
  option_->capture_default_str();
  return *this;
}

Option& Option::value_name(const std::string& name) {
  option_->option_text(name);
  return *this;
}

// Made once and never destroyed: under SimGrid's SMPI every simulated rank initialises its own
// privatised copy of a function-local static in one process, and at exit the process would run
// the destructor once per rank on the one copy mapped then (a double free).
const std::string& exit_status_table() {
  static const auto* table = new std::string(detail::exit_status_text);
  return *table;
}

CommandLine::CommandLine(const std::string& description, const std::string& program)
    : app_(std::make_unique<CLI::App>(description, program)) {
  app_->footer(exit_status_table());
}

CommandLine::~CommandLine() = default;

Option CommandLine::option(const std::string& name, int& value, const std::string& help) {
  return Option(app_->add_option(name, value, help));
}

Option CommandLine::option(const std::string& name, Index& value, const std::string& help) {
  return Option(app_->add_option(name, value, help));
}

Option CommandLine::option(const std::string& name, double& value, const std::string& help) {
  return Option(app_->add_option(name, value, help));
}

Option CommandLine::option(const std::string& name, std::string& value, const std::string& help) {
  return Option(app_->add_option(name, value, help));
}

Option CommandLine::option(const std::string& name, std::vector<Index>& values,
                           const std::string& help) {
  return Option(app_->add_option(name, values, help));
}

Option CommandLine::option(const std::string& name, std::vector<std::string>& values,
                           const std::string& help) {
  return Option(app_->add_option(name, values, help));
}

void CommandLine::flag(const std::string& name, bool& value, const std::string& help) {
  app_->add_flag(name, value, help);
}

void CommandLine::validate(std::function<void()> check) {
  app_->callback([check = std::move(check)] {
    try {
      check();
    } catch (const OptionError& e) {
      throw CLI::ValidationError(e.option, e.message);
    }
  });
}

bool CommandLine::given(const std::string& name) const {
  return app_->count(name) > 0;
}

namespace {

std::optional<int> parse_on_every_rank(CLI::App& app, int argc, char** argv,
                                       const Communicator& comm) {
  constexpr int go_on = -1;
  int status = go_on;
  std::ostringstream out, err;
  try {
    app.parse(argc, argv);
  } catch (const CLI::ParseError& e) {
    status = app.exit(e, out, err) == 0 ? 0 : bad_command_line;
  }
  // Every rank parsed the same arguments; agreeing anyway means no rank goes on alone.
  const int agreed = comm.allreduce(status, ReduceOp::max);
  if (comm.rank() == 0) {
    std::cout << out.str() << std::flush;
    std::cerr << err.str() << std::flush;
  }
  if (agreed == go_on) return std::nullopt;
  return agreed;
}

}  // namespace

std::optional<int> CommandLine::parse(int argc, char** argv, const Communicator& comm) {
  return parse_on_every_rank(*app_, argc, argv, comm);
}

std::optional<int> parse_no_options(const std::string& description, const std::string& program,
                                    int argc, char** argv, const Communicator& comm) {
  CLI::App app(description, program);
  app.footer(exit_status_table());
  return parse_on_every_rank(app, argc, argv, comm);
}

}  // namespace distlops::examples
