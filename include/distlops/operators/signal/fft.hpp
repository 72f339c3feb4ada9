// SPDX-License-Identifier: BSD-3-Clause
// Copyright (c) 2026 The distlops authors
#pragma once
/// \file fft.hpp
/// Fast Fourier transforms over one or more axes of an N-d array (PyLops' FFT, FFT2D and
/// FFTND; PyLops-MPI's MPIFFT2D and MPIFFTND), computed with FFTW on the host and, for the
/// Cuda memory space (the second template argument), with cuFFT on the device.
///
/// The scalar type T is that of the model (the input of the forward); the data (its output)
/// are always complex, of T's precision (complex_type_t<T>):
///
/// - complex T (std::complex<float> or std::complex<double>): complex transforms map an array
///   of shape `dims` to one whose transformed axes have `nfft` samples (the input is
///   zero-padded or truncated to `nfft` first, as numpy.fft.fftn does with `s`); the operator
///   is a LocalOperator<T> or LinearOperator<T>;
/// - real T (float or double) with `real = true` (PyLops' `real=True`): a real-to-complex
///   transform that keeps the non-negative frequencies of the last transformed axis
///   (nfft / 2 + 1 bins, numpy.fft.rfftn), multiplying the bins other than zero and Nyquist
///   (1 .. (nfft - 1) / 2) by sqrt(2); the adjoint divides those bins by sqrt(2) and applies
///   the complex-to-real inverse, which counts them twice (once for their negative
///   frequency). The adjoint returns real arrays and is exact for the real inner product of
///   the complex side: Re <A x, y> = <x, A^H y> (dottest checks this form);
/// - real T with `real = false`: the full complex spectrum of a real model (PyLops with a real
///   dtype); the adjoint is the real part of the complex adjoint, exact in the same sense.
///
/// `real = true` with a complex T raises InvalidArgument: the model of a real transform is a
/// real array. Operators from real to complex arrays are linear over the reals: they are
/// scaled by real numbers (operator_scalar_t in linear_operator.hpp).
///
/// `norm` (as PyLops): `ortho` (the default, local and distributed) scales forward and adjoint
/// by 1 / sqrt(N), `none` scales neither (the adjoint is then N times the inverse),
/// `one_over_n` scales both by 1 / N, where N is the product of the `nfft` of the transformed
/// axes. `ifftshift_before` shifts the input of an axis before the transform
/// (numpy.fft.ifftshift over the input length) and `fftshift_after` the output
/// (numpy.fft.fftshift over the output length: the half spectrum for the last axis of a real
/// transform, as PyLops does); the adjoint undoes them.
///
/// FFTW plans are made once, when the operator is built, and reused by every apply (plans
/// are never made while applying). FFTW's planner is not thread-safe: build operators from one
/// thread at a time. Applying allocates nothing. On Cuda the same holds for the cuFFT plans,
/// which run on the library's stream; the data moves of distributed transforms go over NCCL or
/// through host memory and MPI (gpu_collectives.hpp).
///
/// Distributed transforms (FFT2D, FFTND on DistributedArray) take arrays split along one axis
/// (slabs), cut over a process grid (pencils: several axes cut) or in explicit boxes. Axes that
/// every rank holds whole are transformed locally; the transformed axes that are cut are made
/// whole by planned all-to-alls (ReshapePlan) to other cuts (the "transposed" layouts), where
/// they are transformed. The output stays in the last of those layouts, or is moved back to the
/// input's cut, as `output` says; the range layout of the operator tells which (op.range()). The
/// real-to-complex transform of a real model is always local to a rank and comes first. See
/// docs/fft.md ("Distributed transforms", "On pencils and boxes").

#include <complex>
#include <vector>

#include "distlops/operators/linear_operator.hpp"

namespace distlops {

/// Scaling of the forward and adjoint transforms (PyLops' "ortho", "none", "1/n"); N is the
/// product of the transform lengths.
enum class FFTNorm {
  /// Forward and adjoint scaled by 1 / sqrt(N): a unitary transform.
  ortho,
  /// Neither scaled: the adjoint is N times the inverse.
  none,
  /// Forward and adjoint scaled by 1 / N.
  one_over_n
};

/// How much effort FFTW spends choosing its algorithms when an operator is built:
/// FFTW_ESTIMATE (instant), FFTW_MEASURE or FFTW_PATIENT (they time candidate algorithms,
/// taking from a fraction of a second to minutes for large arrays, and may run faster).
/// Ignored by the Cuda operators: cuFFT plans have no effort level.
enum class FFTPlanning {
  /// FFTW_ESTIMATE: a heuristic plan, made at once.
  estimate,
  /// FFTW_MEASURE: candidate algorithms are timed.
  measure,
  /// FFTW_PATIENT: more candidates are timed.
  patient
};

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
  /// Real-to-complex transform of a real model (T float or double): half spectrum along the
  /// last of `axes`, with PyLops' sqrt(2) weights (see above).
  bool real = false;
  /// Per axis: numpy.fft.ifftshift of the input before the transform.
  std::vector<bool> ifftshift_before = {};
  /// Per axis: numpy.fft.fftshift of the output after the transform.
  std::vector<bool> fftshift_after = {};
  /// FFTW's planning effort (ignored on Cuda).
  FFTPlanning planning = FFTPlanning::estimate;
};

