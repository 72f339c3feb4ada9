// SPDX-License-Identifier: BSD-3-Clause
// Copyright (c) 2026 The distlops authors
// Whole .npy arrays on every rank (read_npy_local): the files NumPy wrote in data/, C and
// Fortran order, one reader or every rank reading its own file, the Eigen views, and errors
// raised alike on every rank.
#include "distlops/io/npy.hpp"
#include "distlops/io/npy_local.hpp"
#include "io_test_support.hpp"

using namespace distlops;
using namespace distlops::io;
using namespace distlops::testing;

namespace {

// The bytes of a .npy file of `shape` holding `values` (already in the file's order).
template <class T>
std::vector<std::byte> npy_bytes(const Shape& shape, const std::vector<T>& values,
                                 bool fortran_order = false) {
  std::vector<std::byte> bytes = make_npy_header(npy_dtype_of<T>(), shape, fortran_order);
  const std::vector<std::byte> data = raw_bytes(values);
  bytes.insert(bytes.end(), data.begin(), data.end());
  return bytes;
}

// `values` (C order, of `shape`) rearranged into Fortran order: element (i0, ..., in) at
// i0 + d0 (i1 + d1 (...)).
template <class T>
std::vector<T> in_fortran_order(const std::vector<T>& values, const Shape& shape) {
  std::vector<T> result(values.size());
  const Shape c_strides = strides_of(shape);
  for (Index c = 0; c < static_cast<Index>(values.size()); ++c) {
    Index f = 0, stride = 1;
    for (std::size_t k = 0; k < shape.size(); ++k) {
      f += (c / c_strides[k]) % shape[k] * stride;
      stride *= shape[k];
    }
    result[static_cast<std::size_t>(f)] = values[static_cast<std::size_t>(c)];
  }
  return result;
}

}  // namespace

TEMPLATE_TEST_CASE("read_npy_local gives every rank the whole array", "[npy][local]",
                   DISTLOPS_SCALAR_TYPES) {
  using T = TestType;
  const Communicator comm = world();
  const ScratchDir scratch(comm);
  const int last = comm.size() - 1;
  const std::vector<NpyLocalOptions> ways{
      {}, {.every_rank = false, .root = last}, {.every_rank = true}};
  // Shapes of 0 to 3 axes, empty ones included, in C and Fortran order.
  for (const Shape& shape :
       {Shape{}, Shape{7}, Shape{5, 3}, Shape{0, 3}, Shape{3, 4, 2}, Shape{2, 3, 4}}) {
    for (const bool fortran : {false, true}) {
      INFO("shape " << to_string(shape) << (fortran ? " Fortran" : " C") << " order");
      const std::vector<T> values = random_values<T>(element_count(shape), 51);
      const fs::path path = scratch / "local.npy";
      if (comm.rank() == 0) {
        write_bytes(path,
                    npy_bytes(shape, fortran ? in_fortran_order(values, shape) : values, fortran));
      }
      comm.barrier();
      for (const NpyLocalOptions& options : ways) {
        const NpyArray<T> array = read_npy_local<T>(path, comm, options);
        CHECK(array.shape == shape);
        CHECK(array.values == values);
        CHECK(array.size() == element_count(shape));
      }
      comm.barrier();  // before rank 0 rewrites the file
    }
  }
}

TEST_CASE("read_npy_local reads NumPy's files into vectors and matrices", "[npy][local]") {
  const Communicator comm = world();
  auto check_file = [&]<class T>(const char* name, const Shape& shape, T) {
    INFO(name);
    const NpyArray<T> array = read_npy_local<T>(data_dir / name, comm);
    CHECK(array.shape == shape);
    CHECK(array.values == reference_values<T>(shape));
    // matrix(): rows along axis 0, the other axes flattened; vector(): every element.
    const EigenRowMajorMatrix<T> matrix = array.matrix();
    const Index rows = shape.empty() ? 1 : shape[0];
    REQUIRE(matrix.rows() == rows);
    REQUIRE(matrix.cols() == (rows == 0 ? 0 : element_count(shape) / rows));
    bool same = true;
    for (Index i = 0; i < matrix.rows(); ++i) {
      for (Index j = 0; j < matrix.cols(); ++j)
        same &= matrix(i, j) == reference_value<T>(i * matrix.cols() + j);
    }
    CHECK(same);
    const EigenVector<T> vector = array.vector();
    REQUIRE(vector.size() == element_count(shape));
    for (Index i = 0; i < vector.size(); ++i)
      same &= vector(i) == reference_value<T>(i);
    CHECK(same);
  };
  check_file("f4_7.npy", {7}, float{});
  check_file("f4_7_python2.npy", {7}, float{});
  check_file("f8_5x3.npy", {5, 3}, double{});
  check_file("f8_5x3_v2.npy", {5, 3}, double{});
  check_file("f8_3x4x5.npy", {3, 4, 5}, double{});
  check_file("f8_0x3.npy", {0, 3}, double{});
  // A 0-d array (np.array(2.5)): one value, a 1 x 1 matrix.
  const NpyArray<double> scalar = read_npy_local<double>(data_dir / "f8_scalar.npy", comm);
  CHECK(scalar.shape.empty());
  CHECK(scalar.values == std::vector<double>{2.5});
  CHECK(scalar.matrix().rows() == 1);
  CHECK(scalar.matrix()(0, 0) == 2.5);
  check_file("c8_3x4x2.npy", {3, 4, 2}, std::complex<float>{});
  check_file("c16_4x3.npy", {4, 3}, std::complex<double>{});
  check_file("c16_4x3_v3.npy", {4, 3}, std::complex<double>{});
  // numpy.save(np.asfortranarray(a)): reordered into C order.
  check_file("f8_3x4_fortran.npy", {3, 4}, double{});
}

