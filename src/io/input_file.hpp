// SPDX-License-Identifier: BSD-3-Clause
// Copyright (c) 2026 The distlops authors
#pragma once
// A file read with plain POSIX calls by one rank, without MPI (internal to the library): what
// read_npy_local reads whole files and the .npz reader reads archives from.
#include <cstddef>
#include <cstdint>
#include <span>
#include <string>

namespace distlops::io::detail {

/// A file opened for reading with POSIX calls (no MPI).
class InputFile {
 public:
  /// Raises IoError ("<where>: cannot open ...") when the file cannot be opened or is a
  /// directory.
  InputFile(const std::string& name, const std::string& where);
  ~InputFile();
  InputFile(const InputFile&) = delete;
  InputFile& operator=(const InputFile&) = delete;

  std::uint64_t size() const { return size_; }
  /// Reads exactly `bytes.size()` bytes at `offset`; IoError when the file ends before.
  void read_at(std::uint64_t offset, std::span<std::byte> bytes) const;

 private:
  int fd_ = -1;
  std::uint64_t size_ = 0;
  std::string where_;
};

}  // namespace distlops::io::detail