/// Where the output of a distributed transform lives.
enum class FFTOutputLayout {
  /// As the last all-to-all leaves it (no extra communication): a slab along the axis it moved
  /// to, or for box layouts the last grid of the pencil steps (docs/fft.md).
  transposed,
  /// Cut as the input (one more all-to-all when the cut moved): a slab along the input's axis,
  /// the input's grid or boxes, with the default split along axes whose extent changed
  /// (explicit boxes cannot change the extent of an axis they cut: InvalidArgument).
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
  /// Scaling ("ortho" by default; PyLops-MPI's default is `none`).
  FFTNorm norm = FFTNorm::ortho;
  /// Real-to-complex transform of a real model (T float or double), as in FFTOptions.
  bool real = false;
  /// Per axis: numpy.fft.ifftshift of the input before the transform.
  std::vector<bool> ifftshift_before = {};
  /// Per axis: numpy.fft.fftshift of the output after the transform.
  std::vector<bool> fftshift_after = {};
  /// FFTW's planning effort (ignored on Cuda).
  FFTPlanning planning = FFTPlanning::estimate;
  /// Where the output lives (default: the transposed layout, no extra all-to-all).
  FFTOutputLayout output = FFTOutputLayout::transposed;
};

/// The sample frequencies of a transform of length `nfft` with sample spacing `sampling`:
/// numpy.fft.fftfreq, or numpy.fft.rfftfreq when `real`, fftshift-ed when `shifted` (PyLops'
/// `fs`, `f1`, `f2` attributes).
std::vector<double> fft_frequencies(Index nfft, double sampling = 1.0, bool real = false,
                                    bool shifted = false);

namespace local {

/// The handle of a local transform of arrays of T: from LocalArray<T> to LocalArray of
/// complex_type_t<T> (LocalOperator<T> for complex T).
template <Scalar T, MemorySpace Space = Host>
using FFTOperator = BasicLinearOperator<LocalArray<T, Space>, LocalArray<complex_type_t<T>, Space>>;

/// The transform along one axis (options.axes holds at most one axis; default -1) of arrays
/// of shape `dims`.
template <Scalar T, MemorySpace Space = Host>
FFTOperator<T, Space> FFT(const Shape& dims, const FFTOptions& options = {});

/// The transform along two axes (default {-2, -1}).
template <Scalar T, MemorySpace Space = Host>
FFTOperator<T, Space> FFT2D(const Shape& dims, const FFTOptions& options = {});

/// The transform along any number of distinct axes (default {-3, -2, -1}).
template <Scalar T, MemorySpace Space = Host>
FFTOperator<T, Space> FFTND(const Shape& dims, const FFTOptions& options = {});

}  // namespace local

/// The handle of a distributed transform of arrays of T: from DistributedArray<T> to
/// DistributedArray of complex_type_t<T> (LinearOperator<T> for complex T).
template <Scalar T, MemorySpace Space = Host>
using FFTOperator =
    BasicLinearOperator<DistributedArray<T, Space>, DistributedArray<complex_type_t<T>, Space>>;

/// The distributed transform along two axes (default {0, 1}) of arrays of `layout`: SCATTER
/// along any axis with any split, over any process grid or in explicit boxes (ranks may own
/// nothing), or BROADCAST (every rank transforms its replica). Masks raise InvalidArgument.
/// Collective.
template <Scalar T, MemorySpace Space = Host>
FFTOperator<T, Space> FFT2D(const Layout& layout, const DistributedFFTOptions& options = {});

/// The distributed transform along any number of distinct axes (default {0, 1, 2}).
/// Collective.
template <Scalar T, MemorySpace Space = Host>
FFTOperator<T, Space> FFTND(const Layout& layout, const DistributedFFTOptions& options = {});

}  // namespace distlops
