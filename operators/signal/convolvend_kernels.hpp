// SPDX-License-Identifier: BSD-3-Clause
// Copyright (c) 2026 The distlops authors
#pragma once
// The kernel of ConvolveND and Convolve2D (local and distributed), one definition per memory
// space (operators/host/ and operators/cuda/convolvend_kernels.*). Pointers are memory of the
// space.
#include "distlops/core/instantiate.hpp"
#include "distlops/core/memory_space.hpp"
#include "distlops/core/types.hpp"

namespace distlops::kernels {

/// Most axes of an array ConvolveND takes (the geometry travels to the device by value).
inline constexpr int max_convolve_dimensions = 8;

/// Output point p (a multi-index of out_extent) reads input point q with
/// q[a] = p[a] + base[a] + sign * k[a] for every tap k (a multi-index of taps); input points
/// outside [0, in_extent) contribute nothing. Forward: sign = -1, base = offset + origin;
/// adjoint: sign = +1, base = origin - offset (origin: where the output block starts in the
/// input, non-zero when the input carries ghost planes).
struct ConvolveGeometry {
  int ndim = 0;
  int sign = -1;
  Index out_extent[max_convolve_dimensions] = {};
  Index in_extent[max_convolve_dimensions] = {};
  Index taps[max_convolve_dimensions] = {};
  Index base[max_convolve_dimensions] = {};
};

/// out[p] = alpha * sum_k w[k] in[q(p, k)] + beta * out[p] (out not read when beta == 0), with
/// w the taps in C order of g.taps. The host adds one tap at a time along output rows (the last
/// axis, vectorised), the device computes each output point in one thread.
template <Scalar T>
void convolvend(Host, const ConvolveGeometry& g, const T* w, T alpha, const T* in, T beta, T* out);
template <Scalar T>
void convolvend(Cuda, const ConvolveGeometry& g, const T* w, T alpha, const T* in, T beta, T* out);

// The instantiations of both definitions (instantiate.hpp).
#define DISTLOPS_DETAIL_CONVOLVEND_KERNELS(PREFIX, T, S) \
  PREFIX template void convolvend<T>(S, const ConvolveGeometry&, const T*, T, const T*, T, T*);

}  // namespace distlops::kernels
