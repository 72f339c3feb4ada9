// SPDX-License-Identifier: BSD-3-Clause
// Copyright (c) 2026 The distlops authors
#pragma once
// FftStage: FFTs along some axes of one rank's N-d block, with PyLops' zero-padding or
// truncation (nfft), shifts, real-input half spectra and scaling; the building block of the
// local and distributed FFT operators and of MDC in the Host space (the Cuda space's is
// cuda/cufft_stage.hpp; both read the axis geometry of signal/fft_axis.hpp). Private to the
// library: FFTW appears only here and in the .cpp files that include this header.
//
// A stage maps a "domain" block to a "range" block of the same number of axes. Along a
// transformed axis the domain has `length` samples and the range the spectrum (nfft bins, or
// nfft / 2 + 1 for the real axis), of which the first `keep` are kept. Other axes pass
// through. Along each axis the forward is
//
//   gather (ifftshift, pad or truncate, real part)  ->  FFT  ->
//   gather (fftshift, keep, scale, sqrt(2) weights)
//
// and the adjoint runs the adjoint of each step in reverse order. Three ways to run a stage,
// chosen when it is built (all plans are made then):
// - direct: one plain complex transform along the last axis (contiguous lines) of a complex
//   domain goes straight from the domain block to the range block (FFTW out of place);
// - passes: one pass per transformed axis (the real axis first). A pass gathers a panel of a
//   few lines along its axis into a small contiguous buffer (applying shift, padding and real
//   part), transforms it there and scatters it (applying the shift, restriction and weights of
//   the output). Panels stay in cache, so strided axes cost about as much as contiguous ones;
//   FFTW's own strided and multi-dimensional plans made with FFTW_ESTIMATE are several times
//   slower for large arrays;
// - work: blocks laid out with other than C-order strides (permuted axes), through a work
//   buffer of the whole spectrum and FFTW's multi-dimensional plans.
#include <fftw3.h>

#include <complex>
#include <vector>

#include "../signal/fft_axis.hpp"
#include "distlops/core/buffer.hpp"
#include "distlops/core/instantiate.hpp"
#include "distlops/operators/signal/fft.hpp"

namespace distlops::detail {

/// The precision-specific part of FFTW's API.
template <class R>
struct Fftw;
template <>
struct Fftw<double> {
  using plan = fftw_plan;
  using complex = fftw_complex;
};
template <>
struct Fftw<float> {
  using plan = fftwf_plan;
  using complex = fftwf_complex;
};

/// A copy between two N-d blocks in which every destination index along each axis reads a
/// fixed source index (or zero), and the values are multiplied by a scale and, along at most
/// one axis, by per-index weights. It expresses shifts, padding, truncation, restriction and
/// axis permutations (through the source strides).
template <class R>
class IndexedCopy {
 public:
  IndexedCopy() = default;
  /// `sources[k][i]`: the source index along axis k read by destination index i (-1: zero);
  /// the destination has shape (sources[k].size()) and strides `destination_strides`.
  IndexedCopy(const std::vector<std::vector<Index>>& sources, const Shape& source_strides,
              Shape destination_strides, R scale, int weight_axis, std::vector<R> weights);

  template <class From, class To>
  void run(const From* source, To* destination) const;

 private:
  Shape shape_;
  Shape destination_strides_;
  std::vector<std::vector<Index>> offsets_;  // per axis: source offsets, -1 for zero
  R scale_ = 1;
  int weight_axis_ = -1;
  std::vector<R> weights_;
};

template <class R>
class FftStage {
 public:
  using C = std::complex<R>;

  /// `domain_strides` and `range_strides` (C order of the domain and range shapes when
  /// empty) say how the external blocks are laid out: other strides express permuted axes.
  /// `real_domain`: the domain blocks may be real (R) although no axis is real (the full
  /// spectrum of a real model); stages with a real axis take real domains anyway.
  FftStage(std::vector<FftAxis> axes, double scale, FFTPlanning planning, Shape domain_strides = {},
           Shape range_strides = {}, bool real_domain = false);
  ~FftStage();
  FftStage(const FftStage&) = delete;
  FftStage& operator=(const FftStage&) = delete;

