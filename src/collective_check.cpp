// SPDX-License-Identifier: BSD-3-Clause
// Copyright (c) 2026 The distlops authors
#include "distlops/core/collective_check.hpp"

#include <string>

#include "distlops/core/error.hpp"

namespace distlops::detail {

namespace {

struct Verdict {
  ErrorKind kind = ErrorKind::generic;
  std::string message;
};

Verdict describe(const std::exception_ptr& failure) {
  try {
    std::rethrow_exception(failure);
  } catch (const Error& error) {
    return {error.kind(), error.what()};
  } catch (const std::exception& error) {
    return {ErrorKind::generic, error.what()};
  } catch (...) {
    return {ErrorKind::generic, "unknown exception"};
  }
}

}  // namespace

void agree_on_verdict(const Communicator& comm, const std::exception_ptr& local_failure,
                      const Fingerprint* fingerprint, std::string_view subject) {
  const auto size = static_cast<std::uint64_t>(comm.size());
  const auto rank = static_cast<std::uint64_t>(comm.rank());
  const std::uint64_t hash = fingerprint ? fingerprint->value() : 0;
  // MAX over ranks of (size - rank) selects the lowest failing rank; MAX of the hash and of its
  // complement gives max and ~min, which coincide only when every rank holds the same hash.
  std::uint64_t local[3] = {local_failure ? size - rank : 0, hash, ~hash};
  std::uint64_t global[3] = {0, 0, 0};
  comm.allreduce(local, global, 3, ReduceOp::max);

  if (global[0] > 0) {
    const int root = static_cast<int>(size - global[0]);
    Verdict verdict;
    if (comm.rank() == root) verdict = describe(local_failure);
    int header[2] = {static_cast<int>(verdict.kind), static_cast<int>(verdict.message.size())};
    comm.broadcast(header, 2, root);
    verdict.kind = static_cast<ErrorKind>(header[0]);
    verdict.message.resize(static_cast<std::size_t>(header[1]));
    comm.broadcast(verdict.message.data(), header[1], root);
    throw_error(verdict.kind, verdict.message);
  }
  if (fingerprint && global[1] != ~global[2]) {
    throw InvalidArgument(std::string(subject) + " differs between ranks");
  }
}

}  // namespace distlops::detail
