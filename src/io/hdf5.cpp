// SPDX-License-Identifier: BSD-3-Clause
// Copyright (c) 2026 The distlops authors
// Parallel HDF5 input and output of distributed arrays.
//
// Each rank selects its block of the global dataspace as one hyperslab (the block of a C-order
// array split along axis k is the box offset..offset+extent along k, everything along the
// others) and every rank takes part in one collective H5Dwrite/H5Dread, ranks without data
// with an empty selection. HDF5 calls that may fail on some ranks only are followed by an
// agreement (collective_check), so that every rank throws the same error.
#include "distlops/io/hdf5.hpp"

#include "distlops/solvers/detail/checkpoint.hpp"

#include <hdf5.h>

#include <algorithm>
#include <complex>
#include <string>
#include <utility>
#include <vector>

#include "../broadcast_string.hpp"
#include "../unique_handle.hpp"
#include "distlops/core/collective_check.hpp"
#include "distlops/core/crash_point.hpp"
#include "distlops/core/error.hpp"
#include "distlops/core/instantiate.hpp"
#include "npy_internal.hpp"
#include "temporary_file.hpp"

#ifndef H5_HAVE_PARALLEL
#error "distlops' HDF5 input and output need a parallel HDF5 (H5_HAVE_PARALLEL)"
#endif

namespace distlops::io {

// Named, not anonymous: the unity build puts this file beside others, and the lambdas of the
// stacked readers and writers (external linkage) capture these types.
namespace hdf5_file {

using detail::describe_call;

/// The innermost message of HDF5's error stack (HDF5 prints nothing itself: see Silence).
std::string hdf5_message() {
  std::string message;
  H5Ewalk2(
      H5E_DEFAULT, H5E_WALK_UPWARD,
      [](unsigned, const H5E_error2_t* error, void* data) -> herr_t {
        auto* text = static_cast<std::string*>(data);
        if (text->empty() && error->desc != nullptr) *text = error->desc;
        return 0;
      },
      &message);
  return message.empty() ? "no detail from HDF5" : message;
}

/// Turns HDF5's printing of error stacks off for the duration of a call (they become
/// exception messages).
class Silence {
 public:
  Silence() {
    H5Eget_auto2(H5E_DEFAULT, &function_, &data_);
    H5Eset_auto2(H5E_DEFAULT, nullptr, nullptr);
  }
  ~Silence() { H5Eset_auto2(H5E_DEFAULT, function_, data_); }
  Silence(const Silence&) = delete;
  Silence& operator=(const Silence&) = delete;

