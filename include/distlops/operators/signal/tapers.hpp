// SPDX-License-Identifier: BSD-3-Clause
// Copyright (c) 2026 The distlops authors
#pragma once
/// \file tapers.hpp
/// PyLops' 1-d tapers (pylops.utils.tapers.taper): `nmask` samples, of which the first and
/// the last `ntap` rise from and fall to the edge, the rest 1.
///   hanning:      the first ntap samples of NumPy's hanning(2 ntap - 1),
///                 0.5 - 0.5 cos(2 pi n / (2 ntap - 2)), n = 0 ... ntap - 1 (1 when ntap = 1);
///   cosine:       (0.5 (cos((n - (ntap - 1)) pi / (ntap - 1)) + 1)), n = 0 ... ntap - 1 (none
///                 when ntap = 1);
///   cosinesquare: the square of cosine;
///   none:         ones.
/// The end is the start reversed. Errors: InvalidArgument when 2 ntap > nmask (PyLops raises
/// for hanning and gives a malformed taper for the others) or a negative size.

#include <string>
#include <vector>

#include "distlops/core/types.hpp"

namespace distlops {

/// The taper shapes of PyLops (formulas above).
enum class Taper {
  /// Ones: no tapering.
  none,
  /// The rising half of NumPy's hanning window.
  hanning,
  /// A raised cosine, 0.5 (cos(...) + 1).
  cosine,
  /// The square of cosine.
  cosinesquare
};

/// "hanning", "cosine", "cosinesquare" or "none".
const char* to_string(Taper taper);
/// The taper of a PyLops name ("none" for None); InvalidArgument for others.
Taper taper_from_string(const std::string& name);

/// The 1-d taper of `nmask` samples with `ntap` samples rising at each end.
std::vector<double> taper(Index nmask, Index ntap, Taper type);

}  // namespace distlops
