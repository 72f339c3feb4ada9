// SPDX-License-Identifier: BSD-3-Clause
// Copyright (c) 2026 The distlops authors
#pragma once
// What the .npy and .npz tests share: the reference values of the files in data/ (written by
// NumPy, data/make_reference_files.py), raw file bytes, a scratch directory shared by the ranks,
// the check that an error is raised on every rank, the layouts a file is read into or written
// from (slabs, replicated, box layouts) and the expected block of a layout.
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <string>
#include <vector>

#include "box_layouts.hpp"
#include "expect_everywhere.hpp"
#include "test_support.hpp"

namespace distlops::testing {

namespace fs = std::filesystem;

inline const fs::path data_dir = DISTLOPS_NPY_DATA_DIR;

// The value at flat index i of every reference array (see data/make_reference_files.py).
template <class T>
T reference_value(Index i) {
  const double real = static_cast<double>(i % 61) * 0.25 - 7.5;
  if constexpr (is_complex_v<T>) {
    const double imag = static_cast<double>(i % 13 - 6) * 0.125;
    return T(static_cast<real_type_t<T>>(real), static_cast<real_type_t<T>>(imag));
  } else {
    return static_cast<T>(real);
  }
}

template <class T>
std::vector<T> reference_values(const Shape& shape) {
  std::vector<T> values(static_cast<std::size_t>(element_count(shape)));
  for (std::size_t i = 0; i < values.size(); ++i)
    values[i] = reference_value<T>(static_cast<Index>(i));
  return values;
}

inline std::vector<std::byte> file_bytes(const fs::path& path) {
  std::ifstream in(path, std::ios::binary);
  const std::vector<char> chars((std::istreambuf_iterator<char>(in)),
                                std::istreambuf_iterator<char>());
  std::vector<std::byte> bytes(chars.size());
  for (std::size_t i = 0; i < chars.size(); ++i)
    bytes[i] = static_cast<std::byte>(chars[i]);
  return bytes;
}

inline void write_bytes(const fs::path& path, std::span<const std::byte> bytes) {
  std::ofstream out(path, std::ios::binary | std::ios::trunc);
  out.write(reinterpret_cast<const char*>(bytes.data()),
            static_cast<std::streamsize>(bytes.size()));
}

template <class T>
std::vector<std::byte> raw_bytes(const std::vector<T>& values) {
  const auto* p = reinterpret_cast<const std::byte*>(values.data());
  return {p, p + values.size() * sizeof(T)};
}

// A directory shared by all ranks (created by rank 0), removed at the end of the test.
class ScratchDir {
 public:
  explicit ScratchDir(const Communicator& comm) : comm_(comm) {
    std::string name;
    if (comm.rank() == 0) {
      std::string pattern = (fs::temp_directory_path() / "distlops-npy-XXXXXX").string();
      if (::mkdtemp(pattern.data()) != nullptr) name = pattern;
    }
    Index size = static_cast<Index>(name.size());
    comm.broadcast(&size, 1, 0);
    name.resize(static_cast<std::size_t>(size));
    comm.broadcast(name.data(), size, 0);
    path_ = name;
  }
  ~ScratchDir() {
    if (comm_.rank() == 0 && !path_.empty()) {
      std::error_code ignored;
      fs::remove_all(path_, ignored);
    }
  }
  ScratchDir(const ScratchDir&) = delete;
  ScratchDir& operator=(const ScratchDir&) = delete;
  const fs::path& path() const { return path_; }
  fs::path operator/(const std::string& name) const { return path_ / name; }
  // Names of the entries of the directory (seen by the calling rank).
  std::vector<std::string> entries() const {
    std::vector<std::string> names;
    for (const auto& entry : fs::directory_iterator(path_))
      names.push_back(entry.path().filename().string());
    std::sort(names.begin(), names.end());
    return names;
  }

 private:
  Communicator comm_;
  fs::path path_;
};

// This rank's block of the global reference array in `layout` (replicated: all of it).
template <class T>
std::vector<T> expected_block(const Layout& layout, const std::vector<T>& global) {
  return box_of(global, layout.global_shape(), layout.box());
}

template <class T>
void check_array(const DistributedArray<T>& array, const Layout& layout,
                 const std::vector<T>& global) {
  CHECK(array.layout() == layout);
  const std::vector<T> expected = expected_block(layout, global);
  const std::vector<T> actual(array.local().begin(), array.local().end());
  CHECK(actual == expected);  // bit-exact: no arithmetic between write and read
}

inline std::vector<Layout> layouts_for(const Communicator& comm, const Shape& shape) {
  std::vector<Layout> layouts;
  for (int axis = 0; axis < static_cast<int>(shape.size()); ++axis)
    layouts.emplace_back(comm, shape, Partition::SCATTER, axis);
  layouts.emplace_back(comm, shape, Partition::BROADCAST);
  layouts.emplace_back(comm, shape, Partition::UNSAFE_BROADCAST,
                       static_cast<int>(shape.size()) - 1);
  // Everything on the last rank.
  std::vector<Shape> local_shapes(static_cast<std::size_t>(comm.size()), shape);
  for (int r = 0; r < comm.size(); ++r)
    local_shapes[static_cast<std::size_t>(r)][0] = r == comm.size() - 1 ? shape[0] : 0;
  layouts.emplace_back(comm, shape, LayoutOptions{.local_shapes = local_shapes});
  // 2-d and 3-d shapes: the box layouts that are not slabs (grids cut along several axes,
  // explicit boxes).
  if (shape.size() == 2 || shape.size() == 3) {
    for (const NamedLayout& named : box_test_layouts(comm, shape, false)) {
      if (!named.layout.is_slab()) layouts.push_back(named.layout);
    }
  }
  return layouts;
}

}  // namespace distlops::testing
