// SPDX-License-Identifier: BSD-3-Clause
// Copyright (c) 2026 The distlops authors
#include "distlops/core/collective_check.hpp"

#include <string>
#include <vector>

#include "broadcast_string.hpp"
#include "distlops/core/detail/rank_local.hpp"
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

// The error the last agreement on this thread raised (the exception object itself, so that
// only that error, not another with its message, counts as agreed), over which communicator,
// and whether no agreement has started since (while it may be crossing the user's code).
struct AgreedError {
  std::exception_ptr error;
  std::string message;
  MPI_Comm comm = MPI_COMM_NULL;
  bool in_flight = false;
};
DISTLOPS_RANK_LOCAL AgreedError last_agreed;

[[noreturn]] void throw_agreed(const Communicator& comm, ErrorKind kind, std::string message) {
  std::exception_ptr error;
  try {
    throw_error(kind, message);
  } catch (...) {
    error = std::current_exception();
  }
  last_agreed = {error, std::move(message), comm.native(), true};
  std::rethrow_exception(error);
}

// Whether the calling rank's thread is inside an AgreedOperands scope.
DISTLOPS_RANK_LOCAL bool agreed_operands = false;
}  // namespace

bool operands_agreed() {
  return agreed_operands;
}

bool set_operands_agreed(bool agreed) {
  const bool previous = agreed_operands;
  agreed_operands = agreed;
  return previous;
}

void rethrow_if_agreed(std::string_view message) {
  if (last_agreed.in_flight && last_agreed.message == message) {
    std::rethrow_exception(last_agreed.error);
  }
}

void agree_on_verdict(const Communicator& comm, const std::exception_ptr& local_failure,
                      const Fingerprint* fingerprint, std::string_view subject) {
  const int size = comm.size();
  if (size == 1) {
    if (local_failure) {
      // As with several ranks: a standard exception becomes a distlops::Error.
      const Verdict verdict = describe(local_failure);
      throw_error(verdict.kind, verdict.message);
    }
    return;
  }
  if (local_failure && local_failure == last_agreed.error && comm.native() == last_agreed.comm) {
    std::rethrow_exception(local_failure);
  }
  last_agreed.in_flight = false;
  const auto ranks = static_cast<std::uint64_t>(size);
  const auto rank = static_cast<std::uint64_t>(comm.rank());
  // A check without agreed values contributes 0, so that a rank in such a check and a rank in
  // one with values (ranks that run different code) disagree like different values, and every
  // rank takes the error path below, which communicates. (A subject may name rank-local things,
  // a file, so it is not hashed.)
  const std::uint64_t hash = fingerprint ? fingerprint->value() : 0;
  // MAX over ranks of (size - rank) selects the lowest failing rank; MAX of the pass flag
  // says whether any rank passed; MAX of the hash and of its complement gives max and ~min,
  // which coincide only when every rank holds the same hash.
  std::uint64_t local[4] = {local_failure ? ranks - rank : 0, local_failure ? 0U : 1U, hash, ~hash};
  std::uint64_t global[4] = {0, 0, 0, 0};
  comm.allreduce(local, global, 4, ReduceOp::max);

  if (global[0] > 0) {
    const int root = static_cast<int>(ranks - global[0]);
    Verdict verdict;
    if (comm.rank() == root) verdict = describe(local_failure);
    int header[2] = {static_cast<int>(verdict.kind), static_cast<int>(verdict.message.size())};
    comm.broadcast(header, 2, root);
    verdict.kind = static_cast<ErrorKind>(header[0]);
    verdict.message.resize(static_cast<std::size_t>(header[1]));
    comm.broadcast(verdict.message.data(), header[1], root);
    // Input bad on some ranks only: say where, since the message may describe that rank's
    // arguments only.
    if (global[1] != 0) verdict.message += " (raised on rank " + std::to_string(root) + ")";
    throw_agreed(comm, verdict.kind, std::move(verdict.message));
  }
  if (global[2] != ~global[3]) {
    // The error path only: which rank differs costs one allgather, and what it checks two
    // broadcasts, so that every rank raises the same message.
    const std::vector<std::uint64_t> hashes = comm.allgather(hash);
    int first = 1;
    while (first < size && hashes[static_cast<std::size_t>(first)] == hashes[0])
      ++first;
    auto subject_of = [&](int root) {
      const std::string text = broadcast_string(comm, std::string(subject), root);
      return text.empty() ? std::string("rank-local input only") : text;
    };
    const std::string checked = subject_of(0);
    const std::string other = subject_of(first);
    const std::string where = "rank " + std::to_string(first) + "'s differs from rank 0's";
    if (hashes[0] != 0 && hashes[static_cast<std::size_t>(first)] != 0) {
      throw_agreed(comm, ErrorKind::invalid_argument,
                   checked + " differs between ranks (" + where + ")");
    }
    // Ranks in different calls: a program whose ranks left each other's path (an exception
    // on some ranks that the others did not see, a branch on rank-local data).
    throw_agreed(comm, ErrorKind::invalid_argument,
                 "the ranks are in different collective calls (" + where + "): rank 0 checks " +
                     checked + ", rank " + std::to_string(first) + " checks " + other);
  }
}

}  // namespace distlops::detail

namespace distlops {

AgreedOperands::AgreedOperands() : outer_(detail::agreed_operands) {
  detail::agreed_operands = true;
}

AgreedOperands::~AgreedOperands() {
  detail::agreed_operands = outer_;
}

}  // namespace distlops
