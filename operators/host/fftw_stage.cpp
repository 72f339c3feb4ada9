// SPDX-License-Identifier: BSD-3-Clause
// Copyright (c) 2026 The distlops authors
#include "fftw_stage.hpp"

#include <unistd.h>

#include <algorithm>
#include <array>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <string>

#include "../support.hpp"
#include "distlops/core/detail/enum_names.hpp"
#include "distlops/core/error.hpp"
#include "distlops/core/kernels.hpp"

namespace distlops::detail {

namespace {

// Most axes a stage handles (the odometers below use fixed-size arrays).
constexpr int max_axes = 16;

std::vector<Index> identity(Index n) {
  std::vector<Index> map(static_cast<std::size_t>(n));
  for (Index i = 0; i < n; ++i)
    map[static_cast<std::size_t>(i)] = i;
  return map;
}

template <class To, class From>
To convert(const From& value) {
  if constexpr (is_complex_v<From> && !is_complex_v<To>) {
    return value.real();
  } else {
    return To(value);
  }
}

// ---- FFTW's API for both precisions ------------------------------------------------------------
fftw_plan plan_dft(int rank, const fftw_iodim64* dims, int howmany_rank,
                   const fftw_iodim64* howmany, std::complex<double>* in, std::complex<double>* out,
                   int sign, unsigned flags) {
  return fftw_plan_guru64_dft(rank, dims, howmany_rank, howmany,
                              reinterpret_cast<fftw_complex*>(in),
                              reinterpret_cast<fftw_complex*>(out), sign, flags);
}
fftwf_plan plan_dft(int rank, const fftwf_iodim64* dims, int howmany_rank,
                    const fftwf_iodim64* howmany, std::complex<float>* in, std::complex<float>* out,
                    int sign, unsigned flags) {
  return fftwf_plan_guru64_dft(rank, dims, howmany_rank, howmany,
                               reinterpret_cast<fftwf_complex*>(in),
                               reinterpret_cast<fftwf_complex*>(out), sign, flags);
}
fftw_plan plan_r2c(const fftw_iodim64* dims, int howmany_rank, const fftw_iodim64* howmany,
                   double* in, std::complex<double>* out, unsigned flags) {
  return fftw_plan_guru64_dft_r2c(1, dims, howmany_rank, howmany, in,
                                  reinterpret_cast<fftw_complex*>(out), flags);
}
fftwf_plan plan_r2c(const fftwf_iodim64* dims, int howmany_rank, const fftwf_iodim64* howmany,
                    float* in, std::complex<float>* out, unsigned flags) {
  return fftwf_plan_guru64_dft_r2c(1, dims, howmany_rank, howmany, in,
                                   reinterpret_cast<fftwf_complex*>(out), flags);
}
fftw_plan plan_c2r(const fftw_iodim64* dims, int howmany_rank, const fftw_iodim64* howmany,
                   std::complex<double>* in, double* out, unsigned flags) {
  return fftw_plan_guru64_dft_c2r(1, dims, howmany_rank, howmany,
                                  reinterpret_cast<fftw_complex*>(in), out, flags);
}
fftwf_plan plan_c2r(const fftwf_iodim64* dims, int howmany_rank, const fftwf_iodim64* howmany,
                    std::complex<float>* in, float* out, unsigned flags) {
  return fftwf_plan_guru64_dft_c2r(1, dims, howmany_rank, howmany,
                                   reinterpret_cast<fftwf_complex*>(in), out, flags);
}
void execute(fftw_plan plan, const std::complex<double>* in, std::complex<double>* out) {
  // FFTW's new-array execution takes non-const input; plans that read `in` preserve it.
  fftw_execute_dft(plan, reinterpret_cast<fftw_complex*>(const_cast<std::complex<double>*>(in)),
                   reinterpret_cast<fftw_complex*>(out));
}
void execute(fftwf_plan plan, const std::complex<float>* in, std::complex<float>* out) {
  fftwf_execute_dft(plan, reinterpret_cast<fftwf_complex*>(const_cast<std::complex<float>*>(in)),
                    reinterpret_cast<fftwf_complex*>(out));
}
void execute(fftw_plan plan, double* in, std::complex<double>* out) {
  fftw_execute_dft_r2c(plan, in, reinterpret_cast<fftw_complex*>(out));
}
void execute(fftwf_plan plan, float* in, std::complex<float>* out) {
  fftwf_execute_dft_r2c(plan, in, reinterpret_cast<fftwf_complex*>(out));
}
void execute(fftw_plan plan, std::complex<double>* in, double* out) {
  fftw_execute_dft_c2r(plan, reinterpret_cast<fftw_complex*>(in), out);
}
void execute(fftwf_plan plan, std::complex<float>* in, float* out) {
  fftwf_execute_dft_c2r(plan, reinterpret_cast<fftwf_complex*>(in), out);
}
void destroy(fftw_plan plan) {
  if (plan) fftw_destroy_plan(plan);
}
void destroy(fftwf_plan plan) {
  if (plan) fftwf_destroy_plan(plan);
}
int alignment_of(const std::complex<double>* p) {
  return fftw_alignment_of(reinterpret_cast<double*>(const_cast<std::complex<double>*>(p)));
}
int alignment_of(const std::complex<float>* p) {
  return fftwf_alignment_of(reinterpret_cast<float*>(const_cast<std::complex<float>*>(p)));
}

template <class Plan>
Plan checked(Plan plan, const char* what) {
  if (!plan) throw Error(std::string("FFTW could not plan the ") + what + " transform");
  return plan;
}

// FFTW wisdom, so that a measured plan is paid once per machine rather than once per run:
// DISTLOPS_FFTW_WISDOM names a path prefix; double-precision wisdom lives in <prefix>.fftw3,
// single-precision in <prefix>.fftw3f. Imported before the first measured plan of the
// process, exported (whole, replacing the file atomically so that ranks writing at once
// leave one complete file) after every measured stage. The wisdom is a cache: a file that
// cannot be read or written costs planning time, never a result, so it raises no error (an
// error on one rank alone would leave the others in a collective).
std::string wisdom_file(double) {
  const char* prefix = std::getenv("DISTLOPS_FFTW_WISDOM");
  return prefix && *prefix ? std::string(prefix) + ".fftw3" : std::string();
}
std::string wisdom_file(float) {
  const char* prefix = std::getenv("DISTLOPS_FFTW_WISDOM");
  return prefix && *prefix ? std::string(prefix) + ".fftw3f" : std::string();
}
int import_wisdom(double, const std::string& path) {
  return fftw_import_wisdom_from_filename(path.c_str());
}
int import_wisdom(float, const std::string& path) {
  return fftwf_import_wisdom_from_filename(path.c_str());
}
int export_wisdom(double, const std::string& path) {
  return fftw_export_wisdom_to_filename(path.c_str());
}
int export_wisdom(float, const std::string& path) {
  return fftwf_export_wisdom_to_filename(path.c_str());
}

template <class R>
void import_wisdom_once() {
  static const bool imported = [] {
    const std::string path = wisdom_file(R());
    // A missing file is the first run; an unreadable one costs only the planning time.
    if (!path.empty()) import_wisdom(R(), path);
    return true;
  }();
  (void)imported;
}

template <class R>
void export_wisdom_now() {
  const std::string path = wisdom_file(R());
  if (path.empty()) return;
  const std::string temporary = path + ".tmp." + std::to_string(getpid());
  if (export_wisdom(R(), temporary) && std::rename(temporary.c_str(), path.c_str()) == 0) return;
  std::remove(temporary.c_str());
}

unsigned planner_flags(FFTPlanning planning) {
  return enum_value(planning, std::array{FFTW_ESTIMATE, FFTW_MEASURE, FFTW_PATIENT}, FFTW_ESTIMATE);
}

}  // namespace

// ---- IndexedCopy --------------------------------------------------------------------------------

template <class R>
IndexedCopy<R>::IndexedCopy(const std::vector<std::vector<Index>>& sources,
                            const Shape& source_strides, Shape destination_strides, R scale,
                            int weight_axis, std::vector<R> weights)
    : destination_strides_(std::move(destination_strides)),
      scale_(scale),
      weight_axis_(weight_axis),
      weights_(std::move(weights)) {
  for (std::size_t k = 0; k < sources.size(); ++k) {
    shape_.push_back(static_cast<Index>(sources[k].size()));
    std::vector<Index> offsets(sources[k].size());
    for (std::size_t i = 0; i < offsets.size(); ++i)
      offsets[i] = sources[k][i] < 0 ? -1 : sources[k][i] * source_strides[k];
    offsets_.push_back(std::move(offsets));
  }
}

template <class R>
template <class From, class To>
void IndexedCopy<R>::run(const From* source, To* destination) const {
  const int ndim = static_cast<int>(shape_.size());
  if (element_count(shape_) == 0) return;
  const int last = ndim - 1;
  const Index n = shape_[last];
  const Index* inner = offsets_[last].data();
  const Index step = destination_strides_[last];
  const bool inner_weights = weight_axis_ == last;
  std::array<Index, max_axes> index{};
  while (true) {
    Index from = 0, to = 0;
    bool zero = false;
    R factor = scale_;
    for (int k = 0; k < last; ++k) {
      const Index offset = offsets_[k][index[k]];
      zero = zero || offset < 0;
      from += offset;
      to += index[k] * destination_strides_[k];
      if (k == weight_axis_) factor *= weights_[index[k]];
    }
    To* out = destination + to;
    if (zero) {
      for (Index i = 0; i < n; ++i)
        out[i * step] = To(0);
    } else {
      const From* in = source + from;
      for (Index i = 0; i < n; ++i) {
        const Index offset = inner[i];
        if (offset < 0) {
          out[i * step] = To(0);
        } else {
          const R weight = inner_weights ? factor * weights_[i] : factor;
          out[i * step] = convert<To>(in[offset]) * weight;
        }
      }
    }
    int k = last - 1;
    while (k >= 0 && ++index[k] == shape_[k])
      index[k--] = 0;
    if (k < 0) return;
  }
}

// ---- FftStage -----------------------------------------------------------------------------------

template <class R>
FftStage<R>::FftStage(std::vector<FftAxis> axes, double scale, FFTPlanning planning,
                      Shape domain_strides, Shape range_strides, bool real_domain)
    : axes_(std::move(axes)), scale_(static_cast<R>(scale)) {
  const int ndim = static_cast<int>(axes_.size());
  if (ndim < 1 || ndim > max_axes) {
    throw InvalidArgument("FFT: arrays of 1 to " + std::to_string(max_axes) +
                          " dimensions are supported, got " + std::to_string(ndim));
  }
  int transformed = 0, last = -1;
  bool plain = true;  // no shift, padding, truncation, restriction or real axis
  for (int k = 0; k < ndim; ++k) {
    const FftAxis& a = axes_[k];
    if (a.transform) {
      ++transformed;
      last = k;
      if (a.real) {
        if (real_axis_ >= 0) throw InvalidArgument("FFT: at most one axis can be real");
        real_axis_ = k;
      }
      plain = plain && !a.real && a.nfft == a.length && a.range() == a.spectrum() &&
              !a.ifftshift_before && !a.fftshift_after;
    }
    domain_shape_.push_back(a.length);
    range_shape_.push_back(a.range());
  }
  if (transformed == 0) throw InvalidArgument("FFT: a stage needs an axis to transform");
  if (element_count(domain_shape_) == 0 || element_count(range_shape_) == 0) {
    mode_ = Mode::empty;  // this rank holds no data
    return;
  }
  const unsigned flags = planner_flags(planning);
  if (flags != FFTW_ESTIMATE) import_wisdom_once<R>();
  if (!domain_strides.empty() || !range_strides.empty()) {
    mode_ = Mode::work;
    if (domain_strides.empty()) domain_strides = detail::strides_of(domain_shape_);
    if (range_strides.empty()) range_strides = detail::strides_of(range_shape_);
    make_work_plans(flags, domain_strides, range_strides);
  } else if (transformed == 1 && last == ndim - 1 && plain && !real_domain) {
    mode_ = Mode::direct;
    make_direct_plans(flags);
  } else {
    mode_ = Mode::passes;
    make_passes(flags, real_domain);
  }
  if (flags != FFTW_ESTIMATE) export_wisdom_now<R>();
}

template <class R>
FftStage<R>::~FftStage() {
  for (const Pass& pass : passes_) {
    for (Plan plan : {pass.forward[0], pass.forward[1], pass.backward[0], pass.backward[1]})
      destroy(plan);
    for (const auto& direction : pass.strided_plans) {
      for (const auto& placement : direction) {
        for (Plan plan : placement)
          destroy(plan);
      }
    }
  }
  for (Plan plan : {direct_[0], direct_[1], direct_unaligned_[0], direct_unaligned_[1],
                    work_forward_, work_backward_, complex_forward_, complex_backward_}) {
    destroy(plan);
  }
}

template <class R>
void FftStage<R>::make_passes(unsigned flags, bool real_domain) {
  const int ndim = static_cast<int>(axes_.size());
  // The real axis first (its input must be real), then the others from the last axis down.
  std::vector<int> order;
  if (real_axis_ >= 0) order.push_back(real_axis_);
  for (int k = ndim - 1; k >= 0; --k) {
    if (axes_[k].transform && k != real_axis_) order.push_back(k);
  }
  Shape shape = domain_shape_;
  // In place in the range (forward) and domain (adjoint) blocks: complex domains only.
  in_place_ = real_axis_ < 0 && !real_domain;
  Index intermediate = 0, panel = 0, real_panel = 0;
  for (std::size_t p = 0; p < order.size(); ++p) {
    const int k = order[p];
    Pass pass;
    pass.axis = axes_[k];
    const FftAxis& a = pass.axis;
    for (int j = 0; j < k; ++j)
      pass.outer *= shape[j];
    for (int j = k + 1; j < ndim; ++j)
      pass.inner *= shape[j];
    // Panels of about 32768 elements (512 KiB in double precision) stay in cache between the
    // gather, the transform and the scatter.
    const Index columns = pass.inner > 1 ? pass.inner : pass.outer;
    pass.width = std::clamp<Index>(32768 / a.nfft, 1, std::min<Index>(columns, 1024));
    pass.to_work = domain_to_work(a);
    pass.to_range = spectrum_to_range(a);
    pass.from_range = range_to_spectrum(a);
    pass.to_domain = work_to_domain(a);
    // The last pass applies the scale (forward) and the first adjoint pass, which is the same.
    const R scale = p + 1 == order.size() ? scale_ : R(1);
    pass.forward_weights = fft_forward_weights(a, scale);
    pass.adjoint_weights = fft_adjoint_weights(a, scale);
    // Identity maps and one weight: FFTW can read and write the block in place of the panels'
    // gather and scatter (an extra read and write of the block per axis). The first pass of a
    // real domain reads real values and keeps the panels. Only with a measured plan: FFTW's
    // estimate of a strided batch is poor (2048^2: 2.8x slower than the panels), while
    // measured it beats them.
    const auto identity_map = [](const std::vector<Index>& map) {
      for (std::size_t i = 0; i < map.size(); ++i) {
        if (map[i] != static_cast<Index>(i)) return false;
      }
      return true;
    };
    const auto uniform = [](const std::vector<R>& weights, R value) {
      return std::all_of(weights.begin(), weights.end(), [&](R w) { return w == value; });
    };
    pass.strided = flags != FFTW_ESTIMATE && !a.real && !(real_domain && p == 0) &&
                   a.nfft == a.length && a.range() == a.length && identity_map(pass.to_work) &&
                   identity_map(pass.to_range) && identity_map(pass.from_range) &&
                   identity_map(pass.to_domain) && uniform(pass.forward_weights, scale) &&
                   uniform(pass.adjoint_weights, scale);
    pass.weight = scale;
    in_place_ = in_place_ && a.length == a.range();
    shape[k] = a.range();
    if (p + 1 < order.size()) intermediate = std::max(intermediate, element_count(shape));
    panel = std::max(panel, pass.width * a.spectrum());
    if (a.real) real_panel = pass.width * a.nfft;
    passes_.push_back(std::move(pass));
  }
  work_ = Buffer<C>(panel);
  real_work_ = Buffer<R>(real_panel);
  if (!in_place_) {
    for (std::size_t i = 0; i < std::min<std::size_t>(passes_.size() - 1, 2); ++i)
      intermediate_[i] = Buffer<C>(intermediate);
  }
  for (Pass& pass : passes_) {
    if (pass.strided) {
      make_strided_plans(pass, flags);
      continue;
    }
    const FftAxis& a = pass.axis;
    const Index nfft = a.nfft, s = a.spectrum();
    const Index columns = pass.inner > 1 ? pass.inner : pass.outer;
    const Index widths[2] = {pass.width, columns % pass.width};
    for (int i = 0; i < 2; ++i) {
      if (widths[i] == 0) continue;
      if (a.real) {
        const fftw_iodim64 to_complex{nfft, 1, 1}, many_to_complex{widths[i], nfft, s};
        const fftw_iodim64 to_real{nfft, 1, 1}, many_to_real{widths[i], s, nfft};
        pass.forward[i] = checked(
            plan_r2c(&to_complex, 1, &many_to_complex, real_work_.data(), work_.data(), flags),
            "real-to-complex");
        pass.backward[i] =
            checked(plan_c2r(&to_real, 1, &many_to_real, work_.data(), real_work_.data(), flags),
                    "complex-to-real");
      } else {
        const fftw_iodim64 dim{nfft, 1, 1}, many{widths[i], nfft, nfft};
        pass.forward[i] =
            checked(plan_dft(1, &dim, 1, &many, work_.data(), work_.data(), FFTW_FORWARD, flags),
                    "forward");
        pass.backward[i] =
            checked(plan_dft(1, &dim, 1, &many, work_.data(), work_.data(), FFTW_BACKWARD, flags),
                    "backward");
      }
    }
  }
}

template <class R>
void FftStage<R>::make_strided_plans(Pass& pass, unsigned flags) {
  const Index n = pass.axis.length;
  const fftw_iodim64 line{n, pass.inner, pass.inner};
  std::vector<fftw_iodim64> many;
  if (pass.outer > 1) many.push_back({pass.outer, n * pass.inner, n * pass.inner});
  if (pass.inner > 1) many.push_back({pass.inner, 1, 1});
  const int howmany_rank = static_cast<int>(many.size());
  // Planning arrays of the block's size, aligned like every Buffer (MEASURE overwrites them).
  Buffer<C> a(pass.outer * n * pass.inner), b(pass.outer * n * pass.inner);
  const unsigned unaligned = FFTW_ESTIMATE | FFTW_UNALIGNED;
  for (int direction = 0; direction < 2; ++direction) {
    const int sign = direction == 0 ? FFTW_FORWARD : FFTW_BACKWARD;
    const char* what = direction == 0 ? "forward" : "backward";
    for (int in_place = 0; in_place < 2; ++in_place) {
      C* out = in_place ? a.data() : b.data();
      // Out of place the input is the caller's (const) block or an intermediate still needed.
      const unsigned keep = in_place ? 0u : unsigned(FFTW_PRESERVE_INPUT);
      Plan* plans = pass.strided_plans[direction][in_place];
      plans[0] = checked(
          plan_dft(1, &line, howmany_rank, many.data(), a.data(), out, sign, flags | keep), what);
      plans[1] = checked(
          plan_dft(1, &line, howmany_rank, many.data(), a.data(), out, sign, unaligned | keep),
          what);
    }
  }
}

template <class R>
void FftStage<R>::run_strided(const Pass& pass, int direction, const C* in, C* out) const {
  const int in_place = in == out ? 1 : 0;
  const int aligned = alignment_of(in) == 0 && alignment_of(out) == 0 ? 0 : 1;
  execute(pass.strided_plans[direction][in_place][aligned], in, out);
  if (pass.weight != R(1)) {
    kernels::scale(Host{}, pass.outer * pass.axis.length * pass.inner, C(pass.weight), out);
  }
}

template <class R>
void FftStage<R>::make_direct_plans(unsigned flags) {
  // Contiguous lines along the last axis, out of place.
  const Index n = domain_shape_.back();
  const Index lines = element_count(domain_shape_) / n;
  const fftw_iodim64 dim{n, 1, 1}, many{lines, n, n};
  // Planning arrays, aligned like every Buffer; only their alignment matters afterwards.
  Buffer<C> a(element_count(domain_shape_)), b(element_count(domain_shape_));
  const unsigned keep = FFTW_PRESERVE_INPUT;
  const unsigned unaligned = FFTW_ESTIMATE | FFTW_UNALIGNED | keep;  // planned cheaply
  for (int sign : {FFTW_FORWARD, FFTW_BACKWARD}) {
    const int i = sign == FFTW_FORWARD ? 0 : 1;
    const char* what = i == 0 ? "forward" : "backward";
    direct_[i] = checked(plan_dft(1, &dim, 1, &many, a.data(), b.data(), sign, flags | keep), what);
    direct_unaligned_[i] =
        checked(plan_dft(1, &dim, 1, &many, a.data(), b.data(), sign, unaligned), what);
  }
}

template <class R>
void FftStage<R>::make_work_plans(unsigned flags, const Shape& domain_strides,
                                  const Shape& range_strides) {
  const int ndim = static_cast<int>(axes_.size());
  for (const FftAxis& a : axes_) {
    work_shape_.push_back(a.spectrum());
    real_work_shape_.push_back(a.transform && a.real ? a.nfft : a.spectrum());
  }
  const Shape strides = detail::strides_of(work_shape_);
  const Shape real_strides = detail::strides_of(real_work_shape_);
  // The four copies around the transforms.
  std::vector<std::vector<Index>> in, out, adjoint_in, adjoint_out;
  std::vector<R> forward_weights, adjoint_weights;
  const R root2 = std::sqrt(R(2));
  for (int k = 0; k < ndim; ++k) {
    const FftAxis& a = axes_[k];
    if (!a.transform) {
      for (auto* maps : {&in, &out, &adjoint_in, &adjoint_out})
        maps->push_back(identity(a.length));
      continue;
    }
    in.push_back(domain_to_work(a));
    out.push_back(spectrum_to_range(a));
    adjoint_in.push_back(range_to_spectrum(a));
    adjoint_out.push_back(work_to_domain(a));
    if (k == real_axis_) {
      for (Index bin : out.back())
        forward_weights.push_back(doubled_bin(bin, a.nfft) ? root2 : R(1));
      for (Index bin = 0; bin < a.spectrum(); ++bin)
        adjoint_weights.push_back(doubled_bin(bin, a.nfft) ? R(1) / root2 : R(1));
    }
  }
  const bool real = real_axis_ >= 0;
  forward_in_ = IndexedCopy<R>(in, domain_strides, real ? real_strides : strides, R(1), -1, {});
  forward_out_ =
      IndexedCopy<R>(out, strides, range_strides, scale_, real_axis_, std::move(forward_weights));
  adjoint_in_ = IndexedCopy<R>(adjoint_in, range_strides, strides, scale_, real_axis_,
                               std::move(adjoint_weights));
  adjoint_out_ =
      IndexedCopy<R>(adjoint_out, real ? real_strides : strides, domain_strides, R(1), -1, {});

  work_ = Buffer<C>(element_count(work_shape_));
  std::vector<fftw_iodim64> dims, howmany;
  for (int k = 0; k < ndim; ++k) {
    const fftw_iodim64 dim{work_shape_[k], strides[k], strides[k]};
    (axes_[k].transform && k != real_axis_ ? dims : howmany).push_back(dim);
  }
  const int rank = static_cast<int>(dims.size());
  const int many = static_cast<int>(howmany.size());
  if (rank > 0) {
    complex_forward_ = checked(plan_dft(rank, dims.data(), many, howmany.data(), work_.data(),
                                        work_.data(), FFTW_FORWARD, flags),
                               "forward");
    complex_backward_ = checked(plan_dft(rank, dims.data(), many, howmany.data(), work_.data(),
                                         work_.data(), FFTW_BACKWARD, flags),
                                "backward");
  }
  if (!real) return;
  real_work_ = Buffer<R>(element_count(real_work_shape_));
  std::vector<fftw_iodim64> many_to_complex, many_to_real;
  const auto r = static_cast<std::size_t>(real_axis_);
  const fftw_iodim64 to_complex{axes_[r].nfft, real_strides[r], strides[r]};
  const fftw_iodim64 to_real{axes_[r].nfft, strides[r], real_strides[r]};
  for (int k = 0; k < ndim; ++k) {
    if (k == real_axis_) continue;
    many_to_complex.push_back({work_shape_[k], real_strides[k], strides[k]});
    many_to_real.push_back({work_shape_[k], strides[k], real_strides[k]});
  }
  work_forward_ = checked(plan_r2c(&to_complex, ndim - 1, many_to_complex.data(), real_work_.data(),
                                   work_.data(), flags),
                          "real-to-complex");
  work_backward_ = checked(
      plan_c2r(&to_real, ndim - 1, many_to_real.data(), work_.data(), real_work_.data(), flags),
      "complex-to-real");
}

template <class R>
void FftStage<R>::zero_real_axis_imaginary_parts(C* spectrum, Index outer, Index inner,
                                                 Index nfft) const {
  // The bins of zero frequency and (even nfft) Nyquist of a real transform are real; setting
  // their imaginary parts to zero makes the input of the complex-to-real transform Hermitian,
  // which FFTW's c2r assumes. Re of the adjoint does not depend on them.
  const Index s = nfft / 2 + 1;
  for (Index o = 0; o < outer; ++o) {
    for (Index i = 0; i < inner; ++i) {
      C& dc = spectrum[(o * s) * inner + i];
      dc = C(dc.real(), R(0));
      if (nfft % 2 == 0) {
        C& nyquist = spectrum[(o * s + s - 1) * inner + i];
        nyquist = C(nyquist.real(), R(0));
      }
    }
  }
}

// Calls body(o, first, count) for the panels of a pass over a block (outer, length, inner):
// with inner > 1 a panel holds the columns first .. first + count - 1 of slab o; with inner
// == 1 it holds the lines o .. o + count - 1 (first is 0).
template <class Body>
void for_each_panel(Index outer, Index inner, Index width, Body&& body) {
  if (inner > 1) {
    for (Index o = 0; o < outer; ++o) {
      for (Index first = 0; first < inner; first += width)
        body(o, first, std::min(width, inner - first));
    }
  } else {
    for (Index o = 0; o < outer; o += width)
      body(o, Index(0), std::min(width, outer - o));
  }
}

// Calls f(j, i) for the columns j < w and elements i < m of a panel, walking along the block's
// memory: element by element across columns when they are adjacent (inner > 1), column by
// column otherwise (contiguous lines).
template <class F>
void walk(bool adjacent_columns, Index w, Index m, F&& f) {
  if (adjacent_columns) {
    for (Index i = 0; i < m; ++i) {
      for (Index j = 0; j < w; ++j)
        f(j, i);
    }
  } else {
    for (Index j = 0; j < w; ++j) {
      for (Index i = 0; i < m; ++i)
        f(j, i);
    }
  }
}

template <class R>
template <class E>
void FftStage<R>::pass_forward(const Pass& pass, const E* in, C* out) const {
  if constexpr (is_complex_v<E>) {
    if (pass.strided) {
      run_strided(pass, 0, in, out);
      return;
    }
  }
  const FftAxis& a = pass.axis;
  const Index n = a.length, nfft = a.nfft, s = a.spectrum(), l = a.range();
  const Index inner = pass.inner;
  const bool adjacent = inner > 1;
  // Neighbouring columns of a panel are 1 apart (inner > 1) or one line apart (inner == 1).
  const Index in_step = adjacent ? 1 : n, out_step = adjacent ? 1 : l;
  C* spectrum = work_.data();
  for_each_panel(pass.outer, inner, pass.width, [&](Index o, Index first, Index w) {
    const int plan = w == pass.width ? 0 : 1;
    const E* block = in + o * n * inner + first;
    const auto gather = [&](auto* panel) {
      using P = std::remove_pointer_t<decltype(panel)>;
      walk(adjacent, w, nfft, [&](Index j, Index i) {
        const Index source = pass.to_work[i];
        panel[j * nfft + i] = source < 0 ? P(0) : convert<P>(block[j * in_step + source * inner]);
      });
    };
    if (a.real) {
      gather(real_work_.data());
      execute(pass.forward[plan], real_work_.data(), spectrum);
    } else {
      gather(spectrum);
      execute(pass.forward[plan], spectrum, spectrum);
    }
    C* target = out + o * l * inner + first;
    walk(adjacent, w, l, [&](Index j, Index b) {
      target[j * out_step + b * inner] =
          spectrum[j * s + pass.to_range[b]] * pass.forward_weights[b];
    });
  });
}

template <class R>
template <class E>
void FftStage<R>::pass_adjoint(const Pass& pass, const C* in, E* out) const {
  if constexpr (is_complex_v<E>) {
    if (pass.strided) {
      run_strided(pass, 1, in, out);
      return;
    }
  }
  const FftAxis& a = pass.axis;
  const Index n = a.length, nfft = a.nfft, s = a.spectrum(), l = a.range();
  const Index inner = pass.inner;
  const bool adjacent = inner > 1;
  const Index in_step = adjacent ? 1 : l, out_step = adjacent ? 1 : n;
  C* spectrum = work_.data();
  for_each_panel(pass.outer, inner, pass.width, [&](Index o, Index first, Index w) {
    const int plan = w == pass.width ? 0 : 1;
    const C* block = in + o * l * inner + first;
    walk(adjacent, w, s, [&](Index j, Index b) {
      const Index source = pass.from_range[b];
      spectrum[j * s + b] =
          source < 0 ? C(0) : block[j * in_step + source * inner] * pass.adjoint_weights[b];
    });
    E* target = out + o * n * inner + first;
    const auto scatter = [&](const auto* panel) {
      walk(adjacent, w, n, [&](Index j, Index i) {
        const Index source = pass.to_domain[i];
        target[j * out_step + i * inner] = source < 0 ? E(0) : convert<E>(panel[j * nfft + source]);
      });
    };
    if (a.real) {
      zero_real_axis_imaginary_parts(spectrum, w, 1, nfft);
      execute(pass.backward[plan], spectrum, real_work_.data());
      scatter(real_work_.data());
    } else {
      execute(pass.backward[plan], spectrum, spectrum);
      scatter(spectrum);
    }
  });
}

template <class R>
template <class E>
void FftStage<R>::run_forward(const E* domain, C* range) const {
  switch (mode_) {
    case Mode::empty:
      return;
    case Mode::passes: {
      const std::size_t count = passes_.size();
      pass_forward(passes_[0], domain, count == 1 || in_place_ ? range : intermediate_[0].data());
      for (std::size_t p = 1; p < count; ++p) {
        const C* in = in_place_ ? range : intermediate_[(p - 1) % 2].data();
        C* out = in_place_ || p + 1 == count ? range : intermediate_[p % 2].data();
        pass_forward(passes_[p], in, out);
      }
      return;
    }
    case Mode::direct:
      if constexpr (is_complex_v<E>) {
        const bool aligned = alignment_of(domain) == 0 && alignment_of(range) == 0;
        execute(aligned ? direct_[0] : direct_unaligned_[0], domain, range);
        if (scale_ != R(1)) kernels::scale(Host{}, element_count(range_shape_), C(scale_), range);
        return;
      }
      break;
    case Mode::work:
      if (real_axis_ >= 0) {
        forward_in_.run(domain, real_work_.data());
        execute(work_forward_, real_work_.data(), work_.data());
      } else {
        forward_in_.run(domain, work_.data());
      }
      if (complex_forward_) execute(complex_forward_, work_.data(), work_.data());
      forward_out_.run(work_.data(), range);
      return;
  }
  throw Error("FFT: real input given to a complex transform stage");
}

template <class R>
template <class E>
void FftStage<R>::run_adjoint(const C* range, E* domain) const {
  switch (mode_) {
    case Mode::empty:
      return;
    case Mode::passes: {
      const std::size_t count = passes_.size();
      if (count == 1) {
        pass_adjoint(passes_[0], range, domain);
        return;
      }
      if constexpr (is_complex_v<E>) {
        if (in_place_) {
          pass_adjoint(passes_[count - 1], range, domain);
          for (std::size_t p = count - 1; p-- > 0;)
            pass_adjoint(passes_[p], domain, domain);
          return;
        }
      }
      // The forward output of pass p sits in intermediate_[p % 2] (p < count - 1).
      pass_adjoint(passes_[count - 1], range, intermediate_[(count - 2) % 2].data());
      for (std::size_t p = count - 1; p-- > 1;) {
        pass_adjoint(passes_[p], intermediate_[p % 2].data(), intermediate_[(p - 1) % 2].data());
      }
      pass_adjoint(passes_[0], intermediate_[0].data(), domain);
      return;
    }
    case Mode::direct:
      if constexpr (is_complex_v<E>) {
        const bool aligned = alignment_of(domain) == 0 && alignment_of(range) == 0;
        execute(aligned ? direct_[1] : direct_unaligned_[1], range, domain);
        if (scale_ != R(1)) kernels::scale(Host{}, element_count(domain_shape_), C(scale_), domain);
        return;
      }
      break;
    case Mode::work:
      adjoint_in_.run(range, work_.data());
      if (complex_backward_) execute(complex_backward_, work_.data(), work_.data());
      if (real_axis_ >= 0) {
        Index outer = 1, inner = 1;
        for (int k = 0; k < real_axis_; ++k)
          outer *= work_shape_[k];
        for (std::size_t k = static_cast<std::size_t>(real_axis_) + 1; k < work_shape_.size(); ++k)
          inner *= work_shape_[k];
        zero_real_axis_imaginary_parts(work_.data(), outer, inner,
                                       axes_[static_cast<std::size_t>(real_axis_)].nfft);
        execute(work_backward_, work_.data(), real_work_.data());
        adjoint_out_.run(real_work_.data(), domain);
      } else {
        adjoint_out_.run(work_.data(), domain);
      }
      return;
  }
  throw Error("FFT: real output asked of a complex transform stage");
}

template <class R>
void FftStage<R>::forward(const C* domain, C* range) const {
  run_forward(domain, range);
}
template <class R>
void FftStage<R>::forward(const R* domain, C* range) const {
  run_forward(domain, range);
}
template <class R>
void FftStage<R>::adjoint(const C* range, C* domain) const {
  run_adjoint(range, domain);
}
template <class R>
void FftStage<R>::adjoint(const C* range, R* domain) const {
  run_adjoint(range, domain);
}

#define DISTLOPS_INSTANTIATE_FFT_STAGE(R) template class FftStage<R>;
DISTLOPS_FOR_EACH_REAL(DISTLOPS_INSTANTIATE_FFT_STAGE)
#undef DISTLOPS_INSTANTIATE_FFT_STAGE

}  // namespace distlops::detail
