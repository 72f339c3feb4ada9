// SPDX-License-Identifier: BSD-3-Clause
// Copyright (c) 2026 The distlops authors
#pragma once
// Derived MPI datatypes that describe a block of any number of elements as one unit, so that
// a transfer whose element count exceeds what one MPI call may carry still moves in one call.

#include <mpi.h>

#include <cstddef>
#include <span>
#include <utility>

#include "distlops/core/types.hpp"
#include "unique_handle.hpp"

namespace distlops::detail {

/// What UniqueHandle needs of an MPI datatype: freed unless MPI has been finalized.
struct MessageDatatypeTraits {
  using handle_type = MPI_Datatype;
  static MPI_Datatype null() { return MPI_DATATYPE_NULL; }
  static void release(MPI_Datatype& type);
};

/// An owned MPI datatype, freed with the object. MPI keeps a type alive for the operations
/// still pending on it, so it may go before a non-blocking transfer completes.
class MessageDatatype : public UniqueHandle<MessageDatatypeTraits> {
 public:
  using UniqueHandle::UniqueHandle;
  /// Commits the type so that transfers may use it.
  void commit();
};

/// A committed datatype for `count` contiguous elements of `element` (`element_size` bytes
/// each) starting `offset_bytes` after the buffer given to MPI: one instance of it moves the
/// whole block. Built from nested contiguous types so that no count handed to MPI exceeds
/// `limit`, which must be at least 2.
MessageDatatype block_datatype(Index count, MPI_Datatype element, std::size_t element_size,
                               Index limit, Index offset_bytes = 0);

/// `count` instances of `block` whose starts are `stride_bytes` apart, as one (uncommitted)
/// datatype: nested strided types above `limit` instances, so that any count works.
MessageDatatype strided_datatype(Index count, Index stride_bytes, MPI_Datatype block, Index limit);

/// A committed datatype for the box of `extent` at `corner` of a C-order array of
/// `array_shape` whose elements are `element_size` bytes (`element`), starting `offset_bytes`
/// after the buffer given to MPI plus the corner's offset: one instance moves the whole box in
/// place. Axes of extent 1 are dropped and axes contiguous in the array merged; no count
/// handed to MPI exceeds `limit` (at least 2). The box must not be empty.
MessageDatatype box_datatype(std::span<const Index> array_shape, std::span<const Index> corner,
                             std::span<const Index> extent, MPI_Datatype element,
                             std::size_t element_size, Index limit, Index offset_bytes = 0);

}  // namespace distlops::detail
