// SPDX-License-Identifier: BSD-3-Clause
// Copyright (c) 2026 The distlops authors
// The extension module: errors, Partition, Communicator and Layout; the arrays, operators and
// solvers are registered by their own translation units.
#include <nanobind/stl/optional.h>
#include <nanobind/stl/pair.h>
#include <nanobind/stl/string.h>
#include <nanobind/stl/vector.h>

#include <string_view>

#include "bindings.hpp"
#include "distlops/core/collective_check.hpp"
#include "distlops/core/error.hpp"
#include "distlops/core/layout.hpp"
#include "distlops/core/memory_space.hpp"
#include "distlops/core/partition.hpp"
#include "distlops/core/version.hpp"

namespace distlops::python {

std::string class_name(const char* base, const char* dtype, const char* space) {
  return std::string(base) + "_" + dtype + space;
}

void bind_core(nb::module_& m) {
  // Base first: nanobind tries the translators registered last first.
  static nb::exception<Error> error(m, "Error", PyExc_RuntimeError);
  static nb::exception<InvalidArgument> invalid(m, "InvalidArgument", PyExc_ValueError);
  static nb::exception<ShapeMismatch> mismatch(m, "ShapeMismatch", PyExc_ValueError);
  static nb::exception<CommunicationError> communication(m, "CommunicationError", error.ptr());
  static nb::exception<DeviceError> device(m, "DeviceError", error.ptr());
  static nb::exception<IoError> io(m, "IoError", error.ptr());
  static nb::exception<ReplicaMismatch> replica(m, "ReplicaMismatch", error.ptr());

  nb::enum_<Partition>(m, "Partition")
      .value("SCATTER", Partition::SCATTER)
      .value("BROADCAST", Partition::BROADCAST)
      .value("UNSAFE_BROADCAST", Partition::UNSAFE_BROADCAST);

  m.def("version", [] { return std::string(version().string); });
  // The Cuda space's classes (the "_cuda" names) exist when the library has the CUDA backend;
  // its arrays need a visible device besides.
  m.attr("cuda_bound") = bool(DISTLOPS_WITH_CUDA);
  m.def("cuda_device_count", &cuda_device_count);
  // The package's agreement on an engine other than "numpy" (python/distlops/_arrays.py): the
  // library's collective check, so that ranks that ask for different engines, or in another
  // collective call, raise alike. `problem`: why this rank cannot hold the engine's arrays
  // (InvalidArgument where `invalid`, DeviceError otherwise), empty where it can.
  m.def(
      "agree_on_engine",
      [](const Communicator& comm, const std::string& engine, const std::string& problem,
         bool invalid) {
        Fingerprint fingerprint;
        fingerprint.add(std::string_view(engine));
        collective_check(comm, fingerprint, "the engine ('" + engine + "')", [&] {
          if (problem.empty()) return;
          if (invalid) throw InvalidArgument(problem);
          throw DeviceError(problem);
        });
      },
      nb::arg("comm"), nb::arg("engine"), nb::arg("problem"), nb::arg("invalid"),
      nb::call_guard<nb::gil_scoped_release>());
  m.def(
      "default_grid",
      [](const Shape& shape, int ranks, const std::vector<int>& axes) {
        return default_grid(shape, ranks, axes);
      },
      nb::arg("shape"), nb::arg("ranks"), nb::arg("axes") = std::vector<int>{});
  m.def("mpi_library_version", [] {
    char text[MPI_MAX_LIBRARY_VERSION_STRING];
    int length = 0;
    MPI_Get_library_version(text, &length);
    return std::string(text, static_cast<std::size_t>(length));
  });

  nb::class_<Communicator>(m, "Communicator")
      .def_static("from_handle", &communicator_from_handle, nb::arg("handle"))
      .def_prop_ro("handle", &handle_of)
      .def_prop_ro("rank", &Communicator::rank)
      .def_prop_ro("size", &Communicator::size);

  nb::class_<Layout>(m, "Layout")
      .def(
          "__init__",
          [](Layout* self, const Communicator& comm, const Shape& global_shape, Partition partition,
             int axis, const std::vector<Shape>& local_shapes, const std::vector<int>& mask,
             const std::vector<int>& grid, const std::vector<Shape>& grid_extents) {
            new (self) Layout(comm, global_shape,
                              LayoutOptions{.partition = partition,
                                            .axis = axis,
                                            .local_shapes = local_shapes,
                                            .mask = mask,
                                            .grid = grid,
                                            .grid_extents = grid_extents});
          },
          nb::arg("comm"), nb::arg("global_shape"), nb::arg("partition"), nb::arg("axis"),
          nb::arg("local_shapes"), nb::arg("mask"), nb::arg("grid") = std::vector<int>{},
          nb::arg("grid_extents") = std::vector<Shape>{})
      .def_prop_ro("communicator", &Layout::communicator)
      .def_prop_ro("sub_communicator", &Layout::sub_communicator)
      .def_prop_ro("global_shape", &Layout::global_shape)
      .def_prop_ro("partition", &Layout::partition)
      .def_prop_ro("axis", &Layout::axis)
      .def_prop_ro("mask", &Layout::mask)
      .def_prop_ro("local_shapes", &Layout::local_shapes)
      .def_prop_ro("local_shape", [](const Layout& l) { return l.local_shape(); })
      // Box layouts: the grid (None for explicit boxes without one) and this rank's box.
      .def_prop_ro("is_slab", &Layout::is_slab)
      .def_prop_ro("grid",
                   [](const Layout& l) -> nb::object {
                     if (!l.has_grid()) return nb::none();
                     return nb::cast(std::vector<int>(l.grid().begin(), l.grid().end()));
                   })
      .def_prop_ro("local_box",
                   [](const Layout& l) {
                     const ArrayBox box = l.box();
                     return std::make_pair(box.lower, box.upper);
                   })
      .def("with_axis", &Layout::with_axis)
      .def("__eq__", [](const Layout& a, const Layout& b) { return a == b; })
      .def("__repr__", &Layout::describe);
}

}  // namespace distlops::python

NB_MODULE(_distlops, m) {
  namespace py = distlops::python;
  py::bind_core(m);
  py::bind_arrays(m);
  py::bind_operators(m);
  py::bind_stack(m);
  py::bind_local(m);
  py::bind_dense(m);
  py::bind_derivative(m);
  py::bind_signal(m);
  py::bind_waveeq(m);
  py::bind_solvers(m);
  py::bind_proximal(m);
}
