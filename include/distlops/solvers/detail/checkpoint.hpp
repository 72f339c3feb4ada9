// SPDX-License-Identifier: BSD-3-Clause
// Copyright (c) 2026 The distlops authors
#pragma once
/// \file checkpoint.hpp
/// Checkpoint files of the solvers: the complete state of a solver (vectors, scalars,
/// histories) after some iteration, one binary file per rank, committed in two phases.
///
/// Commit protocol. A save makes a new generation g (the current one plus 1): every rank
/// writes `<prefix>.g<g>.rank<r>.bin` (through a temporary file, flushed to the disk); once
/// every rank has succeeded, rank 0 replaces the manifest `<prefix>.current`, which names the
/// current generation, atomically (temporary file, flush, rename, directory flush); only then
/// are the files of the previous generation removed. A process killed at any point leaves
/// either the previous manifest with its files intact or the new one with all of its files,
/// so a resume always finds a complete checkpoint. `<prefix>` is `checkpoint` (solves on
/// distributed vectors) or `checkpoint.rank<r>` (solves on local arrays, one per process).
///
/// Layout of a data file (native byte order, for restarts on the same kind of machine):
///
///     "DLCKPT02"                                 magic, 8 bytes
///     u32 format version (2)
///     u32 n + n bytes                            solver name ("cg", "cgls", ...)
///     u32 n + n bytes                            scalar type ("float64", ...)
///     u64                                        hash of the solver's fixed parameters
///     i64                                        iteration
///     i32 rank, i32 rank count
///     u32 n, then n x (i64 local size, i64 global size)   the vector blocks
///     u32 n, then n x f64                        the scalars of the recurrence
///     u32 n, then n x (u64 m + m x f64)          the histories
///     u64                                        element size in bytes
///     the blocks' local data, in order
///     u64                                        XXH3-64 checksum of all the bytes before it

#include <cstdint>
#include <exception>
#include <filesystem>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include "distlops/core/collective_check.hpp"
#include "distlops/core/crash_point.hpp"
#include "distlops/core/error.hpp"
#include "distlops/core/layout.hpp"
#include "distlops/solvers/common.hpp"
#include "distlops/solvers/detail/vectors.hpp"

