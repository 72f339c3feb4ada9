// SPDX-License-Identifier: BSD-3-Clause
// Copyright (c) 2026 The distlops authors
// Operator handles and their algebra, the local operators (a Python callable among them) and
// the distributed operators over DistributedArray. The C++ work of apply runs without the GIL;
// a Python callable inside an operator takes it back while it runs.
#include <nanobind/ndarray.h>
#include <nanobind/stl/complex.h>
#include <nanobind/stl/function.h>
#include <nanobind/stl/pair.h>
#include <nanobind/stl/string.h>
#include <nanobind/stl/vector.h>

#include <algorithm>
#include <memory>
#include <span>
#include <string>
#include <vector>

#include "bindings.hpp"
#include "distlops/core/distributed_array.hpp"
#include "distlops/core/stacked_distributed_array.hpp"
#include "distlops/operators/algebra.hpp"
#include "distlops/operators/dense/matrix_mult.hpp"
#include "distlops/operators/derivative/derivatives.hpp"
#include "distlops/operators/local/diagonal.hpp"
#include "distlops/operators/local/first_derivative.hpp"
#include "distlops/operators/local/function_operator.hpp"
#include "distlops/operators/local/identity.hpp"
#include "distlops/operators/local/matrix_mult.hpp"
#include "distlops/operators/local/second_derivative.hpp"
#include "distlops/operators/reshape.hpp"
#include "distlops/operators/stack/block_diag.hpp"
#include "distlops/operators/stack/vstack.hpp"
#include "gil_safe_object.hpp"
#include "operator_binding.hpp"

