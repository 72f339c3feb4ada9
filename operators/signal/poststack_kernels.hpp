// SPDX-License-Identifier: BSD-3-Clause
// Copyright (c) 2026 The distlops authors
#pragma once
// The route of post-stack modelling along contiguous traces, one per memory space. The host has
// a fused operator (operators/host/poststack_kernels.cpp): each trace's derivative (forward) or
// correlation (adjoint) stays in a scratch row, so an apply reads the model and writes the data
// once, where Convolve1D * FirstDerivative writes and reads a whole intermediate array. The
// device has none (operators/cuda/poststack_kernels.cpp) and takes that product of operators.
#include <optional>
#include <span>

#include "distlops/operators/derivative_kind.hpp"
#include "distlops/operators/linear_operator.hpp"

namespace distlops::kernels {

/// W D on arrays of `dims` with time on the last axis (W the convolution with `wavelet` centred
/// at its middle tap, no longer than the traces; D PyLops' first derivative of `kind`, forward
/// or centered, without edge), or nothing where the space has no fused route.
template <Scalar T>
std::optional<LocalOperator<T, Host>> fused_trace_modelling(Host, const Shape& dims,
                                                            std::span<const T> wavelet,
                                                            DerivativeKind kind);
template <Scalar T>
std::optional<LocalOperator<T, Cuda>> fused_trace_modelling(Cuda, const Shape& dims,
                                                            std::span<const T> wavelet,
                                                            DerivativeKind kind);

// The instantiations of both definitions (instantiate.hpp).
#define DISTLOPS_DETAIL_POSTSTACK_KERNELS(PREFIX, T, S)                        \
  PREFIX template std::optional<LocalOperator<T, S>> fused_trace_modelling<T>( \
      S, const Shape&, std::span<const T>, DerivativeKind);

}  // namespace distlops::kernels
