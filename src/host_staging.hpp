// SPDX-License-Identifier: BSD-3-Clause
// Copyright (c) 2026 The distlops authors
#pragma once
// Host access to a memory space's data for the code that works on host memory (an array's
// gather, its assignment from global data, its files): the data themselves on the host, a copy
// through host memory on the device. One overload per space, as the kernels, so that the
// algorithms calling them do not branch on the space.
#include <vector>

#include "distlops/core/buffer.hpp"
#include "distlops/core/memory_space.hpp"
#include "distlops/core/types.hpp"

namespace distlops::memory::detail {

/// Runs `f` on a host pointer to the `n` elements at `data`.
template <class T, class F>
void with_host_input(Host, const T* data, Index, F&& f) {
  f(data);
}
template <class T, class F>
void with_host_input(Cuda, const T* data, Index n, F&& f) {
  std::vector<T> staged(static_cast<std::size_t>(n));
  copy_bytes<Host, Cuda>(staged.data(), data, staged.size() * sizeof(T));
  f(static_cast<const T*>(staged.data()));
}

/// Runs `f` on a host pointer whose `n` elements end up at `data`; with `read_first`, a copy
/// starts with the current content.
template <class T, class F>
void with_host_output(Host, T* data, Index, bool, F&& f) {
  f(data);
}
template <class T, class F>
void with_host_output(Cuda, T* data, Index n, bool read_first, F&& f) {
  std::vector<T> staged(static_cast<std::size_t>(n));
  if (read_first) copy_bytes<Host, Cuda>(staged.data(), data, staged.size() * sizeof(T));
  f(staged.data());
  copy_bytes<Cuda, Host>(data, staged.data(), staged.size() * sizeof(T));
}

}  // namespace distlops::memory::detail
