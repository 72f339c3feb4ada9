// SPDX-License-Identifier: BSD-3-Clause
// Copyright (c) 2026 The distlops authors
#pragma once
/// \file convolvend.hpp
/// Forwarding header, kept so that existing includes keep working: `local::ConvolveND` and
/// `local::Convolve2D` live with the distributed ConvolveND and Convolve2D in their one home,
/// distlops/operators/signal/convolvend.hpp.

#include "distlops/operators/signal/convolvend.hpp"
