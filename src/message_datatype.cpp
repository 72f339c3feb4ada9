// SPDX-License-Identifier: BSD-3-Clause
// Copyright (c) 2026 The distlops authors
#include "message_datatype.hpp"

#include "distlops/core/communicator.hpp"
#include "distlops/core/error.hpp"

namespace distlops::detail {

void MessageDatatypeTraits::release(MPI_Datatype& type) {
  int finalized = 0;
  MPI_Finalized(&finalized);
  if (!finalized) MPI_Type_free(&type);
}

void MessageDatatype::commit() {
  check_mpi(MPI_Type_commit(&handle_), "MPI_Type_commit");
}

namespace {

MessageDatatype contiguous_elements(Index count, MPI_Datatype element) {
  MPI_Datatype type = MPI_DATATYPE_NULL;
  check_mpi(MPI_Type_contiguous(static_cast<int>(count), element, &type), "MPI_Type_contiguous");
  return MessageDatatype(type);
}

// `count` elements as nested contiguous types: `limit` elements make a piece, `limit` pieces
// the next level, and so on; the remainder of each level is appended with a struct.
MessageDatatype nested_elements(Index count, MPI_Datatype element, std::size_t element_size,
                                Index limit) {
  if (count <= limit) return contiguous_elements(count, element);
  const MessageDatatype piece = contiguous_elements(limit, element);
  MessageDatatype body = nested_elements(count / limit, piece.get(), element_size * limit, limit);
  const Index rest = count % limit;
  if (rest == 0) return body;
  int lengths[2] = {1, static_cast<int>(rest)};
  MPI_Aint displacements[2] = {
      0, static_cast<MPI_Aint>(static_cast<std::size_t>(count - rest) * element_size)};
  MPI_Datatype types[2] = {body.get(), element};
  MPI_Datatype type = MPI_DATATYPE_NULL;
  check_mpi(MPI_Type_create_struct(2, lengths, displacements, types, &type),
            "MPI_Type_create_struct");
  return MessageDatatype(type);
}

// `type` starting `offset_bytes` after the buffer (itself when the offset is 0).
MessageDatatype displaced_type(MessageDatatype type, Index offset_bytes) {
  if (offset_bytes == 0) return type;
  int length = 1;
  MPI_Aint displacement = static_cast<MPI_Aint>(offset_bytes);
  MPI_Datatype inner = type.get();
  MPI_Datatype result = MPI_DATATYPE_NULL;
  check_mpi(MPI_Type_create_struct(1, &length, &displacement, &inner, &result),
            "MPI_Type_create_struct");
  return MessageDatatype(result);
}

}  // namespace

MessageDatatype block_datatype(Index count, MPI_Datatype element, std::size_t element_size,
                               Index limit, Index offset_bytes) {
  if (limit < 2 || count < 0 || offset_bytes < 0) {
    throw InvalidArgument("block_datatype: needs a limit of at least 2 and no negative sizes");
  }
  MessageDatatype block =
      displaced_type(nested_elements(count, element, element_size, limit), offset_bytes);
  block.commit();
  return block;
}

MessageDatatype strided_datatype(Index count, Index stride_bytes, MPI_Datatype block, Index limit) {
  MPI_Datatype type = MPI_DATATYPE_NULL;
  if (count <= limit) {
    check_mpi(MPI_Type_create_hvector(static_cast<int>(count), 1, stride_bytes, block, &type),
              "MPI_Type_create_hvector");
    return MessageDatatype(type);
  }
  const Index groups = count / limit;
  const Index rest = count % limit;
  const MessageDatatype group = strided_datatype(limit, stride_bytes, block, limit);
  MessageDatatype body = strided_datatype(groups, limit * stride_bytes, group.get(), limit);
  if (rest == 0) return body;
  const MessageDatatype tail = strided_datatype(rest, stride_bytes, block, limit);
  int lengths[2] = {1, 1};
  MPI_Aint displacements[2] = {0, static_cast<MPI_Aint>(groups * limit * stride_bytes)};
  MPI_Datatype types[2] = {body.get(), tail.get()};
  check_mpi(MPI_Type_create_struct(2, lengths, displacements, types, &type),
            "MPI_Type_create_struct");
  return MessageDatatype(type);
}

MessageDatatype box_datatype(std::span<const Index> array_shape, std::span<const Index> corner,
                             std::span<const Index> extent, MPI_Datatype element,
                             std::size_t element_size, Index limit, Index offset_bytes) {
  const std::size_t ndim = array_shape.size();
  if (limit < 2 || offset_bytes < 0 || corner.size() != ndim || extent.size() != ndim) {
    throw InvalidArgument(
        "box_datatype: needs a limit of at least 2 and one corner and extent "
        "per axis");
  }
  // The remaining axes, innermost first: extents and strides in elements.
  std::vector<Index> counts, strides;
  Index stride = 1, offset = 0;
  for (std::size_t k = ndim; k-- > 0;) {
    offset += corner[k] * stride;
    if (extent[k] == 0) throw InvalidArgument("box_datatype: empty box");
    if (extent[k] != 1) {
      if (!counts.empty() && stride == strides.back() * counts.back()) {
        counts.back() *= extent[k];
      } else {
        counts.push_back(extent[k]);
        strides.push_back(stride);
      }
    }
    stride *= array_shape[k];
  }
  const auto es = static_cast<Index>(element_size);
  MessageDatatype type;
  std::size_t level = 0;
  if (counts.empty() || strides[0] != 1) {
    type = nested_elements(1, element, element_size, limit);
  } else {
    type = nested_elements(counts[0], element, element_size, limit);
    level = 1;
  }
  for (; level < counts.size(); ++level)
    type = strided_datatype(counts[level], strides[level] * es, type.get(), limit);
  type = displaced_type(std::move(type), offset_bytes + offset * es);
  type.commit();
  return type;
}

}  // namespace distlops::detail
