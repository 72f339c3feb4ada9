// SPDX-License-Identifier: BSD-3-Clause
// Copyright (c) 2026 The distlops authors
// Checkpoint files: writing (POSIX, flushed to the disk), reading and verification.
#include "distlops/solvers/detail/checkpoint.hpp"

#include <fcntl.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <fstream>
#include <iterator>

namespace distlops::detail {

namespace {

constexpr char magic[8] = {'D', 'L', 'C', 'K', 'P', 'T', '0', '1'};
constexpr std::uint32_t format_version = 1;

/// 64-bit FNV-1a over 8-byte words, the tail bytewise; `hash` carries the state across calls.
class Checksum {
 public:
  void add(const void* data, std::size_t bytes) {
    const auto* p = static_cast<const unsigned char*>(data);
    // Finish a partial word left by the previous call first.
    while (pending_ > 0 && pending_ < 8 && bytes > 0) {
      word_bytes_[pending_++] = *p++;
      --bytes;
    }
    if (pending_ == 8) {
      mix_word(word_bytes_);
      pending_ = 0;
    }
    for (; bytes >= 8; bytes -= 8, p += 8)
      mix_word(p);
    while (bytes > 0) {
      word_bytes_[pending_++] = *p++;
      --bytes;
    }
  }
  std::uint64_t value() const {
    std::uint64_t h = hash_;
    for (std::size_t i = 0; i < pending_; ++i) {
      h ^= word_bytes_[i];
      h *= prime;
    }
    return h;
  }

 private:
  static constexpr std::uint64_t prime = 1099511628211ULL;
  void mix_word(const unsigned char* p) {
    std::uint64_t word;
    std::memcpy(&word, p, 8);
    hash_ ^= word;
    hash_ *= prime;
  }
  std::uint64_t hash_ = 14695981039346656037ULL;
  unsigned char word_bytes_[8] = {};
  std::size_t pending_ = 0;
};

/// Serialises the header fields into a byte string.
class HeaderWriter {
 public:
  template <class V>
  void put(const V& value) {
    const auto* p = reinterpret_cast<const unsigned char*>(&value);
    bytes_.insert(bytes_.end(), p, p + sizeof(V));
  }
  void put_string(const std::string& text) {
    put(static_cast<std::uint32_t>(text.size()));
    bytes_.insert(bytes_.end(), text.begin(), text.end());
  }
  const std::vector<unsigned char>& bytes() const { return bytes_; }

 private:
  std::vector<unsigned char> bytes_;
};

/// Reads header fields with bounds checks (a corrupt length must not run past the end).
class HeaderReader {
 public:
  HeaderReader(const std::vector<unsigned char>& bytes, std::size_t end, const std::string& path)
      : bytes_(bytes), end_(end), path_(path) {}
  template <class V>
  V get() {
    require(sizeof(V));
    V value;
    std::memcpy(&value, bytes_.data() + position_, sizeof(V));
    position_ += sizeof(V);
    return value;
  }
  std::string get_string() {
    const auto size = get<std::uint32_t>();
    require(size);
    std::string text(reinterpret_cast<const char*>(bytes_.data() + position_), size);
    position_ += size;
    return text;
  }
  void require(std::size_t count) const {
    if (count > end_ - position_) {
      throw IoError("checkpoint " + path_ +
                    " is truncated or corrupt (its header runs past the end)");
    }
  }
  std::size_t position() const { return position_; }
  void skip(std::size_t count) {
    require(count);
    position_ += count;
  }

