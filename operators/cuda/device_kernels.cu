// The CUDA kernels of the operators (device_kernels.hpp): grid-stride loops over output points
// whose arithmetic is that of pointwise.hpp.

#include "device_kernels.hpp"
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

template <class D>
__global__ void diagonal_kernel(Index n, Index length, Index inner, D alpha, const D* w,
                                const D* in, D beta, D* out) {
  for (Index p = first_index(); p < n; p += grid_stride()) {
    const Index l = (p / inner) % length;
    out[p] = accumulate(pw::multiply(alpha, pw::multiply(w[l], in[p])), beta, out + p);
  }
}

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
void diagonal(Cuda, Index outer, Index length, Index inner, T alpha, const T* w, const T* in,
              T beta, T* out) {
  launch_elements("Diagonal kernel launch", outer * length * inner, diagonal_kernel<scalar_t<T>>,
                  length, inner, value(alpha), pointer(w), pointer(in), value(beta), pointer(out));
}

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

#define DISTLOPS_INSTANTIATE_DEVICE_OPS(T)                                                       \
  template void diagonal<T>(Cuda, Index, Index, Index, T, const T*, const T*, T, T*);            \
  template void gather_rows<T>(Cuda, Index, Index, Index, Index, const Index*, T, const T*, T,   \
                               T*);                                                              \
  template void scatter_rows<T>(Cuda, Index, Index, Index, Index, const Index*, const Index*, T, \
                                const T*, T, T*);
DISTLOPS_FOR_EACH_SCALAR(DISTLOPS_INSTANTIATE_DEVICE_OPS)
#undef DISTLOPS_INSTANTIATE_DEVICE_OPS

}  // namespace distlops::device_ops
