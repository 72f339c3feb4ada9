// SPDX-License-Identifier: BSD-3-Clause
// Copyright (c) 2026 The distlops authors
// The index maps and weights of one FFT axis (fft_axis.hpp).
#include "fft_axis.hpp"

#include <algorithm>
#include <cmath>

#include "distlops/core/instantiate.hpp"

namespace distlops::detail {

// The source index along a transformed axis for each destination index, in the four copies
// of a stage. n: domain length, w: work length along the axis on the domain side (nfft), s:
// spectrum length, l: range length.
std::vector<Index> domain_to_work(const FftAxis& a) {
  const Index n = a.length, w = a.nfft;
  std::vector<Index> map(static_cast<std::size_t>(w), -1);
  for (Index i = 0; i < std::min(n, w); ++i)
    map[static_cast<std::size_t>(i)] = a.ifftshift_before ? (i + n / 2) % n : i;
  return map;
}
std::vector<Index> work_to_domain(const FftAxis& a) {
  const Index n = a.length, w = a.nfft;
  std::vector<Index> map(static_cast<std::size_t>(n), -1);
  for (Index j = 0; j < n; ++j) {
    const Index i = a.ifftshift_before ? (j + n - n / 2) % n : j;
    if (i < w) map[static_cast<std::size_t>(j)] = i;
  }
  return map;
}
std::vector<Index> spectrum_to_range(const FftAxis& a) {
  const Index s = a.spectrum(), l = a.range();
  std::vector<Index> map(static_cast<std::size_t>(l));
  for (Index o = 0; o < l; ++o)
    map[static_cast<std::size_t>(o)] = a.fftshift_after ? (o + s - s / 2) % s : o;
  return map;
}
std::vector<Index> range_to_spectrum(const FftAxis& a) {
  const Index s = a.spectrum(), l = a.range();
  std::vector<Index> map(static_cast<std::size_t>(s), -1);
  for (Index b = 0; b < s; ++b) {
    const Index o = a.fftshift_after ? (b + s / 2) % s : b;
    if (o < l) map[static_cast<std::size_t>(b)] = o;
  }
  return map;
}

bool doubled_bin(Index bin, Index nfft) {
  return bin >= 1 && bin <= (nfft - 1) / 2;
}

template <class R>
std::vector<R> fft_forward_weights(const FftAxis& a, R scale) {
  const R root2 = std::sqrt(R(2));
  std::vector<R> weights;
  for (Index bin : spectrum_to_range(a))
    weights.push_back(scale * (a.real && doubled_bin(bin, a.nfft) ? root2 : R(1)));
  return weights;
}
template <class R>
std::vector<R> fft_adjoint_weights(const FftAxis& a, R scale) {
  const R root2 = std::sqrt(R(2));
  std::vector<R> weights;
  for (Index bin = 0; bin < a.spectrum(); ++bin)
    weights.push_back(scale * (a.real && doubled_bin(bin, a.nfft) ? R(1) / root2 : R(1)));
  return weights;
}
#define DISTLOPS_INSTANTIATE_FFT_WEIGHTS(R)                       \
  template std::vector<R> fft_forward_weights(const FftAxis&, R); \
  template std::vector<R> fft_adjoint_weights(const FftAxis&, R);
DISTLOPS_FOR_EACH_REAL(DISTLOPS_INSTANTIATE_FFT_WEIGHTS)
#undef DISTLOPS_INSTANTIATE_FFT_WEIGHTS

}  // namespace distlops::detail
