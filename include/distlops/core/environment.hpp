// SPDX-License-Identifier: BSD-3-Clause
// Copyright (c) 2026 The distlops authors
#pragma once
/// \file environment.hpp
/// `Environment`: initialises MPI on construction and finalises it on destruction, unless the
/// application had initialised MPI itself, in which case it leaves MPI's lifetime alone. It also
/// switches the event log on (log_view.hpp) and prints its table before finalising.

namespace distlops {

/// MPI's thread support levels.
enum class ThreadLevel {
  single,      ///< MPI_THREAD_SINGLE: one thread.
  funneled,    ///< MPI_THREAD_FUNNELED: only the main thread calls MPI (the default).
  serialized,  ///< MPI_THREAD_SERIALIZED: any thread, one at a time.
  multiple,    ///< MPI_THREAD_MULTIPLE: any thread, concurrently.
};

/// How an Environment starts.
struct EnvironmentOptions {
  /// The thread support requested from MPI_Init_thread.
  ThreadLevel thread_level = ThreadLevel::funneled;
  /// Records the event log and prints its table on rank 0 of the world when the Environment is
  /// destroyed (log_view.hpp). The environment variable DISTLOPS_LOG_VIEW=1, or `-log_view`
  /// among the program's arguments (removed from argv), asks for the same.
  bool log_view = false;
};

/// The MPI runtime of a program, as an RAII object: construct one at the top of main() on every
/// rank, before any other distlops call, and let it go out of scope last.
class Environment {
 public:
  /// Initialises MPI with the requested thread level (MPI_Init_thread) unless MPI is already
  /// initialised. Installs MPI_ERRORS_RETURN on MPI_COMM_WORLD and MPI_COMM_SELF so that MPI
  /// failures surface as distlops::CommunicationError.
  explicit Environment(ThreadLevel requested = ThreadLevel::funneled);
  /// As Environment(ThreadLevel), passing the program's arguments to MPI_Init_thread; removes
  /// `-log_view` from them and switches the event log on when it is there.
  Environment(int& argc, char**& argv, ThreadLevel requested = ThreadLevel::funneled);
  /// As Environment(ThreadLevel), with the thread level and event log of `options`.
  explicit Environment(const EnvironmentOptions& options);
  /// As Environment(int&, char**&, ThreadLevel), with the settings of `options`.
  Environment(int& argc, char**& argv, const EnvironmentOptions& options);
  /// Prints the event log's table when it was asked for (collective over the world: every
  /// rank must destroy its Environment), then finalises MPI if this object initialised it.
  ~Environment();

  Environment(const Environment&) = delete;             ///< One per program: not copyable.
  Environment& operator=(const Environment&) = delete;  ///< One per program: not copyable.

  /// The thread level MPI provides (may be lower than the requested one).
  ThreadLevel provided() const { return provided_; }
  /// True when this object initialised MPI and will finalise it.
  bool owns_mpi() const { return owns_mpi_; }
  /// True when the event log is recorded and its table printed at destruction.
  bool log_view() const { return log_view_; }

  /// True between MPI_Init and MPI_Finalize, whoever called them (MPI_Initialized).
  static bool initialized();
  /// True once MPI has been finalised (MPI_Finalized); no MPI call may follow.
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
