// SPDX-License-Identifier: BSD-3-Clause
// Copyright (c) 2026 The distlops authors
// The operators of include/distlops/operators/dense/: MatrixMult on one rank's arrays and over a
// square grid of ranks, in each memory space.
#include <string>

#include "distlops/operators/dense/matrix_mult.hpp"
#include "factory_binding.hpp"

namespace distlops::python {
namespace {

template <class T>
using Matrix = nb::ndarray<const T, nb::ndim<2>, nb::c_contig, nb::device::cpu>;

template <class T, class Space>
LocalOperator<T, Space> local_matrix_mult(const Matrix<T>& matrix, const Shape& otherdims) {
  return local::MatrixMult<T, Space>(static_cast<Index>(matrix.shape(0)),
                                     static_cast<Index>(matrix.shape(1)),
                                     std::span<const T>(matrix.data(), matrix.size()), otherdims);
}

// This rank's tile or row block of A; kind "summa" or "block" (PyLops-MPI's names).
template <class T, class Space>
LinearOperator<T, Space> matrix_mult(const Matrix<T>& local_a, Index m, const std::string& kind,
                                     const Communicator& comm) {
  if (kind != "summa" && kind != "block") {
    throw InvalidArgument("MatrixMult: kind must be 'summa' or 'block', got '" + kind + "'");
  }
  const EigenRowMajorMatrix<T> a = Eigen::Map<const EigenRowMajorMatrix<T>>(
      local_a.data(), static_cast<Index>(local_a.shape(0)), static_cast<Index>(local_a.shape(1)));
  return MatrixMult<T, Space>(a, m, kind == "summa" ? MatrixMultKind::summa : MatrixMultKind::block,
                              comm);
}

}  // namespace

void bind_dense(nb::module_& m) {
  Factories factories(m, "dense");
  factories.local("MatrixMult",
                  []<class T, class Space>() { return &local_matrix_mult<T, Space>; });
  factories.distributed("MatrixMult",
                        []<class T, class Space>() { return &matrix_mult<T, Space>; });
  // new_operator.sh: bindings of new operators above this line
}

}  // namespace distlops::python
