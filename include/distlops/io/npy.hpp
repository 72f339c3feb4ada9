// SPDX-License-Identifier: BSD-3-Clause
// Copyright (c) 2026 The distlops authors
#pragma once
/// \file npy.hpp
/// Parallel reading and writing of DistributedArray in NumPy's .npy format with MPI-IO, for
/// interchange with NumPy and PyLops-MPI.
///
/// Files hold the global array in C order, exactly as numpy.save writes it; every rank reads or
/// writes only its own block, through a file view, with collective MPI-IO calls. Whole arrays
/// on every rank (operator parameters) are read by npy_local.hpp, .npz archives by npz.hpp.
/// Supported element types: float, double, std::complex<float> and std::complex<double> ('<f4',
/// '<f8', '<c8', '<c16'), on little-endian hosts.
///
/// All functions here are collective over the array's (or layout's) communicator, every rank
/// must pass the same path, and every failure (a missing file, a malformed header, a type or
/// shape that does not match, a failed write on any rank) raises the same exception on every
/// rank: IoError for the file and its content, InvalidArgument for bad arguments, never a hang.
///
/// \code
///   distlops::Layout layout(comm, {1000, 64}, distlops::Partition::SCATTER, 1);
///   auto x = distlops::io::read_npy<double>("model.npy", layout);
///   distlops::io::write_npy("result.npy", x);
///   auto y = distlops::io::read_npy<double>("result.npy", comm);  // split along axis 0
/// \endcode

#include <filesystem>
#include <functional>

#include "distlops/core/communicator.hpp"
#include "distlops/core/distributed_array.hpp"
#include "distlops/core/layout.hpp"
#include "distlops/core/partition.hpp"
#include "distlops/io/npy_header.hpp"

/// Input and output of NumPy's .npy files and .npz archives, distributed or whole.
namespace distlops::io {

/// Writes the global array to `path` in .npy format (C order, the dtype of T, the smallest
/// format version that fits, the header numpy.save would write).
///
/// - SCATTER: each rank writes its block. A mask does not matter: the file holds the global
///   array that DistributedArray::gather() returns.
/// - BROADCAST and UNSAFE_BROADCAST: rank 0 writes its replica; the other ranks write nothing
///   (for UNSAFE_BROADCAST arrays whose replicas differ, the file holds rank 0's).
///
/// The write is atomic: the data go to a new temporary file in the directory of `path` (named
/// `.<file name>.<random>.tmp`, created by rank 0 and opened by all), which is flushed to
/// storage (MPI_File_sync) and renamed over `path` by rank 0 once every rank has reported
/// success. An existing file at `path` is replaced only then, keeps its permission bits, and is
/// left untouched by any failure, after which the temporary is removed. A process killed during
/// the write may leave the temporary behind, never a partial file at `path`.
///
/// Raises IoError on every rank when the directory does not exist or is not writable, when
/// `path` names a directory, or when any step of the write fails on any rank;
/// InvalidArgument when the array is empty (has no layout) or the path differs between ranks.
template <Scalar T>
void write_npy(const std::filesystem::path& path, const DistributedArray<T, Host>& array);

/// Reads the .npy file at `path` into a new array of the given layout, which must have as many
/// elements as the file but may have any shape: the file's elements are taken in its C order
/// (numpy.load(path).reshape(layout's shape)), and the layout decides which rank gets which.
/// A flat file fills an N-d layout and an N-d file a flat one, as PyLops-MPI's flattened
/// arrays do. Each rank reads its block (replicated layouts: every rank reads the whole array)
/// in one collective read, whether the shapes agree or not: a C-order reshape moves no bytes.
///
/// Raises IoError on every rank when the file is missing or unreadable, is not a .npy file
/// (bad magic string), has an unsupported format version, a truncated or malformed header, an
/// unsupported dtype or one other than T's (no conversion is made), another number of elements
/// than the layout, fortran_order True with more than one axis longer than 1 (read those with
/// read_npy_local, npy_local.hpp), or less data than its shape requires. Bytes after the data
/// are ignored, as NumPy does.
template <Scalar T>
DistributedArray<T, Host> read_npy(const std::filesystem::path& path, const Layout& layout);

/// Reads the .npy file at `path` into an array with the file's global shape laid out over
/// `comm` with `partition` along `axis` (negative axes count from the end) with PyLops-MPI's
/// default split. Raises as above; a 0-d file (shape ()) raises IoError since layouts have at
/// least one axis, and an axis out of range InvalidArgument.
template <Scalar T>
DistributedArray<T, Host> read_npy(const std::filesystem::path& path, const Communicator& comm,
                                   Partition partition = Partition::SCATTER, int axis = 0);

/// The header of the .npy file at `path` on every rank of `comm` (rank 0 reads and every rank
/// parses the same bytes), e.g. to choose a layout from the shape before read_npy. Raises
/// IoError on every rank as parse_npy_header does, and for a missing or unreadable file.
NpyHeader read_npy_header(const std::filesystem::path& path, const Communicator& comm);

namespace detail {

/// The steps of write_npy, in order.
enum class WriteStage { create_temporary, open, write_header, write_data, sync, close, rename };

/// Testing aid for the failure paths of write_npy: when set, `hook(stage)` runs at each stage of
/// every write_npy, on every rank (the rename stage: on rank 0, which alone renames); an
/// exception it throws counts as a failure of that stage on that rank. An empty function
/// removes the hook.
void set_write_stage_hook(std::function<void(WriteStage)> hook);

}  // namespace detail

}  // namespace distlops::io
