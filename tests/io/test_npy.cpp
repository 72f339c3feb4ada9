// SPDX-License-Identifier: BSD-3-Clause
// Copyright (c) 2026 The distlops authors
// Parallel .npy input and output: round trips over every layout, files written by NumPy,
// byte-for-byte equality with numpy.save, errors raised alike on every rank, atomic writes.
#include <sys/resource.h>
#include <sys/stat.h>
#include <unistd.h>

#include <csignal>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <sstream>
#include <string>
#include <vector>

#include "distlops/io/npy.hpp"
#include "io_test_support.hpp"

using namespace distlops;
using namespace distlops::io;
using namespace distlops::testing;
namespace fs = std::filesystem;

namespace {

// Restores the write stage hook when it goes out of scope.
class StageHook {
 public:
  explicit StageHook(std::function<void(io::detail::WriteStage)> hook) {
    io::detail::set_write_stage_hook(std::move(hook));
  }
  ~StageHook() { io::detail::set_write_stage_hook({}); }
  StageHook(const StageHook&) = delete;
  StageHook& operator=(const StageHook&) = delete;
};

const char* stage_name(io::detail::WriteStage stage) {
  switch (stage) {
    case io::detail::WriteStage::create_temporary:
      return "create_temporary";
    case io::detail::WriteStage::open:
      return "open";
    case io::detail::WriteStage::write_header:
      return "write_header";
    case io::detail::WriteStage::write_data:
      return "write_data";
    case io::detail::WriteStage::sync:
      return "sync";
    case io::detail::WriteStage::close:
      return "close";
    case io::detail::WriteStage::rename:
      return "rename";
  }
  return "unknown";
}

}  // namespace

TEMPLATE_TEST_CASE("a file reads into any layout with as many elements", "[npy]",
                   DISTLOPS_SCALAR_TYPES) {
  using T = TestType;
  const Communicator comm = world();
  const ScratchDir scratch(comm);
  // Each file shape with target shapes of the same size: flat into N-d (split along every
  // axis, replicated, everything on one rank), N-d into flat, N-d into other N-d. The elements
  // are the file's in C order, so the expected block of a layout is its slice of the same
  // global values.
  const std::vector<std::pair<Shape, std::vector<Shape>>> cases{
      {{12}, {{3, 4}, {4, 3}, {2, 3, 2}, {12, 1}}},
      {{5, 3}, {{15}, {3, 5}, {5, 3, 1}, {1, 15}}},
      {{3, 4, 5}, {{60}, {12, 5}, {2, 30}, {5, 4, 3}}},
      {{0, 3}, {{0}, {3, 0}}},
      {{7}, {{7}, {1, 7}}},
  };
  for (const auto& [file_shape, targets] : cases) {
    INFO("file " << to_string(file_shape));
    const std::vector<T> global = random_values<T>(element_count(file_shape), 41);
    const fs::path path = scratch / "any.npy";
    write_npy(path, DistributedArray<T>::from_global(Layout(comm, file_shape), global));
    for (const Shape& target : targets) {
      for (const Layout& layout : layouts_for(comm, target)) {
        INFO("layout " << layout.describe());
        check_array(read_npy<T>(path, layout), layout, global);
      }
    }
  }
  // A Fortran-ordered file whose shape has one axis longer than 1 holds C-order bytes.
  const std::vector<T> line = random_values<T>(6, 42);
  if (comm.rank() == 0) {
    std::vector<std::byte> bytes = make_npy_header(npy_dtype_of<T>(), {1, 6, 1}, true);
    const std::vector<std::byte> data = raw_bytes(line);
    bytes.insert(bytes.end(), data.begin(), data.end());
    write_bytes(scratch / "fortran_line.npy", bytes);
  }
  comm.barrier();
  for (const Layout& layout : layouts_for(comm, {6})) {
    check_array(read_npy<T>(scratch / "fortran_line.npy", layout), layout, line);
  }
  check_array(read_npy<T>(scratch / "fortran_line.npy", comm, Partition::SCATTER, 1),
              Layout(comm, {1, 6, 1}, Partition::SCATTER, 1), line);
}

