// SPDX-License-Identifier: BSD-3-Clause
// Copyright (c) 2026 The distlops authors
// The Cuda kernels of the solvers' scalar slots (slot_kernels.hpp, lsqr_recurrence.hpp): the
// reductions reuse the library's deterministic device reductions (kernels::vdot_into and
// norm_reduce_into) into a scratch value and add it to the slot with a one-thread kernel; the
// scalar arithmetic is the host's (shared DISTLOPS_HOST_DEVICE functions, compiled without
// fused multiply-adds so that it rounds as on the host); the vector updates read their
// coefficient from the slot in every thread. Nothing here synchronises except read_back().
#include "../slot_kernels.hpp"

#include "distlops/core/detail/cuda_launch.cuh"
#include "distlops/core/fused_kernels.hpp"
#include "distlops/core/instantiate.hpp"
#include "distlops/solvers/detail/lsqr_recurrence.hpp"

namespace distlops::kernels::slots {

using detail::LsqrParameters;
using detail::LsqrSlots;

namespace {

using kernels::device::first_index;
using kernels::device::grid_stride;
using kernels::device::launch_elements;
using kernels::device::pointer;
using kernels::device::scalar_t;
namespace pw = pointwise;

cudaStream_t stream() {
  return kernels::device::stream();
}

template <class D>
__device__ D coefficient(double value) {
  return pw::from_real<D>(static_cast<pw::real_of_t<D>>(value));
}

__global__ void zero_kernel(int count, double* slots) {
  for (int i = static_cast<int>(threadIdx.x); i < count; i += static_cast<int>(blockDim.x))
    slots[i] = 0;
}

__global__ void accumulate_kernel(int count, const double* from, double* to) {
  for (int i = static_cast<int>(threadIdx.x); i < count; i += static_cast<int>(blockDim.x))
    to[i] += from[i];
}

template <class A>
__global__ void add_value_kernel(const A* value, double* re, double* im) {
  if constexpr (pw::ComplexLike<A>) {
    *re += static_cast<double>(value->real());
    if (im) *im += static_cast<double>(value->imag());
  } else {
    *re += static_cast<double>(*value);
  }
}

__global__ void step_length_kernel(double numerator, const double* first, const double* second,
                                   double weight, double* out) {
  *out = kernels::slots::guarded_step(numerator, *first + (second ? weight * *second : 0.0));
}

__global__ void reciprocal_sqrt_kernel(const double* squared, double otherwise, double* out) {
  *out = kernels::slots::guarded_reciprocal_sqrt(*squared, otherwise);
}

template <class D>
__global__ void axpy_kernel(Index n, const double* a, double factor, const D* x, D* y) {
  const double c = factor * *a;
  if (c == 0) return;
  const pw::Axpy<D> f{coefficient<D>(c)};
  for (Index i = first_index(); i < n; i += grid_stride())
    y[i] = f(x[i], y[i]);
}

template <class D>
__global__ void axpby_kernel(Index n, const double* a, const D* x, const double* b, D* y) {
  if (*a == 0 && *b == 1) return;
  if (*b == 0) {
    // y may be uninitialised (or hold NaN): not read, as the host's axpby.
    const pw::Scale<D> f{coefficient<D>(*a)};
    for (Index i = first_index(); i < n; i += grid_stride())
      y[i] = f(x[i]);
    return;
  }
  const pw::Axpby<D> f{coefficient<D>(*a), coefficient<D>(*b)};
  for (Index i = first_index(); i < n; i += grid_stride())
    y[i] = f(x[i], y[i]);
}

template <class D>
__global__ void scale_kernel(Index n, const double* a, double factor, D* y) {
  const double c = factor * *a;
  if (c == 1) return;
  const pw::Scale<D> f{coefficient<D>(c)};
  for (Index i = first_index(); i < n; i += grid_stride())
    y[i] = f(y[i]);
}

__global__ void lsqr_after_u_kernel(double* slots, double dampsq) {
  detail::lsqr_after_u(*reinterpret_cast<LsqrSlots*>(slots), dampsq);
}

__global__ void lsqr_after_v_kernel(double* slots, LsqrParameters p) {
  detail::lsqr_after_v(*reinterpret_cast<LsqrSlots*>(slots), p);
}

// One-thread (or one small block) kernels on the slots.
template <class K, class... A>
void launch_scalar(const char* name, int threads, K kernel, A... arguments) {
  kernel<<<1, threads, 0, stream()>>>(arguments...);
  cuda::check_launch(name);
}

}  // namespace

void zero(Cuda, int count, double* slots) {
  if (count > 0) launch_scalar("slot zero kernel launch", 32, zero_kernel, count, slots);
}

void accumulate(Cuda, int count, const double* from, double* to) {
  if (count > 0)
    launch_scalar("slot accumulate kernel launch", 32, accumulate_kernel, count, from, to);
}

template <Scalar T>
void add_vdot(Cuda, Index n, const T* x, const T* y, double* re, double* im, void* scratch) {
  static_assert(sizeof(T) <= scratch_bytes);
  T* value = static_cast<T*>(scratch);
  kernels::vdot_into(Cuda{}, n, x, y, value);
  launch_scalar("slot add kernel launch", 1, add_value_kernel<scalar_t<T>>, pointer(value), re, im);
}

template <Scalar T>
void add_axpy_pair_squared_norm(Cuda, Index n, const double* step, double fx, const T* c, T* x,
                                double fr, const T* q, T* r, double* re, void* scratch) {
  static_assert(sizeof(T) <= scratch_bytes);
  T* value = static_cast<T*>(scratch);
  kernels::axpy_pair_vdot_into(Cuda{}, n, step, fx, c, x, fr, q, r, value);
  launch_scalar("slot add kernel launch", 1, add_value_kernel<scalar_t<T>>, pointer(value), re,
                static_cast<double*>(nullptr));
}

template <Scalar T>
void add_norm_reduce(Cuda, kernels::NormKind kind, real_type_t<T> p, Index n, const T* x,
                     double* slot, void* scratch) {
  using R = real_type_t<T>;
  R* value = static_cast<R*>(scratch);
  kernels::norm_reduce_into(Cuda{}, kind, p, n, x, value);
  launch_scalar("slot add kernel launch", 1, add_value_kernel<R>, static_cast<const R*>(value),
                slot, static_cast<double*>(nullptr));
}

void step_length(Cuda, double numerator, const double* first, const double* second, double weight,
                 double* out) {
  launch_scalar("step length kernel launch", 1, step_length_kernel, numerator, first, second,
                weight, out);
}

void reciprocal_sqrt(Cuda, const double* squared, double otherwise, double* out) {
  launch_scalar("reciprocal square root kernel launch", 1, reciprocal_sqrt_kernel, squared,
                otherwise, out);
}

template <Scalar T>
void axpy(Cuda, Index n, const double* a, double factor, const T* x, T* y) {
  launch_elements("axpy (slot coefficient) kernel launch", n, axpy_kernel<scalar_t<T>>, a, factor,
                  pointer(x), pointer(y));
}

template <Scalar T>
void axpby(Cuda, Index n, const double* a, const T* x, const double* b, T* y) {
  launch_elements("axpby (slot coefficients) kernel launch", n, axpby_kernel<scalar_t<T>>, a,
                  pointer(x), b, pointer(y));
}

template <Scalar T>
void scale(Cuda, Index n, const double* a, double factor, T* y) {
  launch_elements("scale (slot coefficient) kernel launch", n, scale_kernel<scalar_t<T>>, a, factor,
                  pointer(y));
}

void read_back(Cuda, double* host, const double* slots, int count) {
  cuda::Context::get().read_back(host, slots, static_cast<std::size_t>(count) * sizeof(double));
}

#define DISTLOPS_INSTANTIATE_CUDA_SLOT_KERNELS(T, Space)                                        \
  template void add_vdot<T>(Cuda, Index, const T*, const T*, double*, double*, void*);          \
  template void add_axpy_pair_squared_norm<T>(Cuda, Index, const double*, double, const T*, T*, \
                                              double, const T*, T*, double*, void*);            \
  template void add_norm_reduce<T>(Cuda, kernels::NormKind, real_type_t<T>, Index, const T*,    \
                                   double*, void*);                                             \
  template void axpy<T>(Cuda, Index, const double*, double, const T*, T*);                      \
  template void axpby<T>(Cuda, Index, const double*, const T*, const double*, T*);              \
  template void scale<T>(Cuda, Index, const double*, double, T*);
DISTLOPS_FOR_EACH_SCALAR_IN(DISTLOPS_INSTANTIATE_CUDA_SLOT_KERNELS, ::distlops::Cuda)
#undef DISTLOPS_INSTANTIATE_CUDA_SLOT_KERNELS

void lsqr_after_u(Cuda, double* slots, double dampsq) {
  launch_scalar("lsqr scalar kernel launch", 1, lsqr_after_u_kernel, slots, dampsq);
}

void lsqr_after_v(Cuda, double* slots, LsqrParameters p) {
  launch_scalar("lsqr scalar kernel launch", 1, lsqr_after_v_kernel, slots, p);
}

}  // namespace distlops::kernels::slots
