#pragma once
// Shared by the host and CUDA allocation functions.
#include <atomic>
#include <cstdint>

namespace distlops::memory::detail {
extern std::atomic<std::uint64_t> allocations;
}
