// SPDX-License-Identifier: BSD-3-Clause
// Copyright (c) 2026 The distlops authors
#pragma once
/// \file checkpoint.hpp
/// Checkpoint files of the solvers: one binary file per rank with the complete state of a
/// solver (vectors, scalars, histories) after some iteration.
///
/// Layout of a file (native byte order, for restarts on the same kind of machine):
///
///     "DLCKPT01"                                 magic, 8 bytes
///     u32 format version (1)
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
///     u64                                        checksum of all the bytes before it
///
/// The checksum is a 64-bit FNV-1a hash taken over 8-byte words (the tail bytewise).

#include <cstdint>
#include <exception>
#include <filesystem>
#include <span>
#include <string>
#include <vector>

#include "distlops/core/collective_check.hpp"
#include "distlops/core/error.hpp"
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

/// `<directory>/checkpoint.rank<rank>.bin`
std::string checkpoint_path(const std::string& directory, int rank);

/// Writes `content` (everything but the payload) and the data of the blocks, block i being
/// content.blocks[i].local_size elements of content.element_size bytes at data[i] in host
/// memory, to `path`, and flushes it to the disk. IoError on failure.
void write_checkpoint_file(const std::string& path, const CheckpointContent& content,
                           std::span<const void* const> data);

/// Reads and verifies (checksum, structure) a checkpoint file. IoError when the file is
/// missing, truncated or corrupt.
CheckpointContent read_checkpoint_file(const std::string& path);

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

/// Saves the state collectively: every rank writes its file under a temporary name; only when
/// all succeeded are the files renamed into place (otherwise every rank removes its temporary
/// file and raises the IoError of the lowest failing rank).
template <class... Vectors>
void save_checkpoint(const CheckpointOptions& options, const Communicator& comm, int file_rank,
                     const CheckpointIdentity& identity, int iteration, SolverStateView state,
                     Vectors&... vectors) {
  using T = std::common_type_t<typename Vectors::value_type...>;
  using Space = std::common_type_t<typename Vectors::space_type...>;
  const std::string path = checkpoint_path(options.directory, file_rank);
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
    std::error_code ignored;
    std::filesystem::create_directories(options.directory, ignored);
    write_checkpoint_file(temporary, content, data);
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
    throw;
  }
  collective_check(comm, [&] {
    std::error_code error;
    std::filesystem::rename(temporary, path, error);
    if (error) {
      throw IoError("checkpoint: cannot rename " + temporary + " to " + path + ": " +
                    error.message());
    }
  });
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
  const std::string path = checkpoint_path(options.directory, file_rank);
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
