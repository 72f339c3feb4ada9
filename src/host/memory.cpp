// SPDX-License-Identifier: BSD-3-Clause
// Copyright (c) 2026 The distlops authors
#include <sys/mman.h>
#include <unistd.h>

#include <atomic>
#include <cstdint>
#include <cstring>
#include <new>

#include "../memory_internal.hpp"
#include "../prefault.hpp"
#include "distlops/core/error.hpp"
#include "distlops/core/memory_space.hpp"

namespace distlops::memory {

namespace {
constexpr std::align_val_t host_alignment{64};
}

namespace detail {
std::atomic<std::uint64_t> allocations{0};

void prefault_for_writing(void* data, std::size_t bytes) noexcept {
  if (data == nullptr || bytes < prefault_threshold_bytes) return;
#if defined(__linux__)
  // The advice's number, for C libraries whose headers predate it; kernels before 5.14 answer
  // EINVAL and the pages are faulted on first touch.
  constexpr int populate_write = 23;
#if defined(MADV_POPULATE_WRITE)
  static_assert(MADV_POPULATE_WRITE == populate_write);
#endif
  static const auto page = static_cast<std::uintptr_t>(sysconf(_SC_PAGESIZE));
  const std::uintptr_t begin = (reinterpret_cast<std::uintptr_t>(data) + page - 1) & ~(page - 1);
  const std::uintptr_t end = (reinterpret_cast<std::uintptr_t>(data) + bytes) & ~(page - 1);
  if (end > begin) (void)madvise(reinterpret_cast<void*>(begin), end - begin, populate_write);
#endif
}
}  // namespace detail

std::uint64_t allocation_count() {
  return detail::allocations.load(std::memory_order_relaxed);
}

template <>
void* allocate<Host>(std::size_t bytes) {
  if (bytes == 0) return nullptr;
  detail::allocations.fetch_add(1, std::memory_order_relaxed);
  void* data = ::operator new(bytes, host_alignment);
  detail::prefault_for_writing(data, bytes);
  return data;
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
