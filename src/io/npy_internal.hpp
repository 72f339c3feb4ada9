#pragma once
// What the .npy readers share (internal to the library): the checks of a header against the
// requested element type and target, the bytes of a layout's block in a C order data region,
// and the collective MPI-IO read of such a region.
#include <cstddef>
#include <span>
#include <string>

#include "distlops/core/communicator.hpp"
#include "distlops/core/distributed_array.hpp"
#include "distlops/core/layout.hpp"
#include "distlops/io/npy_header.hpp"

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
/// reads: `count` blocks of `block` bytes whose starts are `stride` bytes apart, the first
/// `start` bytes after the beginning of the data.
struct Region {
  Index start = 0;
  Index count = 0;
  Index block = 0;
  Index stride = 0;
  Index bytes() const { return count * block; }
};

/// This rank's block of a layout, or the whole array when `whole`.
Region region_of(const Layout& layout, std::size_t item_size, bool whole);

/// Reads every rank's block of `layout` (replicated layouts: the whole array) from the C-order
/// data that start `data_offset` bytes into the file `name`, with collective MPI-IO. Failures
/// raise IoError on every rank. Collective over the layout's communicator.
template <Scalar T>
DistributedArray<T, Host> read_region(const std::string& name, Index data_offset,
                                      const Layout& layout, const std::string& where);

}  // namespace distlops::io::detail
