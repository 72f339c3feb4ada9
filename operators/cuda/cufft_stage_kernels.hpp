// SPDX-License-Identifier: BSD-3-Clause
// Copyright (c) 2026 The distlops authors
#pragma once
// The CUDA kernels around the cuFFT transforms of the FFT operators and MDC (builds with the
// CUDA backend only; not part of the installed API). A transform along one axis of an N-d
// block runs on contiguous lines: a gather copies the block's lines along the axis into a
// work buffer (applying ifftshift, zero-padding or truncation, and taking real parts for a
// real axis), cuFFT transforms the lines, and a scatter copies them back into a block
// (applying fftshift, the kept bins and the weights). The index maps and weights are those of
// the host stage (signal/fft_axis.hpp), computed on the host and copied to the device once.

#include "distlops/core/host_device.hpp"
#include "distlops/core/memory_space.hpp"
#include "distlops/core/pointwise.hpp"
#include "distlops/core/types.hpp"

namespace distlops::kernels {

/// The most axes of a block the FFT kernels handle.
inline constexpr int max_fft_axes = 16;

/// An N-d block seen as lines along one of its axes. Lines are numbered in C order of the
/// other axes; line l starts at sum_j index_j(l) * stride[j] and its elements are
/// line_stride apart.
struct FftLines {
  int other_count = 0;
  Index extent[max_fft_axes] = {};
  Index stride[max_fft_axes] = {};
  Index line_stride = 1;
  Index lines = 0;
};

/// A copy between a block (`block`) and contiguous lines of `pitch` elements (the work
/// buffer). Destination index i of every line reads source index map[i] of the same line
/// (map[i] < 0: zero), times weights[i] when `weights` is not null. `length` destination
/// elements per line.
struct FftLineCopy {
  FftLines block;
  Index length = 0;
  Index pitch = 0;
  /// Block to work buffer (gather), or work buffer to block (scatter).
  bool to_work = true;
  /// Keep only the real part of each value (a real axis read from complex data).
  bool real_part = false;
  /// Gathers into a half spectrum of a real transform of this length (0: no): the imaginary
  /// parts of bin 0 and (even lengths) of the Nyquist bin are set to zero, which makes the
  /// input of the complex-to-real transform Hermitian.
  Index hermitian_nfft = 0;
};

/// Whether consecutive threads take the same element of neighbouring lines (the block's lines
/// are strided, so neighbouring lines are usually adjacent in memory) rather than neighbouring
/// elements of one line.
DISTLOPS_HOST_DEVICE inline bool fft_lines_fastest(const FftLineCopy& copy) {
  return copy.block.line_stride != 1 && copy.block.lines > 1;
}

/// Destination element p (p < block.lines * length) of `copy`: the per-element code of
/// fft_copy_lines, written once for the kernel and host checks. F and T are R or a complex
/// type (std::complex, pointwise::complex_pair).
template <class R, class F, class T>
DISTLOPS_HOST_DEVICE void fft_copy_line_element(const FftLineCopy& copy, bool lines_fastest,
                                                const Index* map, const R* weights, const F* in,
                                                T* out, Index p) {
  const Index lines = copy.block.lines;
  const Index l = lines_fastest ? p % lines : p / copy.length;
  const Index i = lines_fastest ? p / lines : p % copy.length;
  // The block offset of line l: its index over the other axes, the last one fastest.
  Index block = 0;
  Index rest = l;
  for (int j = copy.block.other_count; j-- > 0;) {
    block += (rest % copy.block.extent[j]) * copy.block.stride[j];
    rest /= copy.block.extent[j];
  }
  const Index source = map[i];
  R re = 0, im = 0;
  if (source >= 0) {
    const F& v =
        copy.to_work ? in[block + source * copy.block.line_stride] : in[l * copy.pitch + source];
    if constexpr (pointwise::ComplexLike<F>) {
      re = v.real();
      im = copy.real_part ? R(0) : v.imag();
    } else {
      re = v;
    }
    const Index nfft = copy.hermitian_nfft;
    if (nfft > 0 && (i == 0 || (nfft % 2 == 0 && i == nfft / 2))) im = R(0);
    if (weights) {
      re *= weights[i];
      im *= weights[i];
    }
  }
  T& target = copy.to_work ? out[l * copy.pitch + i] : out[block + i * copy.block.line_stride];
  if constexpr (pointwise::ComplexLike<T>) {
    target = T(re, im);
  } else {
    target = re;
  }
}

/// The copy `copy` from `in` to `out` (device memory; `map` and `weights` too). From and To
/// are R or std::complex<R>; a complex value written to a real one keeps its real part, a real
/// value written to a complex one gets a zero imaginary part.
template <class R, class From, class To>
void fft_copy_lines(Cuda, const FftLineCopy& copy, const Index* map, const R* weights,
                    const From* in, To* out);

}  // namespace distlops::kernels
