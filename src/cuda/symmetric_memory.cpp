// SPDX-License-Identifier: BSD-3-Clause
// Copyright (c) 2026 The distlops authors
// SymmetricArray: NCCL symmetric memory behind a device array (symmetric_memory.hpp).
#include "distlops/core/symmetric_memory.hpp"
#include "distlops/core/instantiate.hpp"

#include <iostream>

#include "distlops/core/error.hpp"
#if DISTLOPS_WITH_NCCL
#include "distlops/core/nccl_communicator.hpp"
#endif

namespace distlops {

bool symmetric_memory_available() {
#if DISTLOPS_WITH_NCCL
  return NcclCommunicator::symmetric_windows_available();
#else
  return false;
#endif
}

template <Scalar T>
struct SymmetricArray<T>::State {
  DistributedArray<T, Cuda> array;
#if DISTLOPS_WITH_NCCL
  const NcclCommunicator* nccl = nullptr;
  NcclCommunicator::SymmetricRegion region;
#endif
  bool released = false;
};

template <Scalar T>
SymmetricArray<T>::SymmetricArray(const Layout& layout) : state_(std::make_unique<State>()) {
#if DISTLOPS_WITH_NCCL
  if (!layout.valid()) throw InvalidArgument("SymmetricArray: empty layout");
  if (!detail::nccl_can_form_communicator(layout.communicator())) {
    // Ranks that share a device have no NCCL communicator: plain device memory, unregistered.
    state_->array = DistributedArray<T, Cuda>(layout);
    return;
  }
  state_->nccl = &detail::nccl_of(layout.communicator());
  state_->region =
      state_->nccl->allocate_symmetric(static_cast<std::size_t>(layout.local_size()) * sizeof(T));
  state_->array = DistributedArray<T, Cuda>::wrap(
      layout, std::span<T>(static_cast<T*>(state_->region.data),
                           static_cast<std::size_t>(layout.local_size())));
#else
  (void)layout;
  throw InvalidArgument("SymmetricArray: distlops was built without NCCL");
#endif
}

template <Scalar T>
SymmetricArray<T>::SymmetricArray(SymmetricArray&&) noexcept = default;

template <Scalar T>
SymmetricArray<T>::~SymmetricArray() {
  if (state_ && !state_->released) {
    std::cerr << "distlops: a SymmetricArray was destroyed without release(); its symmetric "
                 "memory is leaked (release() is collective and must be called on every rank)\n";
  }
}

template <Scalar T>
DistributedArray<T, Cuda>& SymmetricArray<T>::array() {
  if (!state_ || state_->released) throw InvalidArgument("SymmetricArray: used after release()");
  return state_->array;
}

template <Scalar T>
const DistributedArray<T, Cuda>& SymmetricArray<T>::array() const {
  if (!state_ || state_->released) throw InvalidArgument("SymmetricArray: used after release()");
  return state_->array;
}

template <Scalar T>
bool SymmetricArray<T>::registered() const {
#if DISTLOPS_WITH_NCCL
  return state_ && !state_->released && state_->region.registered;
#else
  return false;
#endif
}

template <Scalar T>
void SymmetricArray<T>::release() {
  if (!state_ || state_->released) return;
  state_->array = DistributedArray<T, Cuda>();
#if DISTLOPS_WITH_NCCL
  if (state_->nccl) state_->nccl->free_symmetric(state_->region);
#endif
  state_->released = true;
}

template <Scalar T>
bool SymmetricArray<T>::released() const {
  return !state_ || state_->released;
}

#define DISTLOPS_INSTANTIATE_SYMMETRIC_ARRAY(T) template class SymmetricArray<T>;
DISTLOPS_FOR_EACH_SCALAR(DISTLOPS_INSTANTIATE_SYMMETRIC_ARRAY)
#undef DISTLOPS_INSTANTIATE_SYMMETRIC_ARRAY

}  // namespace distlops
