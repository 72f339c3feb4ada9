// SPDX-License-Identifier: BSD-3-Clause
// Copyright (c) 2026 The distlops authors
// .npz archives: archives written here byte by byte (stored members, deflated members made with
// zlib's deflate, zip64 records and extra fields, a comment) read into every layout and whole on
// every rank; damaged archives fail alike on every rank; and, where NumPy is installed, archives
// written by numpy.savez and numpy.savez_compressed (the hidden "[.npz-numpy]" case, run by
// npz_numpy.py).
#include <zlib.h>

#include <cstdint>
#include <cstdlib>

#include "distlops/io/npy.hpp"
#include "distlops/io/npy_local.hpp"
#include "distlops/io/npz.hpp"
#include "io_test_support.hpp"

using namespace distlops;
using namespace distlops::io;
using namespace distlops::testing;

namespace {

// ---- writing ZIP archives (PKWARE's APPNOTE.TXT, the records NumPy's zipfile writes) --------

void put16(std::vector<std::byte>& out, std::uint64_t value) {
  for (int i = 0; i < 2; ++i)
    out.push_back(static_cast<std::byte>((value >> (8 * i)) & 0xff));
}
void put32(std::vector<std::byte>& out, std::uint64_t value) {
  for (int i = 0; i < 4; ++i)
    out.push_back(static_cast<std::byte>((value >> (8 * i)) & 0xff));
}
void put64(std::vector<std::byte>& out, std::uint64_t value) {
  for (int i = 0; i < 8; ++i)
    out.push_back(static_cast<std::byte>((value >> (8 * i)) & 0xff));
}
void put_text(std::vector<std::byte>& out, const std::string& text) {
  for (char c : text)
    out.push_back(static_cast<std::byte>(c));
}
void patch16(std::vector<std::byte>& bytes, std::size_t at, std::uint16_t value) {
  bytes[at] = static_cast<std::byte>(value & 0xff);
  bytes[at + 1] = static_cast<std::byte>(value >> 8);
}
void patch32(std::vector<std::byte>& bytes, std::size_t at, std::uint32_t value) {
  patch16(bytes, at, static_cast<std::uint16_t>(value & 0xffff));
  patch16(bytes, at + 2, static_cast<std::uint16_t>(value >> 16));
}

std::uint32_t crc_of(const std::vector<std::byte>& data) {
  return static_cast<std::uint32_t>(
      crc32_z(0, reinterpret_cast<const Bytef*>(data.data()), data.size()));
}

// Raw deflate data (no zlib header), as ZIP's method 8 stores them.
std::vector<std::byte> deflated(const std::vector<std::byte>& data) {
  z_stream stream{};
  REQUIRE(deflateInit2(&stream, Z_DEFAULT_COMPRESSION, Z_DEFLATED, -MAX_WBITS, 8,
                       Z_DEFAULT_STRATEGY) == Z_OK);
  std::vector<std::byte> out(deflateBound(&stream, static_cast<uLong>(data.size())));
  stream.next_in = reinterpret_cast<Bytef*>(const_cast<std::byte*>(data.data()));
  stream.avail_in = static_cast<uInt>(data.size());
  stream.next_out = reinterpret_cast<Bytef*>(out.data());
  stream.avail_out = static_cast<uInt>(out.size());
  const int code = deflate(&stream, Z_FINISH);
  out.resize(stream.total_out);
  deflateEnd(&stream);
  REQUIRE(code == Z_STREAM_END);
  return out;
}

struct Member {
  std::string name;
  std::vector<std::byte> data;
};

struct ArchiveOptions {
  bool deflate = false;
  // Sizes and offsets in zip64 extra fields and zip64 end records, as zipfile writes them for
  // archives beyond 4 GiB (here for small ones: readers must follow the markers).
  bool zip64 = false;
  std::string comment = {};
};

// An archive and where its records are, for the tests that damage it.
struct Archive {
  std::vector<std::byte> bytes;
  std::vector<std::size_t> local_headers, directory_entries, data_starts;
  std::size_t end_record = 0;
};

Archive make_zip(const std::vector<Member>& members, const ArchiveOptions& options) {
  Archive archive;
  std::vector<std::byte>& out = archive.bytes;
  std::vector<std::vector<std::byte>> stored;
  const std::uint16_t method = options.deflate ? 8 : 0;
  const std::uint16_t version = options.zip64 ? 45 : 20;
  for (const Member& member : members) {
    stored.push_back(options.deflate ? deflated(member.data) : member.data);
    const std::vector<std::byte>& body = stored.back();
    archive.local_headers.push_back(out.size());
    put32(out, 0x04034b50);
    put16(out, version);
    put16(out, 0);       // flags
    put16(out, method);  // method
    put16(out, 0);       // time
    put16(out, 0x21);    // date: 1980-01-01
    put32(out, crc_of(member.data));
    put32(out, options.zip64 ? 0xffffffffu : body.size());
    put32(out, options.zip64 ? 0xffffffffu : member.data.size());
    put16(out, member.name.size());
    put16(out, options.zip64 ? 20 : 0);
    put_text(out, member.name);
    if (options.zip64) {
      put16(out, 1);
      put16(out, 16);
      put64(out, member.data.size());
      put64(out, body.size());
    }
    archive.data_starts.push_back(out.size());
    out.insert(out.end(), body.begin(), body.end());
  }
  const std::size_t directory = out.size();
  for (std::size_t i = 0; i < members.size(); ++i) {
    const Member& member = members[i];
    archive.directory_entries.push_back(out.size());
    put32(out, 0x02014b50);
    put16(out, version);  // made by
    put16(out, version);  // needed
    put16(out, 0);
    put16(out, method);
    put16(out, 0);
    put16(out, 0x21);
    put32(out, crc_of(member.data));
    put32(out, options.zip64 ? 0xffffffffu : stored[i].size());
    put32(out, options.zip64 ? 0xffffffffu : member.data.size());
    put16(out, member.name.size());
    put16(out, options.zip64 ? 28 : 0);
    put16(out, 0);  // comment
    put16(out, 0);  // disk
    put16(out, 0);  // internal attributes
    put32(out, 0);  // external attributes
    put32(out, options.zip64 ? 0xffffffffu : archive.local_headers[i]);
    put_text(out, member.name);
    if (options.zip64) {
      put16(out, 1);
      put16(out, 24);
      put64(out, member.data.size());
      put64(out, stored[i].size());
      put64(out, archive.local_headers[i]);
    }
  }
  const std::size_t directory_size = out.size() - directory;
  if (options.zip64) {
    const std::size_t record = out.size();
    put32(out, 0x06064b50);
    put64(out, 44);
    put16(out, 45);
    put16(out, 45);
    put32(out, 0);
    put32(out, 0);
    put64(out, members.size());
    put64(out, members.size());
    put64(out, directory_size);
    put64(out, directory);
    put32(out, 0x07064b50);
    put32(out, 0);
    put64(out, record);
    put32(out, 1);
  }
  archive.end_record = out.size();
  put32(out, 0x06054b50);
  put16(out, 0);
  put16(out, 0);
  put16(out, options.zip64 ? 0xffff : members.size());
  put16(out, options.zip64 ? 0xffff : members.size());
  put32(out, options.zip64 ? 0xffffffffu : directory_size);
  put32(out, options.zip64 ? 0xffffffffu : directory);
  put16(out, options.comment.size());
  put_text(out, options.comment);
  return archive;
}

// ---- the members --------------------------------------------------------------------------

template <class T>
std::vector<std::byte> npy_file(const Shape& shape, const std::vector<T>& values,
                                bool fortran_order = false) {
  std::vector<std::byte> bytes = make_npy_header(npy_dtype_of<T>(), shape, fortran_order);
  const std::vector<std::byte> data = raw_bytes(values);
  bytes.insert(bytes.end(), data.begin(), data.end());
  return bytes;
}

const Shape small{6, 5};
const Shape big{600, 70};

// The members every archive here holds: one 6 x 5 array per dtype (the reference values), a
// larger random one (several reads of compressed input), a Fortran-ordered 3 x 4 array
// (reference values in C order), a 0-d array and a member that is no .npy file.
std::vector<Member> members() {
  std::vector<double> fortran(12);
  for (Index i = 0; i < 3; ++i) {
    for (Index j = 0; j < 4; ++j)
      fortran[std::size_t(i + 3 * j)] = reference_value<double>(4 * i + j);
  }
  std::vector<std::byte> notes;
  put_text(notes, "not an array");
  // 30 values under a header of 29: bytes after the data, which readers ignore (as NumPy).
  const std::vector<double> thirty = reference_values<double>({30});
  return {{"f4.npy", npy_file(small, reference_values<float>(small))},
          {"f8.npy", npy_file(small, reference_values<double>(small))},
          {"c8.npy", npy_file(small, reference_values<std::complex<float>>(small))},
          {"c16.npy", npy_file(small, reference_values<std::complex<double>>(small))},
          {"big.npy", npy_file(big, random_values<double>(element_count(big), 70))},
          {"fortran.npy", npy_file({3, 4}, fortran, true)},
          {"scalar.npy", npy_file({}, std::vector<double>{2.5})},
          {"notes.txt", notes},
          {"trailing.npy", npy_file({29}, thirty)}};
}

// Rank 0 writes the bytes; every rank returns the path once they are there.
fs::path shared_file(const Communicator& comm, const ScratchDir& scratch, const std::string& name,
                     const std::vector<std::byte>& bytes) {
  if (comm.rank() == 0) write_bytes(scratch / name, bytes);
  comm.barrier();
  return scratch / name;
}

// The reads every archive must support, for the members of the given names (with or without
// .npy), checked against the values written.
void check_archive(const Communicator& comm, const fs::path& path, const std::string& suffix,
                   bool with_big) {
  auto check_member = [&]<class T>(const std::string& name, T) {
    INFO("member " << name);
    const std::vector<T> values = reference_values<T>(small);
    // Any layout with as many elements: its own shape, others, flat.
    for (const Shape& shape : {small, Shape{30}, Shape{5, 6}, Shape{3, 2, 5}}) {
      for (const Layout& layout : layouts_for(comm, shape)) {
        INFO("layout " << layout.describe());
        check_array(read_npz<T>(path, name + suffix, layout), layout, values);
      }
    }
    check_array(read_npz<T>(path, name, comm, Partition::SCATTER, -1),
                Layout(comm, small, Partition::SCATTER, 1), values);
    for (const NpyLocalOptions& options :
         {NpyLocalOptions{}, NpyLocalOptions{.root = comm.size() - 1},
          NpyLocalOptions{.every_rank = true}}) {
      const NpyArray<T> array = read_npz_local<T>(path, name + suffix, comm, options);
      CHECK(array.shape == small);
      CHECK(array.values == values);
    }
    const NpyHeader header = read_npz_header(path, name, comm);
    CHECK(header.shape == small);
    CHECK(header.dtype == npy_dtype_of<T>());
  };
  check_member("f4", float{});
  check_member("f8", double{});
  check_member("c8", std::complex<float>{});
  check_member("c16", std::complex<double>{});
  if (!with_big) return;
  const std::vector<double> values = random_values<double>(element_count(big), 70);
  for (const int axis : {0, 1}) {
    const Layout layout(comm, big, Partition::SCATTER, axis);
    check_array(read_npz<double>(path, "big", layout), layout, values);
  }
  CHECK(read_npz_local<double>(path, "big", comm).values == values);
  // Fortran order: reordered whole, refused in parallel.
  const NpyArray<double> fortran = read_npz_local<double>(path, "fortran", comm);
  CHECK(fortran.shape == Shape{3, 4});
  CHECK(fortran.values == reference_values<double>({3, 4}));
  expect_everywhere<IoError>(
      comm, [&] { (void)read_npz<double>(path, "fortran", Layout(comm, {12})); },
      "read it with read_npz_local");
  // A 0-d array: whole only.
  const NpyArray<double> scalar = read_npz_local<double>(path, "scalar", comm);
  CHECK(scalar.shape.empty());
  CHECK(scalar.values == std::vector<double>{2.5});
  expect_everywhere<IoError>(
      comm, [&] { (void)read_npz<double>(path, "scalar", comm); }, "0-d array");
  // Bytes after the data are ignored.
  const std::vector<double> thirty = reference_values<double>({30});
  const std::vector<double> first = {thirty.begin(), thirty.end() - 1};
  CHECK(read_npz_local<double>(path, "trailing", comm).values == first);
  check_array(read_npz<double>(path, "trailing", comm), Layout(comm, {29}), first);
}

}  // namespace

