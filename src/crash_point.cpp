// SPDX-License-Identifier: BSD-3-Clause
// Copyright (c) 2026 The distlops authors
// DISTLOPS_CRASH_AT: kills the process at a named commit point (for the tests of crash safety).
#include "distlops/core/crash_point.hpp"

#include <mpi.h>

#include <csignal>
#include <cstdlib>
#include <map>
#include <string>

namespace distlops::detail {

namespace {

struct CrashRequest {
  bool active = false;
  std::string name;
  long hit = 1;
  int rank = -1;
};

const CrashRequest& request() {
  static const CrashRequest parsed = [] {
    CrashRequest result;
    const char* text = std::getenv("DISTLOPS_CRASH_AT");
    if (text == nullptr || *text == '\0') return result;
    const std::string value(text);
    const auto first = value.find(':');
    result.name = value.substr(0, first);
    if (first != std::string::npos) {
      const auto second = value.find(':', first + 1);
      result.hit = std::stol(value.substr(first + 1, second - first - 1));
      if (second != std::string::npos) result.rank = std::stoi(value.substr(second + 1));
    }
    result.active = true;
    return result;
  }();
  return parsed;
}

}  // namespace

void crash_point(const char* name) {
  const CrashRequest& wanted = request();
  if (!wanted.active || wanted.name != name) return;
  static std::map<std::string, long> hits;
  if (++hits[wanted.name] != wanted.hit) return;
  if (wanted.rank >= 0) {
    int rank = 0;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    if (rank != wanted.rank) return;
  }
  std::raise(SIGKILL);
}

}  // namespace distlops::detail
