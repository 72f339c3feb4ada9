// SPDX-License-Identifier: BSD-3-Clause
// Copyright (c) 2026 The distlops authors
// Parallel HDF5 input and output: round trips over every layout and scalar type, files written
// at one rank count read at another, stacked arrays, the layout attributes, errors raised alike
// on every rank, atomic replacement; and the hidden "[.h5py]" half of the exchange with h5py
// (h5py_interop.py).
#include <hdf5.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

#include "distlops/io/hdf5.hpp"
#include "io_test_support.hpp"

using namespace distlops;
using namespace distlops::io;
using namespace distlops::testing;
namespace fs = std::filesystem;

namespace {

// An integer attribute of a dataset, read serially with HDF5 (an independent reader).
long long integer_attribute(const fs::path& path, const char* dataset, const char* name) {
  const hid_t file = H5Fopen(path.c_str(), H5F_ACC_RDONLY, H5P_DEFAULT);
  const hid_t data = H5Dopen2(file, dataset, H5P_DEFAULT);
  const hid_t attribute = H5Aopen(data, name, H5P_DEFAULT);
  long long value = -1;
  H5Aread(attribute, H5T_NATIVE_LLONG, &value);
  H5Aclose(attribute);
  H5Dclose(data);
  H5Fclose(file);
  return value;
}

// The chunk rank of a dataset (0 when it is not chunked), read serially.
int chunk_rank(const fs::path& path, const char* dataset) {
  const hid_t file = H5Fopen(path.c_str(), H5F_ACC_RDONLY, H5P_DEFAULT);
  const hid_t data = H5Dopen2(file, dataset, H5P_DEFAULT);
  const hid_t creation = H5Dget_create_plist(data);
  int rank = 0;
  if (H5Pget_layout(creation) == H5D_CHUNKED) {
    hsize_t dims[8];
    rank = H5Pget_chunk(creation, 8, dims);
  }
  H5Pclose(creation);
  H5Dclose(data);
  H5Fclose(file);
  return rank;
}

}  // namespace

TEMPLATE_TEST_CASE("HDF5 round trips over every layout", "[hdf5]", DISTLOPS_SCALAR_TYPES) {
  using T = TestType;
  const Communicator comm = world();
  const ScratchDir scratch(comm);
  for (const ShapeCase& c : shape_cases()) {
    INFO(describe(c));
    const std::vector<T> global = random_values<T>(element_count(c.shape), 23);
    for (const Partition partition : {Partition::SCATTER, Partition::BROADCAST}) {
      const Layout layout(comm, c.shape, partition, c.axis);
      const fs::path path = scratch / "x.h5";
      write_hdf5(path, DistributedArray<T>::from_global(layout, global));
      // Every other layout after the SCATTER write; the replicated write into its own.
      if (partition == Partition::SCATTER) {
        for (const Layout& other : layouts_for(comm, c.shape)) {
          INFO("read as " << other.describe());
          check_array(read_hdf5<T>(path, other), other, global);
        }
      } else {
        check_array(read_hdf5<T>(path, layout), layout, global);
      }
      check_array(read_hdf5<T>(path, comm, Partition::SCATTER, -1),
                  Layout(comm, c.shape, Partition::SCATTER, static_cast<int>(c.shape.size()) - 1),
                  global);
      const Hdf5DatasetInfo info = read_hdf5_info(path, comm);
      CHECK(info.shape == c.shape);
      CHECK(info.dtype == npy_dtype_of<T>());
      if (comm.rank() == 0) {
        CHECK(integer_attribute(path, "data", "distlops_axis") == layout.axis());
        CHECK(integer_attribute(path, "data", "distlops_ranks") == comm.size());
        // Contiguous, as h5py writes arrays: chunks are for checkpoints' checksums only.
        CHECK(chunk_rank(path, "data") == 0);
      }
    }
  }
  // Only the target is left: no temporary files.
  if (comm.rank() == 0) CHECK(scratch.entries() == std::vector<std::string>{"x.h5"});
  expect_in_step(comm);
}

