// SPDX-License-Identifier: BSD-3-Clause
// Copyright (c) 2026 The distlops authors
#include "distlops/core/environment.hpp"

#include <mpi.h>

#include <atomic>

#include "distlops/core/communicator.hpp"
#include "distlops/core/error.hpp"

namespace distlops {

namespace {

std::atomic<int> recorded_node_local_rank{-1};

int native_level(ThreadLevel level) {
  switch (level) {
    case ThreadLevel::single:
      return MPI_THREAD_SINGLE;
    case ThreadLevel::funneled:
      return MPI_THREAD_FUNNELED;
    case ThreadLevel::serialized:
      return MPI_THREAD_SERIALIZED;
    case ThreadLevel::multiple:
      return MPI_THREAD_MULTIPLE;
  }
  return MPI_THREAD_SINGLE;
}

ThreadLevel from_native(int level) {
  if (level >= MPI_THREAD_MULTIPLE) return ThreadLevel::multiple;
  if (level >= MPI_THREAD_SERIALIZED) return ThreadLevel::serialized;
  if (level >= MPI_THREAD_FUNNELED) return ThreadLevel::funneled;
  return ThreadLevel::single;
}

}  // namespace

Environment::Environment(ThreadLevel requested) {
  initialise(nullptr, nullptr, requested);
}

Environment::Environment(int& argc, char**& argv, ThreadLevel requested) {
  initialise(&argc, &argv, requested);
}

void Environment::initialise(int* argc, char*** argv, ThreadLevel requested) {
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
}

int node_local_rank() {
  return recorded_node_local_rank.load();
}

Environment::~Environment() {
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
