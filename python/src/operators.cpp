// SPDX-License-Identifier: BSD-3-Clause
// Copyright (c) 2026 The distlops authors
// The operators at the top of include/distlops/operators/: the handles of local and distributed
// operators and their algebra, reshape and identity, and Halo, in each memory space. The C++
// work of apply runs without the GIL.
#include <nanobind/stl/pair.h>
#include <nanobind/stl/vector.h>

#include <concepts>
#include <utility>
#include <vector>

#include "bindings.hpp"
#include "distlops/core/distributed_array.hpp"
#include "distlops/operators/algebra.hpp"
#include "distlops/operators/halo.hpp"
#include "distlops/operators/reshape.hpp"
#include "factory_binding.hpp"
#include "operator_binding.hpp"

namespace distlops::python {
namespace {

// Halo's widths: one for every side (no ghosts at the array's ends), one per axis or one per
// side (PyLops-MPI's `halo`).
template <class T, class Space>
LinearOperator<T, Space> halo(const Communicator& comm, const Shape& dims,
                              const std::vector<Index>& widths, const Shape& grid) {
  const auto ndim = dims.size();
  if (widths.size() == 1) return Halo<T, Space>(comm, dims, widths[0], grid);
  if (widths.size() == ndim) return Halo<T, Space>(comm, dims, HaloWidths::per_axis(widths), grid);
  if (widths.size() == 2 * ndim) {
    return Halo<T, Space>(comm, dims, HaloWidths::per_side(widths), grid);
  }
  throw InvalidArgument("Halo: halo must be one width, one per axis (" + std::to_string(ndim) +
                        ") or one per side (" + std::to_string(2 * ndim) + "), got " +
                        std::to_string(widths.size()));
}

// Halo of the blocks of a SCATTER layout cut over a process grid (its domain), with the same
// widths (minus_0, plus_0, minus_1, ...) on every rank, kept at the array's ends.
template <class T, class Space>
LinearOperator<T, Space> halo_of_layout(const Layout& layout, const std::vector<Index>& widths) {
  return Halo<T, Space>(layout, HaloWidths::per_side(widths));
}

template <class T, class Space>
void bind_handles(nb::module_& m) {
  const char* t = dtype_name<T>();
  const char* space = space_suffix<Space>();
  using DA = DistributedArray<T, Space>;
  using LA = LocalArray<T, Space>;
  // The algebra (sums, scaling, transpose, conjugate) of every handle on the host; in the Cuda
  // space that of distributed operators on plain arrays only, the most used, which keeps what
  // the space adds to the extension's compile time down.
  constexpr bool host = std::same_as<Space, Host>;
  bind_operator<LA, LA, host>(m, class_name("LocalOperator", t, space));
  bind_operator<DA, DA>(m, class_name("LinearOperator", t, space));
  bind_composition<DA, DA, DA>(m);
  if constexpr (host) bind_composition<LA, LA, LA>(m);
  m.def("local_shapes",
        [](const LocalOperator<T, Space>& op) { return std::make_pair(op.domain(), op.range()); });
  // The same operator seen with other layouts of equal local sizes (a flat BlockDiag on an N-d
  // grid), so that it adds and stacks with the N-d operators.
  m.def("reshape", [](const LinearOperator<T, Space>& op, const Layout& domain,
                      const Layout& range) { return reshape(op, domain, range); });
  m.def(class_name("identity", t, space).c_str(),
        [](const Layout& layout) { return identity<DA>(layout); });
}

}  // namespace

void bind_operators(nb::module_& m) {
  for_each_space(
      [&]<class Space>() { for_each_scalar([&]<class T>() { bind_handles<T, Space>(m); }); });
  Factories factories(m, "operators");
  factories.distributed("Halo", []<class T, class Space>() { return &halo<T, Space>; });
  factories.distributed("HaloOfLayout",
                        []<class T, class Space>() { return &halo_of_layout<T, Space>; });
}

}  // namespace distlops::python