  const Shape& domain_shape() const { return domain_shape_; }
  const Shape& range_shape() const { return range_shape_; }

  /// range = F domain. Domain values may be real (R) when the stage has a real axis or was
  /// built with `real_domain`.
  void forward(const C* domain, C* range) const;
  void forward(const R* domain, C* range) const;
  /// domain = F^H range.
  void adjoint(const C* range, C* domain) const;
  void adjoint(const C* range, R* domain) const;

 private:
  using Plan = typename Fftw<R>::plan;
  enum class Mode { empty, direct, passes, work };

  // The transform along one axis of a block seen as (outer, length, inner), a panel of `width`
  // columns at a time. Columns are lines along the axis: consecutive i for a fixed o (inner >
  // 1), or consecutive o (inner == 1, contiguous lines).
  struct Pass {
    FftAxis axis;
    Index outer = 1, inner = 1, width = 1;
    std::vector<Index> to_work, to_range, from_range, to_domain;
    std::vector<R> forward_weights, adjoint_weights;  // the scale included
    Plan forward[2] = {nullptr, nullptr};             // full-width panels, the last narrower panel
    Plan backward[2] = {nullptr, nullptr};
    // A complex pass with identity maps and one weight for every bin needs no panels: FFTW
    // transforms the block where it lies, lines of stride `inner`, batched over (outer,
    // inner), out of place or in place, planned for aligned arrays and (cheaply) for others.
    bool strided = false;
    R weight = 1;
    Plan strided_plans[2][2][2] = {};  // [forward, backward][out of place, in place][aligned?]
  };

  template <class E>
  void run_forward(const E* domain, C* range) const;
  template <class E>
  void run_adjoint(const C* range, E* domain) const;
  template <class E>
  void pass_forward(const Pass& pass, const E* in, C* out) const;
  template <class E>
  void pass_adjoint(const Pass& pass, const C* in, E* out) const;
  void make_passes(unsigned flags, bool real_domain);
  void make_strided_plans(Pass& pass, unsigned flags);
  /// Runs a strided pass (forward or backward) from `in` to `out` (the same for in place).
  void run_strided(const Pass& pass, int direction, const C* in, C* out) const;
  void make_direct_plans(unsigned flags);
  void make_work_plans(unsigned flags, const Shape& domain_strides, const Shape& range_strides);
  void zero_real_axis_imaginary_parts(C* spectrum, Index outer, Index inner, Index nfft) const;

  std::vector<FftAxis> axes_;
  R scale_ = 1;
  int real_axis_ = -1;
  Mode mode_ = Mode::work;
  Shape domain_shape_, range_shape_;
  // Passes: in forward order; intermediate blocks live in the range (forward) and domain
  // (adjoint) blocks when no pass changes the shape, in two buffers otherwise.
  std::vector<Pass> passes_;
  bool in_place_ = false;
  mutable Buffer<C> intermediate_[2];
  // Panels (passes), or the whole spectrum (work path).
  mutable Buffer<C> work_;
  mutable Buffer<R> real_work_;
  // Direct path: plans for arrays aligned like FFTW's planning arrays, and for others.
  Plan direct_[2] = {nullptr, nullptr}, direct_unaligned_[2] = {nullptr, nullptr};
  // Work path.
  Shape work_shape_, real_work_shape_;
  IndexedCopy<R> forward_in_, forward_out_, adjoint_in_, adjoint_out_;
  Plan work_forward_ = nullptr, work_backward_ = nullptr;  // r2c and c2r for real stages
  Plan complex_forward_ = nullptr, complex_backward_ = nullptr;
};

#define DISTLOPS_DETAIL_EXTERN_FFT_STAGE(R) extern template class FftStage<R>;
DISTLOPS_FOR_EACH_REAL(DISTLOPS_DETAIL_EXTERN_FFT_STAGE)
#undef DISTLOPS_DETAIL_EXTERN_FFT_STAGE

}  // namespace distlops::detail
