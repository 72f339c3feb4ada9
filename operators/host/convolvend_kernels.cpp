// SPDX-License-Identifier: BSD-3-Clause
// Copyright (c) 2026 The distlops authors
// ConvolveND on the host by the direct method: each output row (the last axis) stays in cache
// while every tap that reaches it adds a shifted input row to it.
#include "../local/convolvend_kernels.hpp"

#include <algorithm>

#include "../local/support.hpp"
#include "distlops/core/instantiate.hpp"

namespace distlops::kernels {

template <Scalar T>
void convolvend(Host, const ConvolveGeometry& g, const T* w, T alpha, const T* in, T beta, T* out) {
  const int last = g.ndim - 1;
  Index rows = 1, prefix_taps = 1;
  for (int a = 0; a < last; ++a) {
    rows *= g.out_extent[a];
    prefix_taps *= g.taps[a];
  }
  const Index row_length = g.out_extent[last];
  if (rows == 0 || row_length == 0) return;
  Index in_strides[max_convolve_dimensions];
  in_strides[last] = 1;
  for (int a = last; a-- > 0;)
    in_strides[a] = in_strides[a + 1] * g.in_extent[a + 1];
  const Index last_taps = g.taps[last];
  const Index in_length = g.in_extent[last];
  Index p[max_convolve_dimensions] = {};  // the output row's index on the leading axes
  Index k[max_convolve_dimensions] = {};  // the tap's index on the leading axes
  for (Index row = 0; row < rows; ++row) {
    T* y = out + row * row_length;
    local::detail::scale_or_zero(Host{}, row_length, beta, y);
    for (Index t = 0; t < prefix_taps; ++t) {
      bool inside = true;
      Index start = 0;
      for (int a = 0; a < last; ++a) {
        const Index q = p[a] + g.base[a] + g.sign * k[a];
        inside = inside && q >= 0 && q < g.in_extent[a];
        start += q * in_strides[a];
      }
      if (inside) {
        const T* weights = w + t * last_taps;
        for (Index kl = 0; kl < last_taps; ++kl) {
          const T c = alpha * weights[kl];
          if (c == T(0)) continue;
          const Index shift = g.base[last] + g.sign * kl;
          const Index first = std::max<Index>(0, -shift);
          const Index end = std::min(row_length, in_length - shift);
          const T* x = in + start + shift;
          for (Index j = first; j < end; ++j)
            y[j] += c * x[j];
        }
      }
      for (int a = last; a-- > 0;) {
        if (++k[a] < g.taps[a]) break;
        k[a] = 0;
      }
    }
    for (int a = last; a-- > 0;) {
      if (++p[a] < g.out_extent[a]) break;
      p[a] = 0;
    }
  }
}

#define DISTLOPS_INSTANTIATE_CONVOLVEND_KERNELS(T, Space) \
  template void convolvend<T>(Space, const ConvolveGeometry&, const T*, T, const T*, T, T*);
DISTLOPS_FOR_EACH_SCALAR_IN(DISTLOPS_INSTANTIATE_CONVOLVEND_KERNELS, ::distlops::Host)

}  // namespace distlops::kernels
