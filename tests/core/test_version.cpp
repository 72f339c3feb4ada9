// SPDX-License-Identifier: BSD-3-Clause
// Copyright (c) 2026 The distlops authors
// version(): the library's release against CMake's project version, which the build passes to
// this program on its own (DISTLOPS_TEST_PROJECT_VERSION), and against the headers' macros.
#include <catch2/catch.hpp>
#include <string>

#include "distlops/config.hpp"
#include "distlops/core/version.hpp"

TEST_CASE("version() is the project version of the build", "[version]") {
  const distlops::Version v = distlops::version();
  const std::string expected = DISTLOPS_TEST_PROJECT_VERSION;
  CHECK(std::string(v.string) == expected);
  CHECK(std::to_string(v.major) + "." + std::to_string(v.minor) + "." + std::to_string(v.patch) ==
        expected);
  CHECK(v.major >= 0);
  CHECK(v.minor >= 0);
  CHECK(v.patch >= 0);
}

TEST_CASE("the library and the headers it was compiled with agree", "[version]") {
  const distlops::Version v = distlops::version();
  CHECK(v.major == DISTLOPS_VERSION_MAJOR);
  CHECK(v.minor == DISTLOPS_VERSION_MINOR);
  CHECK(v.patch == DISTLOPS_VERSION_PATCH);
  CHECK(std::string(v.string) == DISTLOPS_VERSION_STRING);
}