namespace distlops::python {
namespace {

template <class T>
using Local = LocalOperator<T, Host>;
template <class T>
using ConstInput = nb::ndarray<const T, nb::c_contig, nb::device::cpu>;

DerivativeKind kind_from_name(const std::string& name) {
  if (name == "centered") return DerivativeKind::centered;
  if (name == "forward") return DerivativeKind::forward;
  if (name == "backward") return DerivativeKind::backward;
  throw InvalidArgument("derivative kind must be 'centered', 'forward' or 'backward', got '" +
                        name + "'");
}

/// A Python function y = f(x) of NumPy arrays as the computation of a local operator: x is a
/// read-only view of the input, f's result (converted by the package to a C-contiguous array of
/// the operator's dtype) is copied into the output.
template <class T>
typename local::CallableOperator<T, Host>::Function python_function(nb::callable f) {
  auto held = std::make_shared<GilSafeObject>(std::move(f));
  return [held](const LocalArray<T, Host>& x, LocalArray<T, Host>& y) {
    nb::gil_scoped_acquire gil;
    const nb::object& f = held->get();
    std::vector<std::size_t> dims(x.shape().begin(), x.shape().end());
    static T empty_value{};
    const T* data = x.data() != nullptr ? x.data() : &empty_value;
    nb::ndarray<nb::numpy, const T> input(data, dims.size(), dims.data(), nb::handle());
    nb::object result = f(input);
    const auto values = nb::cast<ConstInput<T>>(result);
    if (static_cast<Index>(values.size()) != y.size()) {
      throw InvalidArgument("FunctionOperator: the function returned " +
                            std::to_string(values.size()) + " values, the operator's output has " +
                            std::to_string(y.size()));
    }
    std::copy_n(values.data(), values.size(), y.data());
  };
}

template <class T>
void bind_operators_for_type(nb::module_& m) {
  const char* t = dtype_name<T>();
  using DA = DistributedArray<T, Host>;
  bind_operator<LocalArray<T, Host>, LocalArray<T, Host>>(m, class_name("LocalOperator", t));
  bind_operator<DA, DA>(m, class_name("LinearOperator", t));
  bind_composition<DA, DA, DA>(m);
  bind_composition<DA, DA, DA>(m);
  bind_composition<LocalArray<T, Host>, LocalArray<T, Host>, LocalArray<T, Host>>(m);

  // ---- local operators -----------------------------------------------------------------------
  m.def(class_name("local_MatrixMult", t).c_str(),
        [](const nb::ndarray<const T, nb::ndim<2>, nb::c_contig, nb::device::cpu>& matrix,
           const Shape& otherdims) {
          return local::MatrixMult<T, Host>(
              static_cast<Index>(matrix.shape(0)), static_cast<Index>(matrix.shape(1)),
              std::span<const T>(matrix.data(), matrix.size()), otherdims);
        });
  m.def(class_name("local_Diagonal", t).c_str(),
        [](const ConstInput<T>& diagonal, const Shape& dims, int axis) {
          return local::Diagonal<T, Host>(std::span<const T>(diagonal.data(), diagonal.size()),
                                          dims, axis);
        });
  m.def(class_name("local_Identity", t).c_str(), [](const Shape& data, const Shape& model) {
    return local::Identity<T, Host>(data, model);
  });
  m.def(class_name("local_FirstDerivative", t).c_str(),
        [](const Shape& dims, int axis, double sampling, const std::string& kind, bool edge) {
          return local::FirstDerivative<T, Host>(
              dims,
              {.axis = axis, .sampling = sampling, .kind = kind_from_name(kind), .edge = edge});
        });
  m.def(class_name("local_SecondDerivative", t).c_str(),
        [](const Shape& dims, int axis, double sampling, const std::string& kind, bool edge) {
          return local::SecondDerivative<T, Host>(
              dims,
              {.axis = axis, .sampling = sampling, .kind = kind_from_name(kind), .edge = edge});
        });
  m.def(class_name("local_FunctionOperator", t).c_str(),
        [](nb::callable forward, nb::callable adjoint, const Shape& model, const Shape& data,
           const std::string& name) {
          return local::FunctionOperator<T, Host>(python_function<T>(std::move(forward)),
                                                  python_function<T>(std::move(adjoint)), model,
                                                  data, name);
        });

  // ---- distributed operators ------------------------------------------------------------------
  m.def(
      class_name("BlockDiag", t).c_str(),
      [](std::vector<Local<T>> ops, const Communicator& comm, std::vector<int> mask) {
        return BlockDiag<T, Host>(std::move(ops), comm, std::move(mask));
      },
      nb::call_guard<nb::gil_scoped_release>());
  m.def(
      class_name("VStack", t).c_str(),
      [](std::vector<Local<T>> ops, const Communicator& comm) {
        return VStack<T, Host>(std::move(ops), comm);
      },
      nb::call_guard<nb::gil_scoped_release>());
  m.def(
      class_name("HStack", t).c_str(),
      [](std::vector<Local<T>> ops, const Communicator& comm) {
        return HStack<T, Host>(std::move(ops), comm);
      },
      nb::call_guard<nb::gil_scoped_release>());
  m.def(class_name("FirstDerivative", t).c_str(),
        [](const Layout& layout, int axis, double sampling, const std::string& kind, bool edge,
           int order) {
          return FirstDerivative<T, Host>(layout, {.axis = axis,
                                                   .sampling = sampling,
                                                   .kind = kind_from_name(kind),
                                                   .edge = edge,
                                                   .order = order});
        });
  m.def(class_name("SecondDerivative", t).c_str(),
        [](const Layout& layout, int axis, double sampling, const std::string& kind, bool edge) {
          return SecondDerivative<T, Host>(
              layout,
              {.axis = axis, .sampling = sampling, .kind = kind_from_name(kind), .edge = edge});
        });
  m.def(class_name("Laplacian", t).c_str(),
        [](const Layout& layout, std::vector<int> axes, std::vector<double> weights,
           std::vector<double> sampling, bool edge, const std::string& kind) {
          return Laplacian<T, Host>(layout, {.axes = std::move(axes),
                                             .weights = std::move(weights),
                                             .sampling = std::move(sampling),
                                             .edge = edge,
                                             .kind = kind_from_name(kind)});
        });
  m.def(
      class_name("MatrixMult", t).c_str(),
      [](const nb::ndarray<const T, nb::ndim<2>, nb::c_contig, nb::device::cpu>& local_a, Index m,
         const std::string& kind, const Communicator& comm) {
        if (kind != "summa" && kind != "block") {
          throw InvalidArgument("MatrixMult: kind must be 'summa' or 'block', got '" + kind + "'");
        }
        const EigenRowMajorMatrix<T> a = Eigen::Map<const EigenRowMajorMatrix<T>>(
            local_a.data(), static_cast<Index>(local_a.shape(0)),
            static_cast<Index>(local_a.shape(1)));
        return MatrixMult<T, Host>(
            a, m, kind == "summa" ? MatrixMultKind::summa : MatrixMultKind::block, comm);
      },
      nb::call_guard<nb::gil_scoped_release>());
  m.def("local_shapes", [](const Local<T>& op) { return std::make_pair(op.domain(), op.range()); });
  // The same operator seen with other layouts of equal local sizes (a flat BlockDiag on an N-d
  // grid), so that it adds and stacks with the N-d operators.
  m.def("reshape", [](const LinearOperator<T, Host>& op, const Layout& domain,
                      const Layout& range) { return reshape(op, domain, range); });
  m.def(class_name("identity", t).c_str(),
        [](const Layout& layout) { return identity<DA>(layout); });
}

}  // namespace

void bind_operators(nb::module_& m) {
  for_each_scalar([&]<class T>() { bind_operators_for_type<T>(m); });
}

}  // namespace distlops::python
