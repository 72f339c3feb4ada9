// SPDX-License-Identifier: BSD-3-Clause
// Copyright (c) 2026 The distlops authors
#pragma once
/// \file convolvend.hpp
/// Distributed `ConvolveND` and `Convolve2D`: the convolution of local/convolvend.hpp (PyLops'
/// ConvolveND and Convolve2D, direct method) applied to a DistributedArray of any layout,
///     y[p] = sum_k h[k] x[p + o - k],   adjoint x[q] = sum_k conj(h[k]) y[q - o + k],
/// with domain and range the layout given.
///
/// When the array is split along a convolved axis a, each rank first fetches the planes of its
/// neighbours the filter reaches (GhostExchange, from any rank, so blocks may be small or
/// empty): h[a] - 1 - o[a] planes before its block and o[a] after it for the forward, the
/// reverse for the adjoint. Both directions only gather, so the adjoint is exact without
/// sending sums back. The block and its ghost planes are joined into one extended block (a copy
/// of the block per apply) and convolved by the kernel. Along axes that are not split, and on
/// replicated layouts, nothing moves. Errors as the local operator's (on every rank alike: they
/// depend on arguments every rank holds), and InvalidArgument for an UNSAFE_BROADCAST layout.

#include <array>
#include <optional>
#include <span>
#include <vector>

#include "distlops/core/buffer.hpp"
#include "distlops/core/ghost_cells.hpp"
#include "distlops/core/instantiate.hpp"
#include "distlops/core/transport.hpp"
#include "distlops/operators/linear_operator.hpp"

namespace distlops {

/// The operator object of the distributed ConvolveND and Convolve2D: domain and range are the
/// given layout; ghost planes come from the neighbours when the split axis is convolved.
template <Scalar T, MemorySpace Space = Host>
class ConvolveNDOperator final : public LinearOperatorBase<DistributedArray<T, Space>> {
 public:
  /// The library's own code: nothing to agree on after an apply.
  bool runs_user_code() const override { return false; }
  /// The vector type of domain and range.
  using Array = DistributedArray<T, Space>;
  /// Collective over the layout's communicator (plans the ghost exchanges).
  ConvolveNDOperator(const Layout& layout, std::span<const T> filter, const Shape& filter_shape,
                     const std::vector<Index>& offset, const std::vector<int>& axes,
                     std::string name);

  /// y = h * x (convolution). Collective when the split axis is convolved.
  void forward(const Array& x, Array& y) const override { forward_add(T(1), x, T(0), y); }
  /// x = correlation of y with conj(h). Collective when the split axis is convolved.
  void adjoint(const Array& y, Array& x) const override { adjoint_add(T(1), y, T(0), x); }
  /// y = alpha (h * x) + beta y.
  void forward_add(T alpha, const Array& x, T beta, Array& y) const override;
  /// x = alpha corr(conj(h), y) + beta x.
  void adjoint_add(T alpha, const Array& y, T beta, Array& x) const override;

 private:
  struct Direction {
    std::optional<GhostExchange> exchange;  // when the split axis is convolved
    Shape extended;                         // the block with its ghost planes
    Shape origin;                           // where the block starts in `extended`
    bool ghosts = false;                    // this rank receives ghost planes
    Index weights = 0;                      // where the direction's taps start in filters_
    bool adjoint = false;
  };
  void run(const Direction& direction, T alpha, const Array& in, T beta, Array& out) const;
  const T* join(const Direction& direction, const T* block) const;

  Direction forward_, adjoint_;
  Shape local_shape_;
  int split_axis_ = -1;         // the distribution axis when convolved, else -1
  Buffer<T, Space> filters_;    // h then conj(h), on the array's axes
  std::vector<Index> taps_;     // per array axis
  std::vector<Index> offsets_;  // per array axis
  mutable Buffer<T, Space> extended_, front_, back_;
  KeptTransport<Space> transport_;
};

/// ConvolveND over the arrays of `layout` (arguments as local::ConvolveND). Collective.
template <Scalar T, MemorySpace Space = Host>
LinearOperator<T, Space> ConvolveND(const Layout& layout, std::span<const T> filter,
                                    const Shape& filter_shape,
                                    const std::vector<Index>& offset = {},
                                    const std::vector<int>& axes = {}) {
  return LinearOperator<T, Space>::template make<ConvolveNDOperator<T, Space>>(
      layout, filter, filter_shape, offset, axes, "ConvolveND");
}

/// Convolve2D over the arrays of `layout` (arguments as local::Convolve2D). Collective.
template <Scalar T, MemorySpace Space = Host>
LinearOperator<T, Space> Convolve2D(const Layout& layout, std::span<const T> filter,
                                    const Shape& filter_shape, std::array<Index, 2> offset = {0, 0},
                                    std::array<int, 2> axes = {-2, -1}) {
  // The shape is each rank's input: the verdict is agreed before the operator's collectives.
  collective_check(layout.communicator(), [&] {
    if (filter_shape.size() != 2) {
      throw InvalidArgument("Convolve2D: the filter must be 2-d, got shape " +
                            to_string(filter_shape));
    }
  });
  return LinearOperator<T, Space>::template make<ConvolveNDOperator<T, Space>>(
      layout, filter, filter_shape, std::vector<Index>(offset.begin(), offset.end()),
      std::vector<int>(axes.begin(), axes.end()), "Convolve2D");
}

DISTLOPS_EXTERN_TEMPLATE_CLASS(ConvolveNDOperator)

}  // namespace distlops