TEMPLATE_TEST_CASE("HDF5 writes from uneven, custom and masked splits", "[hdf5]",
                   DISTLOPS_SCALAR_TYPES) {
  using T = TestType;
  const Communicator comm = world();
  const ScratchDir scratch(comm);
  const Shape shape{6, 5, 4};
  const std::vector<T> global = random_values<T>(element_count(shape), 5);
  for (const Layout& layout : layouts_for(comm, shape)) {
    INFO(layout.describe());
    write_hdf5(scratch / "y.h5", DistributedArray<T>::from_global(layout, global), "a/b");
    for (const Layout& other : layouts_for(comm, shape))
      check_array(read_hdf5<T>(scratch / "y.h5", other, "a/b"), other, global);
  }
  std::vector<int> mask(static_cast<std::size_t>(comm.size()));
  for (int r = 0; r < comm.size(); ++r)
    mask[static_cast<std::size_t>(r)] = r % 2;
  const Layout masked(comm, shape, LayoutOptions{.axis = 1, .mask = mask});
  write_hdf5(scratch / "m.h5", DistributedArray<T>::from_global(masked, global));
  check_array(read_hdf5<T>(scratch / "m.h5", masked), masked, global);
  check_array(read_hdf5<T>(scratch / "m.h5", Layout(comm, shape)), Layout(comm, shape), global);
  expect_in_step(comm);
}

TEST_CASE("an HDF5 file written at one rank count is read at another", "[hdf5]") {
  const Communicator comm = world();
  const ScratchDir scratch(comm);
  const Shape shape{11, 7};
  const std::vector<std::complex<double>> global =
      random_values<std::complex<double>>(element_count(shape), 8);
  // Written by the first min(3, size) ranks (3 at 3 and 4 ranks), split along axis 1.
  const int writers = std::min(3, comm.size());
  const Communicator writing = comm.split(comm.rank() < writers ? 0 : 1, comm.rank());
  if (comm.rank() < writers) {
    const Layout layout(writing, shape, Partition::SCATTER, 1);
    write_hdf5(scratch / "w.h5",
               DistributedArray<std::complex<double>>::from_global(layout, global));
  }
  comm.barrier();
  // Read by the first min(2, size) ranks along axis 0, and by all ranks.
  const int readers = std::min(2, comm.size());
  const Communicator reading = comm.split(comm.rank() < readers ? 0 : 1, comm.rank());
  if (comm.rank() < readers) {
    const Layout layout(reading, shape);
    check_array(read_hdf5<std::complex<double>>(scratch / "w.h5", layout), layout, global);
  }
  const Layout all(comm, shape, Partition::SCATTER, 1);
  check_array(read_hdf5<std::complex<double>>(scratch / "w.h5", all), all, global);
  if (comm.rank() == 0)
    CHECK(integer_attribute(scratch / "w.h5", "data", "distlops_ranks") == writers);
  expect_in_step(comm);
}

TEMPLATE_TEST_CASE("HDF5 round trips of stacked arrays", "[hdf5]", float, std::complex<double>) {
  using T = TestType;
  const Communicator comm = world();
  const ScratchDir scratch(comm);
  const std::vector<T> a = random_values<T>(9, 1), b = random_values<T>(4 * 3, 2);
  const Layout la(comm, {9}), lb(comm, {4, 3}, Partition::SCATTER, 1);
  const StackedDistributedArray<T> stacked(std::vector<DistributedArray<T>>{
      DistributedArray<T>::from_global(la, a), DistributedArray<T>::from_global(lb, b)});
  write_hdf5(scratch / "s.h5", stacked, "stack");
  // Read with other splits of the same shapes.
  const Layout ra(comm, {9}, Partition::BROADCAST), rb(comm, {4, 3});
  const StackedDistributedArray<T> back =
      read_hdf5<T>(scratch / "s.h5", StackedLayout({ra, rb}), "stack");
  check_array(back[0], ra, a);
  check_array(back[1], rb, b);
  // Each leaf is a dataset of its own.
  check_array(read_hdf5<T>(scratch / "s.h5", lb, "stack/1"), lb, b);
  expect_in_step(comm);
}

