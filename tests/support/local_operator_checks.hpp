// SPDX-License-Identifier: BSD-3-Clause
// Copyright (c) 2026 The distlops authors
#pragma once
// Checks shared by the tests of local operators: the dense matrix of an operator against a
// reference matrix built independently from the operator's definition, its adjoint against
// the conjugate transpose of that reference, the dot test, and the accumulating applies
// (y = alpha A x + beta y) against the reference, including beta = 0 over an output full of
// NaN, which must not be read.
#include <sstream>
#include <string>

#include "dense_reference.hpp"
#include "distlops/core/instantiate.hpp"
#include "distlops/core/memory_space.hpp"
#include "distlops/core/pointwise.hpp"
#include "distlops/operators/dottest.hpp"
#include "spaces.hpp"
#include "test_support.hpp"

namespace distlops::testing {

/// Reports both matrices when they differ.
template <class T>
void check_matrix(const DenseMatrix<T>& actual, const DenseMatrix<T>& expected, double rtol,
                  const std::string& what) {
  const bool close = matrices_close(actual, expected, rtol);
  if (!close) {
    std::ostringstream text;
    text << what << ": actual (" << actual.rows() << " x " << actual.cols() << ")\n"
         << actual << "\nexpected (" << expected.rows() << " x " << expected.cols() << ")\n"
         << expected;
    FAIL_CHECK(text.str());
  }
  CHECK(close);
}

/// NumPy's np.arange(n) + start.
inline std::vector<double> arange(Index n, double start = 0) {
  std::vector<double> values(static_cast<std::size_t>(n));
  for (std::size_t i = 0; i < values.size(); ++i)
    values[i] = start + double(i);
  return values;
}

/// A local array of `shape` holding `values` (real literals are widened to complex types).
template <class T, class V>
LocalArray<T> array_of(const Shape& shape, const std::vector<V>& values) {
  LocalArray<T> array(shape);
  REQUIRE(array.size() == static_cast<Index>(values.size()));
  for (std::size_t i = 0; i < values.size(); ++i)
    array.data()[i] = static_cast<T>(values[i]);
  return array;
}

/// Everything a local operator of any space must satisfy, given its reference matrix and its
/// shapes.
template <class T, MemorySpace Space>
void check_local_operator(const LocalOperator<T, Space>& op, const DenseMatrix<T>& reference,
                          const Shape& domain, const Shape& range) {
  const double rtol = 10 * space_tolerance<T, Space>();
  CHECK(op.domain() == domain);
  CHECK(op.range() == range);
  REQUIRE(op.rows() == reference.rows());
  REQUIRE(op.cols() == reference.cols());
  check_matrix(assemble(op), reference, rtol, op.name() + " forward");
  const DenseMatrix<T> adjoint = reference.adjoint();
  check_matrix(assemble_adjoint(op), adjoint, rtol, op.name() + " adjoint");
  CHECK(dottest(op, 7, space_dottest_tolerance<T, Space>()).passed);

  // y = alpha A x + beta y and x = alpha A^H y + beta x against the reference.
  LocalArray<T, Space> x(domain), y(range);
  fill_random(x, 8);
  fill_random(y, 9);
  const T alpha = random_scalar<T>(10), beta = random_scalar<T>(11);
  const DenseVector<T> x0 = global_vector(x), y0 = global_vector(y);
  const DenseVector<T> forward_expected = alpha * (reference * x0) + beta * y0;
  const DenseVector<T> adjoint_expected = alpha * (adjoint * y0) + beta * x0;
  LocalArray<T, Space> y1 = y;
  op.apply_add(alpha, x, beta, y1);
  check_matrix(DenseMatrix<T>(global_vector(y1)), DenseMatrix<T>(forward_expected), rtol,
               op.name() + " apply_add");
  LocalArray<T, Space> x1 = x;
  op.apply_adjoint_add(alpha, y, beta, x1);
  check_matrix(DenseMatrix<T>(global_vector(x1)), DenseMatrix<T>(adjoint_expected), rtol,
               op.name() + " apply_adjoint_add");
  // beta = 0: the output is overwritten, never read (NaN would propagate).
  const T nan(std::numeric_limits<real_type_t<T>>::quiet_NaN());
  y1.fill(nan);
  op.apply_add(alpha, x, T(0), y1);
  check_matrix(DenseMatrix<T>(global_vector(y1)), DenseMatrix<T>(alpha * (reference * x0)), rtol,
               op.name() + " apply_add with beta = 0");
  x1.fill(nan);
  op.apply_adjoint_add(alpha, y, T(0), x1);
  check_matrix(DenseMatrix<T>(global_vector(x1)), DenseMatrix<T>(alpha * (adjoint * y0)), rtol,
               op.name() + " apply_adjoint_add with beta = 0");
  // A plain apply also ignores what the output held.
  y1.fill(nan);
  op.apply(x, y1);
  check_matrix(DenseMatrix<T>(global_vector(y1)), DenseMatrix<T>(reference * x0), rtol,
               op.name() + " apply over NaN");
  // Applying into existing arrays allocates nothing.
  const std::uint64_t before = memory::allocation_count();
  op.apply(x, y1);
  op.apply_adjoint(y, x1);
  op.apply_add(alpha, x, beta, y1);
  op.apply_adjoint_add(alpha, y, beta, x1);
  CHECK(memory::allocation_count() == before);
}

/// The multi-index of the C-order flat index `flat` in an array of `shape`.
inline Shape unravel(Index flat, const Shape& shape) {
  Shape index(shape.size());
  for (std::size_t k = shape.size(); k-- > 0;) {
    index[k] = flat % shape[k];
    flat /= shape[k];
  }
  return index;
}

/// The C-order flat index of `index` in an array of `shape`.
inline Index ravel(const Shape& index, const Shape& shape) {
  Index flat = 0;
  for (std::size_t k = 0; k < shape.size(); ++k)
    flat = flat * shape[k] + index[k];
  return flat;
}

/// The (outer, inner) products around `axis` of `shape`.
inline std::pair<Index, Index> outer_inner(const Shape& shape, int axis) {
  Index outer = 1, inner = 1;
  for (int k = 0; k < static_cast<int>(shape.size()); ++k) {
    if (k < axis) outer *= shape[static_cast<std::size_t>(k)];
    if (k > axis) inner *= shape[static_cast<std::size_t>(k)];
  }
  return {outer, inner};
}

/// I_outer (x) M (x) I_inner: the matrix of M acting along the middle axis of an
/// (outer, M.cols(), inner) C-order array, built entry by entry.
template <class T>
DenseMatrix<T> along_axis(const DenseMatrix<T>& m, Index outer, Index inner) {
  DenseMatrix<T> result = DenseMatrix<T>::Zero(outer * m.rows() * inner, outer * m.cols() * inner);
  for (Index o = 0; o < outer; ++o) {
    for (Index i = 0; i < m.rows(); ++i) {
      for (Index j = 0; j < m.cols(); ++j) {
        for (Index k = 0; k < inner; ++k)
          result((o * m.rows() + i) * inner + k, (o * m.cols() + j) * inner + k) = m(i, j);
      }
    }
  }
  return result;
}

/// A matrix given by its rows, each a list of (column, weight): how the references of banded
/// operators (derivatives, convolutions) are written, so that large cases need no dense matrix.
template <class W>
struct SparseRows {
  Index cols = 0;
  std::vector<std::vector<std::pair<Index, W>>> rows;

