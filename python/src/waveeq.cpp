// SPDX-License-Identifier: BSD-3-Clause
// Copyright (c) 2026 The distlops authors
// The operators of include/distlops/operators/waveeq/: MDC, real models and data (float32 and
// float64), G complex; Kirchhoff, its geometry and options in the form distlops/_waveeq.py
// derives from PyLops' arguments.
#include <algorithm>
#include <array>
#include <complex>
#include <concepts>

#include "distlops/operators/waveeq/kirchhoff.hpp"
#include "distlops/operators/waveeq/mdc.hpp"
#include "factory_binding.hpp"

namespace distlops::python {
namespace {

// PyLops-MPI's MDC: G holds this rank's frequencies (nf_r, ns, nr).
template <std::floating_point R>
LinearOperator<R, Host> mdc(
    const nb::ndarray<const std::complex<R>, nb::ndim<3>, nb::c_contig, nb::device::cpu>& local_g,
    Index nt, Index nv, double dt, double dr, bool twosided, bool conj, bool prescaled,
    bool keep_adjoint, Partition partition, const Communicator& comm) {
  LocalArray<std::complex<R>, Host> g(Shape{static_cast<Index>(local_g.shape(0)),
                                            static_cast<Index>(local_g.shape(1)),
                                            static_cast<Index>(local_g.shape(2))});
  std::copy_n(local_g.data(), local_g.size(), g.data());
  return MDC<R, Host>(g, nt, nv,
                      {.dt = dt,
                       .dr = dr,
                       .twosided = twosided,
                       .conj = conj,
                       .prescaled = prescaled,
                       .keep_adjoint = keep_adjoint,
                       .partition = partition},
                      comm);
}

// A regular axis as (n, origin, step); n = 0 for the absent y axis of a 2-D grid.
using AxisValues = std::array<double, 3>;

KirchhoffAxis kirchhoff_axis(const AxisValues& axis) {
  return {static_cast<Index>(axis[0]), axis[1], axis[2]};
}

// Kirchhoff's geometry and options; the traveltime and amplitude tables are point-major
// (source or receiver k's row at every image point), empty where they are not used.
struct KirchhoffArguments {
  KirchhoffGeometry geometry;
  KirchhoffOptions options;
};

KirchhoffArguments kirchhoff_arguments(
    const AxisValues& y, const AxisValues& x, const AxisValues& z, Index nt, double dt, bool tables,
    double velocity, std::span<const double> velocity_model,
    std::span<const double> source_traveltimes, std::span<const double> receiver_traveltimes,
    std::span<const double> source_amplitudes, std::span<const double> receiver_amplitudes,
    bool wavelet_filter, bool dynamic, bool offset_aperture, const std::array<double, 2>& aperture,
    const std::array<double, 2>& angle_aperture, Partition model_partition) {
  KirchhoffArguments arguments;
  arguments.geometry = {kirchhoff_axis(y), kirchhoff_axis(x), kirchhoff_axis(z), nt, dt};
  KirchhoffOptions& options = arguments.options;
  options.traveltimes = tables ? KirchhoffTraveltimes::tables : KirchhoffTraveltimes::analytic;
  options.velocity = velocity;
  options.velocity_model = velocity_model;
  options.tables = {source_traveltimes, receiver_traveltimes, source_amplitudes,
                    receiver_amplitudes};
  options.wavelet_filter = wavelet_filter;
  options.dynamic = dynamic;
  if (offset_aperture) options.aperture = aperture;
  options.angle_aperture = angle_aperture;
  options.model_partition = model_partition;
  return arguments;
}

template <Scalar T>
LocalOperator<T, Host> local_kirchhoff(
    const AxisValues& y, const AxisValues& x, const AxisValues& z, Index nt, double dt,
    std::span<const double> sources, std::span<const double> receivers,
    std::span<const double> wavelet, Index wavelet_center, bool tables, double velocity,
    std::span<const double> velocity_model, std::span<const double> source_traveltimes,
    std::span<const double> receiver_traveltimes, std::span<const double> source_amplitudes,
    std::span<const double> receiver_amplitudes, bool wavelet_filter, bool dynamic,
    bool offset_aperture, const std::array<double, 2>& aperture,
    const std::array<double, 2>& angle_aperture) {
  const KirchhoffArguments arguments = kirchhoff_arguments(
      y, x, z, nt, dt, tables, velocity, velocity_model, source_traveltimes, receiver_traveltimes,
      source_amplitudes, receiver_amplitudes, wavelet_filter, dynamic, offset_aperture, aperture,
      angle_aperture, Partition::BROADCAST);
  return local::Kirchhoff<T, Host>(arguments.geometry, sources, receivers, wavelet, wavelet_center,
                                   arguments.options);
}

template <Scalar T>
LinearOperator<T, Host> kirchhoff(
    const AxisValues& y, const AxisValues& x, const AxisValues& z, Index nt, double dt,
    std::span<const double> sources, std::span<const double> receivers,
    std::span<const double> wavelet, Index wavelet_center, bool tables, double velocity,
    std::span<const double> velocity_model, std::span<const double> source_traveltimes,
    std::span<const double> receiver_traveltimes, std::span<const double> source_amplitudes,
    std::span<const double> receiver_amplitudes, bool wavelet_filter, bool dynamic,
    bool offset_aperture, const std::array<double, 2>& aperture,
    const std::array<double, 2>& angle_aperture, Partition model_partition,
    const Communicator& comm) {
  const KirchhoffArguments arguments = kirchhoff_arguments(
      y, x, z, nt, dt, tables, velocity, velocity_model, source_traveltimes, receiver_traveltimes,
      source_amplitudes, receiver_amplitudes, wavelet_filter, dynamic, offset_aperture, aperture,
      angle_aperture, model_partition);
  return Kirchhoff<T, Host>(arguments.geometry, sources, receivers, wavelet, wavelet_center,
                            arguments.options, comm);
}

}  // namespace

void bind_waveeq(nb::module_& m) {
  Factories factories(m, "waveeq");
  factories.distributed(
      "MDC", []<class T>() requires std::floating_point<T> { return &mdc<T>; });
  factories.local("Kirchhoff", []<class T>() { return &local_kirchhoff<T>; });
  factories.distributed("Kirchhoff", []<class T>() { return &kirchhoff<T>; });
  // new_operator.sh: bindings of new operators above this line
}

}  // namespace distlops::python
