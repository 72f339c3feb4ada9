// SPDX-License-Identifier: BSD-3-Clause
// Copyright (c) 2026 The distlops authors
// The structural local operators (PyLops' Zero, Transpose, Pad, Restriction and a scaling),
// the blocks of BlockDiag, VStack and HStack that move or select samples, Convolve1D, and
// Halo, which extends each rank's block so that such local operators see their neighbours, and
// Replicated, a local operator on replicated arrays.
#include <nanobind/ndarray.h>
#include <nanobind/stl/complex.h>
#include <nanobind/stl/pair.h>
#include <nanobind/stl/vector.h>

#include <span>
#include <string>
#include <utility>
#include <vector>

#include "bindings.hpp"
#include "distlops/operators/halo.hpp"
#include "distlops/operators/local/convolve1d.hpp"
#include "distlops/operators/local/pad.hpp"
#include "distlops/operators/local/restriction.hpp"
#include "distlops/operators/local/scaling.hpp"
#include "distlops/operators/local/transpose.hpp"
#include "distlops/operators/local/zero.hpp"
#include "distlops/operators/stack/replicated.hpp"

namespace distlops::python {
namespace {

template <class T>
void bind_local_operators_for_type(nb::module_& m) {
  const char* t = dtype_name<T>();
  m.def(class_name("local_Zero", t).c_str(),
        [](const Shape& data, const Shape& model) { return local::Zero<T, Host>(data, model); });
  m.def(class_name("local_Scaling", t).c_str(),
        [](const Shape& dims, T scale) { return local::Scaling<T, Host>(dims, scale); });
  m.def(class_name("local_Transpose", t).c_str(),
        [](const Shape& dims, const std::vector<int>& axes) {
          return local::Transpose<T, Host>(dims, axes);
        });
  m.def(class_name("local_Pad", t).c_str(),
        [](const Shape& dims, const std::vector<std::pair<Index, Index>>& widths) {
          std::vector<local::PadWidth> pad;
          for (const auto& [before, after] : widths)
            pad.push_back({.before = before, .after = after});
          return local::Pad<T, Host>(dims, pad);
        });
  m.def(class_name("local_Restriction", t).c_str(),
        [](const Shape& dims,
           const nb::ndarray<const Index, nb::ndim<1>, nb::c_contig, nb::device::cpu>& iava,
           int axis) {
          return local::Restriction<T, Host>(dims, std::span<const Index>(iava.data(), iava.size()),
                                             axis);
        });
  m.def(class_name("local_Convolve1D", t).c_str(),
        [](const Shape& dims,
           const nb::ndarray<const T, nb::ndim<1>, nb::c_contig, nb::device::cpu>& filter,
           Index offset, int axis) {
          return local::Convolve1D<T, Host>(dims, std::span<const T>(filter.data(), filter.size()),
                                            offset, axis);
        });
  m.def(
      class_name("Halo", t).c_str(),
      [](const Communicator& comm, const Shape& dims, const std::vector<Index>& widths,
         const Shape& grid) -> LinearOperator<T, Host> {
        const auto ndim = dims.size();
        if (widths.size() == 1) {
          return Halo<T, Host>(comm, dims, widths[0], grid);
        }
        if (widths.size() == ndim) {
          return Halo<T, Host>(comm, dims, HaloWidths::per_axis(widths), grid);
        }
        if (widths.size() == 2 * ndim) {
          return Halo<T, Host>(comm, dims, HaloWidths::per_side(widths), grid);
        }
        throw InvalidArgument("Halo: halo must be one width, one per axis (" +
                              std::to_string(ndim) + ") or one per side (" +
                              std::to_string(2 * ndim) + "), got " + std::to_string(widths.size()));
      },
      nb::call_guard<nb::gil_scoped_release>());
  m.def(
      class_name("Replicated", t).c_str(),
      [](const LocalOperator<T, Host>& op, const Communicator& comm, Partition partition) {
        return Replicated<T, Host>(op, comm, partition);
      },
      nb::call_guard<nb::gil_scoped_release>());
}

}  // namespace

void bind_local_operators(nb::module_& m) {
  for_each_scalar([&]<class T>() { bind_local_operators_for_type<T>(m); });
}

}  // namespace distlops::python
