// SPDX-License-Identifier: BSD-3-Clause
// Copyright (c) 2026 The distlops authors
#pragma once
/// \file convolve1d.hpp
/// Forwarding header, kept so that existing includes keep working: `local::Convolve1D` lives in
/// its one home, distlops/operators/signal/convolve1d.hpp.

#include "distlops/operators/signal/convolve1d.hpp"
