// SPDX-License-Identifier: BSD-3-Clause
// Copyright (c) 2026 The distlops authors
// box_axpby on the device (box_kernels.hpp): one thread per point of the box. Axes beyond what
// one launch handles are looped over on the host, one launch per index of the leading axes.
#include <algorithm>
#include <vector>

#include "../box_kernels.hpp"
#include "distlops/core/detail/cuda_launch.cuh"
#include "distlops/core/instantiate.hpp"

namespace distlops::kernels {

namespace {

using namespace device;
namespace pw = pointwise;

/// The most axes one launch handles.
constexpr int max_box_axes = 8;

struct BoxParameters {
  int ndim = 0;
  Index extent[max_box_axes] = {};
  Index out_strides[max_box_axes] = {};
  Index in_strides[max_box_axes] = {};
  Index in_first[max_box_axes] = {};
  Index in_last[max_box_axes] = {};
  Index out_offset = 0;
  Index in_offset = 0;
  bool has_input = false;
};

// One thread per point of the box (grid-stride). The axis loop has a fixed trip count so that
// the parameter arrays are indexed statically.
template <class D>
__global__ void box_axpby_kernel(Index n, BoxParameters box, D alpha, const D* in, D beta, D* out) {
  for (Index p = first_index(); p < n; p += grid_stride()) {
    Index rest = p;
    Index out_index = box.out_offset;
    Index in_index = box.in_offset;
    bool inside = box.has_input;
#pragma unroll
    for (int k = max_box_axes - 1; k >= 0; --k) {
      if (k < box.ndim) {
        const Index i = rest % box.extent[k];
        rest /= box.extent[k];
        out_index += i * box.out_strides[k];
        in_index += i * box.in_strides[k];
        inside = inside && i >= box.in_first[k] && i < box.in_last[k];
      }
    }
    const D sample = inside ? pw::multiply(alpha, in[in_index]) : pw::from_real<D>(0);
    out[out_index] = accumulate(sample, beta, out + out_index);
  }
}

}  // namespace

template <Scalar T>
void box_axpby(Cuda, const BoxAxpby& box, T alpha, const T* in, T beta, T* out) {
  const std::size_t ndim = box.extent.size();
  for (Index e : box.extent) {
    if (e == 0) return;
  }
  // The innermost max_box_axes axes go to the kernel; the host loops over the others.
  const std::size_t looped = ndim > max_box_axes ? ndim - max_box_axes : 0;
  BoxParameters parameters;
  parameters.ndim = static_cast<int>(ndim - looped);
  Index n = 1;
  for (std::size_t k = looped; k < ndim; ++k) {
    const std::size_t j = k - looped;
    parameters.extent[j] = box.extent[k];
    parameters.out_strides[j] = box.out_strides[k];
    parameters.in_strides[j] = box.in_strides[k];
    parameters.in_first[j] = box.in_first[k];
    parameters.in_last[j] = box.in_last[k];
    n *= box.extent[k];
  }
  Shape index(looped, 0);
  do {
    BoxParameters launch = parameters;
    launch.out_offset = box.out_offset;
    launch.in_offset = box.in_offset;
    launch.has_input = in != nullptr;
    for (std::size_t k = 0; k < looped; ++k) {
      launch.out_offset += index[k] * box.out_strides[k];
      launch.in_offset += index[k] * box.in_strides[k];
      launch.has_input =
          launch.has_input && index[k] >= box.in_first[k] && index[k] < box.in_last[k];
    }
    box_axpby_kernel<<<device::grid_size(n), device::block_size, 0, device::stream()>>>(
        n, launch, value(alpha), pointer(in), value(beta), pointer(out));
    cuda::check_launch("box_axpby kernel launch");
  } while (next_index(box.extent, looped, index));
}

DISTLOPS_FOR_EACH_SCALAR_IN_ARG(DISTLOPS_DETAIL_BOX_KERNELS, , ::distlops::Cuda)

}  // namespace distlops::kernels
