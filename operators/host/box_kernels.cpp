// SPDX-License-Identifier: BSD-3-Clause
// Copyright (c) 2026 The distlops authors
// box_axpby on the host: one pass per row of the box (its last axis), the part of the row that
// lies inside the input an axpby, the rest scaled (or zeroed).
#include "../box_kernels.hpp"

#include <algorithm>

#include "distlops/core/instantiate.hpp"
#include "distlops/core/kernels.hpp"

namespace distlops::kernels {

namespace {

// y[i * stride] = beta * y[i * stride] for i < n; zero without reading when beta == 0.
template <class T>
void scale_strided(Index n, T beta, T* y, Index stride) {
  if (beta == T(1)) return;
  for (Index i = 0; i < n; ++i)
    y[i * stride] = beta == T(0) ? T(0) : beta * y[i * stride];
}

}  // namespace

template <Scalar T>
void box_axpby(Host, const BoxAxpby& box, T alpha, const T* in, T beta, T* out) {
  const std::size_t ndim = box.extent.size();
  for (Index e : box.extent) {
    if (e == 0) return;
  }
  if (ndim == 0) {
    // One point.
    const T sample = in ? alpha * in[box.in_offset] : T(0);
    out[box.out_offset] = beta == T(0) ? sample : sample + beta * out[box.out_offset];
    return;
  }
  const std::size_t last = ndim - 1;
  const Index length = box.extent[last];
  const Index out_stride = box.out_strides[last], in_stride = box.in_strides[last];
  const Index begin = std::clamp<Index>(box.in_first[last], 0, length);
  const Index end = std::clamp<Index>(box.in_last[last], begin, length);
  Shape index(last, 0);
  while (true) {
    Index out_index = box.out_offset, in_index = box.in_offset;
    bool inside = in != nullptr;
    for (std::size_t k = 0; k < last; ++k) {
      out_index += index[k] * box.out_strides[k];
      in_index += index[k] * box.in_strides[k];
      inside = inside && index[k] >= box.in_first[k] && index[k] < box.in_last[k];
    }
    T* row = out + out_index;
    // Points [first, stop) of the row read the input.
    const Index first = inside ? begin : length, stop = inside ? end : length;
    scale_strided(first, beta, row, out_stride);
    if (first < stop) {
      const T* source = in + in_index + first * in_stride;
      T* target = row + first * out_stride;
      if (out_stride == 1 && in_stride == 1) {
        axpby(Host{}, stop - first, alpha, source, beta, target);
      } else {
        for (Index i = 0; i < stop - first; ++i) {
          const T sample = alpha * source[i * in_stride];
          target[i * out_stride] = beta == T(0) ? sample : sample + beta * target[i * out_stride];
        }
      }
    }
    scale_strided(length - stop, beta, row + stop * out_stride, out_stride);
    // Odometer over the axes before the last.
    std::size_t k = last;
    while (k > 0 && ++index[k - 1] == box.extent[k - 1]) {
      index[k - 1] = 0;
      --k;
    }
    if (k == 0) return;
  }
}

DISTLOPS_FOR_EACH_SCALAR_IN_ARG(DISTLOPS_DETAIL_BOX_KERNELS, , ::distlops::Host)

}  // namespace distlops::kernels
