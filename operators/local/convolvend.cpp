// SPDX-License-Identifier: BSD-3-Clause
// Copyright (c) 2026 The distlops authors
// ConvolveND and Convolve2D on one rank's array by the direct method (convolvend_kernels.hpp),
// and the argument checks the distributed operator shares (convolvend_spec.hpp).
#include "distlops/operators/local/convolvend.hpp"

#include <algorithm>

#include "convolvend_spec.hpp"
#include "distlops/core/instantiate.hpp"
#include "distlops/operators/local/accumulating_operator.hpp"
#include "support.hpp"

namespace distlops::local {

namespace detail {

template <class T>
ConvolveSpec<T> convolve_spec(const std::string& op, const Shape& dims, std::span<const T> filter,
                              const Shape& filter_shape, const std::vector<Index>& offset,
                              const std::vector<int>& axes) {
  check_shape(op, "dims", dims);
  const int ndim = static_cast<int>(dims.size());
  const auto count = static_cast<int>(filter_shape.size());
  if (ndim > kernels::max_convolve_dimensions) {
    throw InvalidArgument(op + ": arrays of at most " +
                          std::to_string(kernels::max_convolve_dimensions) +
                          " dimensions, got dims " + to_string(dims));
  }
  if (count == 0 || count > ndim) {
    throw InvalidArgument(op + ": the filter shape " + to_string(filter_shape) + " needs 1 to " +
                          std::to_string(ndim) + " axes (dims " + to_string(dims) + ")");
  }
  for (Index extent : filter_shape) {
    if (extent < 1) {
      throw InvalidArgument(op + ": the filter shape " + to_string(filter_shape) +
                            " has an empty axis");
    }
  }
  if (static_cast<Index>(filter.size()) != element_count(filter_shape)) {
    throw InvalidArgument(op + ": the filter has " + std::to_string(filter.size()) +
                          " values, its shape " + to_string(filter_shape) + " needs " +
                          std::to_string(element_count(filter_shape)));
  }
  std::vector<int> filter_axes = axes;
  if (filter_axes.empty()) {
    for (int i = 0; i < count; ++i)
      filter_axes.push_back(ndim - count + i);
  }
  if (static_cast<int>(filter_axes.size()) != count) {
    throw InvalidArgument(op + ": " + std::to_string(filter_axes.size()) +
                          " axes for a filter of shape " + to_string(filter_shape));
  }
  if (!offset.empty() && static_cast<int>(offset.size()) != count) {
    throw InvalidArgument(op + ": " + std::to_string(offset.size()) +
                          " offsets for a filter of shape " + to_string(filter_shape));
  }
  ConvolveSpec<T> spec;
  spec.taps.assign(static_cast<std::size_t>(ndim), 1);
  spec.offset.assign(static_cast<std::size_t>(ndim), 0);
  std::vector<int> seen(static_cast<std::size_t>(ndim), 0);
  std::vector<int> array_axis(static_cast<std::size_t>(count));
  for (int i = 0; i < count; ++i) {
    const int a = normalise_axis(op, filter_axes[static_cast<std::size_t>(i)], ndim);
    if (seen[static_cast<std::size_t>(a)]++) {
      throw InvalidArgument(op + ": axis " + std::to_string(a) + " is given twice");
    }
    array_axis[static_cast<std::size_t>(i)] = a;
    const Index taps = filter_shape[static_cast<std::size_t>(i)];
    const Index o = offset.empty() ? 0 : offset[static_cast<std::size_t>(i)];
    if (o < 0 || o >= taps) {
      throw InvalidArgument(op + ": offset " + std::to_string(o) + " of filter axis " +
                            std::to_string(i) + " is outside [0, " + std::to_string(taps) + ")");
    }
    spec.taps[static_cast<std::size_t>(a)] = taps;
    spec.offset[static_cast<std::size_t>(a)] = o;
  }
  // Filter element (i_0, ..., i_{count-1}) goes to the point with i_j on array axis axes[j].
  const Shape strides = strides_of(spec.taps);
  spec.filter.assign(filter.size(), T(0));
  Index flat = 0;
  for (MultiIndex m(filter_shape); m.valid(); m.next(), ++flat) {
    Index target = 0;
    for (int i = 0; i < count; ++i)
      target += m[static_cast<std::size_t>(i)] *
                strides[static_cast<std::size_t>(array_axis[static_cast<std::size_t>(i)])];
    spec.filter[static_cast<std::size_t>(target)] = filter[static_cast<std::size_t>(flat)];
  }
  for (std::size_t i = 0; i < filter.size(); ++i)
    spec.filter.push_back(conjugate(spec.filter[i]));
  return spec;
}

kernels::ConvolveGeometry convolve_geometry(const Shape& taps, const Shape& offset, bool adjoint,
                                            const Shape& out, const Shape& in,
                                            const Shape& origin) {
  kernels::ConvolveGeometry g;
  g.ndim = static_cast<int>(out.size());
  g.sign = adjoint ? 1 : -1;
  for (std::size_t a = 0; a < out.size(); ++a) {
    g.out_extent[a] = out[a];
    g.in_extent[a] = in[a];
    g.taps[a] = taps[a];
    g.base[a] = origin[a] + (adjoint ? -offset[a] : offset[a]);
  }
  return g;
}

#define DISTLOPS_INSTANTIATE_CONVOLVE_SPEC(T)                                                     \
  template ConvolveSpec<T> convolve_spec<T>(const std::string&, const Shape&, std::span<const T>, \
                                            const Shape&, const std::vector<Index>&,              \
                                            const std::vector<int>&);
DISTLOPS_FOR_EACH_SCALAR(DISTLOPS_INSTANTIATE_CONVOLVE_SPEC)
#undef DISTLOPS_INSTANTIATE_CONVOLVE_SPEC

}  // namespace detail

namespace {

template <Scalar T, MemorySpace Space>
class LocalConvolveNDOperator final : public AccumulatingOperator<T, Space> {
 public:
  using Vector = typename AccumulatingOperator<T, Space>::Vector;

