// SPDX-License-Identifier: BSD-3-Clause
// Copyright (c) 2026 The distlops authors
// The host kernels of the solvers' scalar slots: the slots are host memory, so each is the
// array kernel of kernels.hpp (or the formula) around a read of its slot.
#include <algorithm>
#include <complex>

#include "../slot_kernels.hpp"
#include "distlops/core/fused_kernels.hpp"
#include "distlops/core/instantiate.hpp"

namespace distlops::kernels::slots {

void read_back(Host, double* host, const double* slots, int count) {
  std::copy_n(slots, count, host);
}

void zero(Host, int count, double* slots) {
  std::fill_n(slots, count, 0.0);
}

void accumulate(Host, int count, const double* from, double* to) {
  for (int i = 0; i < count; ++i)
    to[i] += from[i];
}

template <Scalar T>
void add_vdot(Host, Index n, const T* x, const T* y, double* re, double* im, void*) {
  const T value = kernels::vdot(Host{}, n, x, y);
  *re += static_cast<double>(std::real(value));
  if (im) *im += static_cast<double>(std::imag(value));
}

template <Scalar T>
void add_axpy_pair_squared_norm(Host, Index n, const double* step, double fx, const T* c, T* x,
                                double fr, const T* q, T* r, double* re, void*) {
  T value;
  kernels::axpy_pair_vdot_into(Host{}, n, step, fx, c, x, fr, q, r, &value);
  *re += static_cast<double>(std::real(value));
}

template <Scalar T>
void add_norm_reduce(Host, kernels::NormKind kind, real_type_t<T> p, Index n, const T* x,
                     double* slot, void*) {
  *slot += static_cast<double>(kernels::norm_reduce(Host{}, kind, p, n, x));
}

void step_length(Host, double numerator, const double* first, const double* second, double weight,
                 double* out) {
  *out = guarded_step(numerator, *first + (second ? weight * *second : 0.0));
}

void reciprocal_sqrt(Host, const double* squared, double otherwise, double* out) {
  *out = guarded_reciprocal_sqrt(*squared, otherwise);
}

void lsqr_after_u(Host, double* slots, double dampsq) {
  detail::lsqr_after_u(*reinterpret_cast<detail::LsqrSlots*>(slots), dampsq);
}

void lsqr_after_v(Host, double* slots, detail::LsqrParameters p) {
  detail::lsqr_after_v(*reinterpret_cast<detail::LsqrSlots*>(slots), p);
}

template <Scalar T>
void axpy(Host, Index n, const double* a, double factor, const T* x, T* y) {
  const double c = factor * *a;
  if (c != 0) kernels::axpy(Host{}, n, coefficient_of<T>(c), x, y);
}

template <Scalar T>
void axpby(Host, Index n, const double* a, const T* x, const double* b, T* y) {
  if (*a == 0 && *b == 1) return;
  kernels::axpby(Host{}, n, coefficient_of<T>(*a), x, coefficient_of<T>(*b), y);
}

template <Scalar T>
void scale(Host, Index n, const double* a, double factor, T* y) {
  const double c = factor * *a;
  if (c != 1) kernels::scale(Host{}, n, coefficient_of<T>(c), y);
}

#define DISTLOPS_INSTANTIATE_SLOT_KERNELS(T, Space)                                              \
  template void add_vdot<T>(Space, Index, const T*, const T*, double*, double*, void*);          \
  template void add_axpy_pair_squared_norm<T>(Space, Index, const double*, double, const T*, T*, \
                                              double, const T*, T*, double*, void*);             \
  template void add_norm_reduce<T>(Space, kernels::NormKind, real_type_t<T>, Index, const T*,    \
                                   double*, void*);                                              \
  template void axpy<T>(Space, Index, const double*, double, const T*, T*);                      \
  template void axpby<T>(Space, Index, const double*, const T*, const double*, T*);              \
  template void scale<T>(Space, Index, const double*, double, T*);
DISTLOPS_FOR_EACH_SCALAR_IN(DISTLOPS_INSTANTIATE_SLOT_KERNELS, ::distlops::Host)
#undef DISTLOPS_INSTANTIATE_SLOT_KERNELS

}  // namespace distlops::kernels::slots
