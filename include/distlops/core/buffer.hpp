// SPDX-License-Identifier: BSD-3-Clause
// Copyright (c) 2026 The distlops authors
#pragma once
/// \file buffer.hpp
/// `Buffer<T, Space>`: an owning, uninitialised, contiguous allocation of `size` elements in
/// a memory space. Move-only; `clone()` makes a deep copy.

#include <cstring>
#include <span>
#include <utility>

#include "distlops/core/error.hpp"
#include "distlops/core/memory_space.hpp"
#include "distlops/core/types.hpp"

namespace distlops {

/// An owning, uninitialised, contiguous array of `size()` elements of T in memory space Space
/// (64-byte aligned on the host, cudaMalloc on the device). Rank-local: no communication.
template <class T, MemorySpace Space = Host>
class Buffer {
 public:
  using value_type = T;  ///< The element type.
  using space = Space;   ///< The memory space of the elements.

  /// An empty buffer (no allocation).
  Buffer() = default;
  /// Allocates `size` uninitialised elements; InvalidArgument for a negative size. A failed
  /// allocation throws std::bad_alloc on the host, DeviceError on the device.
  explicit Buffer(Index size) : size_(size) {
    if (size < 0) throw InvalidArgument("Buffer: negative size " + std::to_string(size));
    data_ = static_cast<T*>(memory::allocate<Space>(static_cast<std::size_t>(size) * sizeof(T)));
  }
  /// Takes `other`'s allocation; `other` becomes empty.
  Buffer(Buffer&& other) noexcept
      : data_(std::exchange(other.data_, nullptr)), size_(std::exchange(other.size_, 0)) {}
  /// Frees this buffer's allocation and takes `other`'s; `other` becomes empty.
  Buffer& operator=(Buffer&& other) noexcept {
    if (this != &other) {
      release();
      data_ = std::exchange(other.data_, nullptr);
      size_ = std::exchange(other.size_, 0);
    }
    return *this;
  }
  Buffer(const Buffer&) = delete;             ///< Move-only: clone() copies explicitly.
  Buffer& operator=(const Buffer&) = delete;  ///< Move-only: clone() copies explicitly.
  /// Frees the allocation.
  ~Buffer() { release(); }

  /// A new buffer with a copy of the content.
  Buffer clone() const {
    Buffer copy(size_);
    memory::copy_bytes<Space, Space>(copy.data_, data_, bytes());
    return copy;
  }

  /// The first element, in Space (a device pointer for Cuda); nullptr when empty.
  T* data() noexcept { return data_; }
  /// The first element, in Space (a device pointer for Cuda); nullptr when empty.
  const T* data() const noexcept { return data_; }
  /// Number of elements.
  Index size() const noexcept { return size_; }
  /// Size in bytes.
  std::size_t bytes() const noexcept { return static_cast<std::size_t>(size_) * sizeof(T); }
  /// True when the buffer holds no element.
  bool empty() const noexcept { return size_ == 0; }

  /// Host buffers only: the elements as a span.
  std::span<T> span() noexcept requires std::same_as<Space, Host> {
    return {data_, static_cast<std::size_t>(size_)};
  }
  /// Host buffers only: the elements as a read-only span.
  std::span<const T> span() const noexcept requires std::same_as<Space, Host> {
    return {data_, static_cast<std::size_t>(size_)};
  }

 private:
  void release() noexcept {
    if (data_) memory::deallocate<Space>(data_);
    data_ = nullptr;
    size_ = 0;
  }
  T* data_ = nullptr;
  Index size_ = 0;
};

/// Copies all of `source` into `destination` across spaces; ShapeMismatch when their sizes
/// differ. Rank-local.
template <class T, MemorySpace To, MemorySpace From>
void copy(const Buffer<T, From>& source, Buffer<T, To>& destination) {
  if (source.size() != destination.size()) {
    throw ShapeMismatch("copy: source has " + std::to_string(source.size()) +
                        " elements, destination " + std::to_string(destination.size()));
  }
  memory::copy_bytes<To, From>(destination.data(), source.data(), source.bytes());
}

/// A new buffer in space To with a copy of `source` (host to device, device to host, ...).
template <MemorySpace To, class T, MemorySpace From>
Buffer<T, To> to_space(const Buffer<T, From>& source) {
  Buffer<T, To> result(source.size());
  memory::copy_bytes<To, From>(result.data(), source.data(), source.bytes());
  return result;
}

}  // namespace distlops
