// SPDX-License-Identifier: BSD-3-Clause
// Copyright (c) 2026 The distlops authors
// The Cuda kernel of StencilOperator (operators/derivative/stencil_kernels.hpp): one thread per
// output point of the local block, whose stencils come from stencil::at like the host plan's.
#include "../derivative/stencil_kernels.hpp"
#include "distlops/core/detail/cuda_launch.cuh"
#include "distlops/core/instantiate.hpp"

#include <cstdint>
#include <limits>
#include <string>

#include "distlops/core/error.hpp"

namespace distlops::kernels {

namespace {

using namespace device;
namespace pw = pointwise;

// What each term needs per output point, indexed by the term alone so that, with the loop over
// the terms unrolled, every read is a kernel parameter at a fixed place (parameters indexed at
// run time, or passed by reference, are copied to local memory by every thread).
template <class R>
struct TermTable {
  Index stride[max_stencil_terms] = {};  // of the term's axis in the local block
  Index extent[max_stencil_terms] = {};  // local extent along the term's axis
  Index shift[max_stencil_terms] = {};   // global position of local plane 0 along it
  // Global positions [interior_begin, interior_end) share the stencil `interior`, translated.
  Index interior_begin[max_stencil_terms] = {};
  Index interior_end[max_stencil_terms] = {};
  stencil::Stencil<R> interior[max_stencil_terms] = {};
  // The face blocks of the term's axis a, packed like the local block with their own number of
  // planes: a point of the local block at (before, i_a, after) with after < stride_a has its
  // ghost at plane * stride_a + before * (width * stride_a) + after.
  Index front_planes[max_stencil_terms] = {};
  Index back_planes[max_stencil_terms] = {};
  Index front_offset[max_stencil_terms] = {};  // in the ghost buffer
  Index back_offset[max_stencil_terms] = {};
};

// The term at point p off the fast path: an end row of the axis, or a neighbour in a face
// block. Out of line, with every argument a value: few threads take it, and inlined into each
// unrolled term it would multiply the kernel's size.
template <class D, class R>
__device__ __noinline__ D edge_term(Index p, Index coordinate, stencil::Spec<R> spec, Index length,
                                    Index shift, Index extent, Index stride, Index front_planes,
                                    Index back_planes, const D* front_face, const D* back_face,
                                    bool adjoint, const D* in, D sum) {
  const stencil::Stencil<R> row = stencil::at(spec, adjoint, coordinate + shift, length);
  const Index block_span = extent * stride;  // one index of the axes before a, locally
  for (int s = 0; s < row.count; ++s) {
    const Index source = coordinate + row.offset[s];
    D sample;
    if (source >= 0 && source < extent) {
      sample = in[p + row.offset[s] * stride];
    } else {
      // A plane of a neighbouring rank (rows of axes that are not cut stay in the block).
      const bool front = source < 0;
      const Index plane = front ? front_planes + source : source - extent;
      const Index offset = plane * stride +
                           (p / block_span) * ((front ? front_planes : back_planes) * stride) +
                           p % stride;
      sample = (front ? front_face : back_face)[offset];
    }
    sum = pw::add(sum, pw::multiply(pw::from_real<D>(row.weight[s]), sample));
  }
  return sum;
}

// *re += Re(conj(x) y), *im += Im(conj(x) y), in double.
template <class D>
__device__ void add_conj_product(const D& x, const D& y, double& re, double& im) {
  if constexpr (pw::ComplexLike<D>) {
    const double xr = x.real(), xi = x.imag(), yr = y.real(), yi = y.imag();
    re += xr * yr + xi * yi;
    im += xr * yi - xi * yr;
  } else {
    re += static_cast<double>(x) * static_cast<double>(y);
  }
}

// The sums of (re, im) over the thread block (blockDim.x == block_size, a power of 2), in a
// fixed order; thread 0 receives them.
__device__ void block_sum(double& re, double& im) {
  __shared__ double shared[2 * block_size];
  const unsigned t = threadIdx.x;
  shared[t] = re;
  shared[block_size + t] = im;
  __syncthreads();
  for (unsigned half = block_size / 2; half > 0; half /= 2) {
    if (t < half) {
      shared[t] += shared[t + half];
      shared[block_size + t] += shared[block_size + t + half];
    }
    __syncthreads();
  }
  re = shared[0];
  im = shared[block_size];
}

// One thread per output point. I: the index arithmetic's type, 32-bit unsigned where the block
// allows (64-bit divisions take several times as many instructions). Vdot: also the block's sum
// of conj(in[p]) out[p] into partials[2 blockIdx.x] (real) and [2 blockIdx.x + 1] (imaginary).
template <class I, bool Vdot, class D, class R>
__global__ void __launch_bounds__(block_size, 4)
    stencil_kernel(Index n, StencilPoints<R> points, TermTable<R> terms, bool adjoint, D alpha,
                   const D* in, const D* ghosts, D beta, D* out, double* partials) {
  double re = 0, im = 0;
  for (Index p = first_index(); p < n; p += grid_stride()) {
    D sum = pw::from_real<D>(0);
#pragma unroll
    for (int t = 0; t < max_stencil_terms; ++t) {
      if (t >= points.count) break;
      const I stride = static_cast<I>(terms.stride[t]);
      const I extent = static_cast<I>(terms.extent[t]);
      const I coordinate = (static_cast<I>(p) / stride) % extent;
      const Index position = static_cast<Index>(coordinate) + terms.shift[t];
      // Interior rows whose neighbours all lie in the block: the shared stencil.
      if (position >= terms.interior_begin[t] && position < terms.interior_end[t] &&
          coordinate >= static_cast<I>(stencil::radius) &&
          coordinate + static_cast<I>(stencil::radius) < extent) {
#pragma unroll
        for (int s = 0; s < stencil::max_points; ++s) {
          if (s >= terms.interior[t].count) break;
          const Index source = p + terms.interior[t].offset[s] * terms.stride[t];
          sum =
              pw::add(sum, pw::multiply(pw::from_real<D>(terms.interior[t].weight[s]), in[source]));
        }
      } else {
        sum = edge_term(p, static_cast<Index>(coordinate), points.spec[t], points.length[t],
                        terms.shift[t], terms.extent[t], terms.stride[t], terms.front_planes[t],
                        terms.back_planes[t], ghosts + terms.front_offset[t],
                        ghosts + terms.back_offset[t], adjoint, in, sum);
      }
    }
    const D value = accumulate(pw::multiply(alpha, sum), beta, out + p);
    // in[p] read before the store, which the compiler cannot assume leaves it unchanged.
    if constexpr (Vdot) add_conj_product(in[p], value, re, im);
    out[p] = value;
  }
  if constexpr (Vdot) {
    block_sum(re, im);
    if (threadIdx.x == 0) {
      partials[2 * blockIdx.x] = re;
      partials[2 * blockIdx.x + 1] = im;
    }
  } else {
    (void)partials;
  }
}

// *re += the sum of the blocks' real parts (and *im of the imaginary ones, when not null), in a
// fixed order: one block.
__global__ void __launch_bounds__(block_size)
    add_partials_kernel(unsigned blocks, const double* partials, double* re, double* im) {
  double r = 0, i = 0;
  for (unsigned b = threadIdx.x; b < blocks; b += block_size) {
    r += partials[2 * b];
    i += partials[2 * b + 1];
  }
  block_sum(r, i);
  if (threadIdx.x == 0) {
    *re += r;
    if (im) *im += i;
  }
}

template <class R>
TermTable<R> term_table(const StencilPoints<R>& points, bool adjoint) {
  TermTable<R> terms;
  const Index edge = stencil::edge_width(adjoint);
  for (int t = 0; t < points.count; ++t) {
    const int axis = points.axis[t];
    terms.stride[t] = points.strides[axis];
    terms.extent[t] = points.extent[axis];
    terms.shift[t] = points.block_start[axis];
    terms.front_planes[t] = points.front_width[axis];
    terms.back_planes[t] = points.back_width[axis];
    terms.front_offset[t] = points.front_offset[axis];
    terms.back_offset[t] = points.back_offset[axis];
    if (points.length[t] > 2 * edge) {
      terms.interior_begin[t] = edge;
      terms.interior_end[t] = points.length[t] - edge;
      terms.interior[t] = stencil::at(points.spec[t], adjoint, edge, points.length[t]);
    }
  }
  return terms;
}

}  // namespace

template <Scalar T>
void stencil(Cuda, const StencilPoints<real_type_t<T>>& points, bool adjoint, T alpha, const T* in,
             const T* ghosts, T beta, T* out) {
  using D = scalar_t<T>;
  using R = real_type_t<T>;
  Index n = 1;
  for (int k = 0; k < points.ndim; ++k)
    n *= points.extent[k];
  if (n <= 0) return;
  const TermTable<R> terms = term_table(points, adjoint);
  double* none = nullptr;
  if (n <= static_cast<Index>(std::numeric_limits<std::uint32_t>::max())) {
    launch_elements("StencilOperator kernel launch", n, stencil_kernel<std::uint32_t, false, D, R>,
                    points, terms, adjoint, value(alpha), pointer(in), pointer(ghosts), value(beta),
                    pointer(out), none);
  } else {
    launch_elements("StencilOperator kernel launch", n, stencil_kernel<Index, false, D, R>, points,
                    terms, adjoint, value(alpha), pointer(in), pointer(ghosts), value(beta),
                    pointer(out), none);
  }
}

Index stencil_vdot_scratch(Cuda, Index n) {
  return 2 * static_cast<Index>(grid_size(n));
}

template <Scalar T>
void stencil_vdot(Cuda, const StencilPoints<real_type_t<T>>& points, const T* in, const T* ghosts,
                  T* out, double* scratch, double* re, double* im) {
  using D = scalar_t<T>;
  using R = real_type_t<T>;
  Index n = 1;
  for (int k = 0; k < points.ndim; ++k)
    n *= points.extent[k];
  if (n <= 0) return;
  if (n > max_fused_stencil_points) {
    throw InvalidArgument("stencil_vdot: at most " + std::to_string(max_fused_stencil_points) +
                          " points, got " + std::to_string(n));
  }
  const TermTable<R> terms = term_table(points, false);
  launch_elements("StencilOperator fused kernel launch", n,
                  stencil_kernel<std::uint32_t, true, D, R>, points, terms, false, value(T(1)),
                  pointer(in), pointer(ghosts), value(T(0)), pointer(out), scratch);
  add_partials_kernel<<<1, block_size, 0, stream()>>>(grid_size(n), scratch, re, im);
  cuda::check_launch("StencilOperator partial sums launch");
}

#define DISTLOPS_INSTANTIATE_STENCIL_KERNEL(T)                                                  \
  template void stencil<T>(Cuda, const StencilPoints<real_type_t<T>>&, bool, T, const T*,       \
                           const T*, T, T*);                                                    \
  template void stencil_vdot<T>(Cuda, const StencilPoints<real_type_t<T>>&, const T*, const T*, \
                                T*, double*, double*, double*);
DISTLOPS_FOR_EACH_SCALAR(DISTLOPS_INSTANTIATE_STENCIL_KERNEL)
#undef DISTLOPS_INSTANTIATE_STENCIL_KERNEL

}  // namespace distlops::kernels
