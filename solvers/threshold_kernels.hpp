// SPDX-License-Identifier: BSD-3-Clause
// Copyright (c) 2026 The distlops authors
#pragma once
// The kernel of the thresholding rules of ISTA and FISTA (internal to the library): the rules of
// threshold_rules.hpp applied to contiguous data, declared for both memory spaces and defined in
// solvers/host/threshold_kernels.cpp and solvers/cuda/threshold_kernels.cu.
#include "distlops/core/memory_space.hpp"
#include "distlops/core/types.hpp"
#include "distlops/solvers/threshold_rules.hpp"

namespace distlops::kernels {

/// x[i] = the rule `kind` with threshold t applied to x[i], in place.
template <Scalar T>
void threshold(Host, ThresholdKind kind, Index n, real_type_t<T> t, T* x);
/// The same on device memory, one kernel on the library's stream.
template <Scalar T>
void threshold(Cuda, ThresholdKind kind, Index n, real_type_t<T> t, T* x);

}  // namespace distlops::kernels
