// SPDX-License-Identifier: BSD-3-Clause
// Copyright (c) 2026 The distlops authors
#pragma once
/// \file operator_binding.hpp
/// The Python class of an operator handle between two vector types (apply, adjoint, algebra)
/// and the module-level composition, shared by the operator binding units.

#include <nanobind/nanobind.h>
#include <nanobind/stl/complex.h>
#include <nanobind/stl/string.h>

#include "bindings.hpp"
#include "distlops/operators/algebra.hpp"
#include "distlops/operators/linear_operator.hpp"

namespace distlops::python {

/// Binds BasicLinearOperator<D, R> as `name`: shape, apply (new output or into one), the
/// adjoint, transpose and conjugate, sums and scaling. apply runs without the GIL.
template <class D, class R>
void bind_operator(nb::module_& m, const std::string& name) {
  using Op = BasicLinearOperator<D, R>;
  using V = typename Op::value_type;
  using release = nb::call_guard<nb::gil_scoped_release>;
  nb::class_<Op>(m, name.c_str())
      .def_prop_ro("rows", &Op::rows)
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
      .def("adjoint", &Op::adjoint)
      .def("transpose", &Op::transpose)
      .def("conj", &Op::conj)
      .def("__add__", [](const Op& a, const Op& b) { return a + b; })
      .def("__sub__", [](const Op& a, const Op& b) { return a - b; })
      .def("__neg__", [](const Op& a) { return -a; })
      .def("scaled", [](const Op& a, V s) { return s * a; });
}

/// compose(A, B) = A * B for A: M -> R and B: D -> M.
template <class D, class M, class R>
void bind_composition(nb::module_& m) {
  m.def("compose", [](const BasicLinearOperator<M, R>& a, const BasicLinearOperator<D, M>& b) {
    return a * b;
  });
}

}  // namespace distlops::python
