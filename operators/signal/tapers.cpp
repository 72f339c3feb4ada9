// SPDX-License-Identifier: BSD-3-Clause
// Copyright (c) 2026 The distlops authors
// PyLops' 1-d tapers (tapers.hpp).
#include "distlops/operators/signal/tapers.hpp"

#include <cmath>
#include <numbers>

#include "distlops/core/detail/enum_names.hpp"
#include "distlops/core/error.hpp"

namespace distlops {

namespace {

// PyLops' names of the tapers, in order ("none" stands for PyLops' None).
constexpr std::array<const char*, 4> taper_names = {"none", "hanning", "cosine", "cosinesquare"};

}  // namespace

const char* to_string(Taper taper) {
  return detail::enum_name(taper, taper_names, "none");
}

Taper taper_from_string(const std::string& name) {
  if (const auto taper = detail::enum_from_name<Taper>(name, taper_names)) return *taper;
  throw InvalidArgument("taper: unknown taper type '" + name +
                        "' (expected hanning, cosine, cosinesquare or none)");
}

std::vector<double> taper(Index nmask, Index ntap, Taper type) {
  if (nmask < 0 || ntap < 0) {
    throw InvalidArgument("taper: negative size (nmask " + std::to_string(nmask) + ", ntap " +
                          std::to_string(ntap) + ")");
  }
  std::vector<double> result(static_cast<std::size_t>(nmask), 1.0);
  if (type == Taper::none || ntap == 0) return result;
  if (2 * ntap > nmask) {
    throw InvalidArgument("taper: ntap = " + std::to_string(ntap) + " must be at most " +
                          std::to_string(nmask / 2) + " (half of nmask = " + std::to_string(nmask) +
                          ")");
  }
  const double pi = std::numbers::pi;
  for (Index n = 0; n < ntap; ++n) {
    double value = 1.0;
    if (type == Taper::hanning) {
      value = ntap == 1 ? 1.0 : 0.5 - 0.5 * std::cos(2 * pi * double(n) / double(2 * ntap - 2));
    } else if (ntap > 1) {  // cosine tapers: PyLops takes ntap = 1 as no taper
      value = 0.5 * (std::cos(double(n - (ntap - 1)) * pi / double(ntap - 1)) + 1.0);
      if (type == Taper::cosinesquare) value *= value;
    }
    result[static_cast<std::size_t>(n)] = value;
    result[static_cast<std::size_t>(nmask - 1 - n)] = value;
  }
  return result;
}

}  // namespace distlops
