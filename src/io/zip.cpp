// SPDX-License-Identifier: BSD-3-Clause
// Copyright (c) 2026 The distlops authors
// Reading ZIP archives as NumPy's .npz files use them: see zip.hpp. Record layouts follow
// PKWARE's APPNOTE.TXT (sections 4.3.7 local file header, 4.3.12 central directory header,
// 4.3.14-4.3.16 end-of-central-directory records, 4.5.3 zip64 extra field); all fields are
// little-endian.
#include "zip.hpp"

#include <zlib.h>

#include <algorithm>
#include <climits>
#include <limits>
#include <optional>

#include "distlops/core/error.hpp"

namespace distlops::io::detail {

namespace {

constexpr std::uint32_t local_header_signature = 0x04034b50;
constexpr std::uint32_t directory_header_signature = 0x02014b50;
constexpr std::uint32_t end_signature = 0x06054b50;
constexpr std::uint32_t zip64_end_signature = 0x06064b50;
constexpr std::uint32_t zip64_locator_signature = 0x07064b50;
constexpr std::size_t local_header_size = 30;
constexpr std::size_t directory_header_size = 46;
constexpr std::size_t end_size = 22;
constexpr std::size_t zip64_end_size = 56;
constexpr std::size_t zip64_locator_size = 20;
constexpr std::size_t max_comment = 65535;
constexpr std::uint16_t zip64_extra_id = 0x0001;
constexpr std::uint32_t marker32 = 0xffffffffu;
constexpr std::uint16_t marker16 = 0xffffu;
// Bytes of compressed input read per call, and of output produced per skip step.
constexpr std::size_t chunk_bytes = std::size_t{1} << 18;

// Little-endian fields of a record.
std::uint16_t u16(std::span<const std::byte> bytes, std::size_t at) {
  return static_cast<std::uint16_t>(std::to_integer<unsigned>(bytes[at]) |
                                    std::to_integer<unsigned>(bytes[at + 1]) << 8);
}
std::uint32_t u32(std::span<const std::byte> bytes, std::size_t at) {
  return static_cast<std::uint32_t>(u16(bytes, at)) | static_cast<std::uint32_t>(u16(bytes, at + 2))
                                                          << 16;
}
std::uint64_t u64(std::span<const std::byte> bytes, std::size_t at) {
  return static_cast<std::uint64_t>(u32(bytes, at)) | static_cast<std::uint64_t>(u32(bytes, at + 4))
                                                          << 32;
}

std::string method_name(std::uint16_t method) {
  switch (method) {
    case 1:
      return "shrink";
    case 6:
      return "implode";
    case 9:
      return "deflate64";
    case 12:
      return "bzip2";
    case 14:
      return "lzma";
    case 93:
      return "zstandard";
    case 95:
      return "xz";
    default:
      return "method " + std::to_string(method);
  }
}

// Where the directory is and how many entries it has, from the end records.
struct DirectoryPlace {
  std::uint64_t offset = 0;
  std::uint64_t size = 0;
  std::uint64_t entries = 0;
  // Where the directory must end: the first end record.
  std::uint64_t limit = 0;
};

DirectoryPlace find_directory(const InputFile& file, const std::string& where) {
  const std::uint64_t size = file.size();
  const auto not_zip = [&](const std::string& why) {
    return IoError(where + ": not a ZIP archive (.npz): " + why);
  };
  if (size < end_size) {
    throw not_zip("the file has " + std::to_string(size) +
                  " bytes, fewer than an end-of-central-directory record");
  }
  const std::size_t tail_size =
      static_cast<std::size_t>(std::min<std::uint64_t>(size, end_size + max_comment));
  std::vector<std::byte> tail(tail_size);
  const std::uint64_t tail_start = size - tail_size;
  file.read_at(tail_start, tail);
  // The last end record whose comment fits in the file (the comment may hold anything).
  std::optional<std::size_t> end;
  for (std::size_t at = tail_size - end_size + 1; at-- > 0;) {
    if (u32(tail, at) == end_signature && at + end_size + u16(tail, at + 20) <= tail_size) {
      end = at;
      break;
    }
  }
  if (!end) throw not_zip("no end-of-central-directory record");
  const std::span<const std::byte> record(tail.data() + *end, end_size);
  const std::uint64_t end_position = tail_start + *end;
  std::uint32_t disk = u16(record, 4);
  std::uint32_t directory_disk = u16(record, 6);
  DirectoryPlace place{u32(record, 16), u32(record, 12), u16(record, 10), end_position};
  std::uint64_t disk_entries = u16(record, 8);

  // A zip64 locator right before the end record points at the zip64 end record, whose fields
  // replace those the 32-bit record marks as overflowing (NumPy's zipfile writes it for
  // archives beyond 4 GiB or 65535 members).
  const bool overflowing = disk_entries == marker16 || place.entries == marker16 ||
                           place.size == marker32 || place.offset == marker32;
  bool zip64 = false;
  if (end_position >= zip64_locator_size) {
    std::byte locator_bytes[zip64_locator_size];
    file.read_at(end_position - zip64_locator_size, locator_bytes);
    const std::span<const std::byte> locator(locator_bytes);
    if (u32(locator, 0) == zip64_locator_signature) {
      zip64 = true;
      if (u32(locator, 16) > 1 || u32(locator, 4) != 0) {
        throw IoError(where + ": the archive spans several disks, which is not supported");
      }
      const std::uint64_t record64_position = u64(locator, 8);
      if (record64_position > end_position - zip64_locator_size ||
          end_position - zip64_locator_size - record64_position < zip64_end_size) {
        throw IoError(where +
                      ": the zip64 end-of-central-directory locator points outside the "
                      "archive (offset " +
                      std::to_string(record64_position) + ")");
      }
      std::byte record64_bytes[zip64_end_size];
      file.read_at(record64_position, record64_bytes);
      const std::span<const std::byte> record64(record64_bytes);
      if (u32(record64, 0) != zip64_end_signature) {
        throw IoError(where + ": no zip64 end-of-central-directory record at offset " +
                      std::to_string(record64_position));
      }
      disk = u32(record64, 16);
      directory_disk = u32(record64, 20);
      disk_entries = u64(record64, 24);
      place.entries = u64(record64, 32);
      place.size = u64(record64, 40);
      place.offset = u64(record64, 48);
      place.limit = record64_position;
    }
  }
  if (overflowing && !zip64) {
    throw IoError(where +
                  ": the end-of-central-directory record marks zip64 sizes, but the "
                  "zip64 records are missing");
  }
  if (disk != 0 || directory_disk != 0 || disk_entries != place.entries) {
    throw IoError(where + ": the archive spans several disks, which is not supported");
  }
  if (place.offset > place.limit || place.size > place.limit - place.offset) {
    throw IoError(where + ": the central directory (offset " + std::to_string(place.offset) + ", " +
                  std::to_string(place.size) +
                  " bytes) does not end before the end record: truncated or corrupt archive");
  }
  return place;
}

// Reads the zip64 extra field of a directory entry into the fields the entry marks.
void apply_zip64_extra(std::span<const std::byte> extra, ZipMember& member, std::uint32_t& disk,
                       const std::string& where) {
  const bool need_size = member.uncompressed_size == marker32;
  const bool need_compressed = member.compressed_size == marker32;
  const bool need_offset = member.local_header_offset == marker32;
  const bool need_disk = disk == marker16;
  if (!need_size && !need_compressed && !need_offset && !need_disk) return;
  for (std::size_t at = 0; at + 4 <= extra.size();) {
    const std::uint16_t id = u16(extra, at);
    const std::size_t length = u16(extra, at + 2);
    if (at + 4 + length > extra.size()) break;
    if (id == zip64_extra_id) {
      const std::span<const std::byte> data = extra.subspan(at + 4, length);
      std::size_t position = 0;
      auto next = [&](std::size_t bytes) -> std::uint64_t {
        if (position + bytes > data.size()) {
          throw IoError(where + ": member '" + member.name +
                        "': its zip64 extra field is too short for the sizes it must hold");
        }
        const std::uint64_t value = bytes == 8 ? u64(data, position) : u32(data, position);
        position += bytes;
        return value;
      };
      if (need_size) member.uncompressed_size = next(8);
      if (need_compressed) member.compressed_size = next(8);
      if (need_offset) member.local_header_offset = next(8);
      if (need_disk) disk = static_cast<std::uint32_t>(next(4));
      return;
    }
    at += 4 + length;
  }
  throw IoError(where + ": member '" + member.name +
                "' marks zip64 sizes, but has no zip64 extra field");
}

}  // namespace

// ---- the central directory --------------------------------------------------------------------

std::vector<ZipMember> read_zip_directory(const InputFile& file, const std::string& where) {
  const DirectoryPlace place = find_directory(file, where);
  // Each entry takes at least 46 bytes: a count beyond that is corrupt (and not allocated).
  if (place.entries > place.size / directory_header_size) {
    throw IoError(where + ": the central directory declares " + std::to_string(place.entries) +
                  " members in " + std::to_string(place.size) + " bytes: corrupt archive");
  }
  std::vector<std::byte> directory(static_cast<std::size_t>(place.size));
  file.read_at(place.offset, directory);
  const std::span<const std::byte> bytes(directory);
  std::vector<ZipMember> members;
  members.reserve(static_cast<std::size_t>(place.entries));
  std::size_t at = 0;
  for (std::uint64_t i = 0; i < place.entries; ++i) {
    const auto corrupt = [&](const std::string& why) {
      return IoError(where + ": central directory entry " + std::to_string(i) + ": " + why);
    };
    if (at + directory_header_size > bytes.size()) throw corrupt("truncated");
    if (u32(bytes, at) != directory_header_signature) throw corrupt("bad signature");
    const std::size_t name_length = u16(bytes, at + 28);
    const std::size_t extra_length = u16(bytes, at + 30);
    const std::size_t comment_length = u16(bytes, at + 32);
    if (at + directory_header_size + name_length + extra_length + comment_length > bytes.size()) {
      throw corrupt("truncated");
    }
    ZipMember member;
    member.flags = u16(bytes, at + 8);
    member.method = u16(bytes, at + 10);
    member.crc32 = u32(bytes, at + 16);
    member.compressed_size = u32(bytes, at + 20);
    member.uncompressed_size = u32(bytes, at + 24);
    std::uint32_t disk = u16(bytes, at + 34);
    member.local_header_offset = u32(bytes, at + 42);
    const auto* name = reinterpret_cast<const char*>(bytes.data() + at + directory_header_size);
    member.name.assign(name, name_length);
    apply_zip64_extra(bytes.subspan(at + directory_header_size + name_length, extra_length), member,
                      disk, where);
    if (disk != 0) {
      throw IoError(where + ": member '" + member.name +
                    "' lies on another disk of a multi-disk archive, which is not supported");
    }
    members.push_back(std::move(member));
    at += directory_header_size + name_length + extra_length + comment_length;
  }
  return members;
}

std::uint64_t zip_data_offset(const InputFile& file, const ZipMember& member,
                              const std::string& where) {
  const std::string which = where + ": member '" + member.name + "'";
  if (member.flags & 0x41) {
    throw IoError(which + " is encrypted, which is not supported");
  }
  if (member.method != 0 && member.method != 8) {
    throw IoError(which + " is compressed with " + method_name(member.method) +
                  ", which is not supported: NumPy writes stored (numpy.savez) or deflated "
                  "(numpy.savez_compressed) members");
  }
  if (member.method == 0 && member.compressed_size != member.uncompressed_size) {
    throw IoError(which + " is stored, but its sizes differ (" +
                  std::to_string(member.compressed_size) + " and " +
                  std::to_string(member.uncompressed_size) + " bytes): corrupt archive");
  }
  if (member.local_header_offset > file.size() ||
      file.size() - member.local_header_offset < local_header_size) {
    throw IoError(which + ": its local header lies beyond the end of the file: truncated archive");
  }
  std::byte header_bytes[local_header_size];
  file.read_at(member.local_header_offset, header_bytes);
  const std::span<const std::byte> header(header_bytes);
  if (u32(header, 0) != local_header_signature) {
    throw IoError(which + ": no local file header at offset " +
                  std::to_string(member.local_header_offset) + ": corrupt archive");
  }
  const std::uint64_t offset =
      member.local_header_offset + local_header_size + u16(header, 26) + u16(header, 28);
  if (offset > file.size() || file.size() - offset < member.compressed_size) {
    throw IoError(which + ": its " + std::to_string(member.compressed_size) +
                  " bytes of data at offset " + std::to_string(offset) +
                  " end beyond the end of the file (" + std::to_string(file.size()) +
                  " bytes): truncated archive");
  }
  return offset;
}

// ---- reading a member -------------------------------------------------------------------------

struct ZipMemberReader::Inflater {
  z_stream stream{};
  std::vector<std::byte> input = std::vector<std::byte>(chunk_bytes);
  bool ended = false;
  ~Inflater() { inflateEnd(&stream); }
};

ZipMemberReader::ZipMemberReader(const InputFile& file, const ZipMember& member,
                                 const std::string& where)
    : file_(file), member_(member), where_(where + ": member '" + member.name + "'") {
  data_offset_ = zip_data_offset(file, member, where);
  crc_ = static_cast<std::uint32_t>(crc32_z(0L, Z_NULL, 0));
  if (member.method == 8) {
    inflater_ = std::make_unique<Inflater>();
    // Raw deflate data (no zlib header): negative window bits.
    const int code = inflateInit2(&inflater_->stream, -MAX_WBITS);
    if (code != Z_OK) {
      inflater_.reset();
      throw IoError(where_ + ": zlib's inflateInit2 failed with code " + std::to_string(code));
    }
  }
}

ZipMemberReader::~ZipMemberReader() = default;

void ZipMemberReader::refill_input() {
  z_stream& stream = inflater_->stream;
  if (stream.avail_in != 0 || compressed_read_ >= member_.compressed_size) return;
  const std::size_t bytes = static_cast<std::size_t>(
      std::min<std::uint64_t>(inflater_->input.size(), member_.compressed_size - compressed_read_));
  file_.read_at(data_offset_ + compressed_read_, {inflater_->input.data(), bytes});
  compressed_read_ += bytes;
  stream.next_in = reinterpret_cast<Bytef*>(inflater_->input.data());
  stream.avail_in = static_cast<uInt>(bytes);
}

void ZipMemberReader::produce(std::byte* out, std::size_t count) {
  if (!inflater_) {
    file_.read_at(data_offset_ + position_, {out, count});
    return;
  }
  z_stream& stream = inflater_->stream;
  while (count > 0) {
    const std::size_t piece = std::min<std::size_t>(count, UINT_MAX);
    stream.next_out = reinterpret_cast<Bytef*>(out);
    stream.avail_out = static_cast<uInt>(piece);
    while (stream.avail_out > 0) {
      if (inflater_->ended) {
        throw IoError(where_ + ": the deflated data end after " +
                      std::to_string(position_ + (piece - stream.avail_out)) +
                      " bytes, the directory says " + std::to_string(member_.uncompressed_size) +
                      ": corrupt archive");
      }
      refill_input();
      const uInt before = stream.avail_out;
      const int code = inflate(&stream, Z_NO_FLUSH);
      if (code == Z_STREAM_END) {
        inflater_->ended = true;
      } else if (code == Z_BUF_ERROR && stream.avail_in == 0 &&
                 compressed_read_ == member_.compressed_size && stream.avail_out == before) {
        throw IoError(where_ + ": the deflated data stop before their end (after " +
                      std::to_string(position_ + (piece - stream.avail_out)) +
                      " bytes): truncated or corrupt archive");
      } else if (code != Z_OK && code != Z_BUF_ERROR) {
        throw IoError(where_ + ": corrupt deflated data (zlib: " +
                      (stream.msg ? std::string(stream.msg) : "code " + std::to_string(code)) +
                      ")");
      }
    }
    out += piece;
    count -= piece;
  }
}

void ZipMemberReader::read(std::span<std::byte> out) {
  if (out.size() > remaining()) {
    throw IoError(where_ + ": it ends after " + std::to_string(member_.uncompressed_size) +
                  " bytes, " + std::to_string(position_ + out.size()) + " are needed");
  }
  produce(out.data(), out.size());
  crc_ = static_cast<std::uint32_t>(
      crc32_z(crc_, reinterpret_cast<const Bytef*>(out.data()), out.size()));
  position_ += out.size();
}

void ZipMemberReader::skip(std::uint64_t count) {
  if (count == 0) return;
  if (scratch_.empty()) scratch_.resize(chunk_bytes);
  while (count > 0) {
    const std::size_t piece = static_cast<std::size_t>(std::min<std::uint64_t>(count, chunk_bytes));
    read({scratch_.data(), piece});
    count -= piece;
  }
}

void ZipMemberReader::finish() {
  skip(remaining());
  if (inflater_ && !inflater_->ended) {
    // All declared bytes are out; the stream must end here, with no byte more.
    std::byte extra{};
    z_stream& stream = inflater_->stream;
    for (;;) {
      refill_input();
      stream.next_out = reinterpret_cast<Bytef*>(&extra);
      stream.avail_out = 1;
      const int code = inflate(&stream, Z_NO_FLUSH);
      if (stream.avail_out == 0) {
        throw IoError(where_ + ": the deflated data hold more than the " +
                      std::to_string(member_.uncompressed_size) +
                      " bytes the directory says: corrupt archive");
      }
      if (code == Z_STREAM_END) break;
      if (code == Z_OK) continue;
      if (code == Z_BUF_ERROR && stream.avail_in == 0 &&
          compressed_read_ == member_.compressed_size) {
        throw IoError(where_ +
                      ": the deflated data stop before their end: truncated or corrupt "
                      "archive");
      }
      if (code != Z_BUF_ERROR) {
        throw IoError(where_ + ": corrupt deflated data (zlib: " +
                      (stream.msg ? std::string(stream.msg) : "code " + std::to_string(code)) +
                      ")");
      }
    }
    inflater_->ended = true;
  }
  if (crc_ != member_.crc32) {
    throw IoError(where_ + ": CRC-32 mismatch (the data give " + std::to_string(crc_) +
                  ", the directory says " + std::to_string(member_.crc32) + "): corrupt archive");
  }
}

}  // namespace distlops::io::detail
