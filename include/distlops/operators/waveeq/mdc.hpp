// SPDX-License-Identifier: BSD-3-Clause
// Copyright (c) 2026 The distlops authors
#pragma once
/// \file mdc.hpp
/// Multi-dimensional convolution (PyLops' MDC, PyLops-MPI's MPIMDC): a real model x(t, r, v)
/// is transformed along time, its first nfmax frequencies are multiplied by a kernel G(f, s, r)
/// given in the frequency domain (summing over r), and the result is transformed back:
///
///   y(t, s, v) = F^H ( sqrt(nt) dt dr  sum_r G(f, s, r) F x(t, r, v) ),   f < nfmax,
///
/// where F is PyLops' real FFT along time with norm "ortho" (preceded by an ifftshift when
/// `twosided`) and F^H its adjoint; frequencies from nfmax to nt / 2 are zero. Model and data
/// are real: the operator maps real arrays (float or double) to real arrays, with the kernel
/// of the matching complex type. The adjoint is exact.
///
/// Shapes: model (nt, nr, nv) and data (nt, ns, nv); with `transpose` (PyLops' former layout,
/// time last) model (nr, nv, nt), data (ns, nv, nt) and G given as (ns, nr, nf). Arrays with nv
/// == 1 may also be given without that axis (same split, seen without copy).
///
/// Distribution: G is split over the ranks along frequency (each rank passes its nf_r
/// frequencies, any number, zero included; nfmax is their sum). With `partition` BROADCAST
/// (PyLops-MPI) model and data are whole on every rank: each rank transforms them whole, keeps
/// its frequencies, and an all-gather collects the products before the inverse transform. With
/// SCATTER, model and data are split along their spatial axis (r and s): each rank transforms
/// its traces, an all-to-all brings every rank the spectra of its frequencies for all
/// traces, and another brings the products back; no rank transforms more than its share.

#include <complex>
#include <concepts>

#include "distlops/config.hpp"
#include "distlops/core/instantiate.hpp"

#include "distlops/operators/signal/fft.hpp"

namespace distlops {

/// Options of MDC (PyLops' keyword arguments, and the distribution).
struct MDCOptions {
  /// Time sampling; the kernel is scaled by sqrt(nt) dt dr unless `prescaled`.
  double dt = 1.0;
  /// Receiver sampling (see dt).
  double dr = 1.0;
  /// Negative and positive times (nt must then be odd) or positive times only.
  bool twosided = true;
  /// Use the complex conjugate of G.
  bool conj = false;
  /// Time last in model, data and G (see above).
  bool transpose = false;
  /// G is already scaled: no sqrt(nt) dt dr factor.
  bool prescaled = false;
  /// Keep G^H of every frequency (PyLops' saveGt; see fredholm1.hpp for what it buys). The
  /// Cuda operator needs no copy (cuBLAS applies G^H directly) and ignores it.
  bool keep_adjoint = false;
  /// BROADCAST (PyLops-MPI): model and data whole on every rank; SCATTER: split along their
  /// spatial axis (see above).
  Partition partition = Partition::BROADCAST;
  /// FFTW's planning effort (ignored on Cuda, see fft.hpp).
  FFTPlanning planning = FFTPlanning::estimate;
};

/// The multi-dimensional convolution with this rank's frequencies `local_g` of the kernel,
/// nt time samples and nv virtual sources, applied to arrays of memory space Space (G is given
/// on the host and copied to the device once for Cuda). Collective.
template <std::floating_point R, MemorySpace Space = Host>
LinearOperator<R, Space> MDC(const LocalArray<std::complex<R>, Host>& local_g, Index nt, Index nv,
                             const MDCOptions& options = {},
                             const Communicator& comm = Communicator::world());

/// \cond
#define DISTLOPS_DETAIL_MDC(PREFIX, R, S)                                                         \
  PREFIX template LinearOperator<R, S> MDC<R, S>(const LocalArray<std::complex<R>, Host>&, Index, \
                                                 Index, const MDCOptions&, const Communicator&);
#define DISTLOPS_DETAIL_EXTERN_MDC(S) \
  DISTLOPS_DETAIL_MDC(extern, float, S) DISTLOPS_DETAIL_MDC(extern, double, S)
DISTLOPS_FOR_EACH_SPACE(DISTLOPS_DETAIL_EXTERN_MDC)
#undef DISTLOPS_DETAIL_EXTERN_MDC
/// \endcond

}  // namespace distlops
