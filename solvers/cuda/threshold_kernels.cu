// SPDX-License-Identifier: BSD-3-Clause
// Copyright (c) 2026 The distlops authors
// The Cuda kernel of the thresholding rules of ISTA and FISTA: one thread per element, each
// calling the rule shared with the host loop (threshold_rules.hpp); the rule's cut is computed
// once on the host, as the host kernel does.
#include "../threshold_kernels.hpp"

#include "distlops/core/detail/cuda_launch.cuh"
#include "distlops/core/instantiate.hpp"

namespace distlops::kernels {

namespace {

using device::first_index;
using device::grid_stride;

template <class D, class R>
__global__ void soft_kernel(Index n, R t, D* x) {
  for (Index i = first_index(); i < n; i += grid_stride())
    x[i] = threshold_rules::soft(x[i], t);
}

template <class D, class R>
__global__ void hard_kernel(Index n, R cut, D* x) {
  for (Index i = first_index(); i < n; i += grid_stride())
    x[i] = threshold_rules::hard(x[i], cut);
}

template <class D, class R>
__global__ void half_kernel(Index n, R t, R cut, D* x) {
  for (Index i = first_index(); i < n; i += grid_stride())
    x[i] = threshold_rules::half(x[i], t, cut);
}

}  // namespace

template <Scalar T>
void threshold(Cuda, ThresholdKind kind, Index n, real_type_t<T> t, T* x) {
  if (n <= 0) return;
  using D = device::scalar_t<T>;
  D* data = device::pointer(x);
  const unsigned blocks = device::grid_size(n);
  const cudaStream_t stream = device::stream();
  switch (kind) {
    case ThresholdKind::soft:
      soft_kernel<<<blocks, device::block_size, 0, stream>>>(n, t, data);
      break;
    case ThresholdKind::hard:
      hard_kernel<<<blocks, device::block_size, 0, stream>>>(n, hard_threshold_cut(t), data);
      break;
    case ThresholdKind::half:
      half_kernel<<<blocks, device::block_size, 0, stream>>>(n, t, half_threshold_cut(t), data);
      break;
  }
  cuda::check_launch("threshold kernel launch");
}

#define DISTLOPS_INSTANTIATE_THRESHOLD(T, Space) \
  template void threshold<T>(Space, ThresholdKind, Index, real_type_t<T>, T*);
DISTLOPS_FOR_EACH_SCALAR_IN(DISTLOPS_INSTANTIATE_THRESHOLD, ::distlops::Cuda)
#undef DISTLOPS_INSTANTIATE_THRESHOLD

}  // namespace distlops::kernels
