// SPDX-License-Identifier: BSD-3-Clause
// Copyright (c) 2026 The distlops authors
#pragma once
// Which samples meet in NonStationaryConvolve1D (not part of the installed API), written once
// for the host loops and the CUDA kernels. Input sample i spreads its filter f_i (2 h + 1
// taps, h = half) over outputs [i - h, i + h]; output j of the window [window_start,
// window_start + window) sits at input coordinate window_start + j.
#include "distlops/core/host_device.hpp"
#include "distlops/core/types.hpp"

namespace distlops::nonstationary {

/// An inclusive range of samples (empty when first > last).
struct Reach {
  Index first;
  Index last;
};

/// The input samples i in [0, length) whose filters reach the output at input coordinate
/// `output`.
DISTLOPS_HOST_DEVICE inline Reach inputs_reaching(Index output, Index half, Index length) {
  const Index first = output - half;
  const Index last = output + half;
  return {first > 0 ? first : 0, last < length - 1 ? last : length - 1};
}

/// The outputs j in [0, window) (window coordinates) reached by input sample `input`.
DISTLOPS_HOST_DEVICE inline Reach outputs_reached(Index input, Index half, Index window_start,
                                                  Index window) {
  const Index first = input - half - window_start;
  const Index last = input + half - window_start;
  return {first > 0 ? first : 0, last < window - 1 ? last : window - 1};
}

/// Where, among the interpolated filters (2 half + 1 taps per input sample), the weight of
/// input sample `input` for the output at input coordinate `output` is stored.
DISTLOPS_HOST_DEVICE inline Index tap_index(Index input, Index output, Index half) {
  return input * (2 * half + 1) + (output - input + half);
}

}  // namespace distlops::nonstationary