TEMPLATE_TEST_CASE("round trips over every layout", "[npy]", DISTLOPS_SCALAR_TYPES) {
  using T = TestType;
  const Communicator comm = world();
  const ScratchDir scratch(comm);
  for (const ShapeCase& c : shape_cases()) {
    INFO(describe(c));
    const std::vector<T> global = random_values<T>(element_count(c.shape), 17);
    for (const Partition partition :
         {Partition::SCATTER, Partition::BROADCAST, Partition::UNSAFE_BROADCAST}) {
      INFO(to_string(partition));
      const Layout layout(comm, c.shape, partition, c.axis);
      const auto x = DistributedArray<T>::from_global(layout, global);
      const fs::path path = scratch / "x.npy";
      write_npy(path, x);
      // The file is NumPy's header followed by the global array in C order.
      if (comm.rank() == 0) {
        std::vector<std::byte> expected = make_npy_header(npy_dtype_of<T>(), c.shape);
        const std::vector<std::byte> data = raw_bytes(global);
        expected.insert(expected.end(), data.begin(), data.end());
        CHECK(file_bytes(path) == expected);
      }
      // Back into the same layout, every other layout, and the file's own shape.
      check_array(read_npy<T>(path, layout), layout, global);
      for (const Layout& other : layouts_for(comm, c.shape)) {
        INFO("read as " << other.describe());
        check_array(read_npy<T>(path, other), other, global);
      }
      const int last_axis = static_cast<int>(c.shape.size()) - 1;
      check_array(read_npy<T>(path, comm), Layout(comm, c.shape), global);
      check_array(read_npy<T>(path, comm, Partition::SCATTER, -1),
                  Layout(comm, c.shape, Partition::SCATTER, last_axis), global);
      check_array(read_npy<T>(path, comm, Partition::BROADCAST),
                  Layout(comm, c.shape, Partition::BROADCAST), global);
      const NpyHeader header = read_npy_header(path, comm);
      CHECK(header.shape == c.shape);
      CHECK(header.dtype == npy_dtype_of<T>());
    }
  }
  // Only the target is left: no temporary files.
  if (comm.rank() == 0) CHECK(scratch.entries() == std::vector<std::string>{"x.npy"});
  expect_in_step(comm);
}

TEMPLATE_TEST_CASE("writes from uneven and custom splits, ranks owning nothing", "[npy]",
                   DISTLOPS_SCALAR_TYPES) {
  using T = TestType;
  const Communicator comm = world();
  const ScratchDir scratch(comm);
  const Shape shape{6, 5, 4};
  const std::vector<T> global = random_values<T>(element_count(shape), 5);
  for (const Layout& layout : layouts_for(comm, shape)) {
    INFO(layout.describe());
    write_npy(scratch / "y.npy", DistributedArray<T>::from_global(layout, global));
    for (const Layout& other : layouts_for(comm, shape)) {
      INFO("read as " << other.describe());
      check_array(read_npy<T>(scratch / "y.npy", other), other, global);
    }
  }
  // A mask does not change what is written: the global array.
  std::vector<int> mask(static_cast<std::size_t>(comm.size()));
  for (int r = 0; r < comm.size(); ++r)
    mask[static_cast<std::size_t>(r)] = r % 2;
  const Layout masked(comm, shape, LayoutOptions{.axis = 1, .mask = mask});
  write_npy(scratch / "m.npy", DistributedArray<T>::from_global(masked, global));
  check_array(read_npy<T>(scratch / "m.npy", masked), masked, global);
  check_array(read_npy<T>(scratch / "m.npy", Layout(comm, shape)), Layout(comm, shape), global);
  expect_in_step(comm);
}

