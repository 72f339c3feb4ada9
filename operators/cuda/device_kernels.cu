// The CUDA kernels of the operators (device_kernels.hpp): grid-stride loops over output points
// whose arithmetic is that of pointwise.hpp and whose stencils come from local/stencil.hpp.
#include <cstring>

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

template <class D, class R>
__global__ void local_stencil_kernel(Index n, LocalStencil<R> stencil, bool adjoint, D alpha,
                                     const D* in, D beta, D* out) {
  for (Index p = first_index(); p < n; p += grid_stride()) {
    D sum = pw::from_real<D>(0);
    for (int t = 0; t < stencil.count; ++t) {
      const int axis = stencil.axis[t];
      const Index stride = stencil.strides[axis];
      const Index length = stencil.dims[axis];
      const Index i = (p / stride) % length;
      const local::stencil::Stencil<R> points =
          local::stencil::at(stencil.spec[t], adjoint, i, length);
      for (int s = 0; s < points.count; ++s) {
        const D weight = pw::multiply(alpha, pw::from_real<D>(points.weight[s]));
        sum = pw::add(sum, pw::multiply(weight, in[p + points.offset[s] * stride]));
      }
    }
    out[p] = accumulate(sum, beta, out + p);
  }
}

template <class D>
__global__ void stencil_box_kernel(Index n, StencilBox<D> box, const D* in, const D* front_ghosts,
                                   const D* back_ghosts, D beta, D* out) {
  const int a = box.distributed_axis;
  for (Index p = first_index(); p < n; p += grid_stride()) {
    // The point's index along every axis (C order within the box).
    Index index[max_box_dimensions];
    Index rest = p;
    for (int k = box.ndim - 1; k >= 0; --k) {
      index[k] = box.start[k] + rest % box.extent[k];
      rest /= box.extent[k];
    }
    Index base = 0;
    for (int k = 0; k < box.ndim; ++k)
      base += index[k] * box.strides[k];
    D sum = pw::from_real<D>(0);
    for (int t = 0; t < box.count; ++t) {
      D sample;
      if (box.ghost[t] == 0) {
        sample = in[base + box.shift[t]];
      } else {
        const Index* strides = box.ghost[t] == 1 ? box.front_strides : box.back_strides;
        Index offset = box.ghost_plane[t] * strides[a];
        for (int k = 0; k < box.ndim; ++k) {
          if (k != a) offset += index[k] * strides[k];
        }
        sample = (box.ghost[t] == 1 ? front_ghosts : back_ghosts)[offset];
      }
      sum = pw::add(sum, pw::multiply(box.coefficient[t], sample));
    }
    out[base] = accumulate(sum, beta, out + base);
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

template <Scalar T>
void local_stencil(Cuda, const LocalStencil<real_type_t<T>>& stencil, bool adjoint, T alpha,
                   const T* in, T beta, T* out) {
  Index n = 1;
  for (int k = 0; k < stencil.ndim; ++k)
    n *= stencil.dims[k];
  launch_elements("StencilOperator kernel launch", n,
                  local_stencil_kernel<scalar_t<T>, real_type_t<T>>, stencil, adjoint, value(alpha),
                  pointer(in), value(beta), pointer(out));
}

template <Scalar T>
void stencil_box(Cuda, const StencilBox<T>& box, const T* in, const T* front_ghosts,
                 const T* back_ghosts, T beta, T* out) {
  using D = scalar_t<T>;
  Index n = 1;
  for (int k = 0; k < box.ndim; ++k)
    n *= box.extent[k];
  // The box in device scalars: the same bytes (complex_pair has std::complex's layout).
  static_assert(sizeof(StencilBox<D>) == sizeof(StencilBox<T>));
  StencilBox<D> device_box;
  std::memcpy(static_cast<void*>(&device_box), &box, sizeof(box));
  launch_elements("distributed StencilOperator kernel launch", n, stencil_box_kernel<D>, device_box,
                  pointer(in), pointer(front_ghosts), pointer(back_ghosts), value(beta),
                  pointer(out));
}

#define DISTLOPS_INSTANTIATE_DEVICE_OPS(T)                                                        \
  template void diagonal<T>(Cuda, Index, Index, Index, T, const T*, const T*, T, T*);             \
  template void gather_rows<T>(Cuda, Index, Index, Index, Index, const Index*, T, const T*, T,    \
                               T*);                                                               \
  template void scatter_rows<T>(Cuda, Index, Index, Index, Index, const Index*, const Index*, T,  \
                                const T*, T, T*);                                                 \
  template void local_stencil<T>(Cuda, const LocalStencil<real_type_t<T>>&, bool, T, const T*, T, \
                                 T*);                                                             \
  template void stencil_box<T>(Cuda, const StencilBox<T>&, const T*, const T*, const T*, T, T*);
DISTLOPS_FOR_EACH_SCALAR(DISTLOPS_INSTANTIATE_DEVICE_OPS)
#undef DISTLOPS_INSTANTIATE_DEVICE_OPS

}  // namespace distlops::device_ops
