// SPDX-License-Identifier: BSD-3-Clause
// Copyright (c) 2026 The distlops authors
#pragma once
/// \file fused_kernels.hpp
/// Kernels that fuse the vector updates of a solver iteration with the reduction that follows
/// them, so that each vector crosses the memory bus once (kernels.hpp has the single steps).
/// They round exactly as the sequence of single kernels they replace.

#include "distlops/config.hpp"
#include "distlops/core/memory_space.hpp"
#include "distlops/core/types.hpp"

namespace distlops::kernels {

/// The vector updates and the reduction of a conjugate-gradient step in one pass: with
/// s = *step (one double in the space's memory), x[i] += (fx s) c[i] and r[i] += (fr s) q[i]
/// (pointwise::Axpy; x and r untouched when s == 0), and *result = vdot(r, r) of the updated r.
/// The rounding is that of two axpy calls and a vdot (the same terms summed in the same order),
/// with c and q read once and x and r read and written once.
template <Scalar T>
void axpy_pair_vdot_into(Host, Index n, const double* step, double fx, const T* c, T* x, double fr,
                         const T* q, T* r, T* result);
/// The same on device memory (`step` and `result` too), enqueued without synchronising.
template <Scalar T>
void axpy_pair_vdot_into(Cuda, Index n, const double* step, double fx, const T* c, T* x, double fr,
                         const T* q, T* r, T* result);

}  // namespace distlops::kernels
