// SPDX-License-Identifier: BSD-3-Clause
// Copyright (c) 2026 The distlops authors
#pragma once
// The geometry of one axis of an FFT stage, shared by the host (FFTW) and Cuda (cuFFT) stages:
// what is transformed, the index maps of the gathers and scatters around the transform
// (shifts, zero padding, truncation, kept bins) and the weights of the real transforms'
// doubled bins. Private to the library.
#include <vector>

#include "distlops/core/types.hpp"

namespace distlops::detail {

/// One axis of a stage.
struct FftAxis {
  Index length = 1;  // samples on the domain side
  bool transform = false;
  Index nfft = 1;     // transform length (transformed axes)
  bool real = false;  // real-to-complex transform along this axis (at most one axis)
  bool ifftshift_before = false;
  bool fftshift_after = false;
  Index keep = -1;  // spectrum bins kept on the range side; -1: all of them

  /// Bins of the full spectrum along this axis (the length when not transformed).
  Index spectrum() const { return transform ? (real ? nfft / 2 + 1 : nfft) : length; }
  /// Samples on the range side.
  Index range() const { return transform && keep >= 0 ? keep : spectrum(); }
};

// The index maps of one transformed axis, shared by the host and Cuda stages: for each
// destination index, the source index it reads (-1: zero). n: domain length, w: work length
// on the domain side (nfft), s: spectrum length, l: range length.
std::vector<Index> domain_to_work(const FftAxis& a);     // w entries: ifftshift, pad, truncate
std::vector<Index> work_to_domain(const FftAxis& a);     // n entries: the adjoint of the above
std::vector<Index> spectrum_to_range(const FftAxis& a);  // l entries: fftshift, keep
std::vector<Index> range_to_spectrum(const FftAxis& a);  // s entries: the adjoint of the above
/// Bins 1 .. (nfft - 1) / 2 of a real transform stand for two bins of the full spectrum.
bool doubled_bin(Index bin, Index nfft);
/// The factors of the range indices (forward) and spectrum bins (adjoint) of an axis: `scale`,
/// times sqrt(2) (forward) or 1 / sqrt(2) (adjoint) for the doubled bins of a real axis.
template <class R>
std::vector<R> fft_forward_weights(const FftAxis& a, R scale);
template <class R>
std::vector<R> fft_adjoint_weights(const FftAxis& a, R scale);

}  // namespace distlops::detail
