// SPDX-License-Identifier: BSD-3-Clause
// Copyright (c) 2026 The distlops authors
// The FFT tests' serial reference (fft_reference.hpp).
#include "fft_reference.hpp"

#include <algorithm>
#include <cmath>
#include <numbers>

namespace distlops::testing {

namespace {

using Wide = std::complex<long double>;

// Applies `f` (a line of length n -> a line of some length m) along `axis` of a C-order array.
template <class F>
std::vector<Wide> along_axis(const std::vector<Wide>& x, const Shape& shape, int axis,
                             Shape& out_shape, F&& f) {
  Index outer = 1, inner = 1;
  for (int k = 0; k < axis; ++k)
    outer *= shape[k];
  for (std::size_t k = static_cast<std::size_t>(axis) + 1; k < shape.size(); ++k)
    inner *= shape[k];
  const Index n = shape[axis];
  std::vector<Wide> line(static_cast<std::size_t>(n));
  out_shape = shape;
  std::vector<Wide> result;
  Index m = -1;
  for (Index o = 0; o < outer; ++o) {
    for (Index i = 0; i < inner; ++i) {
      for (Index l = 0; l < n; ++l)
        line[l] = x[(o * n + l) * inner + i];
      const std::vector<Wide> mapped = f(line);
      if (m < 0) {
        m = static_cast<Index>(mapped.size());
        out_shape[axis] = m;
        result.assign(static_cast<std::size_t>(outer * m * inner), Wide(0));
      }
      for (Index l = 0; l < m; ++l)
        result[(o * m + l) * inner + i] = mapped[l];
    }
  }
  if (m < 0) {
    // No lines (an empty axis elsewhere): the output length comes from an empty line.
    out_shape[axis] = static_cast<Index>(f(std::vector<Wide>(static_cast<std::size_t>(n))).size());
  }
  return result;
}

// numpy.fft.fftshift (by n / 2) and ifftshift (by -(n / 2)) of a line.
std::vector<Wide> roll(const std::vector<Wide>& v, bool inverse) {
  const Index n = static_cast<Index>(v.size());
  std::vector<Wide> out(v.size());
  const Index shift = inverse ? n - n / 2 : n / 2;
  for (Index i = 0; i < n; ++i)
    out[(i + shift) % n] = v[i];
  return out;
}

std::vector<Wide> dft(const std::vector<Wide>& v, int sign) {
  const Index n = static_cast<Index>(v.size());
  std::vector<Wide> out(v.size(), Wide(0));
  const long double pi = std::numbers::pi_v<long double>;
  std::vector<Wide> twiddle(v.size());  // exp(sign 2 pi i m / n)
  for (Index m = 0; m < n; ++m) {
    const long double phase = sign * 2 * pi * static_cast<long double>(m) / n;
    twiddle[m] = Wide(std::cos(phase), std::sin(phase));
  }
  for (Index k = 0; k < n; ++k) {
    Wide sum = 0;
    for (Index j = 0; j < n; ++j)
      sum += v[j] * twiddle[(k * j) % n];
    out[k] = sum;
  }
  return out;
}

// PyLops' forward FFTND of x (shape dims) for case c.
std::vector<Wide> reference_forward(std::vector<Wide> x, Shape shape, const FftCase& c) {
  const std::size_t naxes = c.axes.size();
  Shape next;
  for (std::size_t i = 0; i < naxes; ++i) {
    if (c.ifftshift_before[i]) {
      x = along_axis(x, shape, c.axes[i], next, [](const auto& v) { return roll(v, true); });
    }
  }
  long double points = 1;
  for (std::size_t i = 0; i < naxes; ++i) {
    const Index nfft = c.nfft[i];
    points *= nfft;
    x = along_axis(x, shape, c.axes[i], next, [&](const auto& v) {
      std::vector<Wide> padded(static_cast<std::size_t>(nfft), Wide(0));
      for (std::size_t j = 0; j < v.size() && j < padded.size(); ++j)
        padded[j] = v[j];
      return dft(padded, -1);
    });
    shape = next;
  }
  if (c.real) {
    // The non-negative frequencies of the last axis; the bins that stand for two (a frequency
    // and its negative) times sqrt(2).
    const Index nfft = c.nfft.back();
    x = along_axis(x, shape, c.axes.back(), next, [&](const auto& v) {
      std::vector<Wide> half(v.begin(), v.begin() + nfft / 2 + 1);
      for (Index k = 1; k <= (nfft - 1) / 2; ++k)
        half[k] *= std::sqrt(2.0L);
      return half;
    });
    shape = next;
  }
  const long double scale = c.norm == FFTNorm::ortho        ? 1 / std::sqrt(points)
                            : c.norm == FFTNorm::one_over_n ? 1 / points
                                                            : 1;
  for (Wide& v : x)
    v *= scale;
  for (std::size_t i = 0; i < naxes; ++i) {
    if (c.fftshift_after[i]) {
      x = along_axis(x, shape, c.axes[i], next, [](const auto& v) { return roll(v, false); });
    }
  }
  return x;
}

}  // namespace

std::string describe(const FftCase& c) {
  std::string text = "axes (";
  for (int a : c.axes)
    text += std::to_string(a) + " ";
  text += ") nfft " + to_string(c.nfft) + " norm " + std::to_string(int(c.norm)) + " real " +
          std::to_string(c.real) + " shifts";
  for (std::size_t i = 0; i < c.axes.size(); ++i)
    text += " " + std::to_string(c.ifftshift_before[i]) + std::to_string(c.fftshift_after[i]);
  return text;
}

FftReference::FftReference(const Shape& dims, const FftCase& c) : cols_(element_count(dims)) {
  for (Index j = 0; j < cols_; ++j) {
    std::vector<Wide> unit(static_cast<std::size_t>(cols_), Wide(0));
    unit[j] = 1;
    const std::vector<Wide> column = reference_forward(unit, dims, c);
    if (j == 0) {
      rows_ = static_cast<Index>(column.size());
      matrix_.resize(static_cast<std::size_t>(rows_ * cols_));
    }
    for (Index i = 0; i < rows_; ++i)
      matrix_[i * cols_ + j] =
          Complex(static_cast<double>(column[i].real()), static_cast<double>(column[i].imag()));
  }
}

std::vector<FftReference::Complex> FftReference::forward(std::span<const Complex> x) const {
  std::vector<Complex> y(static_cast<std::size_t>(rows_));
  if (static_cast<Index>(x.size()) != cols_) return {};
  for (Index i = 0; i < rows_; ++i) {
    Complex sum = 0;
    for (Index j = 0; j < cols_; ++j)
      sum += matrix_[i * cols_ + j] * x[j];
    y[i] = sum;
  }
  return y;
}

std::vector<FftReference::Complex> FftReference::adjoint(std::span<const Complex> y,
                                                         bool real_model) const {
  std::vector<Complex> x(static_cast<std::size_t>(cols_), Complex(0));
  if (static_cast<Index>(y.size()) != rows_) return {};
  for (Index i = 0; i < rows_; ++i) {
    for (Index j = 0; j < cols_; ++j)
      x[j] += std::conj(matrix_[i * cols_ + j]) * y[i];
  }
  if (real_model) {
    for (Complex& v : x)
      v = v.real();
  }
  return x;
}

bool fft_close(std::span<const std::complex<double>> actual,
               std::span<const std::complex<double>> expected, double rtol) {
  if (actual.size() != expected.size()) return false;
  double scale = 1.0, error = 0.0;
  for (std::size_t i = 0; i < expected.size(); ++i) {
    scale = std::max(scale, std::abs(expected[i]));
    error = std::max(error, std::abs(actual[i] - expected[i]));
  }
  return error <= rtol * scale;
}

}  // namespace distlops::testing