TEMPLATE_TEST_CASE("transfers split into many MPI calls and nested datatypes", "[npy]",
                   DISTLOPS_SCALAR_TYPES) {
  using T = TestType;
  const Communicator comm = world();
  const ScratchDir scratch(comm);
  // A tiny per-call limit: counts and block sizes above it take the paths that arrays beyond
  // 2^31 - 1 bytes take with the default limit.
  for (std::size_t limit : {std::size_t{3}, std::size_t{7}, std::size_t{64}}) {
    const ChunkLimit chunk(limit);
    INFO("limit " << limit);
    for (const Shape& shape : {Shape{5, 4, 3}, Shape{13}, Shape{3, 10}}) {
      INFO("shape " << to_string(shape));
      const std::vector<T> global = random_values<T>(element_count(shape), 23);
      for (const Layout& layout : layouts_for(comm, shape)) {
        INFO(layout.describe());
        write_npy(scratch / "z.npy", DistributedArray<T>::from_global(layout, global));
        if (comm.rank() == 0) {
          std::vector<std::byte> expected = make_npy_header(npy_dtype_of<T>(), shape);
          const std::vector<std::byte> data = raw_bytes(global);
          expected.insert(expected.end(), data.begin(), data.end());
          CHECK(file_bytes(scratch / "z.npy") == expected);
        }
        check_array(read_npy<T>(scratch / "z.npy", layout), layout, global);
      }
    }
  }
  expect_in_step(comm);
}

TEST_CASE("files written by NumPy are read at every layout", "[npy][numpy]") {
  const Communicator comm = world();
  auto check_file = [&]<class T>(const char* name, const Shape& shape, T) {
    INFO(name);
    const std::vector<T> global = reference_values<T>(shape);
    for (const Layout& layout : layouts_for(comm, shape)) {
      INFO(layout.describe());
      check_array(read_npy<T>(data_dir / name, layout), layout, global);
    }
    check_array(read_npy<T>(data_dir / name, comm), Layout(comm, shape), global);
  };
  check_file("f4_7.npy", {7}, float{});
  check_file("f8_5x3.npy", {5, 3}, double{});
  check_file("f8_3x4x5.npy", {3, 4, 5}, double{});
  check_file("c8_3x4x2.npy", {3, 4, 2}, std::complex<float>{});
  check_file("c16_4x3.npy", {4, 3}, std::complex<double>{});
  check_file("f8_0x3.npy", {0, 3}, double{});
  check_file("f8_5x3_v2.npy", {5, 3}, double{});
  check_file("c16_4x3_v3.npy", {4, 3}, std::complex<double>{});
  check_file("f8_5x3_handmade.npy", {5, 3}, double{});
  check_file("c8_3x4x2_handmade.npy", {3, 4, 2}, std::complex<float>{});
  check_file("f4_7_python2.npy", {7}, float{});
  expect_in_step(comm);
}

TEST_CASE("files written here equal numpy.save's byte for byte", "[npy][numpy]") {
  const Communicator comm = world();
  const ScratchDir scratch(comm);
  auto check_file = [&]<class T>(const char* name, const Shape& shape, T) {
    INFO(name);
    const std::vector<std::byte> numpy_file = file_bytes(data_dir / name);
    for (const Layout& layout : layouts_for(comm, shape)) {
      INFO(layout.describe());
      write_npy(scratch / name,
                DistributedArray<T>::from_global(layout, reference_values<T>(shape)));
      if (comm.rank() == 0) CHECK(file_bytes(scratch / name) == numpy_file);
    }
  };
  check_file("f4_7.npy", {7}, float{});
  check_file("f8_5x3.npy", {5, 3}, double{});
  check_file("f8_3x4x5.npy", {3, 4, 5}, double{});
  check_file("c8_3x4x2.npy", {3, 4, 2}, std::complex<float>{});
  check_file("c16_4x3.npy", {4, 3}, std::complex<double>{});
  check_file("f8_0x3.npy", {0, 3}, double{});
  expect_in_step(comm);
}

