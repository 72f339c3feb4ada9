// SPDX-License-Identifier: BSD-3-Clause
// Copyright (c) 2026 The distlops authors
// The signal-processing operators: post-stack modelling (local and distributed) and the N-d
// convolutions over DistributedArray. The filters and wavelets are copied by the library.
#include <nanobind/ndarray.h>
#include <nanobind/stl/array.h>
#include <nanobind/stl/string.h>
#include <nanobind/stl/vector.h>

#include <array>
#include <span>
#include <string>
#include <vector>

#include "bindings.hpp"
#include "distlops/core/distributed_array.hpp"
#include "distlops/operators/signal/convolvend.hpp"
#include "distlops/operators/signal/poststack.hpp"

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
void bind_for_type(nb::module_& m) {
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
}

}  // namespace

void bind_signal_operators(nb::module_& m) {
  for_each_scalar([&]<class T>() { bind_for_type<T>(m); });
}

}  // namespace distlops::python