 private:
  const std::vector<unsigned char>& bytes_;
  std::size_t end_;
  const std::string& path_;
  std::size_t position_ = 0;
};

std::vector<unsigned char> header_bytes(const CheckpointContent& content) {
  HeaderWriter out;
  for (char c : magic)
    out.put(c);
  out.put(format_version);
  out.put_string(content.identity.solver);
  out.put_string(content.identity.scalar_type);
  out.put(content.identity.parameters);
  out.put(content.iteration);
  out.put(static_cast<std::int32_t>(content.identity.rank));
  out.put(static_cast<std::int32_t>(content.identity.size));
  out.put(static_cast<std::uint32_t>(content.blocks.size()));
  for (const CheckpointBlock& block : content.blocks) {
    out.put(block.local_size);
    out.put(block.global_size);
  }
  out.put(static_cast<std::uint32_t>(content.scalars.size()));
  for (double value : content.scalars)
    out.put(value);
  out.put(static_cast<std::uint32_t>(content.histories.size()));
  for (const std::vector<double>& history : content.histories) {
    out.put(static_cast<std::uint64_t>(history.size()));
    for (double value : history)
      out.put(value);
  }
  out.put(content.element_size);
  return out.bytes();
}

/// A file descriptor closed on scope exit.
class File {
 public:
  explicit File(const std::string& path) : path_(path) {
    fd_ = ::open(path.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
    if (fd_ < 0) fail("cannot create");
  }
  ~File() {
    if (fd_ >= 0) ::close(fd_);
  }
  File(const File&) = delete;
  File& operator=(const File&) = delete;
  void write(const void* data, std::size_t bytes) {
    const auto* p = static_cast<const char*>(data);
    while (bytes > 0) {
      const ssize_t written = ::write(fd_, p, bytes);
      if (written < 0) {
        if (errno == EINTR) continue;
        fail("cannot write");
      }
      p += written;
      bytes -= static_cast<std::size_t>(written);
    }
  }
  void close() {
    if (::fsync(fd_) != 0) fail("cannot flush");
    const int fd = fd_;
    fd_ = -1;
    if (::close(fd) != 0) fail("cannot close");
  }

 private:
  [[noreturn]] void fail(const char* what) const {
    throw IoError(std::string("checkpoint: ") + what + " " + path_ + ": " + std::strerror(errno));
  }
  std::string path_;
  int fd_ = -1;
};

}  // namespace

std::string checkpoint_path(const std::string& directory, int rank) {
  return (std::filesystem::path(directory) / ("checkpoint.rank" + std::to_string(rank) + ".bin"))
      .string();
}

void write_checkpoint_file(const std::string& path, const CheckpointContent& content,
                           std::span<const void* const> data) {
  const std::vector<unsigned char> header = header_bytes(content);
  Checksum checksum;
  File file(path);
  checksum.add(header.data(), header.size());
  file.write(header.data(), header.size());
  for (std::size_t i = 0; i < data.size(); ++i) {
    const std::size_t bytes =
        static_cast<std::size_t>(content.blocks[i].local_size) * content.element_size;
    checksum.add(data[i], bytes);
    file.write(data[i], bytes);
  }
  const std::uint64_t sum = checksum.value();
  file.write(&sum, sizeof(sum));
  file.close();
}

CheckpointContent read_checkpoint_file(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) {
    throw IoError("checkpoint: cannot open " + path + " (no checkpoint to resume from there?)");
  }
  std::vector<unsigned char> bytes((std::istreambuf_iterator<char>(in)),
                                   std::istreambuf_iterator<char>());
  if (in.bad()) throw IoError("checkpoint: cannot read " + path);
  if (bytes.size() < sizeof(magic) + sizeof(std::uint64_t) ||
      std::memcmp(bytes.data(), magic, sizeof(magic)) != 0) {
    throw IoError("checkpoint " + path + " is not a distlops checkpoint file (bad magic bytes)");
  }
  const std::size_t end = bytes.size() - sizeof(std::uint64_t);
  std::uint64_t stored;
  std::memcpy(&stored, bytes.data() + end, sizeof(stored));
  Checksum checksum;
  checksum.add(bytes.data(), end);
  if (checksum.value() != stored) {
    throw IoError("checkpoint " + path + " is corrupt: its checksum does not match its content");
  }

