// SPDX-License-Identifier: BSD-3-Clause
// Copyright (c) 2026 The distlops authors
#include "message_datatype.hpp"

#include "distlops/core/communicator.hpp"
#include "distlops/core/error.hpp"

namespace distlops::detail {

MessageDatatype::~MessageDatatype() {
  if (type_ == MPI_DATATYPE_NULL) return;
  int finalized = 0;
  MPI_Finalized(&finalized);
  if (!finalized) MPI_Type_free(&type_);
}

void MessageDatatype::commit() {
  check_mpi(MPI_Type_commit(&type_), "MPI_Type_commit");
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

}  // namespace

MessageDatatype block_datatype(Index count, MPI_Datatype element, std::size_t element_size,
                               Index limit, Index offset_bytes) {
  if (limit < 2 || count < 0 || offset_bytes < 0) {
    throw InvalidArgument("block_datatype: needs a limit of at least 2 and no negative sizes");
  }
  MessageDatatype block = nested_elements(count, element, element_size, limit);
  if (offset_bytes != 0) {
    int length = 1;
    MPI_Aint displacement = static_cast<MPI_Aint>(offset_bytes);
    MPI_Datatype inner = block.get();
    MPI_Datatype type = MPI_DATATYPE_NULL;
    check_mpi(MPI_Type_create_struct(1, &length, &displacement, &inner, &type),
              "MPI_Type_create_struct");
    block = MessageDatatype(type);
  }
  block.commit();
  return block;
}

}  // namespace distlops::detail
