// SPDX-License-Identifier: BSD-3-Clause
// Copyright (c) 2026 The distlops authors
// The operators of include/distlops/operators/signal/: Convolve1D on one rank's arrays, the N-d
// convolutions over DistributedArray, Fredholm1, post-stack modelling (local and distributed),
// the windowed operators (Sliding1D, Sliding2D, Patch2D) and the local and distributed FFTs
// (real models map to complex data: operator classes of their own for the real dtypes). The
// filters and wavelets are copied by the library.
#include <algorithm>
#include <array>
#include <span>
#include <string>
#include <vector>

#include "distlops/core/distributed_array.hpp"
#include "distlops/operators/signal/convolve1d.hpp"
#include "distlops/operators/signal/convolvend.hpp"
#include "distlops/operators/signal/fft.hpp"
#include "distlops/operators/signal/fredholm1.hpp"
#include "distlops/operators/signal/nonstationary_convolve1d.hpp"
#include "distlops/operators/signal/poststack.hpp"
#include "distlops/operators/signal/sliding.hpp"
#include "factory_binding.hpp"
#include "operator_binding.hpp"

namespace distlops::python {
namespace {

template <class T>
using ConstInput = nb::ndarray<const T, nb::c_contig, nb::device::cpu>;

template <class T>
Shape shape_of(const ConstInput<T>& array) {
  Shape shape(array.ndim());
  for (std::size_t i = 0; i < array.ndim(); ++i)
    shape[i] = static_cast<Index>(array.shape(i));
  return shape;
}

FFTNorm norm_from_name(const std::string& norm) {
  if (norm == "ortho") return FFTNorm::ortho;
  if (norm == "none") return FFTNorm::none;
  if (norm == "1/n") return FFTNorm::one_over_n;
  throw InvalidArgument("FFT: norm must be 'ortho', 'none' or '1/n', got '" + norm + "'");
}

FFTPlanning planning_from_name(const std::string& planning) {
  if (planning == "estimate") return FFTPlanning::estimate;
  if (planning == "measure") return FFTPlanning::measure;
  if (planning == "patient") return FFTPlanning::patient;
  throw InvalidArgument("FFT: planning must be 'estimate', 'measure' or 'patient', got '" +
                        planning + "'");
}

PoststackOptions poststack_options(const std::string& kind, bool explicit_matrix, int time_axis) {
  if (kind != "centered" && kind != "forward") {
    throw InvalidArgument("PoststackLinearModelling: kind must be 'centered' or 'forward', got '" +
                          kind + "'");
  }
  return {
      .kind = derivative_kind(kind), .explicit_matrix = explicit_matrix, .time_axis = time_axis};
}

// The options that the local and the distributed FFTs share, in `Options`, from PyLops' names.
template <class Options>
Options fft_options(std::vector<int> axes, std::vector<Index> nfft, const std::string& norm,
                    bool real, std::vector<bool> ifftshift_before,
                    std::vector<bool> fftshift_after) {
  Options options;
  options.axes = std::move(axes);
  options.nfft = std::move(nfft);
  options.norm = norm_from_name(norm);
  options.real = real;
  options.ifftshift_before = std::move(ifftshift_before);
  options.fftshift_after = std::move(fftshift_after);
  return options;
}

// The local FFT, FFT2D or FFTND (Transform) of one rank's arrays with PyLops' arguments.
template <class T, auto Transform>
local::FFTOperator<T, Host> local_fft(const Shape& dims, std::vector<int> axes,
                                      std::vector<Index> nfft, const std::string& norm, bool real,
                                      std::vector<bool> ifftshift_before,
                                      std::vector<bool> fftshift_after,
                                      const std::string& planning) {
  auto options = fft_options<FFTOptions>(std::move(axes), std::move(nfft), norm, real,
                                         std::move(ifftshift_before), std::move(fftshift_after));
  options.planning = planning_from_name(planning);
  return Transform(dims, options);
}

// The distributed FFT2D or FFTND (Transform); the output laid out like the input or transposed.
template <class T, auto Transform>
FFTOperator<T, Host> fft(const Layout& layout, std::vector<int> axes, std::vector<Index> nfft,
                         const std::string& norm, bool real, std::vector<bool> ifftshift_before,
                         std::vector<bool> fftshift_after, bool same_as_input) {
  auto options =
      fft_options<DistributedFFTOptions>(std::move(axes), std::move(nfft), norm, real,
                                         std::move(ifftshift_before), std::move(fftshift_after));
  options.output = same_as_input ? FFTOutputLayout::same_as_input : FFTOutputLayout::transposed;
  return Transform(layout, options);
}

template <class T>
LocalOperator<T, Host> local_poststack(std::span<const T> wavelet, Index nt0,
                                       const Shape& spatial_dims, const std::string& kind,
                                       bool explicit_matrix) {
  return local::PoststackLinearModelling<T, Host>(wavelet, nt0, spatial_dims,
                                                  poststack_options(kind, explicit_matrix, 0));
}

template <class T>
LinearOperator<T, Host> poststack(std::span<const T> wavelet, const Layout& layout,
                                  const std::string& kind, bool explicit_matrix, int time_axis) {
  return PoststackLinearModelling<T, Host>(wavelet, layout,
                                           poststack_options(kind, explicit_matrix, time_axis));
}

template <class T>
LinearOperator<T, Host> convolve2d(const Layout& layout, const ConstInput<T>& filter,
                                   std::array<Index, 2> offset, std::array<int, 2> axes) {
  return Convolve2D<T, Host>(layout, {filter.data(), filter.size()}, shape_of(filter), offset,
                             axes);
}

template <class T>
LinearOperator<T, Host> convolvend(const Layout& layout, const ConstInput<T>& filter,
                                   const std::vector<Index>& offset, const std::vector<int>& axes) {
  return ConvolveND<T, Host>(layout, {filter.data(), filter.size()}, shape_of(filter), offset,
                             axes);
}

// PyLops-MPI's Fredholm1: G holds this rank's slices (nsl_r, nx, ny).
template <class T>
LinearOperator<T, Host> fredholm1(
    const nb::ndarray<const T, nb::ndim<3>, nb::c_contig, nb::device::cpu>& local_g, Index nz,
    Partition partition, bool keep_adjoint, const Communicator& comm) {
  LocalArray<T, Host> g(Shape{static_cast<Index>(local_g.shape(0)),
                              static_cast<Index>(local_g.shape(1)),
                              static_cast<Index>(local_g.shape(2))});
  std::copy_n(local_g.data(), local_g.size(), g.data());
  return Fredholm1<T, Host>(g, nz, {.partition = partition, .keep_adjoint = keep_adjoint}, comm);
}

// Real models and complex data (the real FFTs): the operators, their adjoints (without sums and
// scaling: scale or add before .H), and the products of a real-model FFT F that a chain from
// the model needs: F^H G, C F, F D (G from real models to complex data, C complex, D real). Each
// class and product adds compile time.
template <class T>
void bind_real_to_complex(nb::module_& m) {
  if constexpr (!is_complex_v<T>) {
    const char* t = dtype_name<T>();
    using R = DistributedArray<T, Host>;
    using C = DistributedArray<std::complex<T>, Host>;
    bind_operator<R, C>(m, class_name("RealToComplexLinearOperator", t));
    bind_operator<C, R, false>(m, class_name("ComplexToRealLinearOperator", t));
    bind_composition<R, C, R>(m);
    bind_composition<R, C, C>(m);
    using LR = LocalArray<T, Host>;
    using LC = LocalArray<std::complex<T>, Host>;
    bind_operator<LR, LC>(m, class_name("LocalRealToComplexOperator", t));
    bind_operator<LC, LR, false>(m, class_name("LocalComplexToRealOperator", t));
    bind_composition<LR, LC, LR>(m);
    bind_composition<LR, LC, LC>(m);
    bind_composition<LR, LR, LC>(m);
  }
}

}  // namespace

void bind_signal(nb::module_& m) {
  nb::enum_<Taper>(m, "Taper")
      .value("none", Taper::none)
      .value("hanning", Taper::hanning)
      .value("cosine", Taper::cosine)
      .value("cosinesquare", Taper::cosinesquare);
  for_each_scalar([&]<class T>() { bind_real_to_complex<T>(m); });
  Factories factories(m, "signal");
  factories.local("Convolve1D", []<class T>() { return &local::Convolve1D<T, Host>; });
  factories.distributed("Convolve2D", []<class T>() { return &convolve2d<T>; });
  factories.distributed("ConvolveND", []<class T>() { return &convolvend<T>; });
  factories.distributed("Fredholm1", []<class T>() { return &fredholm1<T>; });
  factories.distributed("NonStationaryConvolve1D",
                        []<class T>() { return &NonStationaryConvolve1D<T, Host>; });
  factories.local("PoststackLinearModelling", []<class T>() { return &local_poststack<T>; });
  factories.distributed("PoststackLinearModelling", []<class T>() { return &poststack<T>; });
  factories.distributed("Sliding1D", []<class T>() { return &Sliding1D<T, Host>; });
  factories.distributed("Sliding2D", []<class T>() { return &Sliding2D<T, Host>; });
  factories.distributed("Patch2D", []<class T>() { return &Patch2D<T, Host>; });
  factories.local("FFT", []<class T>() { return &local_fft<T, &local::FFT<T, Host>>; });
  factories.local("FFT2D", []<class T>() { return &local_fft<T, &local::FFT2D<T, Host>>; });
  factories.local("FFTND", []<class T>() { return &local_fft<T, &local::FFTND<T, Host>>; });
  factories.distributed("FFT2D", []<class T>() { return &fft<T, &FFT2D<T, Host>>; });
  factories.distributed("FFTND", []<class T>() { return &fft<T, &FFTND<T, Host>>; });
  // new_operator.sh: bindings of new operators above this line
}

}  // namespace distlops::python
