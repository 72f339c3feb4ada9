// SPDX-License-Identifier: BSD-3-Clause
// Copyright (c) 2026 The distlops authors
#include "distlops/core/error.hpp"

#include "distlops/core/types.hpp"

namespace distlops {

void throw_error(ErrorKind kind, const std::string& message) {
  switch (kind) {
    case ErrorKind::invalid_argument:
      throw InvalidArgument(message);
    case ErrorKind::shape_mismatch:
      throw ShapeMismatch(message);
    case ErrorKind::communication:
      throw CommunicationError(message);
    case ErrorKind::device:
      throw DeviceError(message);
    case ErrorKind::io:
      throw IoError(message);
    case ErrorKind::replica_mismatch:
      throw ReplicaMismatch(message);
    case ErrorKind::generic:
      break;
  }
  throw Error(message);
}

std::string to_string(const Shape& shape) {
  std::string text = "(";
  for (std::size_t i = 0; i < shape.size(); ++i) {
    if (i > 0) text += ", ";
    text += std::to_string(shape[i]);
  }
  if (shape.size() == 1) text += ",";
  return text + ")";
}

void detail::throw_element_count_overflow(const Shape& shape) {
  throw InvalidArgument("the shape " + to_string(shape) +
                        " has more elements than a 64-bit index can count");
}

}  // namespace distlops
