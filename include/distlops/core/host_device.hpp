// SPDX-License-Identifier: BSD-3-Clause
// Copyright (c) 2026 The distlops authors
#pragma once
/// \file host_device.hpp
/// DISTLOPS_HOST_DEVICE marks inline functions written once for host loops and CUDA kernels.

/// \def DISTLOPS_HOST_DEVICE
/// `__host__ __device__` when nvcc compiles the file, empty otherwise: the per-point formulas
/// (pointwise.hpp, the stencils) are the same code on both sides.

#if defined(__CUDACC__)
#define DISTLOPS_HOST_DEVICE __host__ __device__
#else
#define DISTLOPS_HOST_DEVICE
#endif
