// SPDX-License-Identifier: BSD-3-Clause
// Copyright (c) 2026 The distlops authors
#pragma once
/// \file npz.hpp
/// Reading NumPy's .npz archives (numpy.savez, numpy.savez_compressed): a member into a
/// DistributedArray, or whole on every rank for operator parameters.
///
/// \code
///   auto names = distlops::io::npz_members("inputs.npz", comm);          // {"data", "wav"}
///   auto d = distlops::io::read_npz<float>("inputs.npz", "data", layout);
///   auto w = distlops::io::read_npz_local<float>("inputs.npz", "wav", comm).vector();
/// \endcode
///
/// An .npz file is a ZIP archive whose members are .npy files named `<name>.npy`; a member is
/// named with or without the `.npy` (as numpy.load(...)[name] does). Members may be stored
/// (numpy.savez) or deflated (numpy.savez_compressed); zip64 archives (beyond 4 GiB) are read.
/// Dtypes, shapes and orders are those of read_npy and read_npy_local (npy.hpp,
/// npy_local.hpp), and so are the targets: for distributed reads, any layout with as many
/// elements as the member, its elements taken in C order.
///
/// How a distributed read goes: rank 0 reads the archive's directory and the member's .npy
/// header and broadcasts them. A stored member is then read like a .npy file, each rank its own
/// block with collective MPI-IO. A deflated member cannot be entered in the middle: every rank
/// inflates the whole member (zlib), keeps its own block and checks the member's CRC-32 and
/// size; that costs each rank the time of one decompression but no memory beyond its block and
/// no communication of data. (The CRC-32 of a stored member read in parallel is not checked:
/// no rank sees all its bytes.)
///
/// All functions are collective over the communicator, and every failure raises the same
/// exception on every rank: IoError for the archive and its content (no ZIP archive, a member
/// that does not exist — the message lists those that do —, an encrypted member or one
/// compressed otherwise than stored or deflated, a multi-disk archive, corrupt or truncated
/// data, a CRC-32 mismatch, and everything read_npy rejects), InvalidArgument for bad
/// arguments (paths or member names that differ between ranks, an empty layout).

#include <filesystem>
#include <string>
#include <vector>

#include "distlops/core/communicator.hpp"
#include "distlops/core/distributed_array.hpp"
#include "distlops/core/layout.hpp"
#include "distlops/core/partition.hpp"
#include "distlops/io/npy_header.hpp"
#include "distlops/io/npy_local.hpp"

namespace distlops::io {

/// The names of the archive's .npy members without their `.npy` (numpy.load(path).files), in
/// the archive's order, on every rank (rank 0 reads them).
std::vector<std::string> npz_members(const std::filesystem::path& path, const Communicator& comm);

/// The .npy header of a member on every rank (rank 0 reads it), e.g. to choose a layout.
NpyHeader read_npz_header(const std::filesystem::path& path, const std::string& member,
                          const Communicator& comm);

/// Reads the member into a new array of `layout`, which must have as many elements as the
/// member (any shape; elements in C order). Collective over the layout's communicator.
template <Scalar T>
DistributedArray<T, Host> read_npz(const std::filesystem::path& path, const std::string& member,
                                   const Layout& layout);

/// Reads the member into an array of its own shape, laid out over `comm` with `partition`
/// along `axis` (negative axes count from the end) with the default split.
template <Scalar T>
DistributedArray<T, Host> read_npz(const std::filesystem::path& path, const std::string& member,
                                   const Communicator& comm,
                                   Partition partition = Partition::SCATTER, int axis = 0);

/// The whole member on every rank of `comm`, read by one rank and broadcast or by every rank
/// (NpyLocalOptions, as read_npy_local). Fortran-ordered members are reordered into C order.
template <Scalar T>
NpyArray<T> read_npz_local(const std::filesystem::path& path, const std::string& member,
                           const Communicator& comm, const NpyLocalOptions& options = {});

}  // namespace distlops::io
