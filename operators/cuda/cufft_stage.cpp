// SPDX-License-Identifier: BSD-3-Clause
// Copyright (c) 2026 The distlops authors
#include "cufft_stage.hpp"

#include <cufft.h>

#include <algorithm>
#include <string>

#include "../support.hpp"
#include "distlops/core/cuda_context.hpp"
#include "distlops/core/detail/cufft_check.hpp"
#include "distlops/core/detail/cufft_library.hpp"
#include "distlops/core/error.hpp"

namespace distlops::detail {

namespace {

// A block of `shape` and `strides` seen as lines along axis k.
kernels::FftLines lines_along(const Shape& shape, const Shape& strides, int k) {
  kernels::FftLines lines;
  lines.lines = 1;
  for (int j = 0; j < static_cast<int>(shape.size()); ++j) {
    if (j == k) continue;
    lines.extent[lines.other_count] = shape[j];
    lines.stride[lines.other_count] = strides[j];
    ++lines.other_count;
    lines.lines *= shape[j];
  }
  lines.line_stride = strides[k];
  return lines;
}

template <class T>
Buffer<T, Cuda> on_device(const std::vector<T>& values) {
  Buffer<T, Cuda> buffer(static_cast<Index>(values.size()));
  memory::copy_bytes<Cuda, Host>(buffer.data(), values.data(), buffer.bytes());
  return buffer;
}

// cuFFT's types and calls for both precisions.
template <class R>
struct CufftTypes;
template <>
struct CufftTypes<float> {
  static constexpr cufftType complex = CUFFT_C2C, to_complex = CUFFT_R2C, to_real = CUFFT_C2R;
};
template <>
struct CufftTypes<double> {
  static constexpr cufftType complex = CUFFT_Z2Z, to_complex = CUFFT_D2Z, to_real = CUFFT_Z2D;
};

void execute(const CufftPlan& plan, std::complex<float>* data, int direction) {
  auto* p = reinterpret_cast<cufftComplex*>(data);
  cuda::check_cufft(cuda::cufft_library().exec_c2c(plan.handle(), p, p, direction),
                    "cufftExecC2C (FFT)");
}
void execute(const CufftPlan& plan, std::complex<double>* data, int direction) {
  auto* p = reinterpret_cast<cufftDoubleComplex*>(data);
  cuda::check_cufft(cuda::cufft_library().exec_z2z(plan.handle(), p, p, direction),
                    "cufftExecZ2Z (FFT)");
}
void execute(const CufftPlan& plan, float* in, std::complex<float>* out) {
  cuda::check_cufft(
      cuda::cufft_library().exec_r2c(plan.handle(), in, reinterpret_cast<cufftComplex*>(out)),
      "cufftExecR2C (FFT)");
}
void execute(const CufftPlan& plan, double* in, std::complex<double>* out) {
  cuda::check_cufft(
      cuda::cufft_library().exec_d2z(plan.handle(), in, reinterpret_cast<cufftDoubleComplex*>(out)),
      "cufftExecD2Z (FFT)");
}
void execute(const CufftPlan& plan, std::complex<float>* in, float* out) {
  cuda::check_cufft(
      cuda::cufft_library().exec_c2r(plan.handle(), reinterpret_cast<cufftComplex*>(in), out),
      "cufftExecC2R (FFT adjoint)");
}
void execute(const CufftPlan& plan, std::complex<double>* in, double* out) {
  cuda::check_cufft(
      cuda::cufft_library().exec_z2d(plan.handle(), reinterpret_cast<cufftDoubleComplex*>(in), out),
      "cufftExecZ2D (FFT adjoint)");
}

}  // namespace

// ---- CufftPlan ----------------------------------------------------------------------------------

CufftPlan::CufftPlan(int type, Index n, Index batch, const char* what) {
  const cuda::Context& context = cuda::Context::get();
  // The first plan loads cuFFT (cufft_library.hpp).
  const cuda::CufftLibrary& cufft = cuda::cufft_library();
  cufftHandle handle = 0;
  cuda::check_cufft(cufft.create(&handle), "cufftCreate");
  try {
    // The stage gives its plans one work area (use_work_area), allocated with the stage.
    cuda::check_cufft(cufft.set_auto_allocation(handle, 0), "cufftSetAutoAllocation");
    long long length = n;
    // The basic data layout: `batch` contiguous lines of n values (n / 2 + 1 on the complex
    // side of real transforms).
    cuda::check_cufft(cufft.make_plan_many64(handle, 1, &length, nullptr, 1, 0, nullptr, 1, 0,
                                             static_cast<cufftType>(type),
                                             static_cast<long long>(batch), &work_bytes_),
                      (std::string("cufftMakePlanMany64 (") + what + ")").c_str());
    cuda::check_cufft(cufft.set_stream(handle, context.stream()), "cufftSetStream");
  } catch (...) {
    (void)cufft.destroy(handle);
    throw;
  }
  handle_ = handle;
  valid_ = true;
}

void CufftPlan::use_work_area(void* area) {
  if (!valid_ || work_bytes_ == 0) return;
  cuda::check_cufft(cuda::cufft_library().set_work_area(handle_, area), "cufftSetWorkArea");
}

CufftPlan::~CufftPlan() {
  // Nothing to report from a destructor: a failure here leaves at worst a plan behind. A valid
  // plan was made through cuFFT, so cufft_library() returns it without loading (or throwing).
  if (valid_) (void)cuda::cufft_library().destroy(handle_);
}

CufftPlan& CufftPlan::operator=(CufftPlan&& other) noexcept {
  if (this != &other) {
    if (valid_) (void)cuda::cufft_library().destroy(handle_);
    handle_ = other.handle_;
    valid_ = other.valid_;
    work_bytes_ = other.work_bytes_;
    other.valid_ = false;
  }
  return *this;
}

// ---- CufftStage ---------------------------------------------------------------------------------

template <class R>
CufftStage<R>::CufftStage(std::vector<FftAxis> axes, double scale, FFTPlanning /*planning*/,
                          Shape domain_strides, Shape range_strides, bool /*real_domain*/)
    : axes_(std::move(axes)) {
  const int ndim = static_cast<int>(axes_.size());
  if (ndim < 1 || ndim > kernels::max_fft_axes) {
    throw InvalidArgument("FFT: arrays of 1 to " + std::to_string(kernels::max_fft_axes) +
                          " dimensions are supported on the device, got " + std::to_string(ndim));
  }
  for (int k = 0; k < ndim; ++k) {
    const FftAxis& a = axes_[k];
    if (a.transform && a.real) {
      if (real_axis_ >= 0) throw InvalidArgument("FFT: at most one axis can be real");
      real_axis_ = k;
    }
    domain_shape_.push_back(a.length);
    range_shape_.push_back(a.range());
  }
  // The host stage's order: the real axis first (its input must be real), then the others
  // from the last axis down.
  std::vector<int> order;
  if (real_axis_ >= 0) order.push_back(real_axis_);
  for (int k = ndim - 1; k >= 0; --k) {
    if (axes_[k].transform && k != real_axis_) order.push_back(k);
  }
  if (order.empty()) throw InvalidArgument("FFT: a stage needs an axis to transform");
  if (element_count(domain_shape_) == 0 || element_count(range_shape_) == 0) {
    empty_ = true;  // this rank holds no data
    return;
  }
  if (domain_strides.empty()) domain_strides = detail::strides_of(domain_shape_);
  if (range_strides.empty()) range_strides = detail::strides_of(range_shape_);
  Shape shape = domain_shape_;
  Index intermediate = 0, work = 0, real_work = 0;
  for (std::size_t p = 0; p < order.size(); ++p) {
    const int k = order[p];
    const bool last = p + 1 == order.size();
    Pass pass;
    pass.axis = axes_[k];
    const FftAxis& a = pass.axis;
    pass.input = lines_along(shape, p == 0 ? domain_strides : detail::strides_of(shape), k);
    shape[k] = a.range();
    pass.output = lines_along(shape, last ? range_strides : detail::strides_of(shape), k);
    if (!last) intermediate = std::max(intermediate, element_count(shape));
    const Index lines = pass.input.lines;
    work = std::max(work, lines * a.spectrum());
    if (a.real) real_work = lines * a.nfft;
    // The scale goes with the last pass (forward) and so with the first adjoint pass.
    const R pass_scale = last ? static_cast<R>(scale) : R(1);
    pass.to_work = on_device(domain_to_work(a));
    pass.to_range = on_device(spectrum_to_range(a));
    pass.from_range = on_device(range_to_spectrum(a));
    pass.to_domain = on_device(work_to_domain(a));
    pass.forward_weights = on_device(fft_forward_weights(a, pass_scale));
    pass.adjoint_weights = on_device(fft_adjoint_weights(a, pass_scale));
    if (a.nfft > 1) {
      if (a.real) {
        pass.to_complex = CufftPlan(CufftTypes<R>::to_complex, a.nfft, lines, "real-to-complex");
        pass.to_real = CufftPlan(CufftTypes<R>::to_real, a.nfft, lines, "complex-to-real");
      } else {
        pass.complex = CufftPlan(CufftTypes<R>::complex, a.nfft, lines, "complex");
      }
    }
    passes_.push_back(std::move(pass));
  }
  std::size_t plan_bytes = 0;
  for (const Pass& pass : passes_) {
    for (const CufftPlan* plan : {&pass.complex, &pass.to_complex, &pass.to_real})
      plan_bytes = std::max(plan_bytes, plan->work_bytes());
  }
  plan_work_ = Buffer<std::byte, Cuda>(static_cast<Index>(plan_bytes));
  for (Pass& pass : passes_) {
    for (CufftPlan* plan : {&pass.complex, &pass.to_complex, &pass.to_real})
      plan->use_work_area(plan_work_.data());
  }
  work_ = Buffer<C, Cuda>(work);
  real_work_ = Buffer<R, Cuda>(real_work);
  for (std::size_t i = 0; i < std::min<std::size_t>(passes_.size() - 1, 2); ++i)
    intermediate_[i] = Buffer<C, Cuda>(intermediate);
}

template <class R>
template <class E>
void CufftStage<R>::pass_forward(const Pass& pass, const E* in, C* out) const {
  const FftAxis& a = pass.axis;
  kernels::FftLineCopy gather;
  gather.block = pass.input;
  gather.length = a.nfft;
  gather.pitch = a.nfft;
  gather.to_work = true;
  gather.real_part = a.real;
  if (pass.to_complex.valid()) {
    kernels::fft_copy_lines<R>(Cuda{}, gather, pass.to_work.data(), nullptr, in, real_work_.data());
    execute(pass.to_complex, real_work_.data(), work_.data());
  } else {
    kernels::fft_copy_lines<R>(Cuda{}, gather, pass.to_work.data(), nullptr, in, work_.data());
    if (pass.complex.valid()) execute(pass.complex, work_.data(), CUFFT_FORWARD);
  }
  kernels::FftLineCopy scatter;
  scatter.block = pass.output;
  scatter.length = a.range();
  scatter.pitch = a.spectrum();
  scatter.to_work = false;
  kernels::fft_copy_lines<R>(Cuda{}, scatter, pass.to_range.data(), pass.forward_weights.data(),
                             static_cast<const C*>(work_.data()), out);
}

template <class R>
template <class E>
void CufftStage<R>::pass_adjoint(const Pass& pass, const C* in, E* out) const {
  const FftAxis& a = pass.axis;
  kernels::FftLineCopy gather;
  gather.block = pass.output;
  gather.length = a.spectrum();
  gather.pitch = a.spectrum();
  gather.to_work = true;
  gather.hermitian_nfft = a.real ? a.nfft : 0;
  kernels::fft_copy_lines<R>(Cuda{}, gather, pass.from_range.data(), pass.adjoint_weights.data(),
                             in, work_.data());
  kernels::FftLineCopy scatter;
  scatter.block = pass.input;
  scatter.length = a.length;
  scatter.to_work = false;
  scatter.real_part = a.real;
  if (pass.to_real.valid()) {
    execute(pass.to_real, work_.data(), real_work_.data());
    scatter.pitch = a.nfft;
    kernels::fft_copy_lines<R>(Cuda{}, scatter, pass.to_domain.data(), nullptr,
                               static_cast<const R*>(real_work_.data()), out);
  } else {
    if (pass.complex.valid()) execute(pass.complex, work_.data(), CUFFT_INVERSE);
    scatter.pitch = a.spectrum();
    kernels::fft_copy_lines<R>(Cuda{}, scatter, pass.to_domain.data(), nullptr,
                               static_cast<const C*>(work_.data()), out);
  }
}

template <class R>
template <class E>
void CufftStage<R>::run_forward(const E* domain, C* range) const {
  if (empty_) return;
  const std::size_t count = passes_.size();
  if (count == 1) {
    pass_forward(passes_[0], domain, range);
    return;
  }
  // Block p + 1 (the output of pass p) lives in intermediate_[p % 2], the last in `range`.
  pass_forward(passes_[0], domain, intermediate_[0].data());
  for (std::size_t p = 1; p < count; ++p) {
    const C* in = intermediate_[(p - 1) % 2].data();
    C* out = p + 1 == count ? range : intermediate_[p % 2].data();
    pass_forward(passes_[p], in, out);
  }
}

template <class R>
template <class E>
void CufftStage<R>::run_adjoint(const C* range, E* domain) const {
  if (empty_) return;
  const std::size_t count = passes_.size();
  if (count == 1) {
    pass_adjoint(passes_[0], range, domain);
    return;
  }
  pass_adjoint(passes_[count - 1], range, intermediate_[(count - 2) % 2].data());
  for (std::size_t p = count - 1; p-- > 1;) {
    const C* in = intermediate_[p % 2].data();
    pass_adjoint(passes_[p], in, intermediate_[(p - 1) % 2].data());
  }
  const C* first = intermediate_[0].data();
  pass_adjoint(passes_[0], first, domain);
}

template <class R>
void CufftStage<R>::forward(const C* domain, C* range) const {
  run_forward(domain, range);
}
template <class R>
void CufftStage<R>::forward(const R* domain, C* range) const {
  run_forward(domain, range);
}
template <class R>
void CufftStage<R>::adjoint(const C* range, C* domain) const {
  run_adjoint(range, domain);
}
template <class R>
void CufftStage<R>::adjoint(const C* range, R* domain) const {
  run_adjoint(range, domain);
}

#define DISTLOPS_INSTANTIATE_CUFFT_STAGE(R) template class CufftStage<R>;
DISTLOPS_FOR_EACH_REAL(DISTLOPS_INSTANTIATE_CUFFT_STAGE)
#undef DISTLOPS_INSTANTIATE_CUFFT_STAGE

}  // namespace distlops::detail
