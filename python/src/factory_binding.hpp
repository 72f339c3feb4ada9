// SPDX-License-Identifier: BSD-3-Clause
// Copyright (c) 2026 The distlops authors
#pragma once
/// \file factory_binding.hpp
/// One line binds an operator's factory for every scalar type: `Factories::local` (the
/// `local::` form, one rank's arrays) and `Factories::distributed`. The factory's arguments
/// reach it as nanobind converts them: NumPy arrays as std::span (the caster below), shapes
/// from sequences, layouts and communicators from their classes. Each binding is also listed in
/// the module's `factories` (group, name, form), from which the Python package gives every
/// factory its PyLops-style function unless the group's module writes one
/// (python/distlops/_factories.py).

#include <nanobind/nanobind.h>
#include <nanobind/ndarray.h>
#include <nanobind/stl/array.h>
#include <nanobind/stl/complex.h>
#include <nanobind/stl/string.h>
#include <nanobind/stl/vector.h>

#include <concepts>
#include <span>
#include <string>
#include <type_traits>
#include <utility>

#include "bindings.hpp"
#include "distlops/core/layout.hpp"

namespace nanobind::detail {

/// std::span<const T> from a C-contiguous NumPy array of T (any number of axes, read in C
/// order): the span views the array's memory while the call runs.
template <class T>
struct type_caster<std::span<const T>,
                   enable_if_t<(std::is_arithmetic_v<T> && !std::is_same_v<T, bool>) ||
                               ::distlops::is_complex_v<T>>> {
  using Array = ndarray<const T, c_contig, device::cpu>;
  NB_TYPE_CASTER(std::span<const T>, make_caster<Array>::Name)

  bool from_python(handle source, uint8_t flags, cleanup_list* cleanup) noexcept {
    if (!array.from_python(source, flags, cleanup)) return false;
    value = std::span<const T>(array.value.data(), array.value.size());
    return true;
  }
  static handle from_cpp(std::span<const T>, rv_policy, cleanup_list*) noexcept {
    return handle();  // factories take spans, they never return one
  }

  make_caster<Array> array;
};

}  // namespace nanobind::detail

namespace distlops::python {

namespace detail {

/// Whether the callable F (a function pointer or a lambda) takes a Layout first: a distributed
/// factory over the arrays of a layout, which the Python package can wrap by itself.
template <class F>
struct takes_layout_first : takes_layout_first<decltype(&F::operator())> {};
template <class R, class First, class... Rest>
struct takes_layout_first<R (*)(First, Rest...)>
    : std::is_same<std::remove_cvref_t<First>, Layout> {};
template <class R, class C, class First, class... Rest>
struct takes_layout_first<R (C::*)(First, Rest...) const>
    : std::is_same<std::remove_cvref_t<First>, Layout> {};
template <class R>
struct takes_layout_first<R (*)()> : std::false_type {};

}  // namespace detail

/// The factories of one group of operators (a binding unit: python/src/<group>.cpp).
class Factories {
 public:
  /// Binds into `m`; `group` is the operators' group (local, signal, ...: the folders of
  /// include/distlops/operators/, "operators" for those at its top).
  Factories(nb::module_& m, std::string group) : module_(m), group_(std::move(group)) {
    if (!nb::hasattr(module_, "factories")) module_.attr("factories") = nb::list();
  }

  /// `local::<name>` as `local_<name>_<dtype>` for each scalar type T for which
  /// `make.template operator()<T>()` is valid; it returns the factory for T (a function
  /// pointer or a callable returning a LocalOperator<T, Host>). A `make` that takes the memory
  /// space too, `make.template operator()<T, Space>()`, is bound in each space of the build,
  /// the Cuda space's as `local_<name>_<dtype>_cuda` (the CuPy engine).
  template <class Make, class... Extra>
  void local(const char* name, Make make, const Extra&... extra) {
    bind(name, std::string("local_") + name, "local", make, extra...);
  }

  /// The distributed `<name>` as `<name>_<dtype>` (and `<name>_<dtype>_cuda`), the same way.
  /// Collective, so it runs without the GIL.
  template <class Make, class... Extra>
  void distributed(const char* name, Make make, const Extra&... extra) {
    bind(name, name, "distributed", make, nb::call_guard<nb::gil_scoped_release>(), extra...);
  }

 private:
  template <class Make, class... Extra>
  void bind(const char* name, const std::string& prefix, const char* form, Make make,
            const Extra&... extra) {
    bool layout_first = false;
    for_each_space([&]<class Space>() {
      for_each_scalar([&]<class T>() {
        if constexpr (requires { make.template operator()<T, Space>(); }) {
          define<T, Space>(prefix, make.template operator()<T, Space>(), layout_first, extra...);
        } else if constexpr (std::same_as<Space, Host> &&
                             requires { make.template operator()<T>(); }) {
          define<T, Space>(prefix, make.template operator()<T>(), layout_first, extra...);
        }
      });
    });
    nb::cast<nb::list>(module_.attr("factories"))
        .append(nb::make_tuple(group_, name, form, layout_first));
  }

  template <class T, class Space, class Factory, class... Extra>
  void define(const std::string& prefix, Factory factory, bool& layout_first,
              const Extra&... extra) {
    layout_first = detail::takes_layout_first<Factory>::value;
    module_.def(class_name(prefix.c_str(), dtype_name<T>(), space_suffix<Space>()).c_str(), factory,
                extra...);
  }

  nb::module_& module_;
  std::string group_;
};

}  // namespace distlops::python