 private:
  H5E_auto2_t function_ = nullptr;
  void* data_ = nullptr;
};

template <herr_t (*Close)(hid_t)>
struct Hdf5Traits {
  using handle_type = hid_t;
  static hid_t null() { return H5I_INVALID_HID; }
  static void release(hid_t id) {
    if (id >= 0) Close(id);
  }
};

/// Owns an HDF5 identifier, closed with `Close`.
template <herr_t (*Close)(hid_t)>
class Handle : public distlops::detail::UniqueHandle<Hdf5Traits<Close>> {
 public:
  using distlops::detail::UniqueHandle<Hdf5Traits<Close>>::UniqueHandle;
  bool valid() const { return this->get() >= 0; }
  /// Closes now and reports whether that succeeded (files: the collective flush).
  bool close() { return !valid() || Close(this->take()) >= 0; }
};
using File = Handle<H5Fclose>;
using Dataset = Handle<H5Dclose>;
using Dataspace = Handle<H5Sclose>;
using TypeHandle = Handle<H5Tclose>;
using PropertyList = Handle<H5Pclose>;
using Group = Handle<H5Gclose>;
using Attribute = Handle<H5Aclose>;

/// Raises IoError naming `call` when `id` (or a status) is negative.
hid_t check(hid_t id, const std::string& where, const char* call) {
  if (id < 0) throw IoError(where + ": " + call + " failed: " + hdf5_message());
  return id;
}

/// The memory type of T: IEEE floats, complex numbers as h5py's compound {r, i}.
template <Scalar T>
TypeHandle memory_type() {
  if constexpr (is_complex_v<T>) {
    using R = real_type_t<T>;
    const hid_t real = std::is_same_v<R, float> ? H5T_NATIVE_FLOAT : H5T_NATIVE_DOUBLE;
    TypeHandle type(H5Tcreate(H5T_COMPOUND, sizeof(T)));
    H5Tinsert(type.get(), "r", 0, real);
    H5Tinsert(type.get(), "i", sizeof(R), real);
    return type;
  } else {
    return TypeHandle(H5Tcopy(std::is_same_v<T, float> ? H5T_NATIVE_FLOAT : H5T_NATIVE_DOUBLE));
  }
}

/// The NpyDtype of a file's datatype, or a description of what it is instead.
std::pair<bool, NpyDtype> dtype_of(hid_t type, std::string& description) {
  const H5T_class_t kind = H5Tget_class(type);
  const std::size_t size = H5Tget_size(type);
  if (kind == H5T_FLOAT && (size == 4 || size == 8)) {
    return {true, size == 4 ? NpyDtype::float32 : NpyDtype::float64};
  }
  if (kind == H5T_COMPOUND && H5Tget_nmembers(type) == 2 && (size == 8 || size == 16)) {
    bool complex = true;
    for (unsigned i = 0; i < 2; ++i) {
      char* name = H5Tget_member_name(type, i);
      const TypeHandle member(H5Tget_member_type(type, i));
      complex = complex && name != nullptr && std::string(name) == (i == 0 ? "r" : "i") &&
                H5Tget_member_offset(type, i) == i * size / 2 &&
                H5Tget_class(member.get()) == H5T_FLOAT && H5Tget_size(member.get()) == size / 2;
      H5free_memory(name);
    }
    if (complex) return {true, size == 8 ? NpyDtype::complex64 : NpyDtype::complex128};
  }
  const char* names[] = {"integer",  "float",     "time", "string",          "bitfield", "opaque",
                         "compound", "reference", "enum", "variable-length", "array"};
  description = (kind >= 0 && kind < 11 ? std::string(names[kind]) : std::string("unknown")) +
                " of " + std::to_string(size) + " bytes";
  return {false, NpyDtype::float64};
}

PropertyList file_access(const Communicator& comm) {
  PropertyList access(H5Pcreate(H5P_FILE_ACCESS));
  H5Pset_fapl_mpio(access.get(), comm.native(), MPI_INFO_NULL);
  return access;
}

PropertyList collective_transfer() {
  PropertyList transfer(H5Pcreate(H5P_DATASET_XFER));
  H5Pset_dxpl_mpio(transfer.get(), H5FD_MPIO_COLLECTIVE);
  return transfer;
}

/// Chunks of at most about 1 MiB: the leading axes are halved first, so a chunk is a run of
/// whole rows of the trailing axes where they fit.
std::vector<hsize_t> chunk_shape(const Shape& shape, std::size_t item_size) {
  std::vector<hsize_t> chunk(shape.begin(), shape.end());
  constexpr hsize_t target = hsize_t(1) << 20;
  auto bytes = [&] {
    hsize_t total = item_size;
    for (hsize_t extent : chunk)
      total *= extent;
    return total;
  };
  for (hsize_t& extent : chunk) {
    while (extent > 1 && bytes() > target)
      extent = (extent + 1) / 2;
  }
  return chunk;
}

/// Selects this rank's block of `layout` (the whole array when `whole`, nothing when `none`)
/// in the dataspace of its global shape.
void select_block(hid_t space, const Layout& layout, bool whole, bool none,
                  const std::string& where) {
  if (none || layout.global_size() == 0 || (!whole && layout.local_size() == 0)) {
    check(H5Sselect_none(space), where, "H5Sselect_none");
    return;
  }
  if (whole) {
    check(H5Sselect_all(space), where, "H5Sselect_all");
    return;
  }
  const ArrayBox box = layout.box();
  std::vector<hsize_t> start(box.lower.begin(), box.lower.end());
  std::vector<hsize_t> count(box.lower.size());
  for (std::size_t k = 0; k < count.size(); ++k)
    count[k] = static_cast<hsize_t>(box.upper[k] - box.lower[k]);
  check(H5Sselect_hyperslab(space, H5S_SELECT_SET, start.data(), nullptr, count.data(), nullptr),
        where, "H5Sselect_hyperslab");
}

/// Does this rank write its block? Replicated arrays: rank 0 only. SCATTER arrays, masked or
/// not: every rank (a mask groups ranks for reductions, it does not change the split).
bool writes_block(const Layout& layout) {
  return !layout.replicated() || layout.rank() == 0;
}

void write_attribute(hid_t object, const char* name, hid_t type, const std::vector<hsize_t>& dims,
                     const void* data, const std::string& where) {
  const Dataspace space(
      dims.empty() ? H5Screate(H5S_SCALAR)
                   : H5Screate_simple(static_cast<int>(dims.size()), dims.data(), nullptr));
  const Attribute attribute(check(
      H5Acreate2(object, name, type, space.get(), H5P_DEFAULT, H5P_DEFAULT), where, "H5Acreate2"));
  check(H5Awrite(attribute.get(), type, data), where, "H5Awrite");
}

/// The layout's description as attributes of the dataset (every rank writes the same values:
/// attribute writes are collective metadata operations in parallel HDF5).
void write_layout_attributes(hid_t dataset, const Layout& layout, const std::string& where) {
  const std::string partition = to_string(layout.partition());
  const TypeHandle text(H5Tcopy(H5T_C_S1));
  H5Tset_size(text.get(), partition.size());
  write_attribute(dataset, "distlops_partition", text.get(), {}, partition.c_str(), where);
  const long long ranks = layout.size();
  write_attribute(dataset, "distlops_ranks", H5T_NATIVE_LLONG, {}, &ranks, where);
  if (layout.is_slab()) {
    const long long axis = layout.axis();
    write_attribute(dataset, "distlops_axis", H5T_NATIVE_LLONG, {}, &axis, where);
    const std::vector<long long> extents(layout.local_extents().begin(),
                                         layout.local_extents().end());
    write_attribute(dataset, "distlops_local_extents", H5T_NATIVE_LLONG,
                    {static_cast<hsize_t>(extents.size())}, extents.data(), where);
    return;
  }
  // ArrayBox layouts: the grid when there is one, and every rank's box (lower then upper corner).
  if (layout.has_grid()) {
    const std::vector<long long> grid(layout.grid().begin(), layout.grid().end());
    write_attribute(dataset, "distlops_grid", H5T_NATIVE_LLONG, {static_cast<hsize_t>(grid.size())},
                    grid.data(), where);
  }
  const auto ndim = static_cast<hsize_t>(layout.ndim());
  std::vector<long long> boxes;
  for (int r = 0; r < layout.size(); ++r) {
    for (int k = 0; k < layout.ndim(); ++k)
      boxes.push_back(layout.box_lower(r, k));
    for (int k = 0; k < layout.ndim(); ++k)
      boxes.push_back(layout.box_upper(r, k));
  }
  write_attribute(dataset, "distlops_boxes", H5T_NATIVE_LLONG,
                  {static_cast<hsize_t>(layout.size()), 2, ndim}, boxes.data(), where);
}

/// One leaf of an array to write or read: its layout and its local data.
template <Scalar T>
struct Leaf {
  const Layout* layout;
  T* data;
};

/// Creates `name` and its dataset with the leaf's data in the open file (with `checksum`,
/// Fletcher32 checksums of its chunks). Collective.
template <Scalar T>
void write_leaf(hid_t file, const std::string& name, const Leaf<T>& leaf, const std::string& where,
                bool checksum = false) {
  const Layout& layout = *leaf.layout;
  const Communicator& comm = layout.communicator();
  const Shape& shape = layout.global_shape();
  const std::vector<hsize_t> dims(shape.begin(), shape.end());
  const TypeHandle type = memory_type<T>();
  Dataspace file_space;
  Dataset dataset;
  collective_check(comm, [&] {
    file_space =
        Dataspace(check(H5Screate_simple(static_cast<int>(dims.size()), dims.data(), nullptr),
                        where, "H5Screate_simple"));
    const PropertyList creation(H5Pcreate(H5P_DATASET_CREATE));
    // Parallel HDF5 allocates a dataset's storage when it creates it and would first write the
    // fill value over all of it; every element is written right after, so never fill.
    check(H5Pset_fill_time(creation.get(), H5D_FILL_TIME_NEVER), where, "H5Pset_fill_time");
    if (checksum && layout.global_size() > 0) {
      // Checkpoints: every chunk carries a Fletcher32 checksum, verified by every read. Plain
      // arrays stay contiguous (as h5py writes them): one collective write of large runs
      // instead of one piece of I/O per chunk.
      const std::vector<hsize_t> chunk = chunk_shape(shape, sizeof(T));
      check(H5Pset_chunk(creation.get(), static_cast<int>(chunk.size()), chunk.data()), where,
            "H5Pset_chunk");
      check(H5Pset_fletcher32(creation.get()), where, "H5Pset_fletcher32");
    }
    const PropertyList links(H5Pcreate(H5P_LINK_CREATE));
    H5Pset_create_intermediate_group(links.get(), 1);
    dataset = Dataset(check(H5Dcreate2(file, name.c_str(), type.get(), file_space.get(),
                                       links.get(), creation.get(), H5P_DEFAULT),
                            where, "H5Dcreate2"));
    write_layout_attributes(dataset.get(), layout, where);
  });
  const bool whole = layout.replicated();
  const bool none = !writes_block(layout);
  Dataspace memory_space;
  collective_check(comm, [&] {
    select_block(file_space.get(), layout, whole, none, where);
    const hsize_t local = static_cast<hsize_t>(none ? 0 : layout.local_size());
    memory_space = Dataspace(H5Screate_simple(1, &local, nullptr));
    if (local == 0) H5Sselect_none(memory_space.get());
  });
  // An empty dataset has no storage to write to (the same verdict on every rank: global).
  if (layout.global_size() == 0) return;
  const PropertyList transfer = collective_transfer();
  const herr_t status = H5Dwrite(dataset.get(), type.get(), memory_space.get(), file_space.get(),
                                 transfer.get(), leaf.data);
  collective_check(comm, [&] { check(status, where, "H5Dwrite"); });
}

/// Opens the dataset `name`, checks its dtype against T and its shape against the leaf's
/// layout, and reads the leaf's block. Collective.
template <Scalar T>
void read_leaf(hid_t file, const std::string& name, const Leaf<T>& leaf, const std::string& where) {
  const Layout& layout = *leaf.layout;
  const Communicator& comm = layout.communicator();
  Dataset dataset;
  Dataspace file_space, memory_space;
  const TypeHandle type = memory_type<T>();
  collective_check(comm, [&] {
    if (H5Lexists(file, name.c_str(), H5P_DEFAULT) <= 0) {
      throw IoError(where + ": the file has no dataset '" + name + "'");
    }
    dataset = Dataset(check(H5Dopen2(file, name.c_str(), H5P_DEFAULT), where, "H5Dopen2"));
    const TypeHandle file_type(check(H5Dget_type(dataset.get()), where, "H5Dget_type"));
    std::string description;
    const auto [known, dtype] = dtype_of(file_type.get(), description);
    if (!known || dtype != npy_dtype_of<T>()) {
      throw IoError(where + ": dataset '" + name + "' holds " +
                    (known ? std::string(npy_dtype_name(dtype)) : description) + " data, but " +
                    scalar_name<T>() + " was requested (no conversion is made)");
    }
    file_space = Dataspace(check(H5Dget_space(dataset.get()), where, "H5Dget_space"));
    const int ndim = H5Sget_simple_extent_ndims(file_space.get());
    std::vector<hsize_t> dims(static_cast<std::size_t>(std::max(ndim, 0)));
    H5Sget_simple_extent_dims(file_space.get(), dims.data(), nullptr);
    const Shape shape(dims.begin(), dims.end());
    if (shape != layout.global_shape()) {
      throw IoError(where + ": dataset '" + name + "' has shape " + to_string(shape) +
                    ", the layout's global shape is " + to_string(layout.global_shape()));
    }
    select_block(file_space.get(), layout, layout.replicated(), false, where);
    const hsize_t local = static_cast<hsize_t>(layout.local_size());
    memory_space = Dataspace(H5Screate_simple(1, &local, nullptr));
    if (local == 0 || layout.global_size() == 0) H5Sselect_none(memory_space.get());
  });
  if (layout.global_size() == 0) return;
  const PropertyList transfer = collective_transfer();
  const herr_t status = H5Dread(dataset.get(), type.get(), memory_space.get(), file_space.get(),
                                transfer.get(), leaf.data);
  collective_check(comm, [&] { check(status, where, "H5Dread"); });
}

/// Rank 0 checks that `name` is an HDF5 file before the collective open, so that a missing or
/// foreign file is one agreed IoError.
void check_readable(const Communicator& comm, const std::string& name, const std::string& where) {
  collective_check(comm, [&] {
    if (comm.rank() != 0) return;
    std::error_code error;
    if (!std::filesystem::exists(name, error)) throw IoError(where + ": the file does not exist");
    if (std::filesystem::is_directory(name, error)) {
      throw IoError(where + ": the path is a directory");
    }
    if (H5Fis_hdf5(name.c_str()) <= 0) {
      throw IoError(where + ": the file is not an HDF5 file or cannot be read");
    }
  });
}

File open_for_reading(const Communicator& comm, const std::string& name, const std::string& where) {
  check_readable(comm, name, where);
  const PropertyList access = file_access(comm);
  const hid_t id = H5Fopen(name.c_str(), H5F_ACC_RDONLY, access.get());
  File file(id);
  collective_check(comm, [&] { check(id, where, "H5Fopen"); });
  return file;
}

/// Writes `leaves` under `names` into a new file that replaces `path` atomically.
template <Scalar T>
void write_file(const std::filesystem::path& path, const std::vector<Leaf<T>>& leaves,
                const std::vector<std::string>& names, const Communicator& comm,
                const char* function) {
  const std::string name = path.string();
  const std::string where = describe_call(function, name);
  detail::check_same_text(comm, name, function);
  const Silence silence;
  detail::TemporaryFile temporary;
  collective_check(comm, [&] {
    if (comm.rank() == 0) temporary = detail::TemporaryFile::create(path, where);
  });
  const std::string temporary_name = distlops::detail::broadcast_string(comm, temporary.name(), 0);
  {
    const PropertyList access = file_access(comm);
    const hid_t id = H5Fcreate(temporary_name.c_str(), H5F_ACC_TRUNC, H5P_DEFAULT, access.get());
    File file(id);
    collective_check(comm, [&] { check(id, where, "H5Fcreate"); });
    for (std::size_t i = 0; i < leaves.size(); ++i)
      write_leaf(file.get(), names[i], leaves[i], where);
    const bool closed = file.close();
    collective_check(comm, [&] {
      if (!closed) throw IoError(where + ": H5Fclose failed: " + hdf5_message());
    });
  }
  collective_check(comm, [&] {
    if (comm.rank() != 0) return;
    distlops::detail::crash_point("hdf5.before_rename");
    temporary.commit(path, where);
  });
}

template <Scalar T>
void check_dataset_name(const Communicator& comm, const std::string& dataset, const char* function,
                        const std::string& where) {
  detail::check_same_text(comm, dataset, function, "the dataset name");
  if (dataset.empty() || dataset == "/") {
    throw InvalidArgument(where + ": the dataset name is empty");
  }
}

}  // namespace hdf5_file

using namespace hdf5_file;

template <Scalar T>
void write_hdf5(const std::filesystem::path& path, const DistributedArray<T, Host>& array,
                const std::string& dataset) {
  if (array.empty()) throw InvalidArgument("write_hdf5: the array is empty (it has no layout)");
  const Communicator& comm = array.communicator();
  check_dataset_name<T>(comm, dataset, "write_hdf5", describe_call("write_hdf5", path.string()));
  const std::vector<Leaf<T>> leaves{{&array.layout(), const_cast<T*>(array.data())}};
  write_file(path, leaves, {dataset}, comm, "write_hdf5");
}

template <Scalar T>
void write_hdf5(const std::filesystem::path& path, const StackedDistributedArray<T, Host>& array,
                const std::string& group) {
  if (array.narrays() == 0) throw InvalidArgument("write_hdf5: the stacked array has no arrays");
  const Communicator& comm = array.communicator();
  check_dataset_name<T>(comm, group, "write_hdf5", describe_call("write_hdf5", path.string()));
  std::vector<Leaf<T>> leaves;
  std::vector<std::string> names;
  array.for_each_array([&](const DistributedArray<T, Host>& leaf) {
    names.push_back(group + "/" + std::to_string(leaves.size()));
    leaves.push_back({&leaf.layout(), const_cast<T*>(leaf.data())});
  });
  write_file(path, leaves, names, comm, "write_hdf5");
}

template <Scalar T>
DistributedArray<T, Host> read_hdf5(const std::filesystem::path& path, const Layout& layout,
                                    const std::string& dataset) {
  if (!layout.valid()) throw InvalidArgument("read_hdf5: the layout is empty");
  const Communicator& comm = layout.communicator();
  const std::string name = path.string();
  const std::string where = describe_call("read_hdf5", name);
  detail::check_same_text(comm, name, "read_hdf5");
  check_dataset_name<T>(comm, dataset, "read_hdf5", where);
  const Silence silence;
  DistributedArray<T, Host> array(layout);
  File file = open_for_reading(comm, name, where);
  read_leaf(file.get(), dataset, Leaf<T>{&array.layout(), array.data()}, where);
  return array;
}

template <Scalar T>
DistributedArray<T, Host> read_hdf5(const std::filesystem::path& path, const Communicator& comm,
                                    Partition partition, int axis, const std::string& dataset) {
  const Hdf5DatasetInfo info = read_hdf5_info(path, comm, dataset);
  const std::string where = describe_call("read_hdf5", path.string());
  if (info.shape.empty()) {
    throw IoError(where + ": dataset '" + dataset +
                  "' is a scalar (shape ()), but layouts need one axis or more");
  }
  return read_hdf5<T>(path, Layout(comm, info.shape, partition, axis), dataset);
}

template <Scalar T>
StackedDistributedArray<T, Host> read_hdf5(const std::filesystem::path& path,
                                           const StackedLayout& layout, const std::string& group) {
  StackedDistributedArray<T, Host> array(layout);
  if (array.narrays() == 0) throw InvalidArgument("read_hdf5: the stacked layout is empty");
  const Communicator& comm = array.communicator();
  const std::string name = path.string();
  const std::string where = describe_call("read_hdf5", name);
  detail::check_same_text(comm, name, "read_hdf5");
  check_dataset_name<T>(comm, group, "read_hdf5", where);
  const Silence silence;
  File file = open_for_reading(comm, name, where);
  std::size_t index = 0;
  array.for_each_array([&](DistributedArray<T, Host>& leaf) {
    read_leaf(file.get(), group + "/" + std::to_string(index++),
              Leaf<T>{&leaf.layout(), leaf.data()}, where);
  });
  return array;
}

Hdf5DatasetInfo read_hdf5_info(const std::filesystem::path& path, const Communicator& comm,
                               const std::string& dataset) {
  const std::string name = path.string();
  const std::string where = describe_call("read_hdf5", name);
  detail::check_same_text(comm, name, "read_hdf5");
  detail::check_same_text(comm, dataset, "read_hdf5", "the dataset name");
  const Silence silence;
  Hdf5DatasetInfo info;
  int dtype = 0;
  collective_check(comm, [&] {
    if (comm.rank() != 0) return;
    if (!std::filesystem::exists(name)) throw IoError(where + ": the file does not exist");
    if (H5Fis_hdf5(name.c_str()) <= 0) {
      throw IoError(where + ": the file is not an HDF5 file or cannot be read");
    }
    const File file(check(H5Fopen(name.c_str(), H5F_ACC_RDONLY, H5P_DEFAULT), where, "H5Fopen"));
    if (H5Lexists(file.get(), dataset.c_str(), H5P_DEFAULT) <= 0) {
      throw IoError(where + ": the file has no dataset '" + dataset + "'");
    }
    const Dataset data(
        check(H5Dopen2(file.get(), dataset.c_str(), H5P_DEFAULT), where, "H5Dopen2"));
    const TypeHandle type(H5Dget_type(data.get()));
    std::string description;
    const auto [known, found] = dtype_of(type.get(), description);
    if (!known) {
      throw IoError(where + ": dataset '" + dataset + "' holds " + description +
                    " data, which distlops does not read");
    }
    dtype = static_cast<int>(found);
    const Dataspace space(H5Dget_space(data.get()));
    const int ndim = H5Sget_simple_extent_ndims(space.get());
    std::vector<hsize_t> dims(static_cast<std::size_t>(std::max(ndim, 0)));
    H5Sget_simple_extent_dims(space.get(), dims.data(), nullptr);
    info.shape.assign(dims.begin(), dims.end());
  });
  Index ndim = static_cast<Index>(info.shape.size());
  comm.broadcast(&ndim, 1, 0);
  info.shape.resize(static_cast<std::size_t>(ndim));
  comm.broadcast(info.shape.data(), ndim, 0);
  comm.broadcast(&dtype, 1, 0);
  info.dtype = static_cast<NpyDtype>(dtype);
  return info;
}

#define DISTLOPS_INSTANTIATE_HDF5(T)                                                           \
  template void write_hdf5<T>(const std::filesystem::path&, const DistributedArray<T, Host>&,  \
                              const std::string&);                                             \
  template void write_hdf5<T>(const std::filesystem::path&,                                    \
                              const StackedDistributedArray<T, Host>&, const std::string&);    \
  template DistributedArray<T, Host> read_hdf5<T>(const std::filesystem::path&, const Layout&, \
                                                  const std::string&);                         \
  template DistributedArray<T, Host> read_hdf5<T>(                                             \
      const std::filesystem::path&, const Communicator&, Partition, int, const std::string&);  \
  template StackedDistributedArray<T, Host> read_hdf5<T>(                                      \
      const std::filesystem::path&, const StackedLayout&, const std::string&);
DISTLOPS_FOR_EACH_SCALAR(DISTLOPS_INSTANTIATE_HDF5)
#undef DISTLOPS_INSTANTIATE_HDF5

// ---- solver checkpoints (distlops/solvers/detail/checkpoint.hpp) ------------------------------

namespace {

void write_string_attribute(hid_t object, const char* name, const std::string& value,
                            const std::string& where) {
  const TypeHandle text(H5Tcopy(H5T_C_S1));
  H5Tset_size(text.get(), std::max<std::size_t>(value.size(), 1));
  write_attribute(object, name, text.get(), {}, value.c_str(), where);
}

std::string read_string_attribute(hid_t object, const char* name, const std::string& where) {
  const Attribute attribute(check(H5Aopen(object, name, H5P_DEFAULT), where, "H5Aopen"));
  const TypeHandle type(H5Aget_type(attribute.get()));
  std::string value(H5Tget_size(type.get()), '\0');
  check(H5Aread(attribute.get(), type.get(), value.data()), where, "H5Aread");
  return value.substr(0, value.find('\0'));
}

long long read_integer_attribute(hid_t object, const char* name, const std::string& where) {
  const Attribute attribute(check(H5Aopen(object, name, H5P_DEFAULT), where, "H5Aopen"));
  long long value = 0;
  check(H5Aread(attribute.get(), H5T_NATIVE_LLONG, &value), where, "H5Aread");
  return value;
}

/// The scalar type named by a checkpoint ("float64", ...) as a function template argument.
template <class F>
void with_scalar_type(const std::string& name, const std::string& where, F&& f) {
  if (name == "float32") {
    f(float{});
  } else if (name == "float64") {
    f(double{});
  } else if (name == "complex64") {
    f(std::complex<float>{});
  } else if (name == "complex128") {
    f(std::complex<double>{});
  } else {
    throw IoError(where + ": unknown scalar type '" + name + "'");
  }
}

/// A vector of doubles that every rank holds, as a dataset written by rank 0.
void write_replicated(hid_t file, const std::string& name, const Communicator& comm,
                      const std::vector<double>& values, const std::string& where) {
  const Layout layout(comm, {static_cast<Index>(values.size())}, Partition::BROADCAST);
  write_leaf(file, name, Leaf<double>{&layout, const_cast<double*>(values.data())}, where,
             /*checksum=*/true);
}

std::vector<double> read_replicated(hid_t file, const std::string& name, const Communicator& comm,
                                    const std::string& where) {
  Index length = 0;
  collective_check(comm, [&] {
    const Dataset dataset(check(H5Dopen2(file, name.c_str(), H5P_DEFAULT), where, "H5Dopen2"));
    const Dataspace space(H5Dget_space(dataset.get()));
    length = static_cast<Index>(H5Sget_simple_extent_npoints(space.get()));
  });
  std::vector<double> values(static_cast<std::size_t>(length));
  const Layout layout(comm, {length}, Partition::BROADCAST);
  read_leaf(file, name, Leaf<double>{&layout, values.data()}, where);
  return values;
}

}  // namespace

}  // namespace distlops::io

