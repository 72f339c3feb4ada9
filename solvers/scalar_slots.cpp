// SPDX-License-Identifier: BSD-3-Clause
// Copyright (c) 2026 The distlops authors
// The members of ScalarSlots that touch the slots' memory and the slot-coefficient updates:
// calls of the kernels of slot_kernels.hpp in the space of the slots, compiled once per space
// (and per scalar type for the block kernels).
#include "distlops/solvers/detail/scalar_slots.hpp"

#include <string>

#include "slot_kernels.hpp"

namespace distlops::detail {

static_assert(2 * sizeof(double) >= kernels::slots::scratch_bytes,
              "ScalarSlots' scratch holds one reduction's intermediate result");

template <MemorySpace Space>
ScalarSlots<Space>::ScalarSlots(int count)
    : count_(count), memory_(max_groups * capacity + scratch_doubles) {
  if (count < 1 || count > capacity) {
    throw InvalidArgument("ScalarSlots: between 1 and " + std::to_string(capacity) +
                          " slots, asked for " + std::to_string(count));
  }
  kernels::slots::zero(Space{}, count_, memory_.data());
  host_.fill(0.0);
}

template <MemorySpace Space>
void ScalarSlots<Space>::combine() {
  for (int g = 0; g < groups_; ++g) {
    if (communicators_[g]) {
      allreduce_sum_in_place<double, Space>(*communicators_[g], region(g) + first_, batch_);
    }
  }
  for (int g = 1; g < groups_; ++g)
    kernels::slots::accumulate(Space{}, batch_, region(g) + first_, region(0) + first_);
}

template <MemorySpace Space>
void ScalarSlots<Space>::step_length(int out, double numerator, int first, int second,
                                     double weight) {
  check_slot(out);
  kernels::slots::step_length(Space{}, numerator, device(first),
                              second >= 0 ? device(second) : nullptr, weight, mutable_slot(out));
}

template <MemorySpace Space>
void ScalarSlots<Space>::reciprocal_sqrt(int out, int squared, double otherwise) {
  check_slot(out);
  kernels::slots::reciprocal_sqrt(Space{}, device(squared), otherwise, mutable_slot(out));
}

template <MemorySpace Space>
void ScalarSlots<Space>::lsqr_after_u(double dampsq) {
  check_slot(lsqr_slot_count - 1);
  kernels::slots::lsqr_after_u(Space{}, memory_.data(), dampsq);
}

template <MemorySpace Space>
void ScalarSlots<Space>::lsqr_after_v(const LsqrParameters& parameters) {
  check_slot(lsqr_slot_count - 1);
  kernels::slots::lsqr_after_v(Space{}, memory_.data(), parameters);
}

template <MemorySpace Space>
void ScalarSlots<Space>::read_back() {
  kernels::slots::read_back(Space{}, host_.data(), memory_.data(), count_);
}

template <MemorySpace Space>
void ScalarSlots<Space>::zero(int count, double* slots) {
  kernels::slots::zero(Space{}, count, slots);
}

template <MemorySpace Space>
template <Scalar T>
void ScalarSlots<Space>::add_vdot_block(double* re, double* im, Index n, const T* x, const T* y) {
  kernels::slots::add_vdot(Space{}, n, x, y, re, im, scratch());
}

template <MemorySpace Space>
template <Scalar T>
void ScalarSlots<Space>::add_axpy_pair_squared_norm_block(double* re, Index n, const double* step,
                                                          double fx, const T* c, T* x, double fr,
                                                          const T* q, T* r) {
  kernels::slots::add_axpy_pair_squared_norm(Space{}, n, step, fx, c, x, fr, q, r, re, scratch());
}

template <MemorySpace Space>
template <Scalar T>
void ScalarSlots<Space>::add_norm_reduce_block(double* slot, kernels::NormKind kind,
                                               real_type_t<T> p, Index n, const T* x) {
  kernels::slots::add_norm_reduce(Space{}, kind, p, n, x, slot, scratch());
}

template <Scalar T, MemorySpace Space>
void SlotUpdates<T, Space>::axpy(Index n, const double* a, double factor, const T* x, T* y) {
  kernels::slots::axpy(Space{}, n, a, factor, x, y);
}

template <Scalar T, MemorySpace Space>
void SlotUpdates<T, Space>::axpby(Index n, const double* a, const T* x, const double* b, T* y) {
  kernels::slots::axpby(Space{}, n, a, x, b, y);
}

template <Scalar T, MemorySpace Space>
void SlotUpdates<T, Space>::scale(Index n, const double* a, double factor, T* y) {
  kernels::slots::scale(Space{}, n, a, factor, y);
}

#define DISTLOPS_INSTANTIATE_SCALAR_SLOTS(Space) template class ScalarSlots<Space>;
DISTLOPS_FOR_EACH_SPACE(DISTLOPS_INSTANTIATE_SCALAR_SLOTS)
#undef DISTLOPS_INSTANTIATE_SCALAR_SLOTS

#define DISTLOPS_INSTANTIATE_SLOT_BLOCKS(T, Space)                                       \
  template void ScalarSlots<Space>::add_vdot_block<T>(double*, double*, Index, const T*, \
                                                      const T*);                         \
  template void ScalarSlots<Space>::add_axpy_pair_squared_norm_block<T>(                 \
      double*, Index, const double*, double, const T*, T*, double, const T*, T*);        \
  template void ScalarSlots<Space>::add_norm_reduce_block<T>(double*, kernels::NormKind, \
                                                             real_type_t<T>, Index, const T*);
DISTLOPS_FOR_EACH_SCALAR_AND_SPACE(DISTLOPS_INSTANTIATE_SLOT_BLOCKS)
#undef DISTLOPS_INSTANTIATE_SLOT_BLOCKS

DISTLOPS_INSTANTIATE_TEMPLATE_CLASS(SlotUpdates)

}  // namespace distlops::detail
