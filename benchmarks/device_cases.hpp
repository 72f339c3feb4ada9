// SPDX-License-Identifier: BSD-3-Clause
// Copyright (c) 2026 The distlops authors
#pragma once
// The cases that also run in the Cuda space (`--space cuda`): the same problems as their host
// cases, on device arrays, each repeat ending when the device has finished its work so that
// the bandwidth reported is the device's.
#include <vector>

#include "harness.hpp"

namespace distlops::bench {

/// Empty in builds without the CUDA backend.
std::vector<Case> device_cases();

/// Aggregate device-to-device copy bandwidth (cudaMemcpyAsync) of every rank at once, each on
/// its own pair of device arrays of `elements` doubles: bytes per second over all ranks (each
/// copy reads and writes its array once, 16 bytes per element), best of `repeats`. The device
/// counterpart of the host triad: the bandwidth a memory-bound case can hope for. Throws in
/// builds without the CUDA backend.
double device_copy_bandwidth(const Communicator& comm, Index elements, int repeats);

}  // namespace distlops::bench
