// SPDX-License-Identifier: BSD-3-Clause
// Copyright (c) 2026 The distlops authors
#pragma once
/// \file version.hpp
/// The version of distlops: the headers' (config.hpp's DISTLOPS_VERSION_* macros, fixed when a
/// program is compiled) and the library's (version(), fixed when libdistlops was built). A
/// program can compare the two to detect a shared library from another release.

#include <string_view>

namespace distlops {

/// A release number, major.minor.patch (semantic versioning; before 1.0 a minor release may
/// change the API and the ABI).
struct Version {
  int major;  ///< Incompatible changes after 1.0.
  int minor;  ///< New features; before 1.0 also API and ABI changes.
  int patch;  ///< Fixes only.
  /// "major.minor.patch".
  std::string_view string;
};

/// The version of the distlops library this program runs with.
Version version() noexcept;

}  // namespace distlops
