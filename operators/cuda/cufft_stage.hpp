// SPDX-License-Identifier: BSD-3-Clause
// Copyright (c) 2026 The distlops authors
#pragma once
// CufftStage: the Cuda-space counterpart of FftStage (host/fftw_stage.hpp), with the same axes,
// scale, strides and semantics (builds with the CUDA backend only). One pass per transformed
// axis, in the host stage's order (the real axis first, then the others from the last axis
// down): a gather kernel copies the block's lines along the axis into contiguous lines of a
// work buffer (ifftshift, padding or truncation, real parts), a batched 1-d cuFFT transform
// runs on them (real-to-complex for the real axis), and a scatter kernel writes the kept bins,
// fftshift-ed and weighted, into the next block. The adjoint runs the adjoint of each step in
// reverse order (complex-to-real for the real axis, after zeroing the imaginary parts that
// make its input Hermitian).
//
// Plans are made when the stage is built (cufftMakePlanMany64, bound to the library's stream
// with cufftSetStream, sharing one work area allocated with the stage) and kept with it;
// applying only launches kernels and executes plans on that stream, allocating nothing. The
// planning effort is a host (FFTW) notion: cuFFT plans have no effort level, so `planning` is
// ignored here.
#include "distlops/config.hpp"

#if !DISTLOPS_WITH_CUDA
#error "cufft_stage.hpp needs a build of distlops with the CUDA backend"
#endif

#include <complex>
#include <cstddef>
#include <vector>

#include "../signal/fft_axis.hpp"
#include "cufft_stage_kernels.hpp"
#include "distlops/core/buffer.hpp"
#include "distlops/core/instantiate.hpp"
#include "distlops/operators/signal/fft.hpp"

namespace distlops::detail {

/// A cuFFT plan handle, destroyed with its owner.
class CufftPlan {
 public:
  CufftPlan() = default;
  /// A 1-d plan of `batch` contiguous transforms of length n (cuFFT's basic data layout) of
  /// the given cufftType, bound to the library's stream; `what` names it in errors. The plan
  /// has no work area of its own: give it one with use_work_area() before executing it.
  CufftPlan(int type, Index n, Index batch, const char* what);
  ~CufftPlan();
  CufftPlan(CufftPlan&& other) noexcept
      : handle_(other.handle_), valid_(other.valid_), work_bytes_(other.work_bytes_) {
    other.valid_ = false;
  }
  CufftPlan& operator=(CufftPlan&& other) noexcept;
  CufftPlan(const CufftPlan&) = delete;
  CufftPlan& operator=(const CufftPlan&) = delete;

  bool valid() const { return valid_; }
  int handle() const { return handle_; }
  /// Bytes of device memory the plan needs as its work area.
  std::size_t work_bytes() const { return work_bytes_; }
  /// Device memory of at least work_bytes() bytes for the plan's executions.
  void use_work_area(void* area);

 private:
  int handle_ = 0;  // a cufftHandle
  bool valid_ = false;
  std::size_t work_bytes_ = 0;
};

template <class R>
class CufftStage {
 public:
  using C = std::complex<R>;

  /// The arguments of FftStage's constructor (`real_domain` changes nothing here: every pass
  /// reads real or complex domains alike).
  CufftStage(std::vector<FftAxis> axes, double scale, FFTPlanning planning,
             Shape domain_strides = {}, Shape range_strides = {}, bool real_domain = false);
  CufftStage(const CufftStage&) = delete;
  CufftStage& operator=(const CufftStage&) = delete;

  const Shape& domain_shape() const { return domain_shape_; }
  const Shape& range_shape() const { return range_shape_; }

  /// range = F domain (device memory). Domain values may be real (complex ones are read by
  /// their real parts along a real axis).
  void forward(const C* domain, C* range) const;
  void forward(const R* domain, C* range) const;
  /// domain = F^H range.
  void adjoint(const C* range, C* domain) const;
  void adjoint(const C* range, R* domain) const;

 private:
  struct Pass {
    FftAxis axis;
    kernels::FftLines input, output;  // the pass's blocks seen as lines along its axis
    Buffer<Index, Cuda> to_work, to_range, from_range, to_domain;
    Buffer<R, Cuda> forward_weights, adjoint_weights;
    // Complex axis: one plan for both directions. Real axis: real-to-complex and
    // complex-to-real. No plan for nfft == 1, whose transform is the identity.
    CufftPlan complex, to_complex, to_real;
  };

  template <class E>
  void run_forward(const E* domain, C* range) const;
  template <class E>
  void run_adjoint(const C* range, E* domain) const;
  template <class E>
  void pass_forward(const Pass& pass, const E* in, C* out) const;
  template <class E>
  void pass_adjoint(const Pass& pass, const C* in, E* out) const;

  std::vector<FftAxis> axes_;
  int real_axis_ = -1;
  bool empty_ = false;
  Shape domain_shape_, range_shape_;
  std::vector<Pass> passes_;
  // The plans' work area, shared: they run one after the other on one stream.
  Buffer<std::byte, Cuda> plan_work_;
  // The blocks between passes, and the lines of the transforms (complex and real).
  mutable Buffer<C, Cuda> intermediate_[2];
  mutable Buffer<C, Cuda> work_;
  mutable Buffer<R, Cuda> real_work_;
};

#define DISTLOPS_DETAIL_EXTERN_CUFFT_STAGE(R) extern template class CufftStage<R>;
DISTLOPS_FOR_EACH_REAL(DISTLOPS_DETAIL_EXTERN_CUFFT_STAGE)
#undef DISTLOPS_DETAIL_EXTERN_CUFFT_STAGE

}  // namespace distlops::detail