  SparseRows(Index row_count, Index col_count)
      : cols(col_count), rows(static_cast<std::size_t>(row_count)) {}
  /// Replaces row i (a later assignment overwrites an earlier one, as NumPy slices do).
  void set(Index i, std::vector<std::pair<Index, W>> entries) {
    rows[static_cast<std::size_t>(i)] = std::move(entries);
  }
  Index row_count() const { return static_cast<Index>(rows.size()); }

  template <class T>
  DenseMatrix<T> dense() const {
    DenseMatrix<T> matrix = DenseMatrix<T>::Zero(row_count(), cols);
    for (Index i = 0; i < row_count(); ++i) {
      for (const auto& [j, w] : rows[static_cast<std::size_t>(i)])
        matrix(i, j) += static_cast<T>(w);
    }
    return matrix;
  }
};

/// One term of a reference operator: a matrix acting along one axis, times a weight.
template <class W>
struct AxisTerm {
  int axis;
  SparseRows<W> matrix;
};

/// sum_t M_t x along axis_t (adjoint: sum_t M_t^H y along axis_t) for an array x of `shape`
/// (the shape of the input); plain loops over the (outer, length, inner) views.
template <class T, class W>
std::vector<T> apply_terms(const std::vector<AxisTerm<W>>& terms, const std::vector<T>& x,
                           const Shape& shape, bool adjoint) {
  std::vector<T> y;
  for (const AxisTerm<W>& term : terms) {
    const auto [outer, inner] = outer_inner(shape, term.axis);
    const SparseRows<W>& m = term.matrix;
    const Index in_length = adjoint ? m.row_count() : m.cols;
    const Index out_length = adjoint ? m.cols : m.row_count();
    REQUIRE(shape[static_cast<std::size_t>(term.axis)] == in_length);
    y.resize(static_cast<std::size_t>(outer * out_length * inner), T(0));
    for (Index o = 0; o < outer; ++o) {
      for (Index i = 0; i < m.row_count(); ++i) {
        for (const auto& [j, w] : m.rows[static_cast<std::size_t>(i)]) {
          for (Index k = 0; k < inner; ++k) {
            if (adjoint) {
              y[std::size_t((o * out_length + j) * inner + k)] +=
                  conjugate(static_cast<T>(w)) * x[std::size_t((o * in_length + i) * inner + k)];
            } else {
              y[std::size_t((o * out_length + i) * inner + k)] +=
                  static_cast<T>(w) * x[std::size_t((o * in_length + j) * inner + k)];
            }
          }
        }
      }
    }
  }
  return y;
}

/// The dense matrix of a sum of axis terms on arrays of `shape` (small cases).
template <class T, class W>
DenseMatrix<T> dense_of_terms(const std::vector<AxisTerm<W>>& terms, const Shape& shape) {
  DenseMatrix<T> sum;
  for (const AxisTerm<W>& term : terms) {
    const auto [outer, inner] = outer_inner(shape, term.axis);
    const DenseMatrix<T> matrix = along_axis(term.matrix.template dense<T>(), outer, inner);
    if (sum.size() == 0) {
      sum = matrix;
    } else {
      sum += matrix;
    }
  }
  return sum;
}

/// An operator of any space too large for dense matrices against the reference terms: forward,
/// adjoint and dot test on random arrays.
template <class T, class W, MemorySpace Space>
void check_large_operator(const LocalOperator<T, Space>& op,
                          const std::vector<AxisTerm<W>>& terms) {
  const double rtol = 10 * space_tolerance<T, Space>();
  LocalArray<T, Space> x(op.domain()), y(op.range());
  fill_random(x, 21);
  fill_random(y, 22);
  CHECK(all_close(values_of(op.apply(x)), apply_terms(terms, values_of(x), op.domain(), false),
                  rtol));
  CHECK(all_close(values_of(op.apply_adjoint(y)),
                  apply_terms(terms, values_of(y), op.range(), true), rtol));
  CHECK(dottest(op, 23, space_dottest_tolerance<T, Space>()).passed);
}

/// Elements of `actual` against literal values (real literals widen to complex types).
template <class T, class V, MemorySpace Space>
void check_values(const LocalArray<T, Space>& actual, const std::vector<V>& expected, double rtol) {
  std::vector<T> widened(expected.begin(), expected.end());
  const bool close = all_close(values_of(actual), widened, rtol);
  if (!close) {
    std::ostringstream text;
    text << "values differ:\n";
    const std::vector<T> values = values_of(actual);
    for (std::size_t i = 0; i < widened.size() && i < values.size(); ++i)
      text << "  [" << i << "] " << values[i] << " vs " << widened[i] << "\n";
    FAIL_CHECK(text.str());
  }
  CHECK(close);
}

/// The checks of every local operator test, compiled once for each scalar type and memory space
/// in local_operator_checks.cpp (the test support library). Expanded inside distlops::testing.
#define DISTLOPS_LOCAL_OPERATOR_CHECKS(prefix, T)                                            \
  prefix template void check_matrix<T>(const DenseMatrix<T>&, const DenseMatrix<T>&, double, \
                                       const std::string&);
#define DISTLOPS_LOCAL_OPERATOR_CHECKS_IN(prefix, T, Space) \
  prefix template void check_local_operator<T, Space>(      \
      const LocalOperator<T, Space>&, const DenseMatrix<T>&, const Shape&, const Shape&);

#define DISTLOPS_DETAIL_EXTERN_LOCAL_OPERATOR_CHECKS(T) DISTLOPS_LOCAL_OPERATOR_CHECKS(extern, T)
#define DISTLOPS_DETAIL_EXTERN_LOCAL_OPERATOR_CHECKS_IN(T, Space) \
  DISTLOPS_LOCAL_OPERATOR_CHECKS_IN(extern, T, Space)
DISTLOPS_FOR_EACH_SCALAR(DISTLOPS_DETAIL_EXTERN_LOCAL_OPERATOR_CHECKS)
DISTLOPS_FOR_EACH_SCALAR_AND_SPACE(DISTLOPS_DETAIL_EXTERN_LOCAL_OPERATOR_CHECKS_IN)

}  // namespace distlops::testing
