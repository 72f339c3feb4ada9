// SPDX-License-Identifier: BSD-3-Clause
// Copyright (c) 2026 The distlops authors
#pragma once
/// \file operator_binding.hpp
/// The Python class of an operator handle between two vector types (apply, adjoint, algebra)
/// and the module-level composition, shared by the operator binding units.

#include <nanobind/nanobind.h>
#include <nanobind/ndarray.h>
#include <nanobind/stl/complex.h>
#include <nanobind/stl/string.h>
#include <nanobind/stl/vector.h>

#include <algorithm>
#include <string>
#include <type_traits>
#include <vector>

#include "bindings.hpp"
#include "distlops/core/error.hpp"
#include "distlops/core/local_array.hpp"
#include "distlops/operators/algebra.hpp"
#include "distlops/operators/linear_operator.hpp"

namespace distlops::python {

template <class V>
inline constexpr bool is_local_array_v = false;
template <class T, class Space>
inline constexpr bool is_local_array_v<LocalArray<T, Space>> = true;

/// op.apply (or its adjoint) on a NumPy array of op's input size: the result is a new NumPy
/// array of the output's shape that owns its memory. The operator runs without the GIL.
template <bool Adjoint, class Op>
auto apply_to_numpy(const Op& op, const auto& x) {
  using In = std::conditional_t<Adjoint, typename Op::range_type, typename Op::domain_type>;
  using Out = std::conditional_t<Adjoint, typename Op::domain_type, typename Op::range_type>;
  using Result = typename Out::value_type;
  In in(Adjoint ? op.range() : op.domain());
  if (static_cast<Index>(x.size()) != in.size()) {
    throw ShapeMismatch(op.name() + ": the input has " + std::to_string(x.size()) +
                        " elements, the operator's " + (Adjoint ? "range" : "domain") + " has " +
                        std::to_string(in.size()));
  }
  std::copy_n(x.data(), x.size(), in.data());
  auto* out = new Out(Adjoint ? op.domain() : op.range());
  nb::capsule owner(out, [](void* p) noexcept { delete static_cast<Out*>(p); });
  {
    nb::gil_scoped_release release;
    if constexpr (Adjoint) {
      op.apply_adjoint(in, *out);
    } else {
      op.apply(in, *out);
    }
  }
  // NumPy refuses a null data pointer even for an empty array.
  static Result empty_value{};
  std::vector<std::size_t> dims(out->shape().begin(), out->shape().end());
  return nb::ndarray<nb::numpy, Result>(out->data() != nullptr ? out->data() : &empty_value,
                                        dims.size(), dims.data(), owner);
}

/// Binds BasicLinearOperator<D, R> as `name`: shape, apply (new output or into one), the
/// adjoint, and with `Algebra` transpose and conjugate, sums and scaling (each instantiates
/// operator templates: compile time). apply runs without the GIL. Local operators have their
/// shapes (dims, dimsd); those of the host also apply to NumPy arrays (apply_numpy,
/// apply_adjoint_numpy).
template <class D, class R, bool Algebra = true>
void bind_operator(nb::module_& m, const std::string& name) {
  using Op = BasicLinearOperator<D, R>;
  using V = typename Op::value_type;
  using release = nb::call_guard<nb::gil_scoped_release>;
  auto cls = nb::class_<Op>(m, name.c_str());
  if constexpr (is_local_array_v<D> && is_local_array_v<R>) {
    cls.def_prop_ro("dims", [](const Op& op) { return op.domain(); })
        .def_prop_ro("dimsd", [](const Op& op) { return op.range(); });
  }
  if constexpr (is_local_array_v<D> && is_local_array_v<R> &&
                std::is_same_v<typename D::space_type, Host>) {
    cls.def("apply_numpy",
            [](const Op& op,
               const nb::ndarray<const typename D::value_type, nb::c_contig, nb::device::cpu>& x) {
              return apply_to_numpy<false>(op, x);
            })
        .def("apply_adjoint_numpy",
             [](const Op& op,
                const nb::ndarray<const typename R::value_type, nb::c_contig, nb::device::cpu>& y) {
               return apply_to_numpy<true>(op, y);
             });
  }
  cls.def_prop_ro("rows", &Op::rows)
      .def_prop_ro("cols", &Op::cols)
      .def_prop_ro("name", &Op::name)
      .def("domain_zeros",
           [](const Op& op) {
             D x(op.domain());
             x.fill(typename D::value_type(0));
             return x;
           })
      .def("range_zeros",
           [](const Op& op) {
             R y(op.range());
             y.fill(typename R::value_type(0));
             return y;
           })
      .def("apply", nb::overload_cast<const D&>(&Op::apply, nb::const_), release())
      .def("apply_into", nb::overload_cast<const D&, R&>(&Op::apply, nb::const_), release())
      .def("apply_adjoint", nb::overload_cast<const R&>(&Op::apply_adjoint, nb::const_), release())
      .def("apply_adjoint_into", nb::overload_cast<const R&, D&>(&Op::apply_adjoint, nb::const_),
           release())
      .def("adjoint", &Op::adjoint);
  if constexpr (Algebra) {
    cls.def("transpose", &Op::transpose)
        .def("conj", &Op::conj)
        .def("__add__", [](const Op& a, const Op& b) { return a + b; })
        .def("__sub__", [](const Op& a, const Op& b) { return a - b; })
        .def("__neg__", [](const Op& a) { return -a; })
        .def("scaled", [](const Op& a, V s) { return s * a; });
  }
}

/// compose(A, B) = A * B for A: M -> R and B: D -> M.
template <class D, class M, class R>
void bind_composition(nb::module_& m) {
  m.def("compose", [](const BasicLinearOperator<M, R>& a, const BasicLinearOperator<D, M>& b) {
    return a * b;
  });
}

}  // namespace distlops::python
