// SPDX-License-Identifier: BSD-3-Clause
// Copyright (c) 2026 The distlops authors
#pragma once
/// \file first_derivative.hpp
/// Forwarding header, kept so that existing includes keep working: `local::FirstDerivative` and its
/// options live with the distributed derivatives in their one home,
/// distlops/operators/derivative/derivatives.hpp.

#include "distlops/operators/derivative/derivatives.hpp"
