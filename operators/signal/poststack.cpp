// SPDX-License-Identifier: BSD-3-Clause
// Copyright (c) 2026 The distlops authors
// PoststackLinearModelling: W D as a dense matrix, as the space's fused route over contiguous
// traces (poststack_kernels.hpp), or as Convolve1D * FirstDerivative, and its BlockDiag over the
// ranks' traces.
#include "distlops/operators/signal/poststack.hpp"

#include <algorithm>
#include <vector>

#include "distlops/core/collective_check.hpp"
#include "distlops/core/instantiate.hpp"
#include "distlops/operators/dense/matrix_mult.hpp"
#include "distlops/operators/derivative/derivatives.hpp"
#include "distlops/operators/reshape.hpp"
#include "distlops/operators/signal/convolve1d.hpp"
#include "distlops/operators/stack/block_diag.hpp"
#include "distlops/operators/stack/replicated.hpp"
#include "poststack_kernels.hpp"

namespace distlops {

namespace {

const char* const name = "PoststackLinearModelling";

// The time axis in [0, ndim), checked.
int check(std::size_t taps, Index nt0, int ndim, const PoststackOptions& options) {
  const std::string op = name;
  const int axis = options.time_axis < 0 ? options.time_axis + ndim : options.time_axis;
  if (axis < 0 || axis >= ndim) {
    throw InvalidArgument(op + ": time_axis " + std::to_string(options.time_axis) +
                          " is out of range for a " + std::to_string(ndim) + "-d model");
  }
  if (options.explicit_matrix && axis != 0) {
    throw InvalidArgument(op + ": the explicit form needs time on axis 0, got time_axis " +
                          std::to_string(options.time_axis));
  }
  if (taps == 0) throw InvalidArgument(op + ": the wavelet is empty");
  if (nt0 < 1) throw InvalidArgument(op + ": nt0 must be positive, got " + std::to_string(nt0));
  if (static_cast<Index>(taps) > nt0) {
    throw InvalidArgument(op + ": the wavelet (" + std::to_string(taps) +
                          " samples) is longer than the time axis (nt0 = " + std::to_string(nt0) +
                          ")");
  }
  if (options.kind != DerivativeKind::centered && options.kind != DerivativeKind::forward) {
    throw InvalidArgument(op + ": the derivative kind must be forward or centered, got " +
                          to_string(options.kind));
  }
  return axis;
}

// (W D)[i, j] = sum_t W[i, t] D[t, j], W[i, t] = w[i - t + len/2], D as PyLops' FirstDerivative.
template <class T>
std::vector<T> dense_modelling(std::span<const T> wavelet, Index nt0, DerivativeKind kind) {
  const auto taps = static_cast<Index>(wavelet.size());
  std::vector<T> d(static_cast<std::size_t>(nt0 * nt0), T(0));
  const auto at = [nt0](Index i, Index j) { return static_cast<std::size_t>(i * nt0 + j); };
  for (Index t = 0; t < nt0; ++t) {
    if (kind == DerivativeKind::centered && t > 0 && t + 1 < nt0) {
      d[at(t, t + 1)] = T(0.5);
      d[at(t, t - 1)] = T(-0.5);
    } else if (kind == DerivativeKind::forward && t + 1 < nt0) {
      d[at(t, t + 1)] = T(1);
      d[at(t, t)] = T(-1);
    }
  }
  std::vector<T> m(d.size(), T(0));
  for (Index i = 0; i < nt0; ++i) {
    for (Index t = 0; t < nt0; ++t) {
      const Index k = i - t + taps / 2;
      if (k < 0 || k >= taps) continue;
      const T w = wavelet[static_cast<std::size_t>(k)];
      for (Index j = 0; j < nt0; ++j)
        m[at(i, j)] += w * d[at(t, j)];
    }
  }
  return m;
}

}  // namespace

template <Scalar T, MemorySpace Space>
LocalOperator<T, Space> local::PoststackLinearModelling(std::span<const T> wavelet, Index nt0,
                                                        const Shape& spatial_dims,
                                                        const PoststackOptions& options) {
  const int axis = check(wavelet.size(), nt0, static_cast<int>(spatial_dims.size()) + 1, options);
  if (options.explicit_matrix) {
    const std::vector<T> m = dense_modelling(wavelet, nt0, options.kind);
    return local::MatrixMult<T, Space>(nt0, nt0, m, spatial_dims);
  }
  Shape dims = spatial_dims;
  dims.insert(dims.begin() + axis, nt0);
  // Time last: the space's fused route, where it has one.
  if (axis + 1 == static_cast<int>(dims.size()) && element_count(dims) > 0) {
    if (auto fused = kernels::fused_trace_modelling(Space{}, dims, wavelet, options.kind)) {
      return *std::move(fused);
    }
  }
  const auto derivative = local::FirstDerivative<T, Space>(
      dims, {.axis = axis, .sampling = 1.0, .kind = options.kind, .edge = false});
  const auto convolution =
      local::Convolve1D<T, Space>(dims, wavelet, static_cast<Index>(wavelet.size()) / 2, axis);
  return convolution * derivative;
}

template <Scalar T, MemorySpace Space>
LinearOperator<T, Space> PoststackLinearModelling(std::span<const T> wavelet, const Layout& layout,
                                                  const PoststackOptions& options) {
  const Shape& shape = layout.global_shape();
  const auto ndim = static_cast<int>(shape.size());
  const int normal = options.time_axis < 0 ? options.time_axis + ndim : options.time_axis;
  const Index nt0 = normal >= 0 && normal < ndim ? shape[static_cast<std::size_t>(normal)] : 0;
  // The wavelet and options are each rank's input: the same on every rank, and an error on
  // any rank raised on all (BlockDiag's construction is collective).
  Fingerprint fingerprint;
  fingerprint.add(wavelet).add(options.kind).add(options.explicit_matrix).add(options.time_axis);
  int axis = 0;
  collective_check(
      layout.communicator(), fingerprint, std::string(name) + "'s wavelet and options", [&] {
        axis = check(wavelet.size(), nt0, ndim, options);
        // Each rank models its own traces: any cut that keeps time whole (slabs,
        // grids, boxes).
        const std::vector<int> cut = layout.replicated() ? std::vector<int>{} : layout.cut_axes();
        if (std::find(cut.begin(), cut.end(), axis) != cut.end()) {
          throw InvalidArgument(std::string(name) + ": the layout " + layout.describe() +
                                " is split along time (axis " + std::to_string(axis) +
                                "); split it over the traces");
        }
      });
  std::vector<LocalOperator<T, Space>> blocks;
  const Shape local_shape = layout.local_shape();
  if (layout.replicated() || element_count(local_shape) > 0) {
    Shape spatial = local_shape;
    spatial.erase(spatial.begin() + axis);
    blocks.push_back(local::PoststackLinearModelling<T, Space>(wavelet, nt0, spatial, options));
  }
  const Communicator& comm = layout.communicator();
  if (layout.replicated()) {
    // Every rank holds every trace and computes the whole result.
    return reshape(Replicated(blocks.at(0), comm, layout.partition()), layout, layout);
  }
  return reshape(BlockDiag(blocks, comm), layout, layout);
}

DISTLOPS_FOR_EACH_SCALAR_AND_SPACE_ARG(DISTLOPS_DETAIL_POSTSTACK, )

}  // namespace distlops
