// SPDX-License-Identifier: BSD-3-Clause
// Copyright (c) 2026 The distlops authors
// DistributedArray and StackedDistributedArray for the four scalar types in each memory space:
// one class per type and space (DistributedArray_float64, DistributedArray_float64_cuda, ...),
// which the Python package wraps under PyLops-MPI's names. Local blocks are NumPy arrays of the
// library's host memory or CuPy arrays of its device memory (DLPack), without copy.
#include <nanobind/ndarray.h>
#include <nanobind/stl/complex.h>
#include <nanobind/stl/vector.h>

#include <memory>
#include <span>
#include <vector>

#include "bindings.hpp"
#include "distlops/core/distributed_array.hpp"
#include "distlops/core/layout.hpp"
#include "distlops/core/local_array.hpp"
#include "distlops/core/stacked_distributed_array.hpp"
#if DISTLOPS_WITH_CUDA
#include "distlops/core/cuda_context.hpp"
#endif

namespace distlops::python {
namespace {

/// The Python array type of a memory space's blocks: NumPy on the host, CuPy on the device.
template <class Space>
struct PythonArrays;
template <>
struct PythonArrays<Host> {
  using framework = nb::numpy;
  using device = nb::device::cpu;
  static int device_id() { return 0; }
};
#if DISTLOPS_WITH_CUDA
template <>
struct PythonArrays<Cuda> {
  using framework = nb::cupy;
  using device = nb::device::cuda;
  // The library's device of this rank (cuda_context.hpp), on which its blocks live.
  static int device_id() { return cuda::Context::get().device(); }
};
#endif

template <class T>
using NumpyArray = nb::ndarray<nb::numpy, T>;
template <class T>
using InputArray = nb::ndarray<const T, nb::c_contig, nb::device::cpu>;

// NumPy and CuPy refuse a null data pointer even for zero elements; empty blocks point here
// instead (nothing is read or written through it).
alignas(64) std::byte empty_block[64];

template <class T>
T* non_null(T* data) {
  return data != nullptr ? data : reinterpret_cast<T*>(empty_block);
}

std::vector<std::size_t> extents(const Shape& shape) {
  return {shape.begin(), shape.end()};
}

/// A NumPy (Host) or CuPy (Cuda) array over `data` of `shape`, which `owner` keeps alive.
template <class T, class Space>
auto space_array(T* data, const Shape& shape, nb::handle owner) {
  using Arrays = PythonArrays<Space>;
  const auto dims = extents(shape);
  return nb::ndarray<typename Arrays::framework, T>(non_null(data), dims.size(), dims.data(), owner,
                                                    nullptr, nb::dtype<T>(), Arrays::device::value,
                                                    Arrays::device_id());
}

/// A NumPy array that owns `values` (moved to the heap, freed with the array).
template <class T>
NumpyArray<T> owning_numpy(std::vector<T>&& values, const Shape& shape) {
  auto* owned = new std::vector<T>(std::move(values));
  nb::capsule owner(owned, [](void* p) noexcept { delete static_cast<std::vector<T>*>(p); });
  return space_array<T, Host>(owned->data(), shape, owner);
}

/// An array of the block's space that owns `block` (moved to the heap, freed with the array).
template <class T, class Space>
auto owning_array(LocalArray<T, Space>&& block) {
  auto* owned = new LocalArray<T, Space>(std::move(block));
  nb::capsule owner(owned, [](void* p) noexcept { delete static_cast<LocalArray<T, Space>*>(p); });
  return space_array<T, Space>(owned->data(), owned->shape(), owner);
}

template <class T>
std::span<const T> as_span(const InputArray<T>& a) {
  return {a.data(), a.size()};
}

template <class T, class Space>
void bind_array(nb::module_& m) {
  using A = DistributedArray<T, Space>;
  using R = real_type_t<T>;
  const char* space = space_suffix<Space>();
  nb::class_<A>(m, class_name("DistributedArray", dtype_name<T>(), space).c_str())
      .def(
          "__init__", [](A* self, const Layout& layout) { new (self) A(layout, T(0)); },
          nb::arg("layout"))
      .def_static(
          "from_global",
          [](const Layout& layout, const InputArray<T>& global) {
            return A::from_global(layout, as_span(global));
          },
          nb::arg("layout"), nb::arg("global_array"))
      // Zero-copy: the array uses `local`'s memory (of the space: a NumPy or CuPy array), which
      // must outlive it (kept alive here).
      .def_static(
          "wrap",
          [](const Layout& layout,
             nb::ndarray<T, nb::c_contig, typename PythonArrays<Space>::device> local) {
            return A::wrap(layout, std::span<T>(local.data(), local.size()));
          },
          nb::arg("layout"), nb::arg("local"), nb::keep_alive<0, 2>())
      .def_prop_ro("layout", &A::layout)
      .def_prop_ro(
          "local_array",
          [](nb::handle self) {
            A& a = nb::cast<A&>(self);
            return space_array<T, Space>(a.data(), a.local_shape(), self);
          },
          nb::rv_policy::reference_internal)
      .def(
          "asarray",
          [](const A& a, bool masked) {
            return owning_numpy<T>(a.gather(masked), masked ? a.masked_shape() : a.global_shape());
          },
          nb::arg("masked") = false)
      .def("copy", &A::copy)
      .def("conj", &A::conj)
      .def("zeros_like", &A::zeros_like)
      .def("empty_like", &A::empty_like)
      .def("fill", &A::fill, nb::rv_policy::none)
      .def("copy_from", &A::copy_from, nb::rv_policy::none)
      .def("scale", &A::scale, nb::rv_policy::none)
      .def("axpby", &A::axpby, nb::rv_policy::none)
      .def("check_replicas", &A::check_replicas)
      .def("dot", &A::dot)
      .def("vdot", &A::vdot)
      .def("norm", nb::overload_cast<double>(&A::norm, nb::const_), nb::arg("ord") = 2.0)
      .def(
          "norm_along",
          [](const A& a, double ord, int axis) {
            std::vector<R> values = a.norm(ord, axis);
            Shape shape = a.global_shape();
            const int ax = axis < 0 ? axis + a.ndim() : axis;
            shape.erase(shape.begin() + ax);
            return owning_numpy<R>(std::move(values), shape);
          },
          nb::arg("ord"), nb::arg("axis"))
      .def("redistribute", nb::overload_cast<const Layout&>(&A::redistribute, nb::const_))
      .def("redistribute", nb::overload_cast<int>(&A::redistribute, nb::const_))
      .def(
          "add_ghost_cells",
          [](const A& a, Index front, Index back) {
            return owning_array<T, Space>(a.add_ghost_cells(front, back));
          },
          nb::arg("cells_front"), nb::arg("cells_back"))
      .def("__neg__", [](const A& a) { return -a; })
      .def("__add__", [](const A& a, const A& b) { return a + b; })
      .def("__add__", [](const A& a, T s) { return a + s; })
      .def("__radd__", [](const A& a, T s) { return s + a; })
      .def("__sub__", [](const A& a, const A& b) { return a - b; })
      .def("__sub__", [](const A& a, T s) { return a - s; })
      .def("__rsub__", [](const A& a, T s) { return s - a; })
      .def("__mul__", [](const A& a, const A& b) { return a * b; })
      .def("__mul__", [](const A& a, T s) { return a * s; })
      .def("__rmul__", [](const A& a, T s) { return s * a; })
      .def("__truediv__", [](const A& a, const A& b) { return a / b; })
      .def("__truediv__", [](const A& a, T s) { return a / s; })
      .def("__rtruediv__", [](const A& a, T s) { return s / a; })
      .def("__iadd__", nb::overload_cast<const A&>(&A::operator+=), nb::rv_policy::none)
      .def("__iadd__", nb::overload_cast<T>(&A::operator+=), nb::rv_policy::none)
      .def("__isub__", nb::overload_cast<const A&>(&A::operator-=), nb::rv_policy::none)
      .def("__isub__", nb::overload_cast<T>(&A::operator-=), nb::rv_policy::none)
      .def("__imul__", nb::overload_cast<const A&>(&A::operator*=), nb::rv_policy::none)
      .def("__imul__", nb::overload_cast<T>(&A::operator*=), nb::rv_policy::none)
      .def("__itruediv__", nb::overload_cast<const A&>(&A::operator/=), nb::rv_policy::none)
      .def("__itruediv__", nb::overload_cast<T>(&A::operator/=), nb::rv_policy::none);

  using S = StackedDistributedArray<T, Space>;
  nb::class_<S>(m, class_name("StackedDistributedArray", dtype_name<T>(), space).c_str())
      .def(nb::init<std::vector<A>>(), nb::arg("arrays"))
      .def(nb::init<>())
      // Appends a copy of a plain array or of a nested stack as one block.
      .def(
          "append", [](S& s, const A& a) { s.push_back(a); }, nb::arg("array"))
      .def(
          "append", [](S& s, const S& nested) { s.push_back(nested); }, nb::arg("array"))
      .def("__len__", &S::narrays)
      .def("is_nested", &S::is_nested, nb::arg("index"))
      .def(
          "get", [](S& s, std::size_t i) -> A& { return s[i]; }, nb::rv_policy::reference_internal)
      .def(
          "get_nested", [](S& s, std::size_t i) -> S& { return s.nested(i); },
          nb::rv_policy::reference_internal)
      .def("asarray", [](const S& s) { return owning_numpy<T>(s.gather(), {s.global_size()}); })
      .def("copy", &S::copy)
      .def("conj", &S::conj)
      .def("zeros_like", &S::zeros_like)
      .def("fill", &S::fill, nb::rv_policy::none)
      .def("copy_from", &S::copy_from, nb::rv_policy::none)
      .def("dot", &S::dot)
      .def("vdot", &S::vdot)
      .def("norm", &S::norm, nb::arg("ord") = 2.0)
      .def("__neg__", [](const S& a) { return -a; })
      .def("__add__", [](const S& a, const S& b) { return a + b; })
      .def("__sub__", [](const S& a, const S& b) { return a - b; })
      .def("__mul__", [](const S& a, const S& b) { return a * b; })
      .def("__mul__", [](const S& a, T s) { return a * s; })
      .def("__rmul__", [](const S& a, T s) { return s * a; })
      .def("__iadd__", nb::overload_cast<const S&>(&S::operator+=), nb::rv_policy::none)
      .def("__isub__", nb::overload_cast<const S&>(&S::operator-=), nb::rv_policy::none)
      .def("__imul__", nb::overload_cast<const S&>(&S::operator*=), nb::rv_policy::none)
      .def("__imul__", nb::overload_cast<T>(&S::operator*=), nb::rv_policy::none);
}

}  // namespace

void bind_arrays(nb::module_& m) {
  for_each_space(
      [&]<class Space>() { for_each_scalar([&]<class T>() { bind_array<T, Space>(m); }); });
}

}  // namespace distlops::python
