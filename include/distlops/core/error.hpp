// SPDX-License-Identifier: BSD-3-Clause
// Copyright (c) 2026 The distlops authors
#pragma once
/// \file error.hpp
/// The exception hierarchy. Every error the library raises derives from distlops::Error and
/// says what was expected and what was given.

#include <stdexcept>
#include <string>

namespace distlops {

/// Which class of the hierarchy an error belongs to; lets an error raised on one rank be
/// rethrown with the same type on every other rank (see collective_check.hpp).
enum class ErrorKind : int {
  generic = 0,           ///< Error itself.
  invalid_argument = 1,  ///< InvalidArgument.
  shape_mismatch = 2,    ///< ShapeMismatch.
  communication = 3,     ///< CommunicationError.
  device = 4,            ///< DeviceError.
  io = 5,                ///< IoError.
  replica_mismatch = 6,  ///< ReplicaMismatch.
};

/// Base of every exception raised by distlops.
class Error : public std::runtime_error {
 public:
  /// An error whose what() is `message`.
  explicit Error(const std::string& message) : std::runtime_error(message) {}
  /// The class of the most derived type, so that other ranks can rethrow the same type.
  virtual ErrorKind kind() const noexcept { return ErrorKind::generic; }
};

/// A parameter outside its valid range: an axis out of bounds, a negative size, an unknown
/// option, local shapes that do not sum up to the global shape.
class InvalidArgument : public Error {
 public:
  using Error::Error;
  /// ErrorKind::invalid_argument.
  ErrorKind kind() const noexcept override { return ErrorKind::invalid_argument; }
};

/// Operands that do not fit together: different shapes, layouts, partitions or masks.
class ShapeMismatch : public Error {
 public:
  using Error::Error;
  /// ErrorKind::shape_mismatch.
  ErrorKind kind() const noexcept override { return ErrorKind::shape_mismatch; }
};

/// A failed MPI or NCCL call; the message names the call.
class CommunicationError : public Error {
 public:
  using Error::Error;
  /// ErrorKind::communication.
  ErrorKind kind() const noexcept override { return ErrorKind::communication; }
};

/// A failed CUDA, cuBLAS or cuFFT call, or a device that is absent; the message names the call.
class DeviceError : public Error {
 public:
  using Error::Error;
  /// ErrorKind::device.
  ErrorKind kind() const noexcept override { return ErrorKind::device; }
};

/// A file that cannot be read or written, or whose content is malformed.
class IoError : public Error {
 public:
  using Error::Error;
  /// ErrorKind::io.
  ErrorKind kind() const noexcept override { return ErrorKind::io; }
};

/// Replicas of a BROADCAST array that were found to differ between ranks.
class ReplicaMismatch : public Error {
 public:
  using Error::Error;
  /// ErrorKind::replica_mismatch.
  ErrorKind kind() const noexcept override { return ErrorKind::replica_mismatch; }
};

/// Throws the exception class that `kind` names, with `message` as its what(); used to rethrow
/// on every rank an error found on one (collective_check.hpp).
[[noreturn]] void throw_error(ErrorKind kind, const std::string& message);

}  // namespace distlops
