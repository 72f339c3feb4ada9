// SPDX-License-Identifier: BSD-3-Clause
// Copyright (c) 2026 The distlops authors
#include "command_line.hpp"

#include <iostream>
#include <sstream>

#include "no_options.hpp"

namespace distlops::examples {

std::optional<int> parse_command_line(CLI::App& app, int argc, char** argv,
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

std::optional<int> parse_no_options(const std::string& description, const std::string& program,
                                    int argc, char** argv, const Communicator& comm) {
  CLI::App app(description, program);
  return parse_command_line(app, argc, argv, comm);
}

}  // namespace distlops::examples
