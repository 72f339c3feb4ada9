// SPDX-License-Identifier: BSD-3-Clause
// Copyright (c) 2026 The distlops authors
#include "distlops/core/environment.hpp"

#include <mpi.h>

#include <atomic>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <exception>

#include "distlops/core/communicator.hpp"
#include "distlops/core/detail/enum_names.hpp"
#include "distlops/core/error.hpp"
#include "distlops/core/log_view.hpp"

namespace distlops {

namespace {

std::atomic<int> recorded_node_local_rank{-1};

int native_level(ThreadLevel level) {
  return detail::enum_value(level,
                            std::array<int, 4>{MPI_THREAD_SINGLE, MPI_THREAD_FUNNELED,
                                               MPI_THREAD_SERIALIZED, MPI_THREAD_MULTIPLE},
                            MPI_THREAD_SINGLE);
}

ThreadLevel from_native(int level) {
  if (level >= MPI_THREAD_MULTIPLE) return ThreadLevel::multiple;
  if (level >= MPI_THREAD_SERIALIZED) return ThreadLevel::serialized;
  if (level >= MPI_THREAD_FUNNELED) return ThreadLevel::funneled;
  return ThreadLevel::single;
}

bool log_view_from_environment() {
  const char* value = std::getenv("DISTLOPS_LOG_VIEW");
  return value != nullptr && std::strcmp(value, "") != 0 && std::strcmp(value, "0") != 0;
}

/// Removes every `-log_view` (or `--log_view`) from the arguments; true when there was one.
bool take_log_view_argument(int& argc, char**& argv) {
  if (argv == nullptr) return false;
  bool found = false;
  int kept = 0;
  for (int i = 0; i < argc; ++i) {
    const bool flag =
        i > 0 && argv[i] != nullptr &&
        (std::strcmp(argv[i], "-log_view") == 0 || std::strcmp(argv[i], "--log_view") == 0);
    found = found || flag;
    if (!flag) argv[kept++] = argv[i];
  }
  if (kept < argc) argv[kept] = nullptr;
  argc = kept;
  return found;
}

}  // namespace

Environment::Environment(ThreadLevel requested) {
  initialise(nullptr, nullptr, {.thread_level = requested});
}

Environment::Environment(int& argc, char**& argv, ThreadLevel requested) {
  initialise(&argc, &argv, {.thread_level = requested});
}

Environment::Environment(const EnvironmentOptions& options) {
  initialise(nullptr, nullptr, options);
}

Environment::Environment(int& argc, char**& argv, const EnvironmentOptions& options) {
  initialise(&argc, &argv, options);
}

void Environment::initialise(int* argc, char*** argv, const EnvironmentOptions& options) {
  const ThreadLevel requested = options.thread_level;
  if (finalized()) throw CommunicationError("Environment: MPI has already been finalised");
  int provided = MPI_THREAD_SINGLE;
  if (initialized()) {
    detail::check_mpi(MPI_Query_thread(&provided), "MPI_Query_thread");
  } else {
    detail::check_mpi(MPI_Init_thread(argc, argv, native_level(requested), &provided),
                      "MPI_Init_thread");
    owns_mpi_ = true;
  }
  provided_ = from_native(provided);
  detail::check_mpi(MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN),
                    "MPI_Comm_set_errhandler");
  detail::check_mpi(MPI_Comm_set_errhandler(MPI_COMM_SELF, MPI_ERRORS_RETURN),
                    "MPI_Comm_set_errhandler");
  MPI_Comm node = MPI_COMM_NULL;
  detail::check_mpi(
      MPI_Comm_split_type(MPI_COMM_WORLD, MPI_COMM_TYPE_SHARED, 0, MPI_INFO_NULL, &node),
      "MPI_Comm_split_type");
  int node_rank = 0;
  const int code = MPI_Comm_rank(node, &node_rank);
  MPI_Comm_free(&node);
  detail::check_mpi(code, "MPI_Comm_rank");
  recorded_node_local_rank.store(node_rank);

  // The event log: asked for by the options, the environment or the command line of any rank,
  // and agreed on by all, so that every rank records and the table's gathering matches.
  int wanted = options.log_view || log_view_from_environment() ? 1 : 0;
  if (argc && argv && take_log_view_argument(*argc, *argv)) wanted = 1;
  int agreed = 0;
  detail::check_mpi(MPI_Allreduce(&wanted, &agreed, 1, MPI_INT, MPI_MAX, MPI_COMM_WORLD),
                    "MPI_Allreduce");
  log_view_ = agreed != 0;
  if (log_view_) {
    log_view::reset();
    log_view::set_enabled(true);
  }
}

int node_local_rank() {
  return recorded_node_local_rank.load();
}

Environment::~Environment() {
  if (log_view_ && !finalized()) {
    try {
      log_view::print(Communicator::world(), stdout);
    } catch (const std::exception& e) {
      std::fprintf(stderr, "distlops: the event log could not be printed: %s\n", e.what());
    }
    log_view::set_enabled(false);
  }
  if (owns_mpi_ && !finalized()) MPI_Finalize();
}

bool Environment::initialized() {
  int flag = 0;
  MPI_Initialized(&flag);
  return flag != 0;
}

bool Environment::finalized() {
  int flag = 0;
  MPI_Finalized(&flag);
  return flag != 0;
}

}  // namespace distlops
