// SPDX-License-Identifier: BSD-3-Clause
// Copyright (c) 2026 The distlops authors
#pragma once
// The kernels of Kirchhoff (kirchhoff.hpp), one definition per memory space
// (operators/host/ and operators/cuda/kirchhoff_kernels.*): the spray of image points into
// the traces of every source-receiver pair (forward) and its transpose, the stack of the
// traces into the image points (adjoint). The wavelet is applied apart (Convolve1D). The weight
// of one pair at one image point is written once, for both spaces (kirchhoff_contribution).
#include <cmath>

#include "distlops/core/host_device.hpp"
#include "distlops/core/memory_space.hpp"
#include "distlops/core/types.hpp"

namespace distlops::kernels {

/// The tables of one Kirchhoff operator, in the memory of the space of the kernel that reads
/// them (R: the real type of the data). Tables are (count, ni), point-major.
template <class R>
struct KirchhoffView {
  Index ns = 0, nr = 0, nt = 0, ni = 0;
  Index nz = 1;                       // image points along depth, the fastest axis of the model
  R dt = 1;                           // time step
  const R* source_times = nullptr;    // (ns, ni)
  const R* receiver_times = nullptr;  // (nr, ni)
  // With `dynamic` only (null otherwise): amplitudes and angles (ns or nr, ni), the reciprocal
  // velocity (ni), the x grid index of every source and receiver for the offset aperture.
  const R* source_amplitudes = nullptr;
  const R* receiver_amplitudes = nullptr;
  const R* source_angles = nullptr;
  const R* receiver_angles = nullptr;
  const R* slowness = nullptr;
  const R* source_x_index = nullptr;
  const R* receiver_x_index = nullptr;
  R aperture_min = 0, aperture_max = 0;  // offset over depth, in grid indices
  R angle_min = 0, angle_max = 0;        // radians
  bool offset_aperture = false;
  // The slope of the apertures: taper[k] for the k-th of 20 steps past the first bound.
  R taper[21] = {};
};

/// Where the spike of pair (s, r) for image point i lands: samples `sample` and `sample + 1`
/// with weights `first` and `second`. False when it falls outside the trace or an aperture.
template <class R>
DISTLOPS_HOST_DEVICE inline bool kirchhoff_contribution(const KirchhoffView<R>& v, Index s, Index r,
                                                        Index i, Index& sample, R& first,
                                                        R& second) {
  const R time = v.source_times[s * v.ni + i] + v.receiver_times[r * v.ni + i];
  const R position = time / v.dt;
  // Truncation toward zero, as NumPy's astype(int).
  const auto whole = static_cast<Index>(position);
  if (whole < 0 || whole >= v.nt - 1) return false;
  const R fraction = position - static_cast<R>(whole);
  R weight = 1;
  if (v.source_amplitudes != nullptr) {
    const R angle_s = v.source_angles[s * v.ni + i];
    const R angle_r = v.receiver_angles[r * v.ni + i];
    const R abs_s = angle_s < 0 ? -angle_s : angle_s;
    const R abs_r = angle_r < 0 ? -angle_r : angle_r;
    if (!(abs_s < v.angle_max && abs_r < v.angle_max)) return false;
    const R angle_width = v.angle_max - v.angle_min;
    if (abs_s >= v.angle_min)
      weight *= v.taper[static_cast<int>(20 * (abs_s - v.angle_min) / angle_width)];
    if (abs_r >= v.angle_min)
      weight *= v.taper[static_cast<int>(20 * (abs_r - v.angle_min) / angle_width)];
    if (v.offset_aperture) {
      const R offset = v.source_x_index[s] - v.receiver_x_index[r];
      const R ratio = (offset < 0 ? -offset : offset) / static_cast<R>(i % v.nz + 1);
      if (!(ratio < v.aperture_max)) return false;
      if (ratio >= v.aperture_min)
        weight *= v.taper[static_cast<int>(20 * (ratio - v.aperture_min) /
                                           (v.aperture_max - v.aperture_min))];
    }
    using std::cos;
    weight *= 2 * cos((angle_s - angle_r) / 2) * v.source_amplitudes[s * v.ni + i] *
              v.receiver_amplitudes[r * v.ni + i] * v.slowness[i];
  }
  sample = whole;
  first = (1 - fraction) * weight;
  second = fraction * weight;
  return true;
}

/// Forward: traces (ns, nr, nt) = alpha * spray(model) + beta * traces (not read when beta == 0).
template <Scalar T>
void kirchhoff_spray(Host, const KirchhoffView<real_type_t<T>>& view, T alpha, const T* model,
                     T beta, T* traces);
template <Scalar T>
void kirchhoff_spray(Cuda, const KirchhoffView<real_type_t<T>>& view, T alpha, const T* model,
                     T beta, T* traces);

/// Adjoint: model = alpha * stack(traces) + beta * model (not read when beta == 0).
template <Scalar T>
void kirchhoff_stack(Host, const KirchhoffView<real_type_t<T>>& view, T alpha, const T* traces,
                     T beta, T* model);
template <Scalar T>
void kirchhoff_stack(Cuda, const KirchhoffView<real_type_t<T>>& view, T alpha, const T* traces,
                     T beta, T* model);

#define DISTLOPS_INSTANTIATE_KIRCHHOFF_KERNELS(T, Space)                                        \
  template void kirchhoff_spray<T>(Space, const KirchhoffView<real_type_t<T>>&, T, const T*, T, \
                                   T*);                                                         \
  template void kirchhoff_stack<T>(Space, const KirchhoffView<real_type_t<T>>&, T, const T*, T, T*);

}  // namespace distlops::kernels