namespace distlops::detail {

/// Who wrote a checkpoint, checked when resuming.
struct CheckpointIdentity {
  std::string solver;
  std::string scalar_type;
  std::uint64_t parameters = 0;
  int rank = 0;
  int size = 1;
};

struct CheckpointBlock {
  std::int64_t local_size = 0;
  std::int64_t global_size = 0;
};

/// The content of one checkpoint file.
struct CheckpointContent {
  CheckpointIdentity identity;
  std::int64_t iteration = 0;
  std::vector<CheckpointBlock> blocks;
  std::vector<double> scalars;
  std::vector<std::vector<double>> histories;
  std::uint64_t element_size = 0;
  /// The blocks' local data, concatenated (reading only).
  std::vector<unsigned char> payload;
};

/// What the manifest of a checkpoint says: which generation of files is current, written in
/// which format, at which iteration, by how many ranks.
struct CheckpointManifest {
  std::string format = "binary";
  std::uint64_t generation = 0;
  std::int64_t iteration = 0;
  int ranks = 1;
};

/// `<directory>/checkpoint` for solves on distributed vectors (`comm_rank == file_rank`),
/// `<directory>/checkpoint.rank<file_rank>` for solves on local arrays.
std::string checkpoint_prefix(const std::string& directory, int comm_rank, int file_rank);

/// `<prefix>.g<generation>.rank<rank>.bin`
std::string checkpoint_path(const std::string& prefix, std::uint64_t generation, int rank);

/// `<prefix>.g<generation>.h5`: the single file of an HDF5 checkpoint.
std::string checkpoint_hdf5_path(const std::string& prefix, std::uint64_t generation);

/// Rank 0 reads `<prefix>.current` and every rank gets its content; nothing when there is no
/// manifest. A manifest that cannot be read or parsed raises IoError on every rank. Collective.
std::optional<CheckpointManifest> read_checkpoint_manifest(const Communicator& comm,
                                                           const std::string& prefix);

/// Makes `manifest` the current one: rank 0 writes it to a temporary file, flushes it and
/// renames it over `<prefix>.current`, then flushes the directory. IoError on every rank when
/// that fails (the previous manifest then stays). Collective.
void commit_checkpoint_manifest(const Communicator& comm, const std::string& prefix,
                                const CheckpointManifest& manifest);

/// Removes the files of the generation `previous` after a newer one was committed: every rank
/// its own binary file, rank 0 those of ranks that the current run lacks. Failures are
/// ignored (a leftover file is never read again). Collective only in that all ranks call it.
void remove_checkpoint_generation(const Communicator& comm, const std::string& prefix,
                                  const CheckpointManifest& previous, int file_rank);

/// Writes `content` (everything but the payload) and the data of the blocks, block i being
/// content.blocks[i].local_size elements of content.element_size bytes at data[i] in host
/// memory, to `path`, and flushes it to the disk. IoError on failure.
void write_checkpoint_file(const std::string& path, const CheckpointContent& content,
                           std::span<const void* const> data);

/// Reads and verifies (checksum, structure) a checkpoint file. IoError when the file is
/// missing, truncated or corrupt.
CheckpointContent read_checkpoint_file(const std::string& path);

/// True when this library was built with HDF5, so that checkpoints in the hdf5 format can be
/// written and read.
bool hdf5_checkpoints_available();

/// One vector leaf of an HDF5 checkpoint: its layout and its local data in host memory.
struct CheckpointLeaf {
  Layout layout;
  void* data = nullptr;
};

/// Writes the HDF5 checkpoint file `path` collectively over `comm`: every leaf as a global
/// dataset `block<i>` of its layout's shape (chunked, Fletcher32-checked), the scalars and
/// histories as datasets, the identity and the iteration as attributes; the elements are of
/// `content.identity.scalar_type`. The file is closed (flushed) before this returns. IoError on
/// every rank on failure.
void write_hdf5_checkpoint(const std::string& path, const Communicator& comm,
                           const CheckpointContent& content,
                           std::span<const CheckpointLeaf> leaves);

/// Reads what an HDF5 checkpoint holds besides the vectors: identity (rank count in
/// identity.size), iteration, scalars, histories, and the global size of every block (local
/// sizes are left 0). Collective; IoError on every rank for a missing or corrupt file.
CheckpointContent read_hdf5_checkpoint_state(const std::string& path, const Communicator& comm);

/// Reads every leaf's block of the datasets `block<i>` (Fletcher32-verified) into its data, at
/// whatever rank count and split the leaves' layouts have. Collective; IoError on every rank.
void read_hdf5_checkpoint_vectors(const std::string& path, const Communicator& comm,
                                  const std::string& scalar_type,
                                  std::span<const CheckpointLeaf> leaves);

/// The leaves of `v` (a DistributedArray, every leaf of a StackedDistributedArray, a
/// LocalArray as a layout of its own) with host pointers: the data themselves in host memory,
/// otherwise a buffer of `staging`.
template <class T, class V>
void collect_leaves(std::vector<CheckpointLeaf>& leaves, std::vector<std::vector<T>>& staging,
                    V& v) {
  using Space = typename V::space_type;
  auto add = [&](const Layout& layout, T* data, Index size) {
    if constexpr (std::same_as<Space, Host>) {
      leaves.push_back({layout, data});
    } else {
      staging.emplace_back(static_cast<std::size_t>(size));
      leaves.push_back({layout, staging.back().data()});
    }
  };
  if constexpr (requires { v.narrays(); }) {
    v.for_each_array([&](auto& leaf) { add(leaf.layout(), leaf.data(), leaf.local_size()); });
  } else if constexpr (requires { v.shape(); }) {
    add(Layout(Communicator::self(), {v.size()}), v.data(), v.size());
  } else {
    add(v.layout(), v.data(), v.local_size());
  }
}

/// Compares what a file holds with what the resuming run expects: InvalidArgument for another
/// solver, scalar type, rank count or parameters, ShapeMismatch for other vector sizes.
void check_checkpoint(const CheckpointContent& content, const CheckpointContent& expected,
                      const std::string& path);

/// The state of a solver as the checkpoint code sees it: its scalars (doubles owned by the
/// solver) and its histories; the vectors are passed separately.
struct SolverStateView {
  std::span<double* const> scalars;
  std::span<std::vector<double>* const> histories;
};

/// The sizes and data pointers (memory of the vectors' space) of the local blocks of
/// `vectors`, in order.
template <class T, class... Vectors>
std::vector<CheckpointBlock> collect_blocks(std::vector<T*>& pointers, Vectors&... vectors) {
  std::vector<CheckpointBlock> blocks;
  auto add = [&](T* data, Index local, Index global) {
    blocks.push_back({local, global});
    pointers.push_back(data);
  };
  (for_each_block(vectors, add), ...);
  return blocks;
}

/// The state as CheckpointContent (everything but the vectors).
inline CheckpointContent state_content(const CheckpointIdentity& identity, int iteration,
                                       SolverStateView state, std::size_t element_size) {
  CheckpointContent content;
  content.identity = identity;
  content.iteration = iteration;
  for (const double* value : state.scalars)
    content.scalars.push_back(*value);
  for (const std::vector<double>* history : state.histories)
    content.histories.push_back(*history);
  content.element_size = element_size;
  return content;
}

/// Writes the HDF5 file of a checkpoint (not yet committed). Collective.
template <class T, class... Vectors>
void save_hdf5_checkpoint(const Communicator& comm, const std::string& path,
                          const CheckpointIdentity& identity, int iteration, SolverStateView state,
                          Vectors&... vectors) {
  using Space = std::common_type_t<typename Vectors::space_type...>;
  std::vector<CheckpointLeaf> leaves;
  std::vector<std::vector<T>> staging;
  (collect_leaves(leaves, staging, vectors), ...);
  if constexpr (!std::same_as<Space, Host>) {
    std::vector<T*> pointers;
    (void)collect_blocks(pointers, vectors...);
    for (std::size_t i = 0; i < pointers.size(); ++i)
      memory::copy_bytes<Host, Space>(staging[i].data(), pointers[i],
                                      staging[i].size() * sizeof(T));
  }
  const CheckpointContent content = state_content(identity, iteration, state, sizeof(T));
  write_hdf5_checkpoint(path, comm, content, leaves);
}

/// Saves the state collectively as the next generation (see the commit protocol above): a
/// failure on any rank removes every rank's new file and raises the IoError of the lowest
/// failing rank on every rank, leaving the previous checkpoint current.
template <class... Vectors>
void save_checkpoint(const CheckpointOptions& options, const Communicator& comm, int file_rank,
                     const CheckpointIdentity& identity, int iteration, SolverStateView state,
                     Vectors&... vectors) {
  using T = std::common_type_t<typename Vectors::value_type...>;
  using Space = std::common_type_t<typename Vectors::space_type...>;
  collective_check(comm, [&] {
    std::error_code error;
    std::filesystem::create_directories(options.directory, error);
    if (error) {
      throw IoError("checkpoint: cannot create the directory " + options.directory + ": " +
                    error.message());
    }
  });
  const std::string prefix = checkpoint_prefix(options.directory, comm.rank(), file_rank);
  const std::optional<CheckpointManifest> previous = read_checkpoint_manifest(comm, prefix);
  CheckpointManifest next;
  next.generation = previous ? previous->generation + 1 : 1;
  next.iteration = iteration;
  next.ranks = comm.size();
  if (options.format == CheckpointFormat::hdf5) {
    next.format = "hdf5";
    save_hdf5_checkpoint<T>(comm, checkpoint_hdf5_path(prefix, next.generation), identity,
                            iteration, state, vectors...);
    commit_checkpoint_manifest(comm, prefix, next);
    if (previous) remove_checkpoint_generation(comm, prefix, *previous, file_rank);
    return;
  }
  const std::string path = checkpoint_path(prefix, next.generation, file_rank);
  const std::string temporary = path + ".tmp";
  std::exception_ptr failure;
  try {
    CheckpointContent content;
    content.identity = identity;
    content.iteration = iteration;
    for (const double* value : state.scalars)
      content.scalars.push_back(*value);
    for (const std::vector<double>* history : state.histories)
      content.histories.push_back(*history);
    content.element_size = sizeof(T);
    std::vector<T*> pointers;
    content.blocks = collect_blocks(pointers, vectors...);
    std::vector<std::vector<T>> staging;  // device data are written from host copies
    if constexpr (!std::same_as<Space, Host>) {
      staging.resize(pointers.size());
      for (std::size_t i = 0; i < pointers.size(); ++i) {
        staging[i].resize(static_cast<std::size_t>(content.blocks[i].local_size));
        memory::copy_bytes<Host, Space>(staging[i].data(), pointers[i],
                                        staging[i].size() * sizeof(T));
        pointers[i] = staging[i].data();
      }
    }
    const std::vector<const void*> data(pointers.begin(), pointers.end());
    write_checkpoint_file(temporary, content, data);
    std::error_code error;
    std::filesystem::rename(temporary, path, error);
    if (error) {
      throw IoError("checkpoint: cannot rename " + temporary + " to " + path + ": " +
                    error.message());
    }
    crash_point("checkpoint.file_renamed");
  } catch (...) {
    failure = std::current_exception();
  }
  try {
    collective_check(comm, [&] {
      if (failure) std::rethrow_exception(failure);
    });
  } catch (...) {
    std::error_code ignored;
    std::filesystem::remove(temporary, ignored);
    std::filesystem::remove(path, ignored);
    throw;
  }
  // Every rank's file of the new generation is on the disk: the manifest commits them.
  commit_checkpoint_manifest(comm, prefix, next);
  if (previous) remove_checkpoint_generation(comm, prefix, *previous, file_rank);
}

/// Loads an HDF5 checkpoint at any rank count: the identity, the sizes, then the vectors.
template <class T, class... Vectors>
int load_hdf5_checkpoint(const Communicator& comm, const std::string& path,
                         const CheckpointIdentity& identity, SolverStateView state,
                         Vectors&... vectors) {
  using Space = std::common_type_t<typename Vectors::space_type...>;
  CheckpointContent expected;
  expected.identity = identity;
  expected.element_size = sizeof(T);
  std::vector<T*> targets;
  expected.blocks = collect_blocks(targets, vectors...);
  expected.scalars.resize(state.scalars.size());
  expected.histories.resize(state.histories.size());
  CheckpointContent content = read_hdf5_checkpoint_state(path, comm);
  // The rank count and the split may differ: only the global sizes must agree.
  content.identity.rank = identity.rank;
  content.identity.size = identity.size;
  for (std::size_t i = 0; i < content.blocks.size() && i < expected.blocks.size(); ++i)
    content.blocks[i].local_size = expected.blocks[i].local_size;
  check_checkpoint(content, expected, path);  // same verdict everywhere: same data
  std::vector<CheckpointLeaf> leaves;
  std::vector<std::vector<T>> staging;
  (collect_leaves(leaves, staging, vectors), ...);
  read_hdf5_checkpoint_vectors(path, comm, identity.scalar_type, leaves);
  if constexpr (!std::same_as<Space, Host>) {
    for (std::size_t i = 0; i < targets.size(); ++i)
      memory::copy_bytes<Space, Host>(targets[i], staging[i].data(), staging[i].size() * sizeof(T));
  }
  for (std::size_t i = 0; i < state.scalars.size(); ++i)
    *state.scalars[i] = content.scalars[i];
  for (std::size_t i = 0; i < state.histories.size(); ++i)
    *state.histories[i] = std::move(content.histories[i]);
  return static_cast<int>(content.iteration);
}

/// Loads the state saved by save_checkpoint into the solver's scalars, histories and vectors
/// and returns the saved iteration. Every check (file readable and intact, same solver,
/// scalar type, rank count, parameters and sizes, same iteration on every rank) is agreed on
/// collectively, so every rank raises the same error.
template <class... Vectors>
int load_checkpoint(const CheckpointOptions& options, const Communicator& comm, int file_rank,
                    const CheckpointIdentity& identity, SolverStateView state,
                    Vectors&... vectors) {
  using T = std::common_type_t<typename Vectors::value_type...>;
  using Space = std::common_type_t<typename Vectors::space_type...>;
  const std::string prefix = checkpoint_prefix(options.directory, comm.rank(), file_rank);
  const std::optional<CheckpointManifest> manifest = read_checkpoint_manifest(comm, prefix);
  // Every rank holds rank 0's manifest: the same verdict everywhere.
  if (!manifest) {
    throw IoError("resume from " + options.directory + ": there is no checkpoint there (" + prefix +
                  ".current is missing)");
  }
  if (manifest->format == "hdf5") {
    return load_hdf5_checkpoint<T>(comm, checkpoint_hdf5_path(prefix, manifest->generation),
                                   identity, state, vectors...);
  }
  if (manifest->format != "binary") {
    throw IoError("resume from " + options.directory + ": the checkpoint there is in format '" +
                  manifest->format + "', which this library does not read");
  }
  if (manifest->ranks != comm.size()) {
    throw InvalidArgument(
        "resume from " + options.directory + ": the checkpoint there was written by a run on " +
        std::to_string(manifest->ranks) + " rank(s), this run has " + std::to_string(comm.size()));
  }
  const std::string path = checkpoint_path(prefix, manifest->generation, file_rank);
  std::vector<T*> targets;
  CheckpointContent expected;
  expected.identity = identity;
  expected.element_size = sizeof(T);
  expected.blocks = collect_blocks(targets, vectors...);
  expected.scalars.resize(state.scalars.size());
  expected.histories.resize(state.histories.size());
  CheckpointContent content;
  collective_check(comm, [&] {
    content = read_checkpoint_file(path);
    check_checkpoint(content, expected, path);
  });
  Fingerprint iteration;
  iteration.add(content.iteration);
  collective_check(comm, iteration,
                   "resume from " + options.directory +
                       ": the iteration saved in the checkpoint files (an interrupted save?)",
                   [] {});
  std::size_t offset = 0;
  for (std::size_t i = 0; i < targets.size(); ++i) {
    const std::size_t bytes = static_cast<std::size_t>(content.blocks[i].local_size) * sizeof(T);
    memory::copy_bytes<Space, Host>(targets[i], content.payload.data() + offset, bytes);
    offset += bytes;
  }
  for (std::size_t i = 0; i < state.scalars.size(); ++i)
    *state.scalars[i] = content.scalars[i];
  for (std::size_t i = 0; i < state.histories.size(); ++i)
    *state.histories[i] = std::move(content.histories[i]);
  return static_cast<int>(content.iteration);
}

}  // namespace distlops::detail
