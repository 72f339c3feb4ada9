// SPDX-License-Identifier: BSD-3-Clause
// Copyright (c) 2026 The distlops authors
#pragma once
// The atomic replacement of a file by the collective writers (internal to the library): the
// data go to a temporary file in the target's directory, which is renamed over the target only
// once every rank has succeeded.
#include <fcntl.h>
#include <mpi.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstdint>
#include <filesystem>
#include <random>
#include <string>
#include <system_error>
#include <utility>

#include "../unique_handle.hpp"
#include "distlops/core/error.hpp"

namespace distlops::io::detail {

// A temporary file next to a target, created by one rank of a collective writer (write_npy,
// write_hdf5): removed on destruction unless renamed over its target.
struct TemporaryFileTraits {
  using handle_type = std::string;
  static std::string null() { return {}; }
  static void release(const std::string& name) { ::unlink(name.c_str()); }
};

class TemporaryFile : public distlops::detail::UniqueHandle<TemporaryFileTraits> {
 public:
  const std::string& name() const { return get(); }

  // A new, empty file `.<name>.<16 hex digits>.tmp` next to `target`, with the permission bits
  // of an existing target (otherwise 0666 less the umask).
  static TemporaryFile create(const std::filesystem::path& target, const std::string& where) {
    const std::string base = target.filename().string();
    if (base.empty() || base == "." || base == "..") {
      throw IoError(where + ": the path names no file");
    }
    struct stat existing {};
    const bool exists = ::stat(target.c_str(), &existing) == 0;
    if (exists && S_ISDIR(existing.st_mode)) throw IoError(where + ": the path is a directory");
    const std::filesystem::path directory =
        target.has_parent_path() ? target.parent_path() : std::filesystem::path(".");

    std::mt19937_64 engine(seed());
    static constexpr char digits[] = "0123456789abcdef";
    for (int attempt = 0; attempt < 100; ++attempt) {
      std::uint64_t bits = engine();
      std::string suffix;
      for (int i = 0; i < 16; ++i, bits >>= 4)
        suffix += digits[bits & 15];
      // Keep the name within NAME_MAX (255) for long target names.
      const std::string name =
          (directory / ("." + base.substr(0, 200) + "." + suffix + ".tmp")).string();
      const int fd = ::open(name.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0666);
      if (fd < 0) {
        if (errno == EEXIST) continue;
        throw IoError(where + ": cannot create a temporary file in '" + directory.string() +
                      "': " + std::generic_category().message(errno));
      }
      TemporaryFile file;
      file.handle_ = name;
      if (exists) (void)::fchmod(fd, existing.st_mode & 07777);
      ::close(fd);
      return file;
    }
    throw IoError(where + ": cannot find a free temporary file name in '" + directory.string() +
                  "'");
  }

  // Renames the file over `target` and makes the rename durable (the directory is synced where
  // the file system allows it).
  void commit(const std::filesystem::path& target, const std::string& where) {
    if (::rename(name().c_str(), target.c_str()) != 0) {
      throw IoError(where + ": cannot rename the temporary file '" + name() +
                    "' to the target: " + std::generic_category().message(errno));
    }
    take();
    const std::filesystem::path directory =
        target.has_parent_path() ? target.parent_path() : std::filesystem::path(".");
    const int fd = ::open(directory.c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC);
    if (fd >= 0) {
      (void)::fsync(fd);
      ::close(fd);
    }
  }

 private:
  static std::uint64_t seed() {
    std::uint64_t value = static_cast<std::uint64_t>(::getpid()) * 0x9e3779b97f4a7c15ULL;
    value ^= static_cast<std::uint64_t>(MPI_Wtime() * 1e9);
    try {
      std::random_device device;
      value ^= (static_cast<std::uint64_t>(device()) << 32) ^ device();
    } catch (const std::exception&) {
      // No entropy source: the process id and the clock must do; create() retries collisions.
    }
    return value;
  }
};

}  // namespace distlops::io::detail