TEST_CASE("bad files raise the same IoError on every rank", "[npy][errors]") {
  const Communicator comm = world();
  const ScratchDir scratch(comm);
  const Layout layout(comm, {5, 3});
  const std::vector<std::byte> good = file_bytes(data_dir / "f8_5x3.npy");
  // Rank 0 writes a variant of the good file; every rank then tries to read it.
  auto variant = [&](const std::string& name, auto&& change) {
    if (comm.rank() == 0) {
      std::vector<std::byte> bytes = good;
      change(bytes);
      write_bytes(scratch / name, bytes);
    }
    comm.barrier();
    return scratch / name;
  };
  auto read = [&](const fs::path& path) {
    return [&, path] { (void)read_npy<double>(path, layout); };
  };
  auto read_own_shape = [&](const fs::path& path) {
    return [&, path] { (void)read_npy<double>(path, comm); };
  };

  SECTION("missing file") {
    expect_everywhere<IoError>(comm, read(scratch / "missing.npy"),
                               "cannot open the file: No such file or directory");
    expect_everywhere<IoError>(comm, read_own_shape(scratch / "missing.npy"), "missing.npy");
    expect_everywhere<IoError>(
        comm, [&] { (void)read_npy_header(scratch / "missing.npy", comm); }, "cannot open");
  }
  SECTION("a directory") {
    expect_everywhere<IoError>(comm, read(scratch.path()), "is a directory");
  }
  SECTION("empty file") {
    const fs::path path = variant("empty.npy", [](auto& b) { b.clear(); });
    expect_everywhere<IoError>(comm, read(path), "too few for the magic string");
  }
  SECTION("bad magic") {
    const fs::path path = variant("magic.npy", [](auto& b) { b[1] = std::byte{'n'}; });
    expect_everywhere<IoError>(comm, read(path), "bad magic string");
    expect_everywhere<IoError>(comm, read_own_shape(path), "bad magic string");
  }
  SECTION("unsupported version") {
    const fs::path path = variant("version.npy", [](auto& b) { b[6] = std::byte{4}; });
    expect_everywhere<IoError>(comm, read(path), "unsupported format version 4.0");
  }
  SECTION("truncated header") {
    const fs::path path = variant("truncated.npy", [](auto& b) { b.resize(100); });
    expect_everywhere<IoError>(comm, read(path), "truncated: the header declares 118 bytes");
  }
  SECTION("malformed dictionary") {
    const fs::path path = variant("dict.npy", [](auto& b) { b[11] = std::byte{'x'}; });
    expect_everywhere<IoError>(comm, read(path), "malformed header dictionary at offset 1");
  }
  SECTION("header length beyond the first read") {
    // Declares a 60000-byte header in a file of 248 bytes.
    const fs::path path = variant("long.npy", [](auto& b) {
      b[8] = std::byte{0x60};
      b[9] = std::byte{0xea};
    });
    expect_everywhere<IoError>(comm, read(path), "truncated: the header declares 60000 bytes");
  }
  SECTION("unsupported dtypes") {
    expect_everywhere<IoError>(comm, read(data_dir / "i8_5.npy"), "unsupported dtype '<i8'");
    expect_everywhere<IoError>(comm, read_own_shape(data_dir / "f8_5_big_endian.npy"),
                               "unsupported dtype '>f8': big-endian");
  }
  SECTION("dtype other than the requested one") {
    expect_everywhere<IoError>(
        comm, [&] { (void)read_npy<float>(data_dir / "f8_5x3.npy", layout); },
        "the file holds float64 data ('<f8'), but float32 was requested");
    expect_everywhere<IoError>(
        comm, [&] { (void)read_npy<std::complex<double>>(data_dir / "f8_5x3.npy", comm); },
        "but complex128 was requested");
    expect_everywhere<IoError>(
        comm, [&] { (void)read_npy<double>(data_dir / "c16_4x3.npy", comm); },
        "the file holds complex128 data ('<c16'), but float64");
  }
  SECTION("another number of elements than the layout's") {
    for (const Shape& shape : {Shape{5, 4}, Shape{14}, Shape{4, 2, 2}}) {
      INFO(to_string(shape));
      expect_everywhere<IoError>(
          comm, [&] { (void)read_npy<double>(data_dir / "f8_5x3.npy", Layout(comm, shape)); },
          "the file's shape (5, 3) has 15 elements, the layout's global shape " + to_string(shape) +
              " " + std::to_string(element_count(shape)));
    }
  }
  SECTION("fortran order") {
    expect_everywhere<IoError>(
        comm, [&] { (void)read_npy<double>(data_dir / "f8_3x4_fortran.npy", comm); },
        "fortran_order True");
    expect_everywhere<IoError>(
        comm, [&] { (void)read_npy<double>(data_dir / "f8_3x4_fortran.npy", Layout(comm, {12})); },
        "read it with read_npy_local");
  }
  SECTION("data shorter than the shape requires") {
    const fs::path path = variant("short.npy", [](auto& b) { b.resize(b.size() - 1); });
    expect_everywhere<IoError>(
        comm, read(path),
        "the data are shorter than the shape requires: shape (5, 3) of "
        "float64 needs 120 bytes after the 128-byte header, the file has 119");
    const fs::path header_only = variant("header_only.npy", [](auto& b) { b.resize(128); });
    expect_everywhere<IoError>(comm, read_own_shape(header_only), "the file has 0");
  }
  SECTION("data longer than the shape requires are ignored, as NumPy does") {
    const fs::path path = variant("long_data.npy", [](auto& b) { b.resize(b.size() + 13); });
    check_array(read_npy<double>(path, layout), layout, reference_values<double>({5, 3}));
    expect_in_step(comm);
  }
  SECTION("0-d arrays") {
    expect_everywhere<IoError>(
        comm, [&] { (void)read_npy<double>(data_dir / "f8_scalar.npy", comm); }, "0-d array");
    CHECK(read_npy_header(data_dir / "f8_scalar.npy", comm).shape.empty());
  }
  SECTION("axis out of range") {
    expect_everywhere<InvalidArgument>(
        comm, [&] { (void)read_npy<double>(data_dir / "f8_5x3.npy", comm, Partition::SCATTER, 2); },
        "axis 2");
  }
  SECTION("paths that differ between ranks") {
    if (comm.size() > 1) {
      const fs::path path = comm.rank() == 1 ? data_dir / "f4_7.npy" : data_dir / "f8_5x3.npy";
      expect_everywhere<InvalidArgument>(comm, read(path), "the path differs between ranks");
    }
  }
  SECTION("an empty layout") {
    expect_everywhere<InvalidArgument>(
        comm, [&] { (void)read_npy<double>(data_dir / "f8_5x3.npy", Layout()); }, "empty");
  }
}