namespace distlops::detail {

bool hdf5_checkpoints_available() {
  return true;
}

void write_hdf5_checkpoint(const std::string& path, const Communicator& comm,
                           const CheckpointContent& content,
                           std::span<const CheckpointLeaf> leaves) {
  using namespace distlops::io;
  const std::string where = "checkpoint " + path;
  const io::Silence silence;
  const io::PropertyList access = io::file_access(comm);
  const hid_t id = H5Fcreate(path.c_str(), H5F_ACC_TRUNC, H5P_DEFAULT, access.get());
  io::File file(id);
  collective_check(comm, [&] { io::check(id, where, "H5Fcreate"); });
  collective_check(comm, [&] {
    const hid_t root = file.get();
    io::write_string_attribute(root, "solver", content.identity.solver, where);
    io::write_string_attribute(root, "scalar_type", content.identity.scalar_type, where);
    const unsigned long long parameters = content.identity.parameters;
    io::write_attribute(root, "parameters", H5T_NATIVE_ULLONG, {}, &parameters, where);
    const long long values[] = {content.iteration, content.identity.size,
                                static_cast<long long>(leaves.size()),
                                static_cast<long long>(content.histories.size())};
    const char* names[] = {"iteration", "ranks", "blocks", "histories"};
    for (int i = 0; i < 4; ++i)
      io::write_attribute(root, names[i], H5T_NATIVE_LLONG, {}, &values[i], where);
  });
  io::with_scalar_type(content.identity.scalar_type, where, [&]<class T>(T) {
    for (std::size_t i = 0; i < leaves.size(); ++i) {
      io::write_leaf(file.get(), "block" + std::to_string(i),
                     io::Leaf<T>{&leaves[i].layout, static_cast<T*>(leaves[i].data)}, where,
                     /*checksum=*/true);
    }
  });
  io::write_replicated(file.get(), "scalars", comm, content.scalars, where);
  for (std::size_t i = 0; i < content.histories.size(); ++i)
    io::write_replicated(file.get(), "history" + std::to_string(i), comm, content.histories[i],
                         where);
  const bool closed = file.close();
  collective_check(comm, [&] {
    if (!closed) throw IoError(where + ": H5Fclose failed: " + io::hdf5_message());
  });
}

CheckpointContent read_hdf5_checkpoint_state(const std::string& path, const Communicator& comm) {
  const std::string where = "checkpoint " + path;
  const io::Silence silence;
  io::File file = io::open_for_reading(comm, path, where);
  CheckpointContent content;
  long long blocks = 0, histories = 0;
  collective_check(comm, [&] {
    const hid_t root = file.get();
    content.identity.solver = io::read_string_attribute(root, "solver", where);
    content.identity.scalar_type = io::read_string_attribute(root, "scalar_type", where);
    const io::Attribute attribute(
        io::check(H5Aopen(root, "parameters", H5P_DEFAULT), where, "H5Aopen"));
    unsigned long long parameters = 0;
    io::check(H5Aread(attribute.get(), H5T_NATIVE_ULLONG, &parameters), where, "H5Aread");
    content.identity.parameters = parameters;
    content.iteration = io::read_integer_attribute(root, "iteration", where);
    content.identity.size = static_cast<int>(io::read_integer_attribute(root, "ranks", where));
    blocks = io::read_integer_attribute(root, "blocks", where);
    histories = io::read_integer_attribute(root, "histories", where);
    io::with_scalar_type(content.identity.scalar_type, where,
                         [&]<class T>(T) { content.element_size = sizeof(T); });
    for (long long i = 0; i < blocks; ++i) {
      const std::string name = "block" + std::to_string(i);
      const io::Dataset dataset(
          io::check(H5Dopen2(root, name.c_str(), H5P_DEFAULT), where, "H5Dopen2"));
      const io::Dataspace space(H5Dget_space(dataset.get()));
      content.blocks.push_back({0, static_cast<Index>(H5Sget_simple_extent_npoints(space.get()))});
    }
  });
  content.scalars = io::read_replicated(file.get(), "scalars", comm, where);
  for (long long i = 0; i < histories; ++i)
    content.histories.push_back(
        io::read_replicated(file.get(), "history" + std::to_string(i), comm, where));
  return content;
}

void read_hdf5_checkpoint_vectors(const std::string& path, const Communicator& comm,
                                  const std::string& scalar_type,
                                  std::span<const CheckpointLeaf> leaves) {
  const std::string where = "checkpoint " + path;
  const io::Silence silence;
  io::File file = io::open_for_reading(comm, path, where);
  io::with_scalar_type(scalar_type, where, [&]<class T>(T) {
    for (std::size_t i = 0; i < leaves.size(); ++i) {
      io::read_leaf(file.get(), "block" + std::to_string(i),
                    io::Leaf<T>{&leaves[i].layout, static_cast<T*>(leaves[i].data)}, where);
    }
  });
}

}  // namespace distlops::detail
