// SPDX-License-Identifier: BSD-3-Clause
// Copyright (c) 2026 The distlops authors
// A file read with plain POSIX calls (input_file.hpp).
#include "input_file.hpp"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <system_error>

#include "distlops/core/error.hpp"

namespace distlops::io::detail {

namespace {

std::string errno_text(int code) {
  return std::generic_category().message(code);
}

}  // namespace

InputFile::InputFile(const std::string& name, const std::string& where) : where_(where) {
  fd_ = ::open(name.c_str(), O_RDONLY | O_CLOEXEC);
  if (fd_ < 0) throw IoError(where + ": cannot open the file: " + errno_text(errno));
  struct stat info {};
  if (::fstat(fd_, &info) != 0) {
    const int code = errno;
    ::close(fd_);
    throw IoError(where + ": cannot inspect the file: " + errno_text(code));
  }
  if (S_ISDIR(info.st_mode)) {
    ::close(fd_);
    throw IoError(where + ": the path is a directory");
  }
  size_ = static_cast<std::uint64_t>(info.st_size);
}

InputFile::~InputFile() {
  if (fd_ >= 0) ::close(fd_);
}

void InputFile::read_at(std::uint64_t offset, std::span<std::byte> bytes) const {
  std::byte* out = bytes.data();
  std::size_t left = bytes.size();
  while (left > 0) {
    const std::size_t ask = std::min<std::size_t>(left, std::size_t{1} << 30);
    const ssize_t got = ::pread(fd_, out, ask, static_cast<off_t>(offset));
    if (got < 0) {
      if (errno == EINTR) continue;
      throw IoError(where_ + ": cannot read the file: " + errno_text(errno));
    }
    if (got == 0) {
      throw IoError(where_ + ": the file ends at byte " + std::to_string(offset) + ", " +
                    std::to_string(left) + " bytes short of what its records say: truncated");
    }
    out += got;
    left -= static_cast<std::size_t>(got);
    offset += static_cast<std::uint64_t>(got);
  }
}

}  // namespace distlops::io::detail
