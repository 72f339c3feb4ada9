// The copies around the cuFFT transforms (fft_kernels.hpp): one thread per destination element,
// 64-bit grid-stride loops.
#include "../../src/cuda/launch.cuh"
#include "fft_kernels.hpp"

namespace distlops::device_ops {

namespace {

using kernels::device::first_index;
using kernels::device::grid_stride;
using kernels::device::pointer;
using kernels::device::scalar_t;

template <class D>
__device__ auto real_of(const D& v) {
  if constexpr (pointwise::ComplexLike<D>) {
    return v.real();
  } else {
    return v;
  }
}
template <class R, class D>
__device__ R imag_of(const D& v) {
  if constexpr (pointwise::ComplexLike<D>) {
    return v.imag();
  } else {
    return R(0);
  }
}
template <class D, class R>
__device__ D make_value(R re, R im) {
  if constexpr (pointwise::ComplexLike<D>) {
    return D(re, im);
  } else {
    return re;
  }
}

// `lines_fastest`: consecutive threads take the same element of neighbouring lines (the
// block's lines are strided, so neighbouring lines are usually adjacent in memory); otherwise
// neighbouring elements of one line.
template <class R, class F, class T>
__global__ void copy_lines_kernel(Index n, FftLineCopy copy, bool lines_fastest, const Index* map,
                                  const R* weights, const F* in, T* out) {
  const Index lines = copy.block.lines;
  for (Index p = first_index(); p < n; p += grid_stride()) {
    const Index l = lines_fastest ? p % lines : p / copy.length;
    const Index i = lines_fastest ? p / lines : p % copy.length;
    Index block = 0;
    Index rest = l;
    for (int j = copy.block.other_count; j-- > 0;) {
      block += (rest % copy.block.extent[j]) * copy.block.stride[j];
      rest /= copy.block.extent[j];
    }
    const Index source = map[i];
    R re = 0, im = 0;
    if (source >= 0) {
      const F v =
          copy.to_work ? in[block + source * copy.block.line_stride] : in[l * copy.pitch + source];
      re = real_of(v);
      im = copy.real_part ? R(0) : imag_of<R>(v);
      const Index nfft = copy.hermitian_nfft;
      if (nfft > 0 && (i == 0 || (nfft % 2 == 0 && i == nfft / 2))) im = R(0);
      if (weights) {
        re *= weights[i];
        im *= weights[i];
      }
    }
    T& target = copy.to_work ? out[l * copy.pitch + i] : out[block + i * copy.block.line_stride];
    target = make_value<T>(re, im);
  }
}

}  // namespace

template <class R, class From, class To>
void fft_copy_lines(Cuda, const FftLineCopy& copy, const Index* map, const R* weights,
                    const From* in, To* out) {
  const Index n = copy.block.lines * copy.length;
  if (n <= 0) return;
  const bool lines_fastest = copy.block.line_stride != 1 && copy.block.lines > 1;
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
DISTLOPS_INSTANTIATE_FFT_COPY(float)
DISTLOPS_INSTANTIATE_FFT_COPY(double)
#undef DISTLOPS_INSTANTIATE_FFT_COPY

}  // namespace distlops::device_ops
