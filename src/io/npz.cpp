// SPDX-License-Identifier: BSD-3-Clause
// Copyright (c) 2026 The distlops authors
// Reading .npz archives (npz.hpp). Rank 0 reads the central directory and the member's .npy
// header and broadcasts what the others need; stored members are then read with the .npy
// reader's collective MPI-IO, deflated ones inflated by every rank (zip.hpp).
#include "distlops/io/npz.hpp"

#include <string>
#include <string_view>
#include <vector>

#include "distlops/core/collective_check.hpp"
#include "distlops/core/error.hpp"
#include "distlops/core/instantiate.hpp"
#include "npy_internal.hpp"
#include "zip.hpp"

namespace distlops::io {

namespace {

constexpr std::string_view npy_suffix = ".npy";

std::string describe_member_call(const char* function, const std::string& name,
                                 const std::string& member) {
  return std::string(function) + "(\"" + name + "\", \"" + member + "\")";
}

constexpr const char* path_and_member = "the path or member name";

// The path and the member name in one text.
std::string path_with_member(const std::string& name, const std::string& member) {
  std::string both = name;
  both += '\0';
  both += member;
  return both;
}

// The path and member name must be those of every rank.
void check_same_member(const Communicator& comm, const std::string& name, const std::string& member,
                       const char* function) {
  detail::check_same_text(comm, path_with_member(name, member), function, path_and_member);
}

// The member called `member` or `member.npy` (the last such entry, as Python's zipfile).
const detail::ZipMember& find_member(const std::vector<detail::ZipMember>& members,
                                     const std::string& member, const std::string& where) {
  const detail::ZipMember* found = nullptr;
  for (const detail::ZipMember& entry : members) {
    if (entry.name == member) found = &entry;
  }
  if (!found) {
    const std::string with_suffix = member + std::string(npy_suffix);
    for (const detail::ZipMember& entry : members) {
      if (entry.name == with_suffix) found = &entry;
    }
  }
  if (found) return *found;
  std::string names;
  for (const detail::ZipMember& entry : members)
    names += (names.empty() ? "'" : ", '") + entry.name + "'";
  throw IoError(where + ": the archive has no member '" + member + "' (nor '" + member +
                std::string(npy_suffix) + "'); its members are " +
                (names.empty() ? std::string("none") : names));
}

// A member's bytes from its start.
class MemberSource final : public detail::ByteSource {
 public:
  MemberSource(const detail::InputFile& file, const detail::ZipMember& member,
               const std::string& where)
      : reader_(file, member, where) {}
  void read(std::span<std::byte> out) override { reader_.read(out); }
  std::uint64_t remaining() const override { return reader_.remaining(); }
  void finish() override { reader_.finish(); }

