// SPDX-License-Identifier: BSD-3-Clause
// Copyright (c) 2026 The distlops authors
#pragma once
/// \file local.hpp
/// The basic local operators, derivatives and convolutions (namespace distlops::local):
/// operators on one rank's contiguous data, with LocalArray as their vector type. Each is
/// declared in the header of its name, beside its distributed form where it has one (the local
/// FFTs, Fredholm1, NonStationaryConvolve1D and PoststackLinearModelling are in theirs, under
/// signal/); the catalogue and PyLops equivalents are in docs/operators.md.

#include "distlops/operators/dense/matrix_mult.hpp"
#include "distlops/operators/derivative/derivatives.hpp"
#include "distlops/operators/local/diagonal.hpp"
#include "distlops/operators/local/function_operator.hpp"
#include "distlops/operators/local/identity.hpp"
#include "distlops/operators/local/pad.hpp"
#include "distlops/operators/local/restriction.hpp"
#include "distlops/operators/local/scaling.hpp"
#include "distlops/operators/local/transpose.hpp"
#include "distlops/operators/local/zero.hpp"
#include "distlops/operators/signal/convolve1d.hpp"
#include "distlops/operators/signal/convolvend.hpp"
