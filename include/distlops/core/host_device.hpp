// SPDX-License-Identifier: BSD-3-Clause
// Copyright (c) 2026 The distlops authors
#pragma once
/// \file host_device.hpp
/// DISTLOPS_HOST_DEVICE marks inline functions written once for host loops and CUDA kernels.

#if defined(__CUDACC__)
#define DISTLOPS_HOST_DEVICE __host__ __device__
#else
#define DISTLOPS_HOST_DEVICE
#endif
