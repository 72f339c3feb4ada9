#pragma once
/// \file fft.hpp
/// Fast Fourier transforms over one or more axes of an N-d array (PyLops' FFT, FFT2D and
/// FFTND; PyLops-MPI's MPIFFT2D and MPIFFTND), computed with FFTW on the host and, for the
/// Cuda memory space (the second template argument), with cuFFT on the device.
///
/// The operators act on complex arrays (std::complex<float> or std::complex<double>):
///
/// - complex transforms map an array of shape `dims` to one whose transformed axes have
///   `nfft` samples (the input is zero-padded or truncated to `nfft` first, as numpy.fft.fftn
///   does with `s`);
/// - with `real = true` the input is constrained to be real (PyLops' `real=True`): the forward
///   reads only the real parts of its input and keeps the non-negative frequencies of the last
///   transformed axis (nfft / 2 + 1 bins), multiplying the bins other than zero and Nyquist by
///   sqrt(2); the adjoint returns arrays with zero imaginary parts. Such an operator is linear
///   over the reals only: its adjoint is exact for the real inner product Re <x, y>, so
///   <A u, v> and <u, A^H v> agree in their real parts for real u (solvers that keep the
///   model real, such as CGLS started from zero, see exactly this).
///
/// `norm` (as PyLops): `ortho` (the default, local and distributed) scales forward and adjoint
/// by 1 / sqrt(N), `none` scales neither (the adjoint is then N times the inverse),
/// `one_over_n` scales both by 1 / N, where N is the product of the `nfft` of the transformed
/// axes. `ifftshift_before` shifts the input of an axis before the transform
/// (numpy.fft.ifftshift over the input length) and `fftshift_after` the output
/// (numpy.fft.fftshift over the output length); the adjoint undoes them.
///
/// FFTW plans are made once, when the operator is built, and reused by every apply (plans
/// are never made while applying). FFTW's planner is not thread-safe: build operators from one
/// thread at a time. Applying allocates nothing. On Cuda the same holds for the cuFFT plans,
/// which run on the library's stream; the data moves of distributed transforms go over NCCL or
/// through host memory and MPI (gpu_collectives.hpp).
///
/// Distributed transforms (FFT2D, FFTND on DistributedArray) take arrays split along one axis.
/// Axes that every rank holds whole are transformed locally; when the split axis is itself
/// transformed, a planned all-to-all moves the array to a split along another axis (the
/// "transposed" layout), where the remaining axis is transformed. The output stays in that
/// layout, or is moved back to a split along the input's axis, as `output` says; the range
/// layout of the operator tells which (op.range()). See docs/fft.md.

#include <complex>
#include <vector>

#include "distlops/operators/linear_operator.hpp"

namespace distlops {

/// Scaling of the forward and adjoint transforms (PyLops' "ortho", "none", "1/n").
enum class FFTNorm { ortho, none, one_over_n };

/// How much effort FFTW spends choosing its algorithms when an operator is built:
/// FFTW_ESTIMATE (instant), FFTW_MEASURE or FFTW_PATIENT (they time candidate algorithms,
/// taking from a fraction of a second to minutes for large arrays, and may run faster).
/// Ignored by the Cuda operators: cuFFT plans have no effort level.
enum class FFTPlanning { estimate, measure, patient };

/// Options of the local transforms. Per-axis entries follow `axes`; a single entry applies to
/// every axis and an empty one means the default.
struct FFTOptions {
  /// Axes to transform (negative values count from the end). Empty: the operator's default
  /// ({-1} for FFT, {-2, -1} for FFT2D, {-3, -2, -1} for FFTND).
  std::vector<int> axes = {};
  /// Transform lengths; 0 (or an empty vector) means the length of the axis.
  std::vector<Index> nfft = {};
  /// Scaling (PyLops' default, "ortho").
  FFTNorm norm = FFTNorm::ortho;
  /// Real input: half spectrum along the last of `axes` (see above).
  bool real = false;
  std::vector<bool> ifftshift_before = {};
  std::vector<bool> fftshift_after = {};
  FFTPlanning planning = FFTPlanning::estimate;
};

/// Where the output of a distributed transform lives.
enum class FFTOutputLayout {
  /// Split along the axis of the last all-to-all (no extra communication).
  transposed,
  /// Split along the input's axis (one more all-to-all when the split axis is transformed).
  same_as_input,
};

/// Options of the distributed transforms: those of FFTOptions, and the output layout. The
/// default norm is PyLops' ("ortho") as for the local transforms; PyLops-MPI's is "none":
/// pass `.norm = FFTNorm::none` for its scaling.
struct DistributedFFTOptions {
  /// Empty: {0, 1} for FFT2D, {0, 1, 2} for FFTND.
  std::vector<int> axes = {};
  /// Transform lengths (zero-padding or truncation along any axis, the split one included).
  std::vector<Index> nfft = {};
  FFTNorm norm = FFTNorm::ortho;
  bool real = false;
  std::vector<bool> ifftshift_before = {};
  std::vector<bool> fftshift_after = {};
  FFTPlanning planning = FFTPlanning::estimate;
  FFTOutputLayout output = FFTOutputLayout::transposed;
};

/// The sample frequencies of a transform of length `nfft` with sample spacing `sampling`:
/// numpy.fft.fftfreq, or numpy.fft.rfftfreq when `real`, fftshift-ed when `shifted` (PyLops'
/// `fs`, `f1`, `f2` attributes).
std::vector<double> fft_frequencies(Index nfft, double sampling = 1.0, bool real = false,
                                    bool shifted = false);

namespace local {

/// The transform along one axis (options.axes holds at most one axis; default -1) of arrays
/// of shape `dims`.
template <Scalar T, MemorySpace Space = Host>
requires is_complex_v<T> LocalOperator<T, Space> FFT(const Shape& dims,
                                                     const FFTOptions& options = {});

/// The transform along two axes (default {-2, -1}).
template <Scalar T, MemorySpace Space = Host>
requires is_complex_v<T> LocalOperator<T, Space> FFT2D(const Shape& dims,
                                                       const FFTOptions& options = {});

/// The transform along any number of distinct axes (default {-3, -2, -1}).
template <Scalar T, MemorySpace Space = Host>
requires is_complex_v<T> LocalOperator<T, Space> FFTND(const Shape& dims,
                                                       const FFTOptions& options = {});

}  // namespace local

/// The distributed transform along two axes (default {0, 1}) of arrays of `layout`: SCATTER
/// along any axis with any split (ranks may own nothing), or BROADCAST (every rank transforms
/// its replica). Collective.
template <Scalar T, MemorySpace Space = Host>
requires is_complex_v<T> LinearOperator<T, Space> FFT2D(const Layout& layout,
                                                        const DistributedFFTOptions& options = {});

/// The distributed transform along any number of distinct axes (default {0, 1, 2}).
/// Collective.
template <Scalar T, MemorySpace Space = Host>
requires is_complex_v<T> LinearOperator<T, Space> FFTND(const Layout& layout,
                                                        const DistributedFFTOptions& options = {});

}  // namespace distlops
