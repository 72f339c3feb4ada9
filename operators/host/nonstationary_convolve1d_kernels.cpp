// SPDX-License-Identifier: BSD-3-Clause
// Copyright (c) 2026 The distlops authors
// NonStationaryConvolve1D on the host: every output line gathers the input lines within reach,
// each with its sample's interpolated tap.
#include "../signal/nonstationary_convolve1d_kernels.hpp"

#include "../signal/nonstationary_taps.hpp"
#include "distlops/core/instantiate.hpp"
#include "distlops/core/kernels.hpp"

namespace distlops::kernels {

namespace {

template <Scalar T>
void nonstationary_forward(Index outer, Index length, Index inner, Index window_start, Index window,
                           Index half, const T* filters, const T* in_all, T* out_all) {
  fill(Host{}, outer * window * inner, T(0), out_all);
  for (Index o = 0; o < outer; ++o) {
    const T* in = in_all + o * length * inner;
    T* out = out_all + o * window * inner;
    for (Index j = 0; j < window; ++j) {
      const Index output = window_start + j;  // position in the input's coordinates
      T* line = out + j * inner;
      const nonstationary::Reach reach = nonstationary::inputs_reaching(output, half, length);
      for (Index i = reach.first; i <= reach.last; ++i) {
        const T weight = filters[nonstationary::tap_index(i, output, half)];
        const T* source = in + i * inner;
        for (Index k = 0; k < inner; ++k)
          line[k] += weight * source[k];
      }
    }
  }
}

template <Scalar T>
void nonstationary_adjoint(Index outer, Index length, Index inner, Index window_start, Index window,
                           Index half, const T* filters, const T* in_all, T* out_all) {
  fill(Host{}, outer * length * inner, T(0), out_all);
  for (Index o = 0; o < outer; ++o) {
    const T* in = in_all + o * window * inner;
    T* out = out_all + o * length * inner;
    for (Index i = 0; i < length; ++i) {
      T* line = out + i * inner;
      // Outputs j (window coordinates) within reach of input sample i.
      const nonstationary::Reach reach =
          nonstationary::outputs_reached(i, half, window_start, window);
      for (Index j = reach.first; j <= reach.last; ++j) {
        const T weight = conjugate(filters[nonstationary::tap_index(i, window_start + j, half)]);
        const T* source = in + j * inner;
        for (Index k = 0; k < inner; ++k)
          line[k] += weight * source[k];
      }
    }
  }
}

}  // namespace

template <Scalar T>
void nonstationary_convolve1d(Host, bool adjoint, Index outer, Index length, Index inner,
                              Index window_start, Index window, Index half, const T* filters,
                              const T* in, T* out) {
  if (adjoint) {
    nonstationary_adjoint(outer, length, inner, window_start, window, half, filters, in, out);
  } else {
    nonstationary_forward(outer, length, inner, window_start, window, half, filters, in, out);
  }
}

DISTLOPS_FOR_EACH_SCALAR_IN_ARG(DISTLOPS_DETAIL_NONSTATIONARY_KERNELS, , ::distlops::Host)

}  // namespace distlops::kernels
