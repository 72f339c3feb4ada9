// SPDX-License-Identifier: BSD-3-Clause
// Copyright (c) 2026 The distlops authors
// Restriction on the host: single samples when the axis is the innermost one, else whole rows
// of `inner` elements moved by the space's axpby.
#include "../local/restriction_kernels.hpp"

#include "distlops/core/instantiate.hpp"
#include "distlops/core/kernels.hpp"

namespace distlops::kernels {

template <Scalar T>
void gather_rows(Host, Index outer, Index length, Index inner, Index count, const Index* index,
                 T alpha, const T* in, T beta, T* out) {
  if (inner == 1) {
    for (Index o = 0; o < outer; ++o, in += length, out += count) {
      for (Index i = 0; i < count; ++i) {
        const T value = alpha * in[index[i]];
        out[i] = beta == T(0) ? value : value + beta * out[i];
      }
    }
    return;
  }
  for (Index o = 0; o < outer; ++o) {
    for (Index i = 0; i < count; ++i)
      axpby(Host{}, inner, alpha, in + (o * length + index[i]) * inner, beta,
            out + (o * count + i) * inner);
  }
}

template <Scalar T>
void scatter_rows(Host, Index outer, Index length, Index inner, Index count, const Index* first,
                  const Index* sources, T alpha, const T* in, T beta, T* out) {
  if (inner == 1) {
    for (Index o = 0; o < outer; ++o, in += count, out += length) {
      for (Index j = 0; j < length; ++j) {
        T sum(0);
        for (Index s = first[j]; s < first[j + 1]; ++s)
          sum += in[sources[s]];
        out[j] = beta == T(0) ? alpha * sum : alpha * sum + beta * out[j];
      }
    }
    return;
  }
  for (Index o = 0; o < outer; ++o) {
    for (Index j = 0; j < length; ++j) {
      T* destination = out + (o * length + j) * inner;
      if (first[j] == first[j + 1]) {
        if (beta == T(0)) {
          fill(Host{}, inner, T(0), destination);
        } else if (beta != T(1)) {
          scale(Host{}, inner, beta, destination);
        }
        continue;
      }
      // The first sample initialises (or scales) the row, the others add to it.
      axpby(Host{}, inner, alpha, in + (o * count + sources[first[j]]) * inner, beta, destination);
      for (Index s = first[j] + 1; s < first[j + 1]; ++s)
        axpy(Host{}, inner, alpha, in + (o * count + sources[s]) * inner, destination);
    }
  }
}

DISTLOPS_FOR_EACH_SCALAR_IN_ARG(DISTLOPS_DETAIL_RESTRICTION_KERNELS, , ::distlops::Host)

}  // namespace distlops::kernels
