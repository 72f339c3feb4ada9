// SPDX-License-Identifier: BSD-3-Clause
// Copyright (c) 2026 The distlops authors
// The Cuda kernel of StencilOperator (operators/derivative/stencil_kernels.hpp): one thread per
// output point of the local block, whose stencils come from stencil::at like the host plan's.
#include "../derivative/stencil_kernels.hpp"
#include "distlops/core/detail/cuda_launch.cuh"
#include "distlops/core/instantiate.hpp"

namespace distlops::kernels {

namespace {

using namespace device;
namespace pw = pointwise;

template <class D, class R>
__global__ void stencil_kernel(Index n, StencilPoints<R> points, bool adjoint, D alpha, const D* in,
                               const D* front_ghosts, const D* back_ghosts, D beta, D* out) {
  const int a = points.distributed_axis;
  for (Index p = first_index(); p < n; p += grid_stride()) {
    Index index[max_stencil_dimensions];
    Index rest = p;
    for (int k = points.ndim - 1; k >= 0; --k) {
      index[k] = rest % points.extent[k];
      rest /= points.extent[k];
    }
    D sum = pw::from_real<D>(0);
    for (int t = 0; t < points.count; ++t) {
      const int axis = points.axis[t];
      const Index shift = axis == a ? points.block_start : 0;
      const stencil::Stencil<R> row =
          stencil::at(points.spec[t], adjoint, index[axis] + shift, points.length[t]);
      for (int s = 0; s < row.count; ++s) {
        const Index source = index[axis] + row.offset[s];
        D sample;
        if (source >= 0 && source < points.extent[axis]) {
          sample = in[p + row.offset[s] * points.strides[axis]];
        } else {
          // Only along the distributed axis: a plane of a neighbouring rank.
          const bool front = source < 0;
          const Index* strides = front ? points.front_strides : points.back_strides;
          Index offset =
              (front ? points.front_planes + source : source - points.extent[axis]) * strides[a];
          for (int k = 0; k < points.ndim; ++k) {
            if (k != a) offset += index[k] * strides[k];
          }
          sample = (front ? front_ghosts : back_ghosts)[offset];
        }
        sum = pw::add(sum, pw::multiply(pw::from_real<D>(row.weight[s]), sample));
      }
    }
    out[p] = accumulate(pw::multiply(alpha, sum), beta, out + p);
  }
}

}  // namespace

template <Scalar T>
void stencil(Cuda, const StencilPoints<real_type_t<T>>& points, bool adjoint, T alpha, const T* in,
             const T* front_ghosts, const T* back_ghosts, T beta, T* out) {
  Index n = 1;
  for (int k = 0; k < points.ndim; ++k)
    n *= points.extent[k];
  launch_elements("StencilOperator kernel launch", n, stencil_kernel<scalar_t<T>, real_type_t<T>>,
                  points, adjoint, value(alpha), pointer(in), pointer(front_ghosts),
                  pointer(back_ghosts), value(beta), pointer(out));
}

#define DISTLOPS_INSTANTIATE_STENCIL_KERNEL(T)                                            \
  template void stencil<T>(Cuda, const StencilPoints<real_type_t<T>>&, bool, T, const T*, \
                           const T*, const T*, T, T*);
DISTLOPS_FOR_EACH_SCALAR(DISTLOPS_INSTANTIATE_STENCIL_KERNEL)
#undef DISTLOPS_INSTANTIATE_STENCIL_KERNEL

}  // namespace distlops::kernels
