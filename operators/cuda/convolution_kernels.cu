// The 1-d convolution kernels (convolution_kernels.hpp): grid-stride loops over output points,
// each summing the taps that reach it.
#include "../signal/nonstationary_taps.hpp"
#include "convolution_kernels.hpp"
#include "distlops/core/detail/cuda_launch.cuh"
#include "distlops/core/instantiate.hpp"

namespace distlops::device_ops {

namespace {

using kernels::device::accumulate;
using kernels::device::first_index;
using kernels::device::grid_stride;
using kernels::device::launch_elements;
using kernels::device::pointer;
using kernels::device::scalar_t;
using kernels::device::value;
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
void convolve1d(Cuda, bool adjoint, Index outer, Index in_rows, Index out_rows, Index inner,
                Index taps, Index offset, const T* w, T alpha, const T* in, T beta, T* out) {
  launch_elements("Convolve1D kernel launch", outer * out_rows * inner,
                  convolve1d_kernel<scalar_t<T>>, adjoint, in_rows, out_rows, inner, taps, offset,
                  pointer(w), value(alpha), pointer(in), value(beta), pointer(out));
}

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

#define DISTLOPS_INSTANTIATE_CONVOLUTION_KERNELS(T)                                               \
  template void convolve1d<T>(Cuda, bool, Index, Index, Index, Index, Index, Index, const T*, T,  \
                              const T*, T, T*);                                                   \
  template void nonstationary_convolve1d<T>(Cuda, bool, Index, Index, Index, Index, Index, Index, \
                                            const T*, const T*, T*);
DISTLOPS_FOR_EACH_SCALAR(DISTLOPS_INSTANTIATE_CONVOLUTION_KERNELS)
#undef DISTLOPS_INSTANTIATE_CONVOLUTION_KERNELS

}  // namespace distlops::device_ops
