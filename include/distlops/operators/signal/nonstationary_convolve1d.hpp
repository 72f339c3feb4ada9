// SPDX-License-Identifier: BSD-3-Clause
// Copyright (c) 2026 The distlops authors
#pragma once
/// \file nonstationary_convolve1d.hpp
/// Non-stationary 1-d convolution along one axis (PyLops' NonStationaryConvolve1D and
/// PyLops-MPI's MPINonStationaryConvolve1D): a bank of compact filters given at regularly
/// spaced samples `ih` is linearly interpolated to every sample; each input sample spreads
/// its own filter around it:
///
///   y[j] = sum over i with |j - i| <= h of x[i] * f_i[j - i + h],   h = half the filter length
///
/// and the adjoint gathers x[i] = sum_j conj(f_i[j - i + h]) y[j] (PyLops omits the
/// conjugate; the two agree for real filters). Filters have an odd length; before the first
/// and after the last filter position the nearest filter is used.
///
/// The distributed form splits the array along the convolution axis: a Halo of h samples
/// brings each rank what its outputs need, and a local window computes exactly the rank's
/// outputs, with filters interpolated at global positions (no filter replication, any split
/// the halo allows, exact adjoint).
///
/// On the device (Cuda) the window is one kernel with one thread per output sample (forward)
/// or per input sample (adjoint), which finds the samples that meet and their weights with the
/// host loops' code (operators/signal/nonstationary_taps.hpp); the halo exchange is
/// HaloOperator's device path.

#include <vector>

#include "distlops/core/buffer.hpp"
#include "distlops/core/instantiate.hpp"
#include "distlops/operators/halo.hpp"
#include "distlops/operators/stack/block_diag.hpp"

namespace distlops {

/// The local operator: input of `input_shape`; output: the samples [window_start,
/// window_start + window_length) along `axis` of the convolution; input sample i sits at
/// global position `origin + i` for the filter interpolation.
template <Scalar T, MemorySpace Space = Host>
class NonStationaryConvolve1DOperator final : public LinearOperatorBase<LocalArray<T, Space>> {
 public:
  /// The library's own code: nothing to agree on after an apply.
  bool runs_user_code() const override { return false; }
  /// The vector type of domain and range.
  using Local = LocalArray<T, Space>;
  /// The window [window_start, window_start + window_length) along `axis` of the convolution of
  /// inputs of `input_shape`, whose sample i sits at global position `origin + i`; `filters` (odd,
  /// equal lengths) at the increasing, regularly spaced `positions`. InvalidArgument for bad
  /// filters, positions, axis or window.
  NonStationaryConvolve1DOperator(Shape input_shape, int axis,
                                  const std::vector<std::vector<T>>& filters,
                                  const std::vector<Index>& positions, Index window_start,
                                  Index window_length, Index origin);
  /// y = the window of sum_i x[i] f_i placed around i.
  void forward(const Local& x, Local& y) const override;
  /// x[i] = sum_j conj(f_i[j - i + h]) y[j] over the window.
  void adjoint(const Local& y, Local& x) const override;

 private:
  int axis_;
  Index half_;  // half the filter length
  Index window_start_;
  Index outer_, length_, inner_;  // the input as (outer, length, inner) around the axis
  Buffer<T, Space> filters_;      // length_ filters of 2 * half_ + 1 taps, in the space
};

namespace local {
/// PyLops' NonStationaryConvolve1D on one rank's data of shape `dims`: `filters` (odd, equal
/// lengths) at increasing, regularly spaced positions `ih` along `axis`.
template <Scalar T, MemorySpace Space = Host>
LocalOperator<T, Space> NonStationaryConvolve1D(const Shape& dims,
                                                const std::vector<std::vector<T>>& filters,
                                                const std::vector<Index>& ih, int axis = -1) {
  const int ndim = static_cast<int>(dims.size());
  const int normal = axis < 0 ? axis + ndim : axis;
  const Index n = normal >= 0 && normal < ndim ? dims[normal] : 0;
  return LocalOperator<T, Space>::template make<NonStationaryConvolve1DOperator<T, Space>>(
      dims, axis, filters, ih, 0, n, 0);
}
}  // namespace local

/// The distributed non-stationary convolution of an array of global shape `dims`, split
/// along `axis` over the ranks of `comm` with the default split (domain and range are flat
/// vectors; N-d arrays distributed along `axis` are accepted as they are). Collective.
template <Scalar T, MemorySpace Space = Host>
LinearOperator<T, Space> NonStationaryConvolve1D(const Communicator& comm, const Shape& dims,
                                                 const std::vector<std::vector<T>>& filters,
                                                 const std::vector<Index>& ih, int axis = -1) {
  const int ndim = static_cast<int>(dims.size());
  if (ndim == 0 || axis < -ndim || axis >= ndim) {
    throw InvalidArgument("NonStationaryConvolve1D: axis " + std::to_string(axis) +
                          " is out of range for dims " + to_string(dims));
  }
  const int normal = axis < 0 ? axis + ndim : axis;
  const Index half = filters.empty() ? 0 : static_cast<Index>(filters[0].size() / 2);
  Shape grid(static_cast<std::size_t>(ndim), 1);
  grid[normal] = comm.size();
  std::vector<Index> widths(static_cast<std::size_t>(2 * ndim), 0);
  widths[2 * normal] = widths[2 * normal + 1] = half;
  HaloWidths halo_widths = HaloWidths::per_side(widths);
  halo_widths.trim_at_boundaries = true;
  const auto halo = std::make_shared<const HaloOperator<T, Space>>(comm, dims, halo_widths, grid);
  const auto window =
      LocalOperator<T, Space>::template make<NonStationaryConvolve1DOperator<T, Space>>(
          halo->extended_shape(), normal, filters, ih, halo->core_offset()[normal],
          halo->core_shape()[normal], halo->core_start()[normal] - halo->core_offset()[normal]);
  return BlockDiag<T, Space>({window}, comm) * LinearOperator<T, Space>(halo);
}

DISTLOPS_EXTERN_TEMPLATE_CLASS(NonStationaryConvolve1DOperator)

}  // namespace distlops
