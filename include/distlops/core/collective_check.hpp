// SPDX-License-Identifier: BSD-3-Clause
// Copyright (c) 2026 The distlops authors
#pragma once
/// \file collective_check.hpp
/// Agreement on errors: a check that may fail on some ranks only (because it looks at
/// rank-local input) must make every rank throw the same exception, so that no rank is left
/// waiting in a collective that the others never enter.

#include <cstdint>
#include <exception>
#include <span>
#include <string_view>
#include <utility>

#include "distlops/core/communicator.hpp"

namespace distlops {

/// A 64-bit FNV-1a hash of values that must be equal on every rank.
/// Its value is compared across ranks by collective_check() to prove that inputs agree.
class Fingerprint {
 public:
  /// Mixes `bytes` raw bytes at `data` into the hash; returns *this for chaining.
  Fingerprint& add_bytes(const void* data, std::size_t bytes) {
    const auto* p = static_cast<const unsigned char*>(data);
    for (std::size_t i = 0; i < bytes; ++i) {
      value_ ^= p[i];
      value_ *= 1099511628211ULL;
    }
    return *this;
  }
  /// Mixes the object representation of `value` (a trivially copyable value without padding).
  template <class T>
  Fingerprint& add(const T& value) {
    return add_bytes(&value, sizeof(T));
  }
  /// Mixes the count and then the bytes of `values`, so that [1, 2] + [3] and [1] + [2, 3] differ.
  template <class T>
  Fingerprint& add(std::span<const T> values) {
    add(values.size());
    return add_bytes(values.data(), values.size_bytes());
  }
  /// Mixes the length and then the characters of `text`.
  Fingerprint& add(std::string_view text) {
    add(text.size());
    return add_bytes(text.data(), text.size());
  }
  /// The hash of everything added so far.
  std::uint64_t value() const { return value_; }

 private:
  std::uint64_t value_ = 14695981039346656037ULL;
};

namespace detail {
/// One allreduce: if any rank holds a failure, every rank throws the failure of the lowest
/// failing rank (same type, same message; when other ranks passed, the message names that
/// rank). Otherwise, when `fingerprint` is given and its value differs between ranks, every
/// rank throws InvalidArgument saying that `subject` differs between ranks and naming the
/// first rank whose value differs from rank 0's.
///
/// A failure that is itself the error (the same exception object) an agreement over the same
/// communicator raised on this thread (it left a nested agreement, one inside user code, say)
/// is raised again at once,
/// without communicating: every rank of that agreement holds it already, and a rank whose user
/// code threw before reaching the nested agreement took part in it from its own outer one.
void agree_on_verdict(const Communicator& comm, const std::exception_ptr& local_failure,
                      const Fingerprint* fingerprint, std::string_view subject);

/// Raises again the error the last agreement on this thread raised when `message` is its
/// message and no agreement has started since (an agreed error that crossed foreign code, a
/// Python frame, as text only); returns otherwise.
void rethrow_if_agreed(std::string_view message);

/// Whether the calling thread is inside an AgreedOperands scope.
bool operands_agreed();
/// Sets whether it is; returns the previous setting.
bool set_operands_agreed(bool agreed);
}  // namespace detail

/// While an object of this type lives, the operands that array operations and operator
/// applies on this thread receive are taken to be the same on every rank: their checks run
/// locally, without the allreduce that agrees on the verdict. Solvers open one around their
/// iterations, whose work vectors they built themselves from layouts agreed once per solve.
/// Every rank must open and close it at the same points.
class AgreedOperands {
 public:
  AgreedOperands();
  ~AgreedOperands();
  AgreedOperands(const AgreedOperands&) = delete;
  AgreedOperands& operator=(const AgreedOperands&) = delete;

 private:
  bool outer_;
};

/// Runs `check` on every rank of `comm`; when it throws on any rank, every rank throws the
/// exception of the lowest failing rank. Collective: costs one small allreduce.
template <class Check>
void collective_check(const Communicator& comm, Check&& check) {
  std::exception_ptr failure;
  try {
    std::forward<Check>(check)();
  } catch (...) {
    failure = std::current_exception();
  }
  detail::agree_on_verdict(comm, failure, nullptr, {});
}

/// As collective_check(comm, check), and also verifies that `fingerprint` (of inputs that must be
/// identical on every rank, such as a global shape) agrees; `subject` names those inputs in the
/// message.
template <class Check>
void collective_check(const Communicator& comm, const Fingerprint& fingerprint,
                      std::string_view subject, Check&& check) {
  std::exception_ptr failure;
  try {
    std::forward<Check>(check)();
  } catch (...) {
    failure = std::current_exception();
  }
  detail::agree_on_verdict(comm, failure, &fingerprint, subject);
}

/// Runs `body`, code the library does not control (a user's operator or proximal operator, a
/// callable), so that an exception it throws on some ranks only is raised on every rank of
/// `comm`: the ranks agree on its outcome once it returns (collective_check's allreduce of
/// four words), `outcome` included, a Fingerprint the body fills with what it computed that
/// must be equal on every rank (InvalidArgument naming `subject` otherwise). While the body
/// runs, operands are agreed on again even inside an AgreedOperands scope: a library call the
/// body makes agrees as it does outside a solver, so that a rank still inside the body meets
/// there the verdict of a rank whose body threw earlier, and every rank leaves with that
/// rank's error. `comm` null (local arrays): the body alone, its exception as it is.
template <class Body>
void agree_on_user_code(const Communicator* comm, const Fingerprint& outcome,
                        std::string_view subject, Body&& body) {
  const bool outer = detail::set_operands_agreed(false);
  std::exception_ptr failure;
  try {
    std::forward<Body>(body)();
  } catch (...) {
    failure = std::current_exception();
  }
  detail::set_operands_agreed(outer);
  if (!comm) {
    if (failure) std::rethrow_exception(failure);
    return;
  }
  detail::agree_on_verdict(*comm, failure, &outcome, subject);
}

/// The check of an entry point's operands: collective_check over `comm` with `fingerprint`,
/// or `check` alone where there is nothing to agree over (`comm` null: an operand without a
/// communicator) or inside an AgreedOperands scope.
template <class Check>
void check_operands(const Communicator* comm, const Fingerprint& fingerprint,
                    std::string_view subject, Check&& check) {
  if (!comm || detail::operands_agreed()) {
    std::forward<Check>(check)();
    return;
  }
  collective_check(*comm, fingerprint, subject, std::forward<Check>(check));
}

}  // namespace distlops
