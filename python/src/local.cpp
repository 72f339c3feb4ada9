// SPDX-License-Identifier: BSD-3-Clause
// Copyright (c) 2026 The distlops authors
// The operators of include/distlops/operators/local/: PyLops' basic operators on one rank's
// arrays (Diagonal, Identity, Zero, Scaling, Transpose, Pad, Restriction) in each memory space,
// and FunctionOperator on host arrays, whose computation is a Python function (it takes the GIL
// back while it runs).
#include <nanobind/stl/function.h>
#include <nanobind/stl/pair.h>

#include <algorithm>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "distlops/operators/local/diagonal.hpp"
#include "distlops/operators/local/function_operator.hpp"
#include "distlops/operators/local/identity.hpp"
#include "distlops/operators/local/pad.hpp"
#include "distlops/operators/local/restriction.hpp"
#include "distlops/operators/local/scaling.hpp"
#include "distlops/operators/local/transpose.hpp"
#include "distlops/operators/local/zero.hpp"
#include "factory_binding.hpp"
#include "gil_safe_object.hpp"

namespace distlops::python {
namespace {

/// A Python function y = f(x) of NumPy arrays as the computation of a local operator: x is a
/// read-only view of the input, f's result (converted by the package to a C-contiguous array of
/// the operator's dtype) is copied into the output.
template <class T>
typename local::CallableOperator<T, Host>::Function python_function(nb::callable f) {
  auto held = std::make_shared<GilSafeObject>(std::move(f));
  return [held](const LocalArray<T, Host>& x, LocalArray<T, Host>& y) {
    nb::gil_scoped_acquire gil;
    const nb::object& function = held->get();
    std::vector<std::size_t> dims(x.shape().begin(), x.shape().end());
    static T empty_value{};
    const T* data = x.data() != nullptr ? x.data() : &empty_value;
    nb::ndarray<nb::numpy, const T> input(data, dims.size(), dims.data(), nb::handle());
    const auto values =
        nb::cast<nb::ndarray<const T, nb::c_contig, nb::device::cpu>>(function(input));
    if (static_cast<Index>(values.size()) != y.size()) {
      throw InvalidArgument("FunctionOperator: the function returned " +
                            std::to_string(values.size()) + " values, the operator's output has " +
                            std::to_string(y.size()));
    }
    std::copy_n(values.data(), values.size(), y.data());
  };
}

template <class T>
LocalOperator<T, Host> function_operator(nb::callable forward, nb::callable adjoint,
                                         const Shape& model, const Shape& data,
                                         const std::string& name) {
  return local::FunctionOperator<T, Host>(python_function<T>(std::move(forward)),
                                          python_function<T>(std::move(adjoint)), model, data,
                                          name);
}

// PyLops' pad = ((before, after), ...).
template <class T, class Space>
LocalOperator<T, Space> pad(const Shape& dims, const std::vector<std::pair<Index, Index>>& widths) {
  std::vector<local::PadWidth> pad;
  for (const auto& [before, after] : widths)
    pad.push_back({.before = before, .after = after});
  return local::Pad<T, Space>(dims, pad);
}

}  // namespace

void bind_local(nb::module_& m) {
  Factories factories(m, "local");
  factories.local("Diagonal", []<class T, class Space>() { return &local::Diagonal<T, Space>; });
  factories.local("Identity", []<class T, class Space>() {
    return nb::overload_cast<const Shape&, const Shape&>(&local::Identity<T, Space>);
  });
  factories.local("Zero", []<class T, class Space>() {
    return nb::overload_cast<const Shape&, const Shape&>(&local::Zero<T, Space>);
  });
  factories.local("Scaling", []<class T, class Space>() { return &local::Scaling<T, Space>; });
  factories.local("Transpose", []<class T, class Space>() { return &local::Transpose<T, Space>; });
  factories.local("Pad", []<class T, class Space>() { return &pad<T, Space>; });
  factories.local("Restriction",
                  []<class T, class Space>() { return &local::Restriction<T, Space>; });
  // A Python function of NumPy arrays: host arrays only.
  factories.local("FunctionOperator", []<class T>() { return &function_operator<T>; });
  // new_operator.sh: bindings of new operators above this line
}

}  // namespace distlops::python