  LocalConvolveNDOperator(const Shape& dims, std::span<const T> filter, const Shape& filter_shape,
                          const std::vector<Index>& offset, const std::vector<int>& axes,
                          std::string name)
      : AccumulatingOperator<T, Space>(dims, dims, std::move(name)) {
    const detail::ConvolveSpec<T> spec =
        detail::convolve_spec<T>(this->name(), dims, filter, filter_shape, offset, axes);
    const Shape origin(dims.size(), 0);
    forward_ = detail::convolve_geometry(spec.taps, spec.offset, false, dims, dims, origin);
    adjoint_ = detail::convolve_geometry(spec.taps, spec.offset, true, dims, dims, origin);
    taps_ = static_cast<Index>(filter.size());
    filters_ = detail::copy_to_space<T, Space>(spec.filter);
  }

  void forward_add(T alpha, const Vector& x, T beta, Vector& y) const override {
    kernels::convolvend(Space{}, forward_, filters_.data(), alpha, x.data(), beta, y.data());
  }
  void adjoint_add(T alpha, const Vector& y, T beta, Vector& x) const override {
    kernels::convolvend(Space{}, adjoint_, filters_.data() + taps_, alpha, y.data(), beta,
                        x.data());
  }

 private:
  kernels::ConvolveGeometry forward_, adjoint_;
  Index taps_ = 0;
  Buffer<T, Space> filters_;  // h then conj(h), on the array's axes, in the space
};

}  // namespace

template <Scalar T, MemorySpace Space>
LocalOperator<T, Space> ConvolveND(const Shape& dims, std::span<const T> filter,
                                   const Shape& filter_shape, const std::vector<Index>& offset,
                                   const std::vector<int>& axes) {
  return LocalOperator<T, Space>::template make<LocalConvolveNDOperator<T, Space>>(
      dims, filter, filter_shape, offset, axes, "ConvolveND");
}

template <Scalar T, MemorySpace Space>
LocalOperator<T, Space> Convolve2D(const Shape& dims, std::span<const T> filter,
                                   const Shape& filter_shape, std::array<Index, 2> offset,
                                   std::array<int, 2> axes) {
  if (filter_shape.size() != 2) {
    throw InvalidArgument("Convolve2D: the filter must be 2-d, got shape " +
                          to_string(filter_shape));
  }
  return LocalOperator<T, Space>::template make<LocalConvolveNDOperator<T, Space>>(
      dims, filter, filter_shape, std::vector<Index>(offset.begin(), offset.end()),
      std::vector<int>(axes.begin(), axes.end()), "Convolve2D");
}

#define DISTLOPS_INSTANTIATE_CONVOLVEND(T, S)                                                   \
  template LocalOperator<T, S> ConvolveND<T, S>(const Shape&, std::span<const T>, const Shape&, \
                                                const std::vector<Index>&,                      \
                                                const std::vector<int>&);                       \
  template LocalOperator<T, S> Convolve2D<T, S>(const Shape&, std::span<const T>, const Shape&, \
                                                std::array<Index, 2>, std::array<int, 2>);
DISTLOPS_FOR_EACH_SCALAR_AND_SPACE(DISTLOPS_INSTANTIATE_CONVOLVEND)
#undef DISTLOPS_INSTANTIATE_CONVOLVEND

}  // namespace distlops::local
