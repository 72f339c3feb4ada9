// SPDX-License-Identifier: BSD-3-Clause
// Copyright (c) 2026 The distlops authors
#pragma once
// Streaming (non-temporal) stores for host kernels whose output does not fit the cache. An
// ordinary store first reads the destination's cache line (write-allocate), so a kernel that
// reads one array and writes another moves three words per point where it needs two; a
// streaming store writes the line without reading it and does not keep it in the cache. That
// pays only when the output would leave the cache before it is read again: kernels take the
// choice as a `Stores` argument, and their callers pick it per call with stores_for_output().
// Streaming stores are weakly ordered: the caller issues streaming_fence() once after the
// kernels and before the output is handed to another thread or process.
#include <cstddef>
#include <cstdint>
#include <cstring>
#if defined(__x86_64__) && defined(__GNUC__) && !defined(__clang__) && !defined(__CUDACC__)
// Declares the AVX and AVX-512 builtins used below (GCC declares them with its intrinsics).
#include <immintrin.h>
#endif

namespace distlops::kernels {

/// How a kernel writes its output: through the cache, or around it with streaming stores.
enum class Stores { cached, streaming };

/// The output size in bytes above which stores_for_output() streams: half the last-level cache
/// (the output and an input of the same size then no longer fit together), at most 16 MiB (a
/// virtual machine may list a whole socket's cache, shared with cores it does not see). The
/// cache size is read once from /sys/devices/system/cpu/cpu0/cache (the largest unified cache),
/// else from sysconf(_SC_LEVEL3_CACHE_SIZE), else taken as 32 MiB.
std::size_t default_streaming_threshold_bytes();
/// The threshold in use: the default unless set_streaming_threshold_bytes() changed it.
std::size_t streaming_threshold_bytes();
/// Sets the threshold for this process (tests lower it to take the streaming paths on small
/// arrays); 0 restores the default. Per process, not collective.
void set_streaming_threshold_bytes(std::size_t bytes);
/// Stores::streaming for an output of `bytes` above the threshold, else Stores::cached.
Stores stores_for_output(std::size_t bytes);

/// Makes the streaming stores issued so far visible before any later store (sfence on x86-64;
/// nothing where the kernels store through the cache only).
inline void streaming_fence() {
#if defined(__x86_64__) && (defined(__GNUC__) || defined(__clang__))
  __builtin_ia32_sfence();
#endif
}

/// Stores the vector `v` (a GCC/Clang vector of 16, 32 or 64 bytes of float or double) at `p`,
/// which must be aligned to the vector's size, around the cache. Inlined into the kernels of
/// each instruction-set level: the 32- and 64-byte forms only in AVX2 and AVX-512 code. CUDA
/// translation units see an ordinary store (no host kernel is compiled by nvcc).
template <class V, class T>
[[gnu::always_inline]] inline void stream_vector(T* p, const V& v) {
#if defined(__clang__)
  __builtin_nontemporal_store(v, reinterpret_cast<V*>(p));
#elif defined(__x86_64__) && defined(__GNUC__) && !defined(__CUDACC__)
  // The arguments keep T's type so that the builtins are looked up where the kernel of each
  // level instantiates this (GCC declares the AVX ones there only).
  constexpr std::size_t bytes = sizeof(V);
  typedef T vector16 __attribute__((vector_size(16)));
  typedef T vector32 __attribute__((vector_size(32)));
  typedef T vector64 __attribute__((vector_size(64)));
  if constexpr (sizeof(T) == 8 && bytes == 16) {
    __builtin_ia32_movntpd(p, reinterpret_cast<const vector16&>(v));
  } else if constexpr (sizeof(T) == 8 && bytes == 32) {
    __builtin_ia32_movntpd256(p, reinterpret_cast<const vector32&>(v));
  } else if constexpr (sizeof(T) == 8 && bytes == 64) {
    __builtin_ia32_movntpd512(p, reinterpret_cast<const vector64&>(v));
  } else if constexpr (sizeof(T) == 4 && bytes == 16) {
    __builtin_ia32_movntps(p, reinterpret_cast<const vector16&>(v));
  } else if constexpr (sizeof(T) == 4 && bytes == 32) {
    __builtin_ia32_movntps256(p, reinterpret_cast<const vector32&>(v));
  } else {
    static_assert(sizeof(T) == 4 && bytes == 64, "stream_vector: 16, 32 or 64 bytes of T");
    __builtin_ia32_movntps512(p, reinterpret_cast<const vector64&>(v));
  }
#else
  std::memcpy(p, &v, sizeof(V));
#endif
}

/// Elements of T from `p` to the next address aligned to `bytes` (a power of two).
template <class T>
inline std::ptrdiff_t elements_to_alignment(const T* p, std::size_t bytes) {
  const auto address = reinterpret_cast<std::uintptr_t>(p);
  return static_cast<std::ptrdiff_t>(((bytes - address % bytes) % bytes) / sizeof(T));
}

}  // namespace distlops::kernels
