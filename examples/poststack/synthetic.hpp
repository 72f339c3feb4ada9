// SPDX-License-Identifier: BSD-3-Clause
// Copyright (c) 2026 The distlops authors
#pragma once
// Built-in data of the post-stack inversion example: a 2-d acoustic-impedance model with
// layers, a dipping normal fault and a pinching wedge, a Ricker wavelet, and reproducible
// Gaussian noise. Every rank computes the same values from the same formulas.
#include <cstdint>
#include <vector>

#include "distlops/core/types.hpp"

namespace distlops::examples {

/// Acoustic impedance of an (nx, nz) section (traces along x, depth/time along z), row-major.
std::vector<double> impedance_model(Index nx, Index nz);

/// Ricker wavelet of peak frequency `f0` (Hz) sampled every `dt` seconds on `nt` samples
/// (odd), centred on the middle sample.
std::vector<double> ricker(double f0, double dt, Index nt);

/// Standard normal values n_i for global indices i (Box-Muller on distlops' deterministic
/// uniforms), the same whatever the number of ranks.
double gaussian(std::uint64_t key, std::uint64_t index);

/// A smooth version of a field: running means of half-width `rx` and `rz` samples.
std::vector<double> smooth(const std::vector<double>& field, Index nx, Index nz, Index rx,
                           Index rz);

}  // namespace distlops::examples
