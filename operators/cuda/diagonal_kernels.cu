// SPDX-License-Identifier: BSD-3-Clause
// Copyright (c) 2026 The distlops authors
// Diagonal on the device (diagonal_kernels.hpp): a grid-stride loop over the output points
// whose arithmetic is that of pointwise.hpp.
#include "../local/diagonal_kernels.hpp"
#include "distlops/core/detail/cuda_launch.cuh"
#include "distlops/core/instantiate.hpp"

namespace distlops::kernels {

namespace {

using namespace device;
namespace pw = pointwise;

template <class D>
__global__ void diagonal_kernel(Index n, Index length, Index inner, D alpha, const D* w,
                                const D* in, D beta, D* out) {
  for (Index p = first_index(); p < n; p += grid_stride()) {
    const Index l = (p / inner) % length;
    out[p] = accumulate(pw::multiply(alpha, pw::multiply(w[l], in[p])), beta, out + p);
  }
}

}  // namespace

template <Scalar T>
void diagonal(Cuda, Index outer, Index length, Index inner, T alpha, const T* w, const T* in,
              T beta, T* out) {
  launch_elements("Diagonal kernel launch", outer * length * inner, diagonal_kernel<scalar_t<T>>,
                  length, inner, value(alpha), pointer(w), pointer(in), value(beta), pointer(out));
}

DISTLOPS_FOR_EACH_SCALAR_IN_ARG(DISTLOPS_DETAIL_DIAGONAL_KERNELS, , ::distlops::Cuda)

}  // namespace distlops::kernels
