// SPDX-License-Identifier: BSD-3-Clause
// Copyright (c) 2026 The distlops authors
// The library's version, from CMake's project version through the configured header: compiled
// into the library, so that it tells the release of the shared object a program loaded.
#include "distlops/core/version.hpp"

#include "distlops/config.hpp"

namespace distlops {

Version version() noexcept {
  return {DISTLOPS_VERSION_MAJOR, DISTLOPS_VERSION_MINOR, DISTLOPS_VERSION_PATCH,
          DISTLOPS_VERSION_STRING};
}

}  // namespace distlops
