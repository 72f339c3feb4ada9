// SPDX-License-Identifier: BSD-3-Clause
// Copyright (c) 2026 The distlops authors
#include <atomic>
#include <cstring>
#include <new>

#include "../memory_internal.hpp"
#include "distlops/core/error.hpp"
#include "distlops/core/memory_space.hpp"

namespace distlops::memory {

namespace {
constexpr std::align_val_t host_alignment{64};
}

namespace detail {
std::atomic<std::uint64_t> allocations{0};
}

std::uint64_t allocation_count() {
  return detail::allocations.load(std::memory_order_relaxed);
}

template <>
void* allocate<Host>(std::size_t bytes) {
  if (bytes == 0) return nullptr;
  detail::allocations.fetch_add(1, std::memory_order_relaxed);
  return ::operator new(bytes, host_alignment);
}

template <>
void deallocate<Host>(void* pointer) noexcept {
  ::operator delete(pointer, host_alignment);
}

template <>
void copy_bytes<Host, Host>(void* destination, const void* source, std::size_t bytes) {
  if (bytes > 0 && destination != source) std::memmove(destination, source, bytes);
}

}  // namespace distlops::memory
