// SPDX-License-Identifier: BSD-3-Clause
// Copyright (c) 2026 The distlops authors
#pragma once
// Shared by the host and CUDA allocation functions.
#include <atomic>
#include <cstdint>

namespace distlops::memory::detail {
extern std::atomic<std::uint64_t> allocations;
}
