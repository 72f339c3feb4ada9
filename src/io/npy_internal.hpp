// SPDX-License-Identifier: BSD-3-Clause
// Copyright (c) 2026 The distlops authors
#pragma once
// What the .npy, local .npy and .npz readers share (internal to the library): the checks of a
// header against the requested element type and target, the bytes of a layout's block in a C
// order data region, the collective MPI-IO read of such a region, the conversion of
// Fortran-ordered data, and the whole-array reading of read_npy_local and read_npz_local.
#include <cstddef>
#include <cstdint>
#include <span>
#include <string>
#include <vector>

#include "distlops/core/collective_check.hpp"
#include "distlops/core/communicator.hpp"
#include "distlops/core/distributed_array.hpp"
#include "distlops/core/error.hpp"
#include "distlops/core/layout.hpp"
#include "distlops/io/npy_header.hpp"
#include "distlops/io/npy_local.hpp"

namespace distlops::io::detail {

/// "function("path")", the start of every message of a call.
std::string describe_call(const char* function, const std::string& name);

/// Agrees that `name` is the same on every rank of `comm` (InvalidArgument on every rank
/// otherwise). `subject` names what is compared ("the path", "the path or member name").
void check_same_text(const Communicator& comm, const std::string& name, const char* function,
                     const char* subject = "the path");

/// Raises IoError when `header` holds another dtype than T (no conversion is made), or when
/// its data need more than the `available` bytes that follow the header in `holder` ("the
/// file", "the member").
template <Scalar T>
void check_dtype_and_size(const NpyHeader& header, Index available, const std::string& where,
                          const char* holder = "the file");

/// Raises IoError for a Fortran-ordered array with more than one axis longer than 1 (their
/// bytes are not in C order); `hint` ends the message.
void check_c_order(const NpyHeader& header, const std::string& where, const std::string& hint);

/// Raises IoError when the file's array and the layout have different numbers of elements.
/// Any shape of the same size is accepted: the elements are taken in the file's C order.
void check_element_count(const NpyHeader& header, const Layout& layout, const std::string& where);

/// The bytes of the data region (a C-order array of the layout's global shape) that one rank
/// reads: runs of `block` contiguous bytes, the first `start` bytes after the beginning of the
/// data, repeated on nested levels: counts[l] times, strides[l] bytes apart (outermost level
/// first; no level: one run). A box of the array, its axes of extent 1 dropped and those
/// contiguous in the file merged.
struct Region {
  Index start = 0;
  Index block = 0;
  std::vector<Index> counts;
  std::vector<Index> strides;
  /// Number of runs.
  Index runs() const {
    Index runs = 1;
    for (Index c : counts)
      runs *= c;
    return runs;
  }
  /// Number of bytes.
  Index bytes() const { return runs() * block; }
};

/// This rank's block of a layout, or the whole array when `whole`.
Region region_of(const Layout& layout, std::size_t item_size, bool whole);

/// Reads every rank's block of `layout` (replicated layouts: the whole array) from the C-order
/// data that start `data_offset` bytes into the file `name`, with collective MPI-IO. Failures
/// raise IoError on every rank. Collective over the layout's communicator.
template <Scalar T>
DistributedArray<T, Host> read_region(const std::string& name, Index data_offset,
                                      const Layout& layout, const std::string& where);

/// Reorders `values` of an array of `shape` stored in Fortran order into C order.
template <class T>
void fortran_to_c_order(std::span<T> values, const Shape& shape);

/// The bytes of a .npy file one after the other: a plain file or a member of an archive.
class ByteSource {
 public:
  virtual ~ByteSource() = default;
  /// Reads exactly out.size() bytes (IoError when fewer are left).
  virtual void read(std::span<std::byte> out) = 0;
  /// Bytes left.
  virtual std::uint64_t remaining() const = 0;
  /// Called after the data were read: checks what the source can check (an archive member's
  /// CRC-32); bytes after the data are ignored.
  virtual void finish() {}
};

/// The raw header bytes (magic string to newline) at the start of `source`, read as far as the
/// header's declared length and the bytes left allow; parse_npy_header then parses or rejects
/// them.
std::vector<std::byte> read_header_bytes(ByteSource& source);

/// The whole array of `source` in C order. `holder` names the source in messages ("the file",
/// "the member").
template <Scalar T>
NpyArray<T> read_whole(ByteSource& source, const std::string& where, const char* holder);

/// Makes every rank's `array` rank `root`'s. Collective.
template <Scalar T>
void broadcast_array(NpyArray<T>& array, const Communicator& comm, int root);

/// The course of read_npy_local and read_npz_local: agrees on `options` (first, so that all
/// ranks take the same path through the rest), with one reader agrees that `names` (the path,
/// and the member) are the same everywhere, then runs `read` (which returns the whole array) on
/// the reading rank(s), agrees on its verdict, and with one reader broadcasts the result.
template <Scalar T, class Read>
NpyArray<T> read_local(const Communicator& comm, const NpyLocalOptions& options,
                       const std::string& where, const std::string& names, const char* function,
                       const char* subject, Read&& read) {
  NpyArray<T> result;
  Fingerprint fingerprint;
  fingerprint.add(options.every_rank).add(options.root);
  collective_check(comm, fingerprint, where + ": the set of options", [&] {
    if (!options.every_rank && (options.root < 0 || options.root >= comm.size())) {
      throw InvalidArgument(where + ": root " + std::to_string(options.root) +
                            " is not a rank of a communicator of size " +
                            std::to_string(comm.size()));
    }
  });
  // With one reader the others must mean the same file; every rank may read its own.
  if (!options.every_rank) check_same_text(comm, names, function, subject);
  collective_check(comm, [&] {
    if (options.every_rank || comm.rank() == options.root) result = read();
  });
  if (!options.every_rank) broadcast_array(result, comm, options.root);
  return result;
}

}  // namespace distlops::io::detail
