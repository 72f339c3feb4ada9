// SPDX-License-Identifier: BSD-3-Clause
// Copyright (c) 2026 The distlops authors
#pragma once
// Serial references for the FFT tests: PyLops' FFTND written step by step (ifftshift,
// zero-padding or truncation, DFT, half spectrum with sqrt(2) weights, scaling, fftshift) with a
// naive O(n^2) DFT in long double, independent of FFTW, cuFFT and the library's code. The
// reference matrix of a case is the reference applied to unit vectors. Compiled once, optimised
// and uninstrumented, into distlops_test_reference (fft_reference.cpp).
#include <complex>
#include <span>
#include <string>
#include <vector>

#include "distlops/core/types.hpp"
#include "distlops/operators/signal/fft.hpp"

namespace distlops::testing {

struct FftCase {
  std::vector<int> axes;  // normalised
  std::vector<Index> nfft;
  FFTNorm norm = FFTNorm::none;
  bool real = false;  // half spectrum along the last axis (a real model)
  std::vector<bool> ifftshift_before;
  std::vector<bool> fftshift_after;
};

/// "axes (0 1 ) nfft (4, 6) norm 1 real 0 shifts 01 10": for the INFO of a failing check.
std::string describe(const FftCase& c);

/// The reference of case c for arrays of shape dims: the matrix M of PyLops' forward (rows: the
/// output elements, columns: the input elements, both in C order).
class FftReference {
 public:
  using Complex = std::complex<double>;
  FftReference(const Shape& dims, const FftCase& c);
  Index rows() const { return rows_; }
  Index cols() const { return cols_; }
  /// M x.
  std::vector<Complex> forward(std::span<const Complex> x) const;
  /// M^H y; for a real model its real part, the exact adjoint of x -> M x on real x for the
  /// real inner product Re <u, v> of the data.
  std::vector<Complex> adjoint(std::span<const Complex> y, bool real_model) const;

 private:
  Index rows_ = 0, cols_ = 0;
  std::vector<Complex> matrix_;  // row-major, rows_ x cols_
};

/// max_i |a_i - b_i| <= rtol * max(1, max_i |b_i|), and the same sizes.
bool fft_close(std::span<const std::complex<double>> actual,
               std::span<const std::complex<double>> expected, double rtol);

}  // namespace distlops::testing
