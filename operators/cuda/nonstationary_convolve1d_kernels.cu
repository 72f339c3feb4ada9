// SPDX-License-Identifier: BSD-3-Clause
// Copyright (c) 2026 The distlops authors
// NonStationaryConvolve1D on the device (nonstationary_convolve1d_kernels.hpp): one thread per
// output point, summing the samples within reach with their interpolated taps.
#include "../signal/nonstationary_convolve1d_kernels.hpp"
#include "../signal/nonstationary_taps.hpp"
#include "distlops/core/detail/cuda_launch.cuh"
#include "distlops/core/instantiate.hpp"

namespace distlops::kernels {

namespace {

using namespace device;
namespace pw = pointwise;

template <class D>
__global__ void nonstationary_forward_kernel(Index n, Index length, Index inner, Index window_start,
                                             Index window, Index half, const D* filters,
                                             const D* in, D* out) {
  for (Index p = first_index(); p < n; p += grid_stride()) {
    const Index k = p % inner;
    const Index j = (p / inner) % window;
    const Index o = p / (inner * window);
    const Index output = window_start + j;
    const nonstationary::Reach reach = nonstationary::inputs_reaching(output, half, length);
    const D* line = in + o * length * inner + k;
    D sum = pw::from_real<D>(0);
    for (Index i = reach.first; i <= reach.last; ++i)
      sum = pw::add(
          sum, pw::multiply(filters[nonstationary::tap_index(i, output, half)], line[i * inner]));
    out[p] = sum;
  }
}

template <class D>
__global__ void nonstationary_adjoint_kernel(Index n, Index length, Index inner, Index window_start,
                                             Index window, Index half, const D* filters,
                                             const D* in, D* out) {
  for (Index p = first_index(); p < n; p += grid_stride()) {
    const Index k = p % inner;
    const Index i = (p / inner) % length;
    const Index o = p / (inner * length);
    const nonstationary::Reach reach =
        nonstationary::outputs_reached(i, half, window_start, window);
    const D* line = in + o * window * inner + k;
    D sum = pw::from_real<D>(0);
    for (Index j = reach.first; j <= reach.last; ++j) {
      const D weight = pw::conjugate(filters[nonstationary::tap_index(i, window_start + j, half)]);
      sum = pw::add(sum, pw::multiply(weight, line[j * inner]));
    }
    out[p] = sum;
  }
}

}  // namespace

template <Scalar T>
void nonstationary_convolve1d(Cuda, bool adjoint, Index outer, Index length, Index inner,
                              Index window_start, Index window, Index half, const T* filters,
                              const T* in, T* out) {
  if (adjoint) {
    launch_elements("NonStationaryConvolve1D adjoint kernel launch", outer * length * inner,
                    nonstationary_adjoint_kernel<scalar_t<T>>, length, inner, window_start, window,
                    half, pointer(filters), pointer(in), pointer(out));
  } else {
    launch_elements("NonStationaryConvolve1D kernel launch", outer * window * inner,
                    nonstationary_forward_kernel<scalar_t<T>>, length, inner, window_start, window,
                    half, pointer(filters), pointer(in), pointer(out));
  }
}

DISTLOPS_FOR_EACH_SCALAR_IN_ARG(DISTLOPS_DETAIL_NONSTATIONARY_KERNELS, , ::distlops::Cuda)

}  // namespace distlops::kernels