TEMPLATE_TEST_CASE("a failed write leaves the old file intact and no temporary",
                   "[npy][errors][atomic]", DISTLOPS_SCALAR_TYPES) {
  using T = TestType;
  const Communicator comm = world();
  const ScratchDir scratch(comm);
  const fs::path path = scratch / "a.npy";
  const Layout layout(comm, {9, 4}, Partition::SCATTER, 1);
  const std::vector<T> old_values = random_values<T>(36, 1);
  write_npy(path, DistributedArray<T>::from_global(layout, old_values));
  const std::vector<std::byte> old_bytes =
      comm.rank() == 0 ? file_bytes(path) : std::vector<std::byte>{};
  const auto new_array = DistributedArray<T>::from_global(layout, random_values<T>(36, 2));

  auto old_file_is_intact = [&] {
    if (comm.rank() == 0) {
      CHECK(file_bytes(path) == old_bytes);
      CHECK(scratch.entries() == std::vector<std::string>{"a.npy"});
    }
    check_array(read_npy<T>(path, layout), layout, old_values);
  };

  SECTION("a failure at any stage on one rank") {
    using io::detail::WriteStage;
    for (WriteStage stage :
         {WriteStage::create_temporary, WriteStage::open, WriteStage::write_header,
          WriteStage::write_data, WriteStage::sync, WriteStage::close, WriteStage::rename}) {
      // The rename stage runs on rank 0 alone.
      const std::vector<int> failing =
          stage == WriteStage::rename ? std::vector<int>{0} : std::vector<int>{0, comm.size() - 1};
      for (int failing_rank : failing) {
        INFO("stage " << stage_name(stage) << ", failing rank " << failing_rank);
        const std::string text = "injected failure at " + std::string(stage_name(stage)) +
                                 " on rank " + std::to_string(failing_rank);
        const StageHook hook([&](WriteStage current) {
          if (current == stage && comm.rank() == failing_rank) throw IoError(text);
        });
        expect_everywhere<IoError>(
            comm, [&] { write_npy(path, new_array); }, text);
        old_file_is_intact();
      }
    }
  }
  SECTION("a directory that does not exist") {
    expect_everywhere<IoError>(
        comm, [&] { write_npy(scratch / "missing" / "a.npy", new_array); },
        "cannot create a temporary file in '" + (scratch / "missing").string() +
            "': No such file or directory");
  }
  SECTION("a directory that is a file") {
    expect_everywhere<IoError>(
        comm, [&] { write_npy(path / "b.npy", new_array); }, "Not a directory");
    old_file_is_intact();
  }
  SECTION("a target that is a directory") {
    if (comm.rank() == 0) fs::create_directory(scratch / "d.npy");
    comm.barrier();
    expect_everywhere<IoError>(
        comm, [&] { write_npy(scratch / "d.npy", new_array); }, "the path is a directory");
    if (comm.rank() == 0) CHECK(fs::is_directory(scratch / "d.npy"));
  }
  SECTION("a read-only file system") {
    // Root ignores permission bits, so an unwritable place must be one no one can write to.
    if (fs::is_directory("/proc/self")) {
      expect_everywhere<IoError>(
          comm, [&] { write_npy("/proc/self/a.npy", new_array); },
          "cannot create a temporary file in '/proc/self'");
    }
  }
  SECTION("a file size limit on rank 0 fails its header write") {
    // A real failure of one rank's write call (EFBIG), not an injected one.
    struct rlimit saved {};
    getrlimit(RLIMIT_FSIZE, &saved);
    void (*saved_handler)(int) = SIG_DFL;
    if (comm.rank() == 0) {
      saved_handler = std::signal(SIGXFSZ, SIG_IGN);
      struct rlimit small = saved;
      small.rlim_cur = 100;
      setrlimit(RLIMIT_FSIZE, &small);
    }
    std::string message;
    try {
      write_npy(path, new_array);
    } catch (const IoError& error) {
      message = error.what();
    }
    if (comm.rank() == 0) {
      setrlimit(RLIMIT_FSIZE, &saved);
      std::signal(SIGXFSZ, saved_handler);
    }
    INFO("message: " << message);
    CHECK(message.find("header") != std::string::npos);
    expect_in_step(comm);
    old_file_is_intact();
  }
  SECTION("an empty array") {
    expect_everywhere<InvalidArgument>(
        comm, [&] { write_npy(path, DistributedArray<T>()); }, "empty");
  }
  SECTION("paths that differ between ranks") {
    if (comm.size() > 1) {
      expect_everywhere<InvalidArgument>(
          comm, [&] { write_npy(comm.rank() == 1 ? scratch / "b.npy" : path, new_array); },
          "write_npy: the path differs between ranks");
      old_file_is_intact();
    }
  }
  SECTION("a successful write replaces the file and keeps its permission bits") {
    if (comm.rank() == 0) ::chmod(path.c_str(), 0640);
    comm.barrier();
    write_npy(path, new_array);
    check_array(read_npy<T>(path, layout), layout, random_values<T>(36, 2));
    if (comm.rank() == 0) {
      struct stat info {};
      CHECK(::stat(path.c_str(), &info) == 0);
      CHECK((info.st_mode & 07777) == 0640);
      CHECK(scratch.entries() == std::vector<std::string>{"a.npy"});
    }
    expect_in_step(comm);
  }
  SECTION("a new file gets the permission bits of the umask") {
    const mode_t mask = ::umask(022);
    write_npy(scratch / "new.npy", new_array);
    ::umask(mask);
    if (comm.rank() == 0) {
      struct stat info {};
      CHECK(::stat((scratch / "new.npy").c_str(), &info) == 0);
      CHECK((info.st_mode & 07777) == 0644);
    }
    expect_in_step(comm);
  }
}

