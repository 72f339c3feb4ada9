// SPDX-License-Identifier: BSD-3-Clause
// Copyright (c) 2026 The distlops authors
// The signal-processing operators: post-stack modelling (local and distributed), the N-d
// convolutions over DistributedArray, Fredholm1, multi-dimensional convolution, the windowed
// operators (Sliding1D, Sliding2D, Patch2D) and the local and distributed FFTs (real models map
// to complex data: operator classes of their own for the real dtypes). The filters and wavelets are
// copied by the library.
#include <nanobind/ndarray.h>
#include <nanobind/stl/array.h>
#include <nanobind/stl/string.h>
#include <nanobind/stl/vector.h>

#include <algorithm>
#include <array>
#include <span>
#include <string>
#include <vector>

#include "bindings.hpp"
#include "distlops/core/distributed_array.hpp"
#include "distlops/operators/signal/convolvend.hpp"
#include "distlops/operators/signal/fft.hpp"
#include "distlops/operators/signal/fredholm1.hpp"
#include "distlops/operators/signal/poststack.hpp"
#include "distlops/operators/signal/sliding.hpp"
#include "distlops/operators/waveeq/mdc.hpp"
#include "operator_binding.hpp"

namespace distlops::python {
namespace {

template <class T>
using ConstInput = nb::ndarray<const T, nb::c_contig, nb::device::cpu>;

template <class T>
std::span<const T> values_of(const ConstInput<T>& array) {
  return {array.data(), array.size()};
}

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

/// The local FFT of arrays of T (FFT, FFT2D or FFTND by `transform`): one rank's arrays.
template <class T>
void bind_local_fft(nb::module_& m, const char* name,
                    local::FFTOperator<T, Host> (*transform)(const Shape&, const FFTOptions&)) {
  m.def(class_name(name, dtype_name<T>()).c_str(),
        [transform](const Shape& dims, std::vector<int> axes, std::vector<Index> nfft,
                    const std::string& norm, bool real, std::vector<bool> ifftshift_before,
                    std::vector<bool> fftshift_after, const std::string& planning) {
          return transform(dims, {.axes = std::move(axes),
                                  .nfft = std::move(nfft),
                                  .norm = norm_from_name(norm),
                                  .real = real,
                                  .ifftshift_before = std::move(ifftshift_before),
                                  .fftshift_after = std::move(fftshift_after),
                                  .planning = planning_from_name(planning)});
        });
}

/// The distributed FFT of arrays of T (FFT2D or FFTND by `transform`).
template <class T>
void bind_fft(nb::module_& m, const char* name,
              FFTOperator<T, Host> (*transform)(const Layout&, const DistributedFFTOptions&)) {
  m.def(
      class_name(name, dtype_name<T>()).c_str(),
      [transform](const Layout& layout, std::vector<int> axes, std::vector<Index> nfft,
                  const std::string& norm, bool real, std::vector<bool> ifftshift_before,
                  std::vector<bool> fftshift_after, bool same_as_input) {
        return transform(layout, {.axes = std::move(axes),
                                  .nfft = std::move(nfft),
                                  .norm = norm_from_name(norm),
                                  .real = real,
                                  .ifftshift_before = std::move(ifftshift_before),
                                  .fftshift_after = std::move(fftshift_after),
                                  .output = same_as_input ? FFTOutputLayout::same_as_input
                                                          : FFTOutputLayout::transposed});
      },
      nb::call_guard<nb::gil_scoped_release>());
}

Taper taper_from_name(const std::string& name) {
  if (name == "none") return Taper::none;
  if (name == "hanning") return Taper::hanning;
  if (name == "cosine") return Taper::cosine;
  if (name == "cosinesquare") return Taper::cosinesquare;
  throw InvalidArgument(
      "Sliding: tapertype must be 'hanning', 'cosine', 'cosinesquare' or None, "
      "got '" +
      name + "'");
}

PoststackOptions poststack_options(const std::string& kind, bool explicit_matrix, int time_axis) {
  if (kind != "centered" && kind != "forward") {
    throw InvalidArgument("PoststackLinearModelling: kind must be 'centered' or 'forward', got '" +
                          kind + "'");
  }
  return {.kind = kind == "centered" ? DerivativeKind::centered : DerivativeKind::forward,
          .explicit_matrix = explicit_matrix,
          .time_axis = time_axis};
}

template <class T>
void bind_signal_operators_for_type(nb::module_& m) {
  const char* t = dtype_name<T>();
  m.def(class_name("local_PoststackLinearModelling", t).c_str(),
        [](const ConstInput<T>& wavelet, Index nt0, const Shape& spatial_dims,
           const std::string& kind, bool explicit_matrix) {
          return local::PoststackLinearModelling<T, Host>(
              values_of(wavelet), nt0, spatial_dims, poststack_options(kind, explicit_matrix, 0));
        });
  m.def(class_name("PoststackLinearModelling", t).c_str(),
        [](const ConstInput<T>& wavelet, const Layout& layout, const std::string& kind,
           bool explicit_matrix, int time_axis) {
          return PoststackLinearModelling<T, Host>(
              values_of(wavelet), layout, poststack_options(kind, explicit_matrix, time_axis));
        });
  m.def(class_name("Convolve2D", t).c_str(),
        [](const Layout& layout, const ConstInput<T>& filter, std::array<Index, 2> offset,
           std::array<int, 2> axes) {
          return Convolve2D<T, Host>(layout, values_of(filter), shape_of(filter), offset, axes);
        });
  m.def(class_name("ConvolveND", t).c_str(),
        [](const Layout& layout, const ConstInput<T>& filter, const std::vector<Index>& offset,
           const std::vector<int>& axes) {
          return ConvolveND<T, Host>(layout, values_of(filter), shape_of(filter), offset, axes);
        });
  m.def(
      class_name("Fredholm1", t).c_str(),
      [](const nb::ndarray<const T, nb::ndim<3>, nb::c_contig, nb::device::cpu>& local_g, Index nz,
         Partition partition, bool keep_adjoint, const Communicator& comm) {
        LocalArray<T, Host> g(Shape{static_cast<Index>(local_g.shape(0)),
                                    static_cast<Index>(local_g.shape(1)),
                                    static_cast<Index>(local_g.shape(2))});
        std::copy_n(local_g.data(), local_g.size(), g.data());
        return Fredholm1<T, Host>(g, nz, {.partition = partition, .keep_adjoint = keep_adjoint},
                                  comm);
      },
      nb::call_guard<nb::gil_scoped_release>());
  using Local = LocalOperator<T, Host>;
  m.def(
      class_name("Sliding1D", t).c_str(),
      [](const Local& op, const Communicator& comm, Index dim, Index dimd, Index nwin, Index nover,
         const std::string& taper, const std::vector<Index>& windows_per_rank) {
        return Sliding1D<T, Host>(op, comm, dim, dimd, nwin, nover, taper_from_name(taper),
                                  windows_per_rank);
      },
      nb::call_guard<nb::gil_scoped_release>());
  m.def(
      class_name("Sliding2D", t).c_str(),
      [](const Local& op, const Communicator& comm, const Shape& dims, const Shape& dimsd,
         Index nwin, Index nover, const std::string& taper,
         const std::vector<Index>& windows_per_rank) {
        return Sliding2D<T, Host>(op, comm, dims, dimsd, nwin, nover, taper_from_name(taper),
                                  windows_per_rank);
      },
      nb::call_guard<nb::gil_scoped_release>());
  m.def(
      class_name("Patch2D", t).c_str(),
      [](const Local& op, const Communicator& comm, const Shape& dims, const Shape& dimsd,
         const Shape& nwin, const Shape& nover, const Shape& nop, const std::string& taper,
         const std::vector<Index>& windows_per_rank) {
        return Patch2D<T, Host>(op, comm, dims, dimsd, nwin, nover, nop, taper_from_name(taper),
                                windows_per_rank);
      },
      nb::call_guard<nb::gil_scoped_release>());
  if constexpr (!is_complex_v<T>) {
    m.def(
        class_name("MDC", t).c_str(),
        [](const nb::ndarray<const std::complex<T>, nb::ndim<3>, nb::c_contig, nb::device::cpu>&
               local_g,
           Index nt, Index nv, double dt, double dr, bool twosided, bool conj, bool prescaled,
           bool keep_adjoint, Partition partition, const Communicator& comm) {
          LocalArray<std::complex<T>, Host> g(Shape{static_cast<Index>(local_g.shape(0)),
                                                    static_cast<Index>(local_g.shape(1)),
                                                    static_cast<Index>(local_g.shape(2))});
          std::copy_n(local_g.data(), local_g.size(), g.data());
          return MDC<T, Host>(g, nt, nv,
                              {.dt = dt,
                               .dr = dr,
                               .twosided = twosided,
                               .conj = conj,
                               .prescaled = prescaled,
                               .keep_adjoint = keep_adjoint,
                               .partition = partition},
                              comm);
        },
        nb::call_guard<nb::gil_scoped_release>());
    // Real models and complex data (the real FFTs): the operators, their adjoints (without
    // sums and scaling: scale or add before .H), and the products of a real-model FFT F that
    // a chain from the model needs: F^H G, C F, F D (G from real models to complex data, C
    // complex, D real). Each class and product adds compile time.
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
  bind_local_fft<T>(m, "local_FFT", &local::FFT<T, Host>);
  bind_local_fft<T>(m, "local_FFT2D", &local::FFT2D<T, Host>);
  bind_local_fft<T>(m, "local_FFTND", &local::FFTND<T, Host>);
  bind_fft<T>(m, "FFT2D", &FFT2D<T, Host>);
  bind_fft<T>(m, "FFTND", &FFTND<T, Host>);
}

}  // namespace

void bind_signal_operators(nb::module_& m) {
  for_each_scalar([&]<class T>() { bind_signal_operators_for_type<T>(m); });
}

}  // namespace distlops::python