TEST_CASE("npz archives with stored and deflated members, zip64 or not", "[npz]") {
  const Communicator comm = world();
  const ScratchDir scratch(comm);
  const std::vector<Member> contents = members();
  for (const bool deflate : {false, true}) {
    for (const bool zip64 : {false, true}) {
      INFO((deflate ? "deflated" : "stored") << (zip64 ? ", zip64" : ""));
      const Archive archive = make_zip(
          contents,
          {.deflate = deflate, .zip64 = zip64, .comment = zip64 ? "written by test_npz" : ""});
      const fs::path path = shared_file(comm, scratch, "archive.npz", archive.bytes);
      CHECK(npz_members(path, comm) == std::vector<std::string>{"f4", "f8", "c8", "c16", "big",
                                                                "fortran", "scalar", "notes.txt",
                                                                "trailing"});
      check_archive(comm, path, "", true);
      check_archive(comm, path, ".npy", false);
      comm.barrier();  // before rank 0 replaces the file
    }
  }
}

TEST_CASE("damaged npz archives fail alike on every rank", "[npz][errors]") {
  const Communicator comm = world();
  const ScratchDir scratch(comm);
  const std::vector<Member> contents = members();
  const Archive stored = make_zip(contents, {});
  const Archive packed = make_zip(contents, {.deflate = true});
  // Rank 0 writes a changed copy of an archive; the path for every rank.
  int count = 0;
  auto variant = [&](const Archive& archive, auto&& change) {
    std::vector<std::byte> bytes = archive.bytes;
    change(bytes);
    return shared_file(comm, scratch, "damaged" + std::to_string(count++) + ".npz", bytes);
  };
  auto read_distributed = [&](const fs::path& path, const std::string& member = "f8") {
    return [&, path, member] { (void)read_npz<double>(path, member, Layout(comm, small)); };
  };
  auto read_whole = [&](const fs::path& path, const std::string& member = "f8") {
    return [&, path, member] { (void)read_npz_local<double>(path, member, comm); };
  };
  const fs::path good = shared_file(comm, scratch, "good.npz", stored.bytes);

  SECTION("no archive") {
    expect_everywhere<IoError>(comm, read_distributed(scratch / "missing.npz"), "cannot open");
    expect_everywhere<IoError>(comm, read_whole(data_dir / "f8_5x3.npy"),
                               "not a ZIP archive (.npz): no end-of-central-directory record");
    expect_everywhere<IoError>(
        comm, [&] { (void)npz_members(data_dir / "f8_5x3.npy", comm); }, "not a ZIP archive");
    const fs::path tiny = variant(stored, [](auto& b) { b.resize(10); });
    expect_everywhere<IoError>(comm, read_distributed(tiny), "fewer than an end-of-central");
  }
  SECTION("a member that is not there") {
    expect_everywhere<IoError>(comm, read_distributed(good, "f9"),
                               "has no member 'f9' (nor 'f9.npy'); its members are 'f4.npy', ");
    expect_everywhere<IoError>(comm, read_whole(good, "f9"), "'notes.txt'");
    expect_everywhere<IoError>(
        comm, [&] { (void)read_npz_header(good, "f9", comm); }, "has no member 'f9'");
    // A member that is no .npy file.
    expect_everywhere<IoError>(comm, read_whole(good, "notes.txt"), "bad magic string");
  }
  SECTION("what the .npy reader refuses") {
    expect_everywhere<IoError>(
        comm, [&] { (void)read_npz<float>(good, "f8", Layout(comm, small)); },
        "the file holds float64 data ('<f8'), but float32 was requested");
    expect_everywhere<IoError>(
        comm,
        [&] {
          (void)read_npz<double>(good, "f8", Layout(comm, {6, 6}));
        },
        "the file's shape (6, 5) has 30 elements, the layout's global shape (6, 6) 36");
  }
  SECTION("methods and flags other than NumPy's") {
    for (const auto& [field, value, text] :
         std::vector<std::tuple<std::size_t, std::uint16_t, std::string>>{
             {10, 12, "compressed with bzip2, which is not supported"},
             {10, 14, "compressed with lzma"},
             {8, 1, "is encrypted"}}) {
      // The central directory's field of member 1 (f8.npy) and, for the method, its local
      // header's too.
      const fs::path path = variant(stored, [&](auto& b) {
        patch16(b, stored.directory_entries[1] + field, value);
        if (field == 10) patch16(b, stored.local_headers[1] + 8, value);
      });
      expect_everywhere<IoError>(comm, read_distributed(path), text);
      expect_everywhere<IoError>(comm, read_whole(path), text);
    }
  }
  SECTION("multi-disk archives and broken end records") {
    const std::size_t end = stored.end_record;
    expect_everywhere<IoError>(
        comm, read_distributed(variant(stored, [&](auto& b) { patch16(b, end + 4, 1); })),
        "spans several disks");
    expect_everywhere<IoError>(
        comm, read_whole(variant(stored, [&](auto& b) { patch32(b, end + 16, 0xfffffff0u); })),
        "the central directory (offset 4294967280");
    expect_everywhere<IoError>(
        comm, read_whole(variant(stored, [&](auto& b) { patch32(b, end + 16, 0xffffffffu); })),
        "zip64 records are missing");
    expect_everywhere<IoError>(
        comm,
        read_whole(
            variant(stored, [&](auto& b) { patch32(b, stored.directory_entries[2], 0x12345678); })),
        "central directory entry 2: bad signature");
    expect_everywhere<IoError>(
        comm, read_whole(variant(stored, [&](auto& b) { patch32(b, stored.local_headers[1], 0); })),
        "no local file header at offset");
  }
  SECTION("truncated archives") {
    // The directory names more data than the file holds.
    const fs::path cut = variant(stored, [&](auto& b) {
      patch32(b, stored.directory_entries[7] + 20, 1000000);
      patch32(b, stored.directory_entries[7] + 24, 1000000);
    });
    expect_everywhere<IoError>(comm, read_whole(cut, "notes.txt"),
                               "end beyond the end of the file");
    expect_everywhere<IoError>(comm, read_distributed(cut, "notes.txt"),
                               "end beyond the end of the file");
  }
  SECTION("corrupt data") {
    // A stored member: its CRC-32 is checked when read whole.
    const fs::path flipped =
        variant(stored, [&](auto& b) { b[stored.data_starts[1] + 200] ^= std::byte{0x01}; });
    expect_everywhere<IoError>(comm, read_whole(flipped), "CRC-32 mismatch");
    // Deflated members are always checked: garbage in the stream, a stream shorter or longer
    // than the directory says, a wrong CRC-32.
    // (in the middle of the large member, far from its .npy header)
    const std::size_t middle =
        packed.data_starts[4] + (packed.local_headers[5] - packed.data_starts[4]) / 2;
    const fs::path garbage = variant(packed, [&](auto& b) {
      for (std::size_t i = 0; i < 64; ++i)
        b[middle + i] ^= std::byte{0x5a};
    });
    expect_everywhere<IoError>(
        comm,
        [&] { (void)read_npz<double>(garbage, "big", Layout(comm, big, Partition::SCATTER, 1)); },
        "corrupt");
    expect_everywhere<IoError>(comm, read_whole(garbage, "big"), "corrupt");
    const std::size_t entry = packed.directory_entries[1];
    const std::uint32_t size = static_cast<std::uint32_t>(contents[1].data.size());
    const fs::path longer = variant(packed, [&](auto& b) { patch32(b, entry + 24, size + 8); });
    expect_everywhere<IoError>(comm, read_distributed(longer), "the deflated data end after");
    expect_everywhere<IoError>(comm, read_whole(longer), "the deflated data end after");
    // The trailing member's data without its last 8 bytes still hold the 29 values.
    const std::size_t trailing = packed.directory_entries[8];
    const std::uint32_t trailing_size = static_cast<std::uint32_t>(contents[8].data.size());
    const fs::path shorter =
        variant(packed, [&](auto& b) { patch32(b, trailing + 24, trailing_size - 8); });
    expect_everywhere<IoError>(comm, read_whole(shorter, "trailing"), "hold more than");
    expect_everywhere<IoError>(
        comm, [&] { (void)read_npz<double>(shorter, "trailing", comm); }, "hold more than");
    const fs::path crc = variant(packed, [&](auto& b) { patch32(b, entry + 16, 12345); });
    expect_everywhere<IoError>(comm, read_distributed(crc), "CRC-32 mismatch");
  }
  SECTION("paths or member names that differ between ranks") {
    if (comm.size() > 1) {
      const std::string member = comm.rank() == 1 ? "f4" : "f8";
      expect_everywhere<InvalidArgument>(comm, read_distributed(good, member),
                                         "the path or member name differs between ranks");
      expect_everywhere<InvalidArgument>(comm, read_whole(good, member),
                                         "the path or member name differs between ranks");
    }
  }
}

TEST_CASE("archives written by NumPy at run time", "[.npz-numpy]") {
  const Communicator comm = world();
  const char* directory = std::getenv("DISTLOPS_NPZ_NUMPY_DIR");
  REQUIRE(directory != nullptr);
  for (const char* name : {"savez.npz", "savez_compressed.npz"}) {
    INFO(name);
    const fs::path path = fs::path(directory) / name;
    CHECK(npz_members(path, comm) == std::vector<std::string>{"f4", "f8", "c8", "c16", "big"});
    check_archive(comm, path, "", false);
    // The large member holds the reference values (written by NumPy from the same formula).
    const std::vector<double> expected = reference_values<double>(big);
    for (const int axis : {0, 1}) {
      const Layout layout(comm, big, Partition::SCATTER, axis);
      check_array(read_npz<double>(path, "big", layout), layout, expected);
    }
    CHECK(read_npz_local<double>(path, "big", comm, {.every_rank = true}).values == expected);
  }
}
