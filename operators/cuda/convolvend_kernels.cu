// SPDX-License-Identifier: BSD-3-Clause
// Copyright (c) 2026 The distlops authors
// ConvolveND on the device (convolvend_kernels.hpp): a grid-stride loop over the output points,
// each summing the taps that reach it in a register.
#include "../signal/convolvend_kernels.hpp"
#include "distlops/core/detail/cuda_launch.cuh"
#include "distlops/core/instantiate.hpp"

namespace distlops::kernels {

namespace {

using namespace device;
namespace pw = pointwise;

template <class D>
__global__ void convolvend_kernel(Index n, ConvolveGeometry g, Index tap_count, const D* w, D alpha,
                                  const D* in, D beta, D* out) {
  for (Index p = first_index(); p < n; p += grid_stride()) {
    Index index[max_convolve_dimensions];
    Index rest = p;
    for (int a = g.ndim; a-- > 0;) {
      index[a] = rest % g.out_extent[a];
      rest /= g.out_extent[a];
    }
    D sum = pw::from_real<D>(0);
    for (Index t = 0; t < tap_count; ++t) {
      Index k = t, source = 0, stride = 1;
      bool inside = true;
      for (int a = g.ndim; a-- > 0;) {
        const Index q = index[a] + g.base[a] + g.sign * (k % g.taps[a]);
        k /= g.taps[a];
        inside = inside && q >= 0 && q < g.in_extent[a];
        source += q * stride;
        stride *= g.in_extent[a];
      }
      if (inside) sum = pw::add(sum, pw::multiply(w[t], in[source]));
    }
    out[p] = accumulate(pw::multiply(alpha, sum), beta, out + p);
  }
}

}  // namespace

template <Scalar T>
void convolvend(Cuda, const ConvolveGeometry& g, const T* w, T alpha, const T* in, T beta, T* out) {
  Index points = 1, taps = 1;
  for (int a = 0; a < g.ndim; ++a) {
    points *= g.out_extent[a];
    taps *= g.taps[a];
  }
  launch_elements("ConvolveND kernel launch", points, convolvend_kernel<scalar_t<T>>, g, taps,
                  pointer(w), value(alpha), pointer(in), value(beta), pointer(out));
}

DISTLOPS_FOR_EACH_SCALAR_IN_ARG(DISTLOPS_DETAIL_CONVOLVEND_KERNELS, , ::distlops::Cuda)

}  // namespace distlops::kernels
