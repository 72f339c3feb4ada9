// SPDX-License-Identifier: BSD-3-Clause
// Copyright (c) 2026 The distlops authors
#pragma once
// A move-only owner of a C library's handle (an MPI datatype, an HDF5 identifier, a temporary
// file's name), released once by its destructor. `Traits` gives the handle's type (handle_type),
// the value that owns nothing (null()) and the release (release(handle)).
#include <utility>

namespace distlops::detail {

template <class Traits>
class UniqueHandle {
 public:
  using handle_type = typename Traits::handle_type;

  UniqueHandle() = default;
  explicit UniqueHandle(handle_type handle) : handle_(std::move(handle)) {}
  UniqueHandle(UniqueHandle&& other) noexcept : handle_(std::exchange(other.handle_, null())) {}
  UniqueHandle& operator=(UniqueHandle&& other) noexcept {
    std::swap(handle_, other.handle_);
    return *this;
  }
  UniqueHandle(const UniqueHandle&) = delete;
  UniqueHandle& operator=(const UniqueHandle&) = delete;
  ~UniqueHandle() {
    if (handle_ != null()) Traits::release(handle_);
  }

  const handle_type& get() const { return handle_; }

 protected:
  static handle_type null() { return Traits::null(); }
  /// Gives the handle up (the caller releases it, or has): the owner owns nothing afterwards.
  handle_type take() { return std::exchange(handle_, null()); }

  handle_type handle_ = null();
};

}  // namespace distlops::detail
