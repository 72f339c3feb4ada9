// SPDX-License-Identifier: BSD-3-Clause
// Copyright (c) 2026 The distlops authors
// Whole .npy arrays on every rank (npy_local.hpp): the file is read with plain POSIX calls by
// the reading rank(s), its header parsed as read_npy does, Fortran order reordered into C order.
#include "distlops/io/npy_local.hpp"

#include <algorithm>
#include <string>
#include <vector>

#include "distlops/core/instantiate.hpp"
#include "input_file.hpp"
#include "npy_internal.hpp"

namespace distlops::io {

namespace detail {

std::vector<std::byte> read_header_bytes(ByteSource& source) {
  // 12 bytes hold the length field of every version (10 for version 1.0).
  std::vector<std::byte> bytes(
      static_cast<std::size_t>(std::min<std::uint64_t>(source.remaining(), 12)));
  source.read(bytes);
  const std::size_t total = npy_header_size(bytes);
  if (total > bytes.size()) {
    const std::size_t have = bytes.size();
    bytes.resize(
        static_cast<std::size_t>(std::min<std::uint64_t>(total, have + source.remaining())));
    source.read({bytes.data() + have, bytes.size() - have});
  }
  return bytes;
}

template <Scalar T>
NpyArray<T> read_whole(ByteSource& source, const std::string& where, const char* holder) {
  NpyHeader header;
  try {
    header = parse_npy_header(read_header_bytes(source));
  } catch (const IoError& error) {
    if (std::string_view(error.what()).starts_with(where)) throw;
    throw IoError(where + ": " + error.what());
  }
  check_dtype_and_size<T>(header, static_cast<Index>(source.remaining()), where, holder);
  NpyArray<T> array{header.shape, std::vector<T>(static_cast<std::size_t>(header.element_count()))};
  source.read({reinterpret_cast<std::byte*>(array.values.data()), array.values.size() * sizeof(T)});
  source.finish();
  if (header.fortran_order) fortran_to_c_order(std::span<T>(array.values), array.shape);
  return array;
}

template <Scalar T>
void broadcast_array(NpyArray<T>& array, const Communicator& comm, int root) {
  Index sizes[2] = {static_cast<Index>(array.shape.size()), array.size()};
  comm.broadcast(sizes, 2, root);
  array.shape.resize(static_cast<std::size_t>(sizes[0]));
  comm.broadcast(array.shape.data(), sizes[0], root);
  array.values.resize(static_cast<std::size_t>(sizes[1]));
  comm.broadcast(array.values.data(), sizes[1], root);
}

}  // namespace detail

namespace {

// A plain file from its start.
class FileSource final : public detail::ByteSource {
 public:
  explicit FileSource(const detail::InputFile& file) : file_(file) {}
  void read(std::span<std::byte> out) override {
    file_.read_at(position_, out);
    position_ += out.size();
  }
  std::uint64_t remaining() const override { return file_.size() - position_; }

 private:
  const detail::InputFile& file_;
  std::uint64_t position_ = 0;
};

}  // namespace

template <Scalar T>
NpyArray<T> read_npy_local(const std::filesystem::path& path, const Communicator& comm,
                           const NpyLocalOptions& options) {
  const std::string name = path.string();
  const std::string where = detail::describe_call("read_npy_local", name);
  return detail::read_local<T>(comm, options, where, name, "read_npy_local", "the path", [&] {
    const detail::InputFile file(name, where);
    FileSource source(file);
    return detail::read_whole<T>(source, where, "the file");
  });
}

#define DISTLOPS_INSTANTIATE_NPY_LOCAL(T)                                                   \
  template NpyArray<T> read_npy_local<T>(const std::filesystem::path&, const Communicator&, \
                                         const NpyLocalOptions&);                           \
  template NpyArray<T> detail::read_whole<T>(detail::ByteSource&, const std::string&,       \
                                             const char*);                                  \
  template void detail::broadcast_array<T>(NpyArray<T>&, const Communicator&, int);
DISTLOPS_FOR_EACH_SCALAR(DISTLOPS_INSTANTIATE_NPY_LOCAL)
#undef DISTLOPS_INSTANTIATE_NPY_LOCAL

}  // namespace distlops::io