TEST_CASE("every rank may read its own file", "[npy][local]") {
  const Communicator comm = world();
  const ScratchDir scratch(comm);
  // Rank r's parameters: r + 2 values.
  const fs::path mine = scratch / ("rank" + std::to_string(comm.rank()) + ".npy");
  const std::vector<double> values = random_values<double>(comm.rank() + 2, 60 + comm.rank());
  write_bytes(mine, npy_bytes<double>({Index(values.size())}, values));
  comm.barrier();
  const NpyArray<double> array = read_npy_local<double>(mine, comm, {.every_rank = true});
  CHECK(array.values == values);
  // One reader needs one path.
  if (comm.size() > 1) {
    expect_everywhere<InvalidArgument>(
        comm, [&] { (void)read_npy_local<double>(mine, comm); }, "the path differs between ranks");
  }
  // A file missing on one rank only: every rank raises that rank's error.
  const fs::path missing_on_last = comm.rank() == comm.size() - 1 ? scratch / "missing.npy" : mine;
  expect_everywhere<IoError>(
      comm, [&] { (void)read_npy_local<double>(missing_on_last, comm, {.every_rank = true}); },
      "cannot open the file");
}

TEST_CASE("read_npy_local fails alike on every rank", "[npy][local][errors]") {
  const Communicator comm = world();
  const ScratchDir scratch(comm);
  const std::vector<std::byte> good = file_bytes(data_dir / "f8_5x3.npy");
  auto variant = [&](const std::string& name, auto&& change) {
    if (comm.rank() == 0) {
      std::vector<std::byte> bytes = good;
      change(bytes);
      write_bytes(scratch / name, bytes);
    }
    comm.barrier();
    return scratch / name;
  };
  for (const NpyLocalOptions& options : {NpyLocalOptions{}, NpyLocalOptions{.every_rank = true}}) {
    INFO((options.every_rank ? "every rank reads" : "one reader"));
    auto read = [&](const fs::path& path) {
      return [&, path] { (void)read_npy_local<double>(path, comm, options); };
    };
    expect_everywhere<IoError>(comm, read(scratch / "missing.npy"), "cannot open the file");
    expect_everywhere<IoError>(comm, read(scratch.path()), "is a directory");
    expect_everywhere<IoError>(comm, read(variant("magic.npy", [](auto& b) { b[0] = {}; })),
                               "bad magic string");
    expect_everywhere<IoError>(comm, read(variant("cut.npy", [](auto& b) { b.resize(100); })),
                               "truncated");
    expect_everywhere<IoError>(comm, read(variant("short.npy", [](auto& b) { b.pop_back(); })),
                               "needs 120 bytes after the 128-byte header, the file has 119");
    expect_everywhere<IoError>(comm, read(data_dir / "i8_5.npy"), "unsupported dtype '<i8'");
    expect_everywhere<IoError>(
        comm, [&] { (void)read_npy_local<float>(data_dir / "f8_5x3.npy", comm, options); },
        "but float32 was requested");
  }
  expect_everywhere<InvalidArgument>(
      comm,
      [&] { (void)read_npy_local<double>(data_dir / "f8_5x3.npy", comm, {.root = comm.size()}); },
      "root");
  if (comm.size() > 1) {
    expect_everywhere<InvalidArgument>(
        comm,
        [&] {
          (void)read_npy_local<double>(data_dir / "f8_5x3.npy", comm,
                                       {.every_rank = comm.rank() == 0});
        },
        "the set of options differs between ranks");
  }
}