TEST_CASE("bad HDF5 files and arguments raise the same error on every rank", "[hdf5][errors]") {
  const Communicator comm = world();
  const ScratchDir scratch(comm);
  const Shape shape{5, 3};
  const Layout layout(comm, shape);
  const auto x = DistributedArray<double>::from_global(layout, random_values<double>(15, 3));
  write_hdf5(scratch / "x.h5", x);
  expect_everywhere<IoError>(
      comm, [&] { (void)read_hdf5<double>(scratch / "missing.h5", layout); },
      "the file does not exist");
  expect_everywhere<IoError>(
      comm, [&] { (void)read_hdf5<double>(scratch / "x.h5", layout, "other"); },
      "has no dataset 'other'");
  expect_everywhere<IoError>(
      comm, [&] { (void)read_hdf5<float>(scratch / "x.h5", Layout(comm, shape)); },
      "holds float64 data, but float32 was requested");
  expect_everywhere<IoError>(
      comm,
      [&] {
        (void)read_hdf5<double>(scratch / "x.h5", Layout(comm, {3, 5}));
      },
      "has shape (5, 3), the layout's global shape is (3, 5)");
  expect_everywhere<IoError>(
      comm, [&] { (void)read_hdf5_info(scratch / "x.h5", comm, "nothing"); },
      "has no dataset 'nothing'");
  if (comm.rank() == 0) std::ofstream(scratch / "text.h5") << "not an HDF5 file";
  comm.barrier();
  expect_everywhere<IoError>(
      comm, [&] { (void)read_hdf5<double>(scratch / "text.h5", layout); }, "not an HDF5 file");
  expect_everywhere<IoError>(
      comm, [&] { write_hdf5(scratch / "no-such-dir" / "x.h5", x); },
      "cannot create a temporary file");
  if (comm.size() > 1) {
    expect_everywhere<InvalidArgument>(
        comm,
        [&] { (void)read_hdf5<double>(scratch / ("r" + std::to_string(comm.rank())), layout); },
        "differs between ranks");
    expect_everywhere<InvalidArgument>(
        comm, [&] { write_hdf5(scratch / "y.h5", x, comm.rank() == 0 ? "a" : "b"); },
        "differs between ranks");
  }
  expect_everywhere<InvalidArgument>(
      comm, [&] { write_hdf5(scratch / "y.h5", x, ""); }, "the dataset name is empty");
  // Failures left the file that was there intact and no temporary behind.
  check_array(read_hdf5<double>(scratch / "x.h5", layout), layout, random_values<double>(15, 3));
  if (comm.rank() == 0) {
    CHECK(scratch.entries() == std::vector<std::string>{"text.h5", "x.h5"});
  }
  // A new write replaces the file.
  const auto y = DistributedArray<double>::from_global(layout, random_values<double>(15, 4));
  write_hdf5(scratch / "x.h5", y);
  check_array(read_hdf5<double>(scratch / "x.h5", layout), layout, random_values<double>(15, 4));
  expect_in_step(comm);
}

// h5py_interop.py: h5py wrote in_<dtype>.h5 (dataset "data", shape (7, 5)); read each here at
// every layout, compare with the values the script used, write it back as out_<dtype>.h5.
TEST_CASE("interchange with h5py at run time", "[.h5py]") {
  const Communicator comm = world();
  const char* directory = std::getenv("DISTLOPS_H5PY_DIR");
  REQUIRE(directory != nullptr);
  const Shape shape{7, 5};
  auto run = [&]<class T>(T, const char* code) {
    std::vector<T> global(35);
    for (std::size_t i = 0; i < global.size(); ++i) {
      const double real = static_cast<double>(i % 11) * 0.5 - 2.0;
      if constexpr (is_complex_v<T>) {
        global[i] = T(static_cast<real_type_t<T>>(real),
                      static_cast<real_type_t<T>>(static_cast<double>(i % 3) - 1.0));
      } else {
        global[i] = static_cast<T>(real);
      }
    }
    const fs::path in = fs::path(directory) / (std::string("in_") + code + ".h5");
    for (const Layout& layout : layouts_for(comm, shape))
      check_array(read_hdf5<T>(in, layout), layout, global);
    write_hdf5(fs::path(directory) / (std::string("out_") + code + ".h5"),
               read_hdf5<T>(in, comm, Partition::SCATTER, 1));
  };
  run(float{}, "f4");
  run(double{}, "f8");
  run(std::complex<float>{}, "c8");
  run(std::complex<double>{}, "c16");
  expect_in_step(comm);
}
