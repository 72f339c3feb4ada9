// SPDX-License-Identifier: BSD-3-Clause
// Copyright (c) 2026 The distlops authors
#pragma once
/// \file environment.hpp
/// `Environment`: initialises MPI on construction and finalises it on destruction, unless the
/// application had initialised MPI itself, in which case it leaves MPI's lifetime alone. It also
/// switches the event log on (log_view.hpp) and prints its table before finalising.

namespace distlops {

/// MPI's thread support levels.
enum class ThreadLevel { single, funneled, serialized, multiple };

/// How an Environment starts.
struct EnvironmentOptions {
  ThreadLevel thread_level = ThreadLevel::funneled;
  /// Records the event log and prints its table on rank 0 of the world when the Environment is
  /// destroyed (log_view.hpp). The environment variable DISTLOPS_LOG_VIEW=1, or `-log_view`
  /// among the program's arguments (removed from argv), asks for the same.
  bool log_view = false;
};

class Environment {
 public:
  /// Initialises MPI with the requested thread level (MPI_Init_thread) unless MPI is already
  /// initialised. Installs MPI_ERRORS_RETURN on MPI_COMM_WORLD and MPI_COMM_SELF so that MPI
  /// failures surface as distlops::CommunicationError.
  explicit Environment(ThreadLevel requested = ThreadLevel::funneled);
  Environment(int& argc, char**& argv, ThreadLevel requested = ThreadLevel::funneled);
  explicit Environment(const EnvironmentOptions& options);
  Environment(int& argc, char**& argv, const EnvironmentOptions& options);
  /// Prints the event log's table when it was asked for (collective over the world: every
  /// rank must destroy its Environment), then finalises MPI if this object initialised it.
  ~Environment();

  Environment(const Environment&) = delete;
  Environment& operator=(const Environment&) = delete;

  /// The thread level MPI provides (may be lower than the requested one).
  ThreadLevel provided() const { return provided_; }
  /// True when this object initialised MPI and will finalise it.
  bool owns_mpi() const { return owns_mpi_; }
  /// True when the event log is recorded and its table printed at destruction.
  bool log_view() const { return log_view_; }

  static bool initialized();
  static bool finalized();

 private:
  void initialise(int* argc, char*** argv, const EnvironmentOptions& options);
  ThreadLevel provided_ = ThreadLevel::single;
  bool owns_mpi_ = false;
  bool log_view_ = false;
};

/// This process's rank among the processes of its node (MPI_COMM_TYPE_SHARED), recorded when
/// an Environment is constructed (collectively); -1 before that. The CUDA backend picks the
/// device of a rank from it.
int node_local_rank();

}  // namespace distlops
