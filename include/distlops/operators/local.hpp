// SPDX-License-Identifier: BSD-3-Clause
// Copyright (c) 2026 The distlops authors
#pragma once
/// \file local.hpp
/// Every local operator (namespace distlops::local): operators on one rank's contiguous data,
/// with LocalArray as their vector type. The catalogue and PyLops equivalents are in
/// docs/operators.md.

#include "distlops/operators/local/convolve1d.hpp"
#include "distlops/operators/local/convolvend.hpp"
#include "distlops/operators/local/diagonal.hpp"
#include "distlops/operators/local/first_derivative.hpp"
#include "distlops/operators/local/function_operator.hpp"
#include "distlops/operators/local/identity.hpp"
#include "distlops/operators/local/laplacian.hpp"
#include "distlops/operators/local/matrix_mult.hpp"
#include "distlops/operators/local/pad.hpp"
#include "distlops/operators/local/restriction.hpp"
#include "distlops/operators/local/scaling.hpp"
#include "distlops/operators/local/second_derivative.hpp"
#include "distlops/operators/local/transpose.hpp"
#include "distlops/operators/local/zero.hpp"