TEST_CASE("relative paths and paths without a directory", "[npy]") {
  const Communicator comm = world();
  const ScratchDir scratch(comm);
  const fs::path saved = fs::current_path();
  fs::current_path(scratch.path());
  const Layout layout(comm, {4, 2});
  const std::vector<double> global = random_values<double>(8, 3);
  write_npy("plain.npy", DistributedArray<double>::from_global(layout, global));
  check_array(read_npy<double>("plain.npy", layout), layout, global);
  comm.barrier();
  if (comm.rank() == 0) fs::create_directory("sub");
  comm.barrier();
  write_npy("sub/../sub/nested.npy", DistributedArray<double>::from_global(layout, global));
  check_array(read_npy<double>("sub/nested.npy", layout), layout, global);
  fs::current_path(saved);
  expect_in_step(comm);
}

// Driven by numpy_interop.py, which writes the in_ files with NumPy and checks the out_ files
// with NumPy; hidden, since it needs that script.
TEST_CASE("interchange with NumPy at run time", "[.numpy-live]") {
  const Communicator comm = world();
  const char* directory = std::getenv("DISTLOPS_NPY_EXCHANGE_DIR");
  REQUIRE(directory != nullptr);
  std::vector<std::string> names;
  for (const auto& entry : fs::directory_iterator(directory)) {
    const std::string name = entry.path().filename().string();
    if (name.starts_with("in_")) names.push_back(name.substr(3));
  }
  std::sort(names.begin(), names.end());
  CHECK(!names.empty());
  // Names are <dtype>_<d0>x<d1>..._<case>.npy.
  auto exchange = [&]<class T>(const std::string& name, const Shape& shape, int index, T) {
    INFO(name);
    // Alternate the layouts: along the last axis, along the first, replicated.
    const int axis = index % 2 == 0 ? static_cast<int>(shape.size()) - 1 : 0;
    const Partition partition = index % 3 == 2 ? Partition::BROADCAST : Partition::SCATTER;
    const auto x = read_npy<T>(fs::path(directory) / ("in_" + name), comm, partition, axis);
    check_array(x, Layout(comm, shape, partition, axis), reference_values<T>(shape));
    write_npy(fs::path(directory) / ("out_" + name), x);
  };
  for (std::size_t index = 0; index < names.size(); ++index) {
    const std::string& name = names[index];
    const std::size_t first = name.find('_');
    const std::size_t second = name.find('_', first + 1);
    const std::string code = name.substr(0, first);
    Shape shape;
    std::stringstream extents(name.substr(first + 1, second - first - 1));
    for (std::string extent; std::getline(extents, extent, 'x');)
      shape.push_back(std::stoll(extent));
    const int i = static_cast<int>(index);
    if (code == "f4") exchange(name, shape, i, float{});
    if (code == "f8") exchange(name, shape, i, double{});
    if (code == "c8") exchange(name, shape, i, std::complex<float>{});
    if (code == "c16") exchange(name, shape, i, std::complex<double>{});
  }
  expect_in_step(comm);
}
