// SPDX-License-Identifier: BSD-3-Clause
// Copyright (c) 2026 The distlops authors
#pragma once
/// \file hdf5.hpp
/// Parallel reading and writing of DistributedArray and StackedDistributedArray in HDF5 files
/// with parallel HDF5 (collective MPI-IO), for data at scale and for exchange with h5py.
///
/// A file holds the global array as one chunked dataset of its global shape in C order, with
/// h5py's types (IEEE floats; complex numbers as the compound {r, i}), so `h5py.File(path)
/// ["data"][...]` is the array DistributedArray::gather() returns. The layout that wrote it is
/// kept in the dataset's attributes (`distlops_partition`, `distlops_ranks`; slabs
/// `distlops_axis`, `distlops_local_extents`; box layouts `distlops_grid`, `distlops_boxes`)
/// for information: any rank count, partition, axis, grid or boxes reads any file. A stacked array is a group whose datasets `0`, `1`, ...
/// are its leaves, depth first.
///
/// All functions are collective over the array's (or layout's) communicator, every rank must
/// pass the same path and dataset name, and every failure raises the same exception on every
/// rank: IoError for the file and its content (missing file or dataset, another dtype or
/// shape, a failed write), InvalidArgument for bad arguments, never a hang.
///
/// Available when distlops was built with parallel HDF5 (`DISTLOPS_WITH_HDF5`,
/// distlops/io/io_config.hpp).
///
/// \code
///   distlops::io::write_hdf5("model.h5", x);                      // dataset "data"
///   auto y = distlops::io::read_hdf5<double>("model.h5", comm);   // split along axis 0
///   auto z = distlops::io::read_hdf5<double>("model.h5", layout); // any partition and axis
/// \endcode

#include <filesystem>
#include <string>

#include "distlops/core/communicator.hpp"
#include "distlops/core/distributed_array.hpp"
#include "distlops/core/layout.hpp"
#include "distlops/core/partition.hpp"
#include "distlops/core/stacked_distributed_array.hpp"
#include "distlops/core/stacked_layout.hpp"
#include "distlops/io/io_config.hpp"
#include "distlops/io/npy_header.hpp"

#if !DISTLOPS_WITH_HDF5
#error \
    "distlops was built without parallel HDF5 (no libhdf5-openmpi-dev or libhdf5-mpich-dev matching its MPI at configure time): distlops/io/hdf5.hpp is not available"
#endif

namespace distlops::io {

/// The shape and element type of a dataset.
struct Hdf5DatasetInfo {
  /// The dataset's global shape.
  Shape shape;
  /// The element type (h5py's types: complex as the compound {r, i}).
  NpyDtype dtype = NpyDtype::float64;
};

/// Writes the global array to a new HDF5 file at `path` as the dataset `dataset` (chunked, C
/// order, the dtype of T). SCATTER: each rank writes its block with one collective write; a
/// mask does not change the file. BROADCAST and
/// UNSAFE_BROADCAST: rank 0 writes its replica.
///
/// Atomic like write_npy: the file is written under a temporary name in the directory of
/// `path`, closed (flushed) by every rank and renamed over `path` by rank 0 only once every rank
/// has succeeded; a failure or a killed job leaves any previous file at `path` untouched.
template <Scalar T>
void write_hdf5(const std::filesystem::path& path, const DistributedArray<T, Host>& array,
                const std::string& dataset = "data");

/// Writes a stacked array as the group `group` of a new file, its leaves (depth first) as the
/// datasets `group/0`, `group/1`, ...; atomic as above.
template <Scalar T>
void write_hdf5(const std::filesystem::path& path, const StackedDistributedArray<T, Host>& array,
                const std::string& group = "data");

/// Reads the dataset into a new array of `layout`, whose global shape must be the dataset's;
/// the partition and axis are any (each rank reads its block with one collective read).
/// IoError when the file or dataset is missing, or its dtype or shape differs (no conversion).
template <Scalar T>
DistributedArray<T, Host> read_hdf5(const std::filesystem::path& path, const Layout& layout,
                                    const std::string& dataset = "data");

/// Reads the dataset with its own shape, split with `partition` along `axis` (default split;
/// negative axes count from the end).
template <Scalar T>
DistributedArray<T, Host> read_hdf5(const std::filesystem::path& path, const Communicator& comm,
                                    Partition partition = Partition::SCATTER, int axis = 0,
                                    const std::string& dataset = "data");

/// Reads a group written by write_hdf5 of a stacked array into a new array of `layout`, whose
/// leaves (depth first) must have the shapes of the datasets `group/0`, `group/1`, ...
template <Scalar T>
StackedDistributedArray<T, Host> read_hdf5(const std::filesystem::path& path,
                                           const StackedLayout& layout,
                                           const std::string& group = "data");

/// The shape and dtype of a dataset (rank 0 reads, every rank gets them).
Hdf5DatasetInfo read_hdf5_info(const std::filesystem::path& path, const Communicator& comm,
                               const std::string& dataset = "data");

}  // namespace distlops::io