  HeaderReader in_header(bytes, end, path);
  in_header.skip(sizeof(magic));
  if (const auto version = in_header.get<std::uint32_t>(); version != format_version) {
    throw IoError("checkpoint " + path + " has format version " + std::to_string(version) +
                  ", this library reads version " + std::to_string(format_version));
  }
  CheckpointContent content;
  content.identity.solver = in_header.get_string();
  content.identity.scalar_type = in_header.get_string();
  content.identity.parameters = in_header.get<std::uint64_t>();
  content.iteration = in_header.get<std::int64_t>();
  content.identity.rank = in_header.get<std::int32_t>();
  content.identity.size = in_header.get<std::int32_t>();
  const auto nblocks = in_header.get<std::uint32_t>();
  std::uint64_t payload_elements = 0;
  for (std::uint32_t i = 0; i < nblocks; ++i) {
    CheckpointBlock block;
    block.local_size = in_header.get<std::int64_t>();
    block.global_size = in_header.get<std::int64_t>();
    if (block.local_size < 0) throw IoError("checkpoint " + path + " is corrupt (negative size)");
    payload_elements += static_cast<std::uint64_t>(block.local_size);
    content.blocks.push_back(block);
  }
  const auto nscalars = in_header.get<std::uint32_t>();
  in_header.require(std::size_t(nscalars) * sizeof(double));
  for (std::uint32_t i = 0; i < nscalars; ++i)
    content.scalars.push_back(in_header.get<double>());
  const auto nhistories = in_header.get<std::uint32_t>();
  for (std::uint32_t i = 0; i < nhistories; ++i) {
    const auto length = in_header.get<std::uint64_t>();
    in_header.require(length * sizeof(double));
    std::vector<double> history(length);
    for (double& value : history)
      value = in_header.get<double>();
    content.histories.push_back(std::move(history));
  }
  content.element_size = in_header.get<std::uint64_t>();
  const std::uint64_t payload_bytes = payload_elements * content.element_size;
  if (payload_bytes != end - in_header.position()) {
    throw IoError("checkpoint " + path + " is truncated or corrupt: its blocks need " +
                  std::to_string(payload_bytes) + " bytes, the file holds " +
                  std::to_string(end - in_header.position()));
  }
  content.payload.assign(bytes.begin() + static_cast<std::ptrdiff_t>(in_header.position()),
                         bytes.begin() + static_cast<std::ptrdiff_t>(end));
  return content;
}

void check_checkpoint(const CheckpointContent& content, const CheckpointContent& expected,
                      const std::string& path) {
  const std::string where = "resume from checkpoint " + path + ": ";
  const CheckpointIdentity& got = content.identity;
  const CheckpointIdentity& want = expected.identity;
  if (got.solver != want.solver) {
    throw InvalidArgument(where + "it was written by solver " + got.solver + ", not by " +
                          want.solver);
  }
  if (got.size != want.size) {
    throw InvalidArgument(where + "it was written by a run on " + std::to_string(got.size) +
                          " rank(s), this run has " + std::to_string(want.size));
  }
  if (got.rank != want.rank) {
    throw InvalidArgument(where + "it holds the state of rank " + std::to_string(got.rank) +
                          ", not of rank " + std::to_string(want.rank));
  }
  if (got.scalar_type != want.scalar_type || content.element_size != expected.element_size) {
    throw InvalidArgument(where + "it holds " + got.scalar_type + " data, this run solves in " +
                          want.scalar_type);
  }
  if (got.parameters != want.parameters) {
    throw InvalidArgument(where + "it was written with other " + want.solver +
                          " parameters (damping, thresholds, step or preconditioning)");
  }
  if (content.blocks.size() != expected.blocks.size() ||
      content.scalars.size() != expected.scalars.size() ||
      content.histories.size() != expected.histories.size()) {
    throw IoError(where + "its structure (" + std::to_string(content.blocks.size()) +
                  " vector blocks, " + std::to_string(content.scalars.size()) +
                  " scalars) is not that of a " + want.solver + " state (" +
                  std::to_string(expected.blocks.size()) + " vector blocks, " +
                  std::to_string(expected.scalars.size()) + " scalars)");
  }
  for (std::size_t i = 0; i < content.blocks.size(); ++i) {
    const CheckpointBlock& a = content.blocks[i];
    const CheckpointBlock& b = expected.blocks[i];
    if (a.global_size != b.global_size || a.local_size != b.local_size) {
      throw ShapeMismatch(where + "vector block " + std::to_string(i) + " has global size " +
                          std::to_string(a.global_size) + " and local size " +
                          std::to_string(a.local_size) + " on rank " + std::to_string(got.rank) +
                          ", this run expects " + std::to_string(b.global_size) + " and " +
                          std::to_string(b.local_size));
    }
  }
}

}  // namespace distlops::detail
