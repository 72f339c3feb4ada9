// SPDX-License-Identifier: BSD-3-Clause
// Copyright (c) 2026 The distlops authors
// The copies around the cuFFT transforms (cufft_stage_kernels.hpp): one thread per destination
// element (fft_copy_line_element), 64-bit grid-stride loops.
#include "cufft_stage_kernels.hpp"
#include "distlops/core/detail/cuda_launch.cuh"
#include "distlops/core/instantiate.hpp"

namespace distlops::kernels {

namespace {

using kernels::device::first_index;
using kernels::device::grid_stride;
using kernels::device::pointer;

template <class R, class F, class T>
__global__ void copy_lines_kernel(Index n, FftLineCopy copy, bool lines_fastest, const Index* map,
                                  const R* weights, const F* in, T* out) {
  for (Index p = first_index(); p < n; p += grid_stride())
    fft_copy_line_element(copy, lines_fastest, map, weights, in, out, p);
}

}  // namespace

template <class R, class From, class To>
void fft_copy_lines(Cuda, const FftLineCopy& copy, const Index* map, const R* weights,
                    const From* in, To* out) {
  const Index n = copy.block.lines * copy.length;
  if (n <= 0) return;
  const bool lines_fastest = fft_lines_fastest(copy);
  copy_lines_kernel<R><<<kernels::device::grid_size(n), kernels::device::block_size, 0,
                         kernels::device::stream()>>>(n, copy, lines_fastest, map, weights,
                                                      pointer(in), pointer(out));
  cuda::check_launch("fft_copy_lines");
}

#define DISTLOPS_INSTANTIATE_FFT_COPY(R)                                                      \
  template void fft_copy_lines<R, R, R>(Cuda, const FftLineCopy&, const Index*, const R*,     \
                                        const R*, R*);                                        \
  template void fft_copy_lines<R, R, std::complex<R>>(Cuda, const FftLineCopy&, const Index*, \
                                                      const R*, const R*, std::complex<R>*);  \
  template void fft_copy_lines<R, std::complex<R>, R>(Cuda, const FftLineCopy&, const Index*, \
                                                      const R*, const std::complex<R>*, R*);  \
  template void fft_copy_lines<R, std::complex<R>, std::complex<R>>(                          \
      Cuda, const FftLineCopy&, const Index*, const R*, const std::complex<R>*, std::complex<R>*);
DISTLOPS_FOR_EACH_REAL(DISTLOPS_INSTANTIATE_FFT_COPY)
#undef DISTLOPS_INSTANTIATE_FFT_COPY

}  // namespace distlops::kernels