 private:
  detail::ZipMemberReader reader_;
};

// What every rank needs to read a member, as rank 0 found it.
struct MemberPlace {
  detail::ZipMember member;
  std::uint64_t data_offset = 0;  // of the member's bytes in the archive
  NpyHeader header;               // its .npy header
};

// Collective: rank 0 reads the directory, the member's local header and its .npy header;
// every rank gets them (and parses the same header bytes), or every rank raises rank 0's error.
MemberPlace locate(const Communicator& comm, const std::string& name, const std::string& member,
                   const std::string& where) {
  MemberPlace place;
  std::vector<std::byte> header_bytes;
  collective_check(comm, [&] {
    if (comm.rank() != 0) return;
    const detail::InputFile file(name, where);
    place.member = find_member(detail::read_zip_directory(file, where), member, where);
    place.data_offset = detail::zip_data_offset(file, place.member, where);
    MemberSource source(file, place.member, where);
    header_bytes = detail::read_header_bytes(source);
    try {
      (void)parse_npy_header(header_bytes);
    } catch (const IoError& error) {
      throw IoError(where + ": " + error.what());
    }
  });
  std::uint64_t numbers[7] = {place.member.flags,
                              place.member.method,
                              place.member.crc32,
                              place.member.compressed_size,
                              place.member.uncompressed_size,
                              place.member.local_header_offset,
                              place.data_offset};
  comm.broadcast(numbers, 7, 0);
  place.member.flags = static_cast<std::uint16_t>(numbers[0]);
  place.member.method = static_cast<std::uint16_t>(numbers[1]);
  place.member.crc32 = static_cast<std::uint32_t>(numbers[2]);
  place.member.compressed_size = numbers[3];
  place.member.uncompressed_size = numbers[4];
  place.member.local_header_offset = numbers[5];
  place.data_offset = numbers[6];
  Index sizes[2] = {static_cast<Index>(place.member.name.size()),
                    static_cast<Index>(header_bytes.size())};
  comm.broadcast(sizes, 2, 0);
  place.member.name.resize(static_cast<std::size_t>(sizes[0]));
  comm.broadcast(place.member.name.data(), sizes[0], 0);
  header_bytes.resize(static_cast<std::size_t>(sizes[1]));
  comm.broadcast(header_bytes.data(), sizes[1], 0);
  place.header = parse_npy_header(header_bytes);
  return place;
}

template <Scalar T>
DistributedArray<T, Host> read_member(const MemberPlace& place, const Layout& layout,
                                      const std::string& name, const std::string& where) {
  const NpyHeader& header = place.header;
  detail::check_dtype_and_size<T>(
      header, static_cast<Index>(place.member.uncompressed_size - header.data_offset), where,
      "the member");
  detail::check_c_order(header, where,
                        "save a C-ordered array (numpy.ascontiguousarray) or read it with "
                        "read_npz_local");
  detail::check_element_count(header, layout, where);
  if (place.member.method == 0) {
    // Stored: the data lie in the archive as in a .npy file.
    return detail::read_region<T>(name, static_cast<Index>(place.data_offset + header.data_offset),
                                  layout, where);
  }
  // Deflated: every rank inflates the member, keeps its block and checks the whole.
  DistributedArray<T, Host> array;
  collective_check(layout.communicator(), [&] {
    array = DistributedArray<T, Host>(layout);
    const detail::InputFile file(name, where);
    detail::ZipMemberReader reader(file, place.member, where);
    reader.skip(header.data_offset);
    const detail::Region region = detail::region_of(layout, sizeof(T), layout.replicated());
    auto* out = reinterpret_cast<std::byte*>(array.data());
    if (region.bytes() > 0) {
      // The runs in file order: each starts at `start` plus its index times the strides.
      const std::size_t levels = region.counts.size();
      std::vector<Index> index(levels, 0);
      Index position = 0;  // bytes of the data consumed so far
      for (Index run = 0; run < region.runs(); ++run) {
        Index offset = region.start;
        for (std::size_t l = 0; l < levels; ++l)
          offset += index[l] * region.strides[l];
        reader.skip(static_cast<std::uint64_t>(offset - position));
        reader.read({out + run * region.block, static_cast<std::size_t>(region.block)});
        position = offset + region.block;
        for (std::size_t l = levels; l-- > 0;) {
          if (++index[l] < region.counts[l]) break;
          index[l] = 0;
        }
      }
    }
    reader.finish();
  });
  return array;
}

}  // namespace

std::vector<std::string> npz_members(const std::filesystem::path& path, const Communicator& comm) {
  const std::string name = path.string();
  const std::string where = detail::describe_call("npz_members", name);
  detail::check_same_text(comm, name, "npz_members");
  std::string joined;  // names separated by '\0' (ZIP names may hold anything else)
  collective_check(comm, [&] {
    if (comm.rank() != 0) return;
    const detail::InputFile file(name, where);
    for (const detail::ZipMember& member : detail::read_zip_directory(file, where)) {
      std::string_view text = member.name;
      if (text.ends_with(npy_suffix)) text.remove_suffix(npy_suffix.size());
      joined.append(text);
      joined += '\0';
    }
  });
  Index size = static_cast<Index>(joined.size());
  comm.broadcast(&size, 1, 0);
  joined.resize(static_cast<std::size_t>(size));
  comm.broadcast(joined.data(), size, 0);
  std::vector<std::string> names;
  for (std::size_t start = 0; start < joined.size();) {
    const std::size_t end = joined.find('\0', start);
    names.push_back(joined.substr(start, end - start));
    start = end + 1;
  }
  return names;
}

NpyHeader read_npz_header(const std::filesystem::path& path, const std::string& member,
                          const Communicator& comm) {
  const std::string name = path.string();
  const std::string where = describe_member_call("read_npz_header", name, member);
  check_same_member(comm, name, member, "read_npz_header");
  return locate(comm, name, member, where).header;
}

template <Scalar T>
DistributedArray<T, Host> read_npz(const std::filesystem::path& path, const std::string& member,
                                   const Layout& layout) {
  if (!layout.valid()) throw InvalidArgument("read_npz: the layout is empty");
  const std::string name = path.string();
  const std::string where = describe_member_call("read_npz", name, member);
  const Communicator& comm = layout.communicator();
  check_same_member(comm, name, member, "read_npz");
  const MemberPlace place = locate(comm, name, member, where);
  return read_member<T>(place, layout, name, where);
}

template <Scalar T>
DistributedArray<T, Host> read_npz(const std::filesystem::path& path, const std::string& member,
                                   const Communicator& comm, Partition partition, int axis) {
  const std::string name = path.string();
  const std::string where = describe_member_call("read_npz", name, member);
  check_same_member(comm, name, member, "read_npz");
  const MemberPlace place = locate(comm, name, member, where);
  if (place.header.shape.empty()) {
    throw IoError(where + ": the member holds a 0-d array (shape ()), but layouts need one " +
                  "axis or more");
  }
  const Layout layout(comm, place.header.shape, partition, axis);
  return read_member<T>(place, layout, name, where);
}

template <Scalar T>
NpyArray<T> read_npz_local(const std::filesystem::path& path, const std::string& member,
                           const Communicator& comm, const NpyLocalOptions& options) {
  const std::string name = path.string();
  const std::string where = describe_member_call("read_npz_local", name, member);
  return detail::read_local<T>(
      comm, options, where, path_with_member(name, member), "read_npz_local", path_and_member, [&] {
        const detail::InputFile file(name, where);
        MemberSource source(
            file, find_member(detail::read_zip_directory(file, where), member, where), where);
        return detail::read_whole<T>(source, where, "the member");
      });
}

#define DISTLOPS_INSTANTIATE_NPZ(T)                                                                \
  template DistributedArray<T, Host> read_npz<T>(const std::filesystem::path&, const std::string&, \
                                                 const Layout&);                                   \
  template DistributedArray<T, Host> read_npz<T>(const std::filesystem::path&, const std::string&, \
                                                 const Communicator&, Partition, int);             \
  template NpyArray<T> read_npz_local<T>(const std::filesystem::path&, const std::string&,         \
                                         const Communicator&, const NpyLocalOptions&);
DISTLOPS_FOR_EACH_SCALAR(DISTLOPS_INSTANTIATE_NPZ)
#undef DISTLOPS_INSTANTIATE_NPZ

}  // namespace distlops::io
