// SPDX-License-Identifier: BSD-3-Clause
// Copyright (c) 2026 The distlops authors
#pragma once
/// \file environment.hpp
/// `Environment`: initialises MPI on construction and finalises it on destruction, unless the
/// application had initialised MPI itself, in which case it leaves MPI's lifetime alone.

namespace distlops {

/// MPI's thread support levels.
enum class ThreadLevel { single, funneled, serialized, multiple };

class Environment {
 public:
  /// Initialises MPI with the requested thread level (MPI_Init_thread) unless MPI is already
  /// initialised. Installs MPI_ERRORS_RETURN on MPI_COMM_WORLD and MPI_COMM_SELF so that MPI
  /// failures surface as distlops::CommunicationError.
  explicit Environment(ThreadLevel requested = ThreadLevel::funneled);
  Environment(int& argc, char**& argv, ThreadLevel requested = ThreadLevel::funneled);
  ~Environment();

  Environment(const Environment&) = delete;
  Environment& operator=(const Environment&) = delete;

  /// The thread level MPI provides (may be lower than the requested one).
  ThreadLevel provided() const { return provided_; }
  /// True when this object initialised MPI and will finalise it.
  bool owns_mpi() const { return owns_mpi_; }

  static bool initialized();
  static bool finalized();

 private:
  void initialise(int* argc, char*** argv, ThreadLevel requested);
  ThreadLevel provided_ = ThreadLevel::single;
  bool owns_mpi_ = false;
};

/// This process's rank among the processes of its node (MPI_COMM_TYPE_SHARED), recorded when
/// an Environment is constructed (collectively); -1 before that. The CUDA backend picks the
/// device of a rank from it.
int node_local_rank();

}  // namespace distlops
