// SPDX-License-Identifier: BSD-3-Clause
// Copyright (c) 2026 The distlops authors
#pragma once
// The kernels behind `ScalarSlots` (distlops/solvers/detail/scalar_slots.hpp), internal to the
// library: reductions that add into slots (doubles in a memory space), the step scalars the
// solvers derive from slots (CG's and CGLS's step, LSQR's recurrence), and vector updates whose
// coefficients are read from a slot. On the host (solvers/host/slot_kernels.cpp) the slots are
// host memory and these are the host kernels (kernels.hpp) around a read of the slot; on Cuda
// (solvers/cuda/slot_kernels.cu) the slots stay in device memory and every function only
// enqueues work on the library's stream, so nothing here waits for the device.
//
// Pointers are memory of the given space. `scratch` is space memory of at least
// `scratch_bytes` bytes for the intermediate result of a reduction (unused on the host).
#include <cmath>
#include <cstddef>

#include "distlops/core/host_device.hpp"
#include "distlops/core/kernels.hpp"
#include "distlops/core/memory_space.hpp"
#include "distlops/core/types.hpp"
#include "distlops/solvers/detail/lsqr_recurrence.hpp"

namespace distlops::kernels::slots {

inline constexpr std::size_t scratch_bytes = 2 * sizeof(double);

/// The step length numerator / curvature of CG and CGLS, or 0 when the curvature is not
/// positive or not finite: the solver then reports the breakdown after the read-back, and the
/// zero step leaves the vectors as they were (the updates below skip a zero coefficient).
DISTLOPS_HOST_DEVICE inline double guarded_step(double numerator, double curvature) {
  return (curvature > 0 && curvature <= 1.7976931348623157e308) ? numerator / curvature : 0.0;
}

/// 1 / sqrt(squared) for a positive finite `squared`, else `otherwise`.
DISTLOPS_HOST_DEVICE inline double guarded_reciprocal_sqrt(double squared, double otherwise) {
  return (squared > 0 && squared <= 1.7976931348623157e308) ? 1.0 / std::sqrt(squared) : otherwise;
}

/// The scalar type's value of a coefficient (a real scalar for complex types).
template <class T>
T coefficient_of(double value) {
  return T(static_cast<real_type_t<T>>(value));
}

// ---- Host ---------------------------------------------------------------------------------------

/// Copies count slots to `host` (a copy: the slots are host memory).
void read_back(Host, double* host, const double* slots, int count);
/// slots[i] = 0 for i < count
void zero(Host, int count, double* slots);
/// to[i] += from[i] for i < count
void accumulate(Host, int count, const double* from, double* to);
/// *re += Re(sum_i conj(x[i]) y[i]) and, when im is not null, *im += Im(...).
template <Scalar T>
void add_vdot(Host, Index n, const T* x, const T* y, double* re, double* im, void* scratch);
/// x += (fx *step) c, r += (fr *step) q and *re += Re(r^H r) of the updated r, in one pass
/// (kernels::axpy_pair_vdot_into).
template <Scalar T>
void add_axpy_pair_squared_norm(Host, Index n, const double* step, double fx, const T* c, T* x,
                                double fr, const T* q, T* r, double* re, void* scratch);
/// *slot += norm_reduce(kind, p) of x (a summing kind: power_sum or count_nonzero).
template <Scalar T>
void add_norm_reduce(Host, kernels::NormKind kind, real_type_t<T> p, Index n, const T* x,
                     double* slot, void* scratch);
/// *out = guarded_step(numerator, *first + weight * *second) (second may be null).
void step_length(Host, double numerator, const double* first, const double* second, double weight,
                 double* out);
/// *out = guarded_reciprocal_sqrt(*squared, otherwise)
void reciprocal_sqrt(Host, const double* squared, double otherwise, double* out);
/// LSQR's recurrence after ||u||^2 and after ||v||^2 (lsqr_recurrence.hpp) on its slots.
void lsqr_after_u(Host, double* slots, double dampsq);
void lsqr_after_v(Host, double* slots, detail::LsqrParameters p);
/// y[i] += c x[i] with c = factor * *a; y is not touched when c == 0.
template <Scalar T>
void axpy(Host, Index n, const double* a, double factor, const T* x, T* y);
/// y[i] = *a x[i] + *b y[i]; y is not touched when *a == 0 and *b == 1, and not read when
/// *b == 0.
template <Scalar T>
void axpby(Host, Index n, const double* a, const T* x, const double* b, T* y);
/// y[i] = c y[i] with c = factor * *a; y is not touched when c == 1.
template <Scalar T>
void scale(Host, Index n, const double* a, double factor, T* y);

// ---- Cuda: the same on device memory, enqueued on the library's stream -------------------------

/// Copies count slots to the host: one synchronisation (cuda::Context::read_back).
void read_back(Cuda, double* host, const double* slots, int count);
void zero(Cuda, int count, double* slots);
void accumulate(Cuda, int count, const double* from, double* to);
template <Scalar T>
void add_vdot(Cuda, Index n, const T* x, const T* y, double* re, double* im, void* scratch);
template <Scalar T>
void add_axpy_pair_squared_norm(Cuda, Index n, const double* step, double fx, const T* c, T* x,
                                double fr, const T* q, T* r, double* re, void* scratch);
template <Scalar T>
void add_norm_reduce(Cuda, kernels::NormKind kind, real_type_t<T> p, Index n, const T* x,
                     double* slot, void* scratch);
void step_length(Cuda, double numerator, const double* first, const double* second, double weight,
                 double* out);
void reciprocal_sqrt(Cuda, const double* squared, double otherwise, double* out);
void lsqr_after_u(Cuda, double* slots, double dampsq);
void lsqr_after_v(Cuda, double* slots, detail::LsqrParameters p);
template <Scalar T>
void axpy(Cuda, Index n, const double* a, double factor, const T* x, T* y);
template <Scalar T>
void axpby(Cuda, Index n, const double* a, const T* x, const double* b, T* y);
template <Scalar T>
void scale(Cuda, Index n, const double* a, double factor, T* y);

}  // namespace distlops::kernels::slots
