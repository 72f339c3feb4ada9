// SPDX-License-Identifier: BSD-3-Clause
// Copyright (c) 2026 The distlops authors
#pragma once
// The part of the ZIP format that .npz files use (internal to the library): the central
// directory of an archive and sequential reading of one member, stored (method 0) or deflated
// (method 8, through zlib's inflate).
//
// The format (PKWARE's APPNOTE.TXT) is small and well specified, and NumPy writes a narrow
// subset of it (zipfile's stored or deflated members, zip64 records for large archives), so
// the central directory is parsed here rather than through a ZIP library: a few fixed-size
// little-endian records. Zip64 end-of-central-directory records and zip64 extra fields (sizes
// and offsets beyond 4 GiB) are read; archives split over several disks, encrypted members and
// compression methods other than stored and deflated are rejected with a message that says so.
#include <cstddef>
#include <cstdint>
#include <memory>
#include <span>
#include <string>
#include <vector>

#include "input_file.hpp"

namespace distlops::io::detail {

/// One member of an archive, as its central directory entry describes it.
struct ZipMember {
  std::string name;
  std::uint16_t flags = 0;
  std::uint16_t method = 0;
  std::uint32_t crc32 = 0;
  std::uint64_t compressed_size = 0;
  std::uint64_t uncompressed_size = 0;
  std::uint64_t local_header_offset = 0;
};

/// The members of the archive, in the order of its central directory. Raises IoError for a
/// file that is no ZIP archive (no end-of-central-directory record), a multi-disk archive, or a
/// truncated or inconsistent directory.
std::vector<ZipMember> read_zip_directory(const InputFile& file, const std::string& where);

/// Where the member's data start: after its local header, whose name and extra field may
/// differ in length from the central directory's. Raises IoError for a bad local header, an
/// encrypted member, an unsupported compression method, or data beyond the end of the file.
std::uint64_t zip_data_offset(const InputFile& file, const ZipMember& member,
                              const std::string& where);

/// The member's uncompressed bytes, one after the other. The CRC-32 of every byte passed is
/// computed along; finish() checks it and the size against the directory.
class ZipMemberReader {
 public:
  ZipMemberReader(const InputFile& file, const ZipMember& member, const std::string& where);
  ~ZipMemberReader();
  ZipMemberReader(const ZipMemberReader&) = delete;
  ZipMemberReader& operator=(const ZipMemberReader&) = delete;

  /// Reads exactly `out.size()` bytes; IoError when the member ends before or its compressed
  /// data are corrupt.
  void read(std::span<std::byte> out);
  /// Passes over `count` bytes (they still count for the CRC-32).
  void skip(std::uint64_t count);
  /// Bytes read or skipped so far, and those left before the member's declared size.
  std::uint64_t position() const { return position_; }
  std::uint64_t remaining() const { return member_.uncompressed_size - position_; }
  /// Passes over the rest and checks the CRC-32 and, for deflated members, that the stream
  /// ends exactly there (IoError otherwise).
  void finish();

 private:
  void produce(std::byte* out, std::size_t count);
  // Reads the next piece of compressed data into the inflater when its input is used up.
  void refill_input();

  struct Inflater;
  const InputFile& file_;
  ZipMember member_;
  std::string where_;
  std::uint64_t data_offset_ = 0;
  std::uint64_t compressed_read_ = 0;
  std::uint64_t position_ = 0;
  std::uint32_t crc_ = 0;
  std::unique_ptr<Inflater> inflater_;
  std::vector<std::byte> scratch_;
};

}  // namespace distlops::io::detail
