// SPDX-License-Identifier: BSD-3-Clause
// Copyright (c) 2026 The distlops authors
// Convolve1D on the device (convolve1d_kernels.hpp): a grid-stride loop over the output
// points, each summing the taps that reach it in a register.
#include "../signal/convolve1d_kernels.hpp"
#include "distlops/core/detail/cuda_launch.cuh"
#include "distlops/core/instantiate.hpp"

namespace distlops::kernels {

namespace {

using namespace device;
namespace pw = pointwise;

__device__ inline Index smaller(Index a, Index b) {
  return a < b ? a : b;
}
__device__ inline Index larger(Index a, Index b) {
  return a < b ? b : a;
}

template <class D>
__global__ void convolve1d_kernel(Index n, bool adjoint, Index in_rows, Index out_rows, Index inner,
                                  Index taps, Index offset, const D* w, D alpha, const D* in,
                                  D beta, D* out) {
  for (Index p = first_index(); p < n; p += grid_stride()) {
    const Index i = p % inner;
    const Index r = (p / inner) % out_rows;
    const Index o = p / (inner * out_rows);
    // Input row s = r + offset - k (forward) or r + k - offset (adjoint), 0 <= s < in_rows.
    const Index first = adjoint ? offset - r : r + offset - in_rows + 1;
    const Index begin = larger(first, 0);
    const Index end = smaller(first + in_rows, taps);
    const D* row = in + o * in_rows * inner + i;
    D sum = pw::from_real<D>(0);
    for (Index k = begin; k < end; ++k) {
      const Index s = adjoint ? r + k - offset : r + offset - k;
      sum = pw::add(sum, pw::multiply(w[k], row[s * inner]));
    }
    const D scaled = pw::multiply(alpha, sum);
    out[p] = accumulate(scaled, beta, out + p);
  }
}

}  // namespace

template <Scalar T>
void convolve1d(Cuda, bool adjoint, Index outer, Index in_rows, Index out_rows, Index inner,
                Index taps, Index offset, const T* w, T alpha, const T* in, T beta, T* out) {
  launch_elements("Convolve1D kernel launch", outer * out_rows * inner,
                  convolve1d_kernel<scalar_t<T>>, adjoint, in_rows, out_rows, inner, taps, offset,
                  pointer(w), value(alpha), pointer(in), value(beta), pointer(out));
}

DISTLOPS_FOR_EACH_SCALAR_IN_ARG(DISTLOPS_DETAIL_CONVOLVE1D_KERNELS, , ::distlops::Cuda)

}  // namespace distlops::kernels
