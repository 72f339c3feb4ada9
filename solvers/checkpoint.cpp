// SPDX-License-Identifier: BSD-3-Clause
// Copyright (c) 2026 The distlops authors
// Checkpoint files: writing (POSIX, flushed to the disk), reading and verification, and the
// manifest that commits a generation of them.
#include "distlops/solvers/detail/checkpoint.hpp"

// xxHash compiled into this file: no library to link.
#define XXH_INLINE_ALL
#include <xxhash.h>

#include <fcntl.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <fstream>
#include <iterator>
#include <sstream>

#include "distlops/io/io_config.hpp"

namespace distlops::detail {

namespace {

constexpr char magic[8] = {'D', 'L', 'C', 'K', 'P', 'T', '0', '2'};
constexpr std::uint32_t format_version = 2;

/// XXH3-64 over a stream of bytes.
class Checksum {
 public:
  Checksum() : state_(XXH3_createState()) {
    if (state_ == nullptr || XXH3_64bits_reset(state_) != XXH_OK) {
      throw IoError("checkpoint: cannot initialise the checksum state");
    }
  }
  ~Checksum() { XXH3_freeState(state_); }
  Checksum(const Checksum&) = delete;
  Checksum& operator=(const Checksum&) = delete;
  void add(const void* data, std::size_t bytes) { (void)XXH3_64bits_update(state_, data, bytes); }
  std::uint64_t value() const { return XXH3_64bits_digest(state_); }

 private:
  XXH3_state_t* state_;
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

std::string checkpoint_prefix(const std::string& directory, int comm_rank, int file_rank) {
  const std::string name =
      comm_rank == file_rank ? "checkpoint" : "checkpoint.rank" + std::to_string(file_rank);
  return (std::filesystem::path(directory) / name).string();
}

std::string checkpoint_path(const std::string& prefix, std::uint64_t generation, int rank) {
  return prefix + ".g" + std::to_string(generation) + ".rank" + std::to_string(rank) + ".bin";
}

std::string checkpoint_hdf5_path(const std::string& prefix, std::uint64_t generation) {
  return prefix + ".g" + std::to_string(generation) + ".h5";
}

namespace {

std::string manifest_path(const std::string& prefix) {
  return prefix + ".current";
}

constexpr const char* manifest_magic = "distlops checkpoint manifest 1";

std::string manifest_text(const CheckpointManifest& manifest) {
  std::ostringstream text;
  text << manifest_magic << "\nformat " << manifest.format << "\ngeneration " << manifest.generation
       << "\niteration " << manifest.iteration << "\nranks " << manifest.ranks << "\n";
  return text.str();
}

CheckpointManifest parse_manifest(const std::string& text, const std::string& path) {
  std::istringstream in(text);
  std::string line;
  CheckpointManifest manifest;
  auto fail = [&] { throw IoError("checkpoint manifest " + path + " is corrupt"); };
  if (!std::getline(in, line) || line != manifest_magic) fail();
  std::string key;
  if (!(in >> key >> manifest.format) || key != "format") fail();
  if (!(in >> key >> manifest.generation) || key != "generation") fail();
  if (!(in >> key >> manifest.iteration) || key != "iteration") fail();
  if (!(in >> key >> manifest.ranks) || key != "ranks" || manifest.ranks < 1) fail();
  return manifest;
}

void sync_directory(const std::string& path) {
  const std::filesystem::path parent = std::filesystem::path(path).parent_path();
  const int fd = ::open(parent.empty() ? "." : parent.c_str(), O_RDONLY | O_DIRECTORY);
  if (fd >= 0) {
    (void)::fsync(fd);
    ::close(fd);
  }
}

}  // namespace

std::optional<CheckpointManifest> read_checkpoint_manifest(const Communicator& comm,
                                                           const std::string& prefix) {
  const std::string path = manifest_path(prefix);
  std::string text;
  bool present = false;
  collective_check(comm, [&] {
    if (comm.rank() != 0) return;
    std::ifstream in(path, std::ios::binary);
    if (!in) {
      if (std::filesystem::exists(path)) throw IoError("checkpoint: cannot open " + path);
      return;
    }
    text.assign(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>());
    if (in.bad()) throw IoError("checkpoint: cannot read " + path);
    present = true;
    (void)parse_manifest(text, path);
  });
  int flag = present ? 1 : 0;
  comm.broadcast(&flag, 1, 0);
  if (flag == 0) return std::nullopt;
  Index size = static_cast<Index>(text.size());
  comm.broadcast(&size, 1, 0);
  text.resize(static_cast<std::size_t>(size));
  comm.broadcast(text.data(), size, 0);
  return parse_manifest(text, path);
}

void commit_checkpoint_manifest(const Communicator& comm, const std::string& prefix,
                                const CheckpointManifest& manifest) {
  collective_check(comm, [&] {
    if (comm.rank() != 0) return;
    const std::string path = manifest_path(prefix);
    const std::string temporary = path + ".tmp";
    const std::string text = manifest_text(manifest);
    try {
      File file(temporary);
      file.write(text.data(), text.size());
      file.close();
      crash_point("checkpoint.before_commit");
      if (::rename(temporary.c_str(), path.c_str()) != 0) {
        throw IoError("checkpoint: cannot rename " + temporary + " to " + path + ": " +
                      std::strerror(errno));
      }
    } catch (...) {
      std::error_code ignored;
      std::filesystem::remove(temporary, ignored);
      throw;
    }
    sync_directory(path);
    crash_point("checkpoint.committed");
  });
}

void remove_checkpoint_generation(const Communicator& comm, const std::string& prefix,
                                  const CheckpointManifest& previous, int file_rank) {
  std::error_code ignored;
  if (previous.format == "binary") {
    std::filesystem::remove(checkpoint_path(prefix, previous.generation, file_rank), ignored);
    crash_point("checkpoint.removed_previous");
    if (comm.rank() == 0) {
      for (int rank = comm.size(); rank < previous.ranks; ++rank)
        std::filesystem::remove(checkpoint_path(prefix, previous.generation, rank), ignored);
    }
  } else if (comm.rank() == 0) {
    std::filesystem::remove(checkpoint_hdf5_path(prefix, previous.generation), ignored);
  }
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

#if !DISTLOPS_WITH_HDF5
// Without HDF5 the options are refused up front (SolverDriver) and a manifest naming an HDF5
// checkpoint is reported here, on every rank alike (every rank calls with the same manifest).
bool hdf5_checkpoints_available() {
  return false;
}

namespace {
[[noreturn]] void no_hdf5(const std::string& path) {
  throw InvalidArgument("checkpoint " + path +
                        ": HDF5 checkpoints need a distlops built with HDF5, this one is not");
}
}  // namespace

void write_hdf5_checkpoint(const std::string& path, const Communicator&, const CheckpointContent&,
                           std::span<const CheckpointLeaf>) {
  no_hdf5(path);
}
CheckpointContent read_hdf5_checkpoint_state(const std::string& path, const Communicator&) {
  no_hdf5(path);
}
void read_hdf5_checkpoint_vectors(const std::string& path, const Communicator&, const std::string&,
                                  std::span<const CheckpointLeaf>) {
  no_hdf5(path);
}
#endif

}  // namespace distlops::detail
