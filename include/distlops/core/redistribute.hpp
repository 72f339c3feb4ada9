// SPDX-License-Identifier: BSD-3-Clause
// Copyright (c) 2026 The distlops authors
#pragma once
/// \file redistribute.hpp
/// `RedistributePlan`: the name under which the FFT and MDC operators plan their transposes.
/// It is the ReshapePlan of reshape_plan.hpp (one mechanism moves arrays between layouts).

#include "distlops/core/reshape_plan.hpp"

namespace distlops {

/// A ReshapePlan (reshape_plan.hpp): moves an array between two layouts of the same global shape.
using RedistributePlan = ReshapePlan;

}  // namespace distlops
