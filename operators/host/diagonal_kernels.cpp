// SPDX-License-Identifier: BSD-3-Clause
// Copyright (c) 2026 The distlops authors
// Diagonal on the host: element-wise products when the weights run along the innermost axis,
// else one scaled row per weight.
#include "../local/diagonal_kernels.hpp"

#include "distlops/core/instantiate.hpp"
#include "distlops/core/kernels.hpp"

namespace distlops::kernels {

template <Scalar T>
void diagonal(Host, Index outer, Index length, Index inner, T alpha, const T* w, const T* in,
              T beta, T* out) {
  if (inner == 1) {
    for (Index o = 0; o < outer; ++o, in += length, out += length) {
      if (beta == T(0)) {
        for (Index i = 0; i < length; ++i)
          out[i] = alpha * (w[i] * in[i]);
      } else {
        for (Index i = 0; i < length; ++i)
          out[i] = alpha * (w[i] * in[i]) + beta * out[i];
      }
    }
    return;
  }
  for (Index o = 0; o < outer; ++o) {
    for (Index i = 0; i < length; ++i) {
      const Index start = (o * length + i) * inner;
      axpby(Host{}, inner, alpha * w[i], in + start, beta, out + start);
    }
  }
}

DISTLOPS_FOR_EACH_SCALAR_IN_ARG(DISTLOPS_DETAIL_DIAGONAL_KERNELS, , ::distlops::Host)

}  // namespace distlops::kernels
