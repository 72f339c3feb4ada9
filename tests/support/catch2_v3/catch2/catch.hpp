// SPDX-License-Identifier: BSD-3-Clause
// Copyright (c) 2026 The distlops authors
#pragma once
// The tests are written against Catch2 v2's single header; with Catch2 v3 (which has no
// catch.hpp) this directory comes first on the include path and supplies it. v3 moved Approx
// into namespace Catch; the rest of what the tests use is unchanged.
#include <catch2/catch_all.hpp>

using Catch::Approx;
