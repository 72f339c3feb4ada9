// SPDX-License-Identifier: BSD-3-Clause
// Copyright (c) 2026 The distlops authors
#pragma once
/// \file matrix_mult.hpp
/// Forwarding header, kept so that existing includes keep working: `local::MatrixMult` lives with
/// the distributed MatrixMult in their one home, distlops/operators/dense/matrix_mult.hpp.

#include "distlops/operators/dense/matrix_mult.hpp"
