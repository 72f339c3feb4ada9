// SPDX-License-Identifier: BSD-3-Clause
// Copyright (c) 2026 The distlops authors
#include "outputs.hpp"

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <filesystem>

#include "exit_status.hpp"

namespace distlops::examples {

namespace fs = std::filesystem;

namespace {

/// `text` of rank `root` on every rank.
std::string broadcast_text(const Communicator& comm, std::string text, int root) {
  const long long length = comm.broadcast(static_cast<long long>(text.size()), root);
  text.resize(static_cast<std::size_t>(length));
  comm.broadcast(text.data(), length, root);
  return text;
}

}  // namespace

std::string rank0_text(const Communicator& comm, const std::string& text) {
  return broadcast_text(comm, text, 0);
}

namespace {

/// The first failing rank's `problem` (empty on every rank when none failed). Collective.
std::string agree_on_problem(const Communicator& comm, const std::string& problem) {
  const int first = comm.allreduce(problem.empty() ? comm.size() : comm.rank(), ReduceOp::min);
  if (first == comm.size()) return {};
  std::string text = broadcast_text(comm, problem, first);
  if (comm.size() > 1) text += " (rank " + std::to_string(first) + ")";
  return text;
}

/// Creates and removes a file in `directory`; what went wrong, or an empty string.
std::string probe_directory(const fs::path& directory, int rank) {
  const fs::path probe = directory / (".distlops-write-probe." + std::to_string(rank));
  errno = 0;
  std::FILE* file = std::fopen(probe.c_str(), "w");
  if (file == nullptr) return std::strerror(errno);
  std::fclose(file);
  std::error_code ignored;
  fs::remove(probe, ignored);
  return {};
}

}  // namespace

void prepare_output_directory(const std::string& what, const std::string& directory,
                              const Communicator& comm) {
  std::string problem;
  if (directory.empty()) {
    problem = "needs a directory";
  } else if (comm.rank() == 0) {
    std::error_code error;
    fs::create_directories(directory, error);
    if (error) problem = "cannot create this directory: " + error.message();
  }
  // Rank 0 creates it; then every rank must be able to write there (MPI-IO writes from all).
  problem = rank0_text(comm, problem);
  if (problem.empty()) {
    const std::string local = probe_directory(directory, comm.rank());
    problem =
        agree_on_problem(comm, local.empty() ? local : "cannot write in this directory: " + local);
  }
  if (!problem.empty()) throw ExitError(exit_status::output, what + ": " + problem);
}

std::string output_file_problem(const std::string& path) {
  if (path.empty()) return "no file named";
  const fs::path file(path);
  const fs::path folder = file.parent_path().empty() ? fs::path(".") : file.parent_path();
  std::error_code error;
  const fs::file_status folder_status = fs::status(folder, error);
  if (!fs::exists(folder_status)) return "the folder " + folder.string() + " does not exist";
  if (!fs::is_directory(folder_status)) return folder.string() + " is not a folder";
  if (fs::is_directory(fs::status(file, error))) return "it is a folder";
  const bool existed = fs::exists(file, error);
  // Appending creates a missing file and leaves an existing one as it is.
  errno = 0;
  std::FILE* handle = std::fopen(path.c_str(), "a");
  if (handle == nullptr) return std::string("cannot write it: ") + std::strerror(errno);
  std::fclose(handle);
  if (!existed) fs::remove(file, error);
  return {};
}

}  // namespace distlops::examples
