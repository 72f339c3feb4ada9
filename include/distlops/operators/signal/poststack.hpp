// SPDX-License-Identifier: BSD-3-Clause
// Copyright (c) 2026 The distlops authors
#pragma once
/// \file poststack.hpp
/// `PoststackLinearModelling`: PyLops' post-stack linearised seismic modelling
/// (pylops.avo.poststack), d = W D m for models of shape (nt0, spatial...) with time on the
/// first axis: D is the first derivative along time with unit sampling (PyLops'
/// FirstDerivative without edge: centered 0.5 (m[t+1] - m[t-1]), zero on the first and last
/// sample; forward m[t+1] - m[t], zero on the last), W the convolution with the wavelet along
/// time centred at its middle tap, w[len/2] (Convolve1D with offset len/2; the data have the
/// model's shape). `explicit_matrix` builds the dense nt0 x nt0 matrix W D once and applies it
/// with MatrixMult (PyLops' explicit = True, for short traces); otherwise the operator is the
/// composition of Convolve1D and FirstDerivative (explicit = False, for long traces). Both give
/// the same result.
///
/// `time_axis` puts time on another axis (e.g. the last, for (traces, samples) sections, with
/// the implicit form). The distributed form takes a layout of shape (nt0, spatial...) cut over
/// the traces (a slab along any axis but time, a process grid or boxes that keep time whole) or
/// replicated: each rank models its traces with the local operator, in a BlockDiag seen on the
/// layout (ranks holding no traces hold no block).
///
/// Differences from PyLops: no 2-d (non-stationary) wavelet and no sparse matrix; a wavelet
/// longer than the time axis is rejected (PyLops' explicit and implicit forms then disagree on
/// the data's length). Errors: InvalidArgument for an empty wavelet, nt0 < 1, a wavelet longer
/// than nt0, a derivative kind other than forward or centered, a time axis out of range or other
/// than 0 with the explicit form, or a layout cut along time.

#include <span>

#include "distlops/core/instantiate.hpp"
#include "distlops/operators/derivative_kind.hpp"
#include "distlops/operators/linear_operator.hpp"

namespace distlops {

/// Options of PoststackLinearModelling (PyLops' `kind` and `explicit`, and the time axis).
struct PoststackOptions {
  DerivativeKind kind = DerivativeKind::centered;  ///< forward or centered
  bool explicit_matrix = false;                    ///< dense W D (PyLops' `explicit`)
  /// The time axis of the model (PyLops: 0; negative counts from the end). The explicit form
  /// needs time on axis 0.
  int time_axis = 0;
};

namespace local {
/// W D on arrays of shape (nt0, spatial_dims...) (spatial_dims empty: one trace), or with nt0
/// inserted at options.time_axis.
template <Scalar T, MemorySpace Space = Host>
LocalOperator<T, Space> PoststackLinearModelling(std::span<const T> wavelet, Index nt0,
                                                 const Shape& spatial_dims = {},
                                                 const PoststackOptions& options = {});
}  // namespace local

/// W D on the arrays of `layout`, of shape (nt0, spatial...), cut over the traces.
/// Collective over the layout's communicator.
template <Scalar T, MemorySpace Space = Host>
LinearOperator<T, Space> PoststackLinearModelling(std::span<const T> wavelet, const Layout& layout,
                                                  const PoststackOptions& options = {});

/// \cond
#define DISTLOPS_DETAIL_POSTSTACK(PREFIX, T, S)                              \
  PREFIX template LocalOperator<T, S> local::PoststackLinearModelling<T, S>( \
      std::span<const T>, Index, const Shape&, const PoststackOptions&);     \
  PREFIX template LinearOperator<T, S> PoststackLinearModelling<T, S>(       \
      std::span<const T>, const Layout&, const PoststackOptions&);
DISTLOPS_FOR_EACH_SCALAR_AND_SPACE_ARG(DISTLOPS_DETAIL_POSTSTACK, extern)
/// \endcond

}  // namespace distlops
