#pragma once
// The cases that also run in the Cuda space (`--space cuda`): the same problems as their host
// cases, on device arrays, each repeat ending when the device has finished its work so that
// the bandwidth reported is the device's.
#include <vector>

#include "harness.hpp"

namespace distlops::bench {

/// Empty in builds without the CUDA backend.
std::vector<Case> device_cases();

}  // namespace distlops::bench
