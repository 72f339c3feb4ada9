// SPDX-License-Identifier: BSD-3-Clause
// Copyright (c) 2026 The distlops authors
// Restriction on the device (restriction_kernels.hpp): one thread per output point; the
// adjoint sums the samples of its row through the inverse index lists.
#include "../local/restriction_kernels.hpp"
#include "distlops/core/detail/cuda_launch.cuh"
#include "distlops/core/instantiate.hpp"

namespace distlops::kernels {

namespace {

using namespace device;
namespace pw = pointwise;

template <class D>
__global__ void gather_rows_kernel(Index n, Index length, Index inner, Index count,
                                   const Index* index, D alpha, const D* in, D beta, D* out) {
  for (Index p = first_index(); p < n; p += grid_stride()) {
    const Index k = p % inner;
    const Index i = (p / inner) % count;
    const Index o = p / (inner * count);
    const D sample = in[(o * length + index[i]) * inner + k];
    out[p] = accumulate(pw::multiply(alpha, sample), beta, out + p);
  }
}

template <class D>
__global__ void scatter_rows_kernel(Index n, Index length, Index inner, Index count,
                                    const Index* first, const Index* sources, D alpha, const D* in,
                                    D beta, D* out) {
  for (Index p = first_index(); p < n; p += grid_stride()) {
    const Index k = p % inner;
    const Index j = (p / inner) % length;
    const Index o = p / (inner * length);
    D sum = pw::from_real<D>(0);
    for (Index s = first[j]; s < first[j + 1]; ++s)
      sum = pw::add(sum, in[(o * count + sources[s]) * inner + k]);
    out[p] = accumulate(pw::multiply(alpha, sum), beta, out + p);
  }
}

}  // namespace

template <Scalar T>
void gather_rows(Cuda, Index outer, Index length, Index inner, Index count, const Index* index,
                 T alpha, const T* in, T beta, T* out) {
  launch_elements("Restriction kernel launch", outer * count * inner,
                  gather_rows_kernel<scalar_t<T>>, length, inner, count, index, value(alpha),
                  pointer(in), value(beta), pointer(out));
}

template <Scalar T>
void scatter_rows(Cuda, Index outer, Index length, Index inner, Index count, const Index* first,
                  const Index* sources, T alpha, const T* in, T beta, T* out) {
  launch_elements("Restriction adjoint kernel launch", outer * length * inner,
                  scatter_rows_kernel<scalar_t<T>>, length, inner, count, first, sources,
                  value(alpha), pointer(in), value(beta), pointer(out));
}

DISTLOPS_FOR_EACH_SCALAR_IN_ARG(DISTLOPS_DETAIL_RESTRICTION_KERNELS, , ::distlops::Cuda)

}  // namespace distlops::kernels
