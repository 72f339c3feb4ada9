// SPDX-License-Identifier: BSD-3-Clause
// Copyright (c) 2026 The distlops authors
// ConvolveND and Convolve2D, local and distributed, against the dense matrix of the global
// problem written from the definition (y[p] = sum_k h[k] x[p + o - k] on the convolved axes):
// 1-d to 3-d arrays, filters on some or all axes, in increasing and decreasing axis order,
// every offset of small filters, filters longer than the array; the distributed operator on
// arrays split along each axis (ghost planes from neighbours, from ranks beyond empty ones),
// custom uneven splits with ranks holding nothing, and replicated arrays, at 1 to 4 ranks; on box
// layouts (process grids 2-d and 3-d, uneven grids with empty parts, explicit boxes: ghost cells
// with edges and corners from any rank); the adjoint against the conjugate transpose; dot tests;
// accumulating applies; no allocation after the first apply; errors on every rank. In every
// memory space.
#include "allocation_checks.hpp"
#include "box_layouts.hpp"
#include "dense_algebra.hpp"
#include "dense_reference.hpp"
#include "distlops/operators/signal/convolvend.hpp"
#include "expect_everywhere.hpp"
#include "local_operator_checks.hpp"
#include "spaces.hpp"
#include "test_support.hpp"

using namespace distlops;
using namespace distlops::testing;

namespace {

template <class V>
std::string list_of(const std::vector<V>& values) {
  std::string text = "[";
  for (std::size_t i = 0; i < values.size(); ++i)
    text += (i ? ", " : "") + std::to_string(values[i]);
  return text + "]";
}

struct Filter {
  Shape dims;
  Shape shape;
  std::vector<Index> offset;
  std::vector<int> axes;  // normalised, one per filter axis
};

// The matrix of the convolution on arrays of shape dims, entry by entry: output p and input q
// are linked by tap k with k[i] = p[a_i] + o[i] - q[a_i] on the filter's axes a_i and p == q on
// the others.
template <class T>
DenseMatrix<T> convolution_matrix(const Filter& f, const std::vector<T>& h) {
  const Index n = element_count(f.dims);
  DenseMatrix<T> m = DenseMatrix<T>::Zero(n, n);
  for (Index row = 0; row < n; ++row) {
    const Shape p = unravel(row, f.dims);
    for (Index column = 0; column < n; ++column) {
      const Shape q = unravel(column, f.dims);
      bool linked = true;
      Shape k(f.shape.size());
      for (std::size_t a = 0; a < f.dims.size() && linked; ++a) {
        bool convolved = false;
        for (std::size_t i = 0; i < f.axes.size(); ++i) {
          if (f.axes[i] != int(a)) continue;
          convolved = true;
          k[i] = p[a] + f.offset[i] - q[a];
          linked = k[i] >= 0 && k[i] < f.shape[i];
        }
        if (!convolved) linked = p[a] == q[a];
      }
      if (linked) m(row, column) = h[std::size_t(ravel(k, f.shape))];
    }
  }
  return m;
}

std::vector<Filter> filters() {
  std::vector<Filter> result;
  // 1-d, every offset.
  for (Index o = 0; o < 3; ++o)
    result.push_back({{7}, {3}, {o}, {0}});
  // 2-d: every offset of a 2 x 3 filter; a filter larger than the array; axes reversed.
  for (Index o0 = 0; o0 < 2; ++o0) {
    for (Index o1 = 0; o1 < 3; ++o1)
      result.push_back({{5, 4}, {2, 3}, {o0, o1}, {0, 1}});
  }
  result.push_back({{3, 2}, {4, 5}, {3, 1}, {0, 1}});
  result.push_back({{4, 5}, {3, 2}, {1, 0}, {1, 0}});
  // 3-d: all axes, two of them, one of them.
  result.push_back({{3, 4, 2}, {2, 3, 2}, {1, 1, 0}, {0, 1, 2}});
  result.push_back({{4, 3, 3}, {3, 2}, {2, 1}, {0, 2}});
  result.push_back({{2, 5, 3}, {4}, {1}, {1}});
  return result;
}

// Every split of `dims`: along each axis by default, rank 0 holding everything along axis 0
// but one plane per odd rank (even ranks > 0 hold nothing), and replicated.
std::vector<Layout> layouts_of(const Communicator& comm, const Shape& dims) {
  std::vector<Layout> layouts;
  for (int axis = 0; axis < int(dims.size()); ++axis)
    layouts.emplace_back(comm, dims, Partition::SCATTER, axis);
  if (comm.size() > 1) {
    std::vector<Shape> local(comm.size(), dims);
    Index rest = dims[0];
    for (int r = 1; r < comm.size(); ++r) {
      local[r][0] = r % 2 == 1 && rest > 1 ? 1 : 0;
      rest -= local[r][0];
    }
    local[0][0] = rest;
    layouts.emplace_back(comm, dims, LayoutOptions{.local_shapes = local});
  }
  layouts.emplace_back(comm, dims, Partition::BROADCAST);
  return layouts;
}

// The operator against the reference matrix on random vectors (each apply is collective, so
// a column-by-column assembly at every layout would dominate the test's time), the dot test and
// the accumulating applies.
template <class T, MemorySpace Space>
void check_distributed(const LinearOperator<T, Space>& op, const DenseMatrix<T>& reference) {
  const double rtol = 10 * space_tolerance<T, Space>();
  DistributedArray<T, Space> x(op.domain()), y(op.range());
  fill_random(x, 4);
  fill_random(y, 5);
  const T alpha = random_scalar<T>(6), beta = random_scalar<T>(7);
  const DenseVector<T> x0 = global_vector(x), y0 = global_vector(y);
  CHECK(matrices_close(DenseMatrix<T>(global_vector(op.apply(x))),
                       DenseMatrix<T>(product(reference, x0)), rtol));
  CHECK(matrices_close(DenseMatrix<T>(global_vector(op.apply_adjoint(y))),
                       DenseMatrix<T>(adjoint_product(reference, y0)), rtol));
  CHECK(dottest(op, 3, space_dottest_tolerance<T, Space>()).passed);
  DistributedArray<T, Space> y1 = y, x1 = x;
  op.apply_add(alpha, x, beta, y1);
  CHECK(matrices_close(DenseMatrix<T>(global_vector(y1)),
                       DenseMatrix<T>(alpha * product(reference, x0) + beta * y0), rtol));
  x1.fill(T(std::numeric_limits<real_type_t<T>>::quiet_NaN()));
  op.apply_adjoint_add(alpha, y, T(0), x1);
  CHECK(matrices_close(DenseMatrix<T>(global_vector(x1)),
                       DenseMatrix<T>(alpha * adjoint_product(reference, y0)), rtol));
}

}  // namespace

DISTLOPS_SPACE_TEMPLATE_TEST_CASE("local ConvolveND and Convolve2D convolve along their axes",
                                  "[convolve][local]", DISTLOPS_SCALAR_TYPES) {
  using T = TestType;
  std::uint64_t key = 1;
  for (const Filter& f : filters()) {
    INFO("dims " << to_string(f.dims) << " filter " << to_string(f.shape) << " offset "
                 << list_of(f.offset) << " axes " << list_of(f.axes));
    const std::vector<T> h = random_values<T>(element_count(f.shape), key++);
    const DenseMatrix<T> reference = convolution_matrix(f, h);
    check_local_operator(local::ConvolveND<T, Space>(f.dims, h, f.shape, f.offset, f.axes),
                         reference, f.dims, f.dims);
    if (f.shape.size() == 2) {
      const auto op = local::Convolve2D<T, Space>(f.dims, h, f.shape, {f.offset[0], f.offset[1]},
                                                  {f.axes[0], f.axes[1]});
      CHECK(op.name() == "Convolve2D");
      check_local_operator(op, reference, f.dims, f.dims);
    }
  }
  // Defaults: the last axes, offsets zero.
  const Filter last{{3, 4, 5}, {2, 2}, {0, 0}, {1, 2}};
  const std::vector<T> h = random_values<T>(4, key++);
  check_local_operator(local::ConvolveND<T, Space>(last.dims, h, last.shape),
                       convolution_matrix(last, h), last.dims, last.dims);
  check_local_operator(local::Convolve2D<T, Space>(last.dims, h, last.shape),
                       convolution_matrix(last, h), last.dims, last.dims);
}

DISTLOPS_SPACE_TEMPLATE_TEST_CASE("local ConvolveND of large arrays", "[convolve][local]", float,
                                  std::complex<double>) {
  using T = TestType;
  // Against the product of two Convolve1D-like separable passes written as loops: a separable
  // filter h0 (x) h1 on a (70, 300) array.
  const Index n0 = 70, n1 = 300, t0 = 5, t1 = 7, o0 = 2, o1 = 4;
  const std::vector<T> h0 = random_values<T>(t0, 50), h1 = random_values<T>(t1, 51);
  std::vector<T> h(std::size_t(t0 * t1));
  for (Index i = 0; i < t0; ++i) {
    for (Index j = 0; j < t1; ++j)
      h[std::size_t(i * t1 + j)] = h0[std::size_t(i)] * h1[std::size_t(j)];
  }
  const auto op = local::Convolve2D<T, Space>({n0, n1}, h, {t0, t1}, {o0, o1});
  const std::vector<T> x = random_values<T>(n0 * n1, 52);
  std::vector<T> along1(x.size(), T(0)), expected(x.size(), T(0));
  for (Index i = 0; i < n0; ++i) {
    for (Index j = 0; j < n1; ++j) {
      for (Index k = 0; k < t1; ++k) {
        const Index q = j + o1 - k;
        if (q >= 0 && q < n1) along1[i * n1 + j] += h1[k] * x[i * n1 + q];
      }
    }
  }
  for (Index i = 0; i < n0; ++i) {
    for (Index k = 0; k < t0; ++k) {
      const Index q = i + o0 - k;
      if (q < 0 || q >= n0) continue;
      for (Index j = 0; j < n1; ++j)
        expected[i * n1 + j] += h0[k] * along1[q * n1 + j];
    }
  }
  const LocalArray<T, Space> input = local_array_of<Space>(Shape{n0, n1}, x);
  CHECK(all_close(values_of(op.apply(input)), expected, 100 * space_tolerance<T, Space>()));
  CHECK(dottest(op, 53, space_dottest_tolerance<T, Space>()).passed);
}

DISTLOPS_SPACE_TEMPLATE_TEST_CASE("distributed ConvolveND exchanges the planes its filter reaches",
                                  "[convolve][distributed]", DISTLOPS_SCALAR_TYPES) {
  using T = TestType;
  const Communicator comm = world();
  std::uint64_t key = 100;
  for (const Filter& f : filters()) {
    const std::vector<T> h = random_values<T>(element_count(f.shape), key++);
    const DenseMatrix<T> reference = convolution_matrix(f, h);
    for (const Layout& layout : layouts_of(comm, f.dims)) {
      INFO("dims " << to_string(f.dims) << " filter " << to_string(f.shape) << " offset "
                   << list_of(f.offset) << " axes " << list_of(f.axes) << " layout "
                   << layout.describe());
      const auto op = ConvolveND<T, Space>(layout, h, f.shape, f.offset, f.axes);
      CHECK(op.domain() == layout);
      CHECK(op.range() == layout);
      check_distributed(op, reference);
    }
  }
  // A long filter along a split axis of many small blocks: planes come from several ranks.
  const Filter wide{{9, 2}, {7, 1}, {5, 0}, {0, 1}};
  const std::vector<T> h = random_values<T>(7, key++);
  check_distributed(Convolve2D<T, Space>(Layout(comm, wide.dims), h, wide.shape, {5, 0}),
                    convolution_matrix(wide, h));
  expect_in_step(comm);
}

DISTLOPS_SPACE_TEMPLATE_TEST_CASE(
    "distributed ConvolveND on box layouts exchanges edges and corners",
    "[convolve][distributed][box]", DISTLOPS_SCALAR_TYPES) {
  using T = TestType;
  const Communicator comm = world();
  std::uint64_t key = 200;
  std::vector<Filter> cases;
  for (const Filter& f : filters()) {
    if (f.dims.size() >= 2) cases.push_back(f);
  }
  // Filters longer than the blocks along both cut axes: cells from ranks beyond the neighbours.
  cases.push_back({{7, 6}, {5, 4}, {1, 3}, {0, 1}});
  cases.push_back({{6, 5, 4}, {3, 3, 3}, {2, 0, 1}, {2, 0, 1}});
  for (const Filter& f : cases) {
    const std::vector<T> h = random_values<T>(element_count(f.shape), key++);
    const DenseMatrix<T> reference = convolution_matrix(f, h);
    for (const NamedLayout& named : box_test_layouts(comm, f.dims, false)) {
      if (named.name.rfind("slab", 0) == 0) continue;  // layouts_of() covers the slabs
      INFO("dims " << to_string(f.dims) << " filter " << to_string(f.shape) << " offset "
                   << list_of(f.offset) << " axes " << list_of(f.axes) << " layout " << named.name);
      const auto op = ConvolveND<T, Space>(named.layout, h, f.shape, f.offset, f.axes);
      CHECK(op.domain() == named.layout);
      CHECK(op.range() == named.layout);
      check_distributed(op, reference);
      CHECK(second_apply_allocates_nothing(op));
    }
  }
  expect_in_step(comm);
}

TEMPLATE_TEST_CASE("ConvolveND rejects bad arguments on every rank", "[convolve][errors]", float,
                   std::complex<double>) {
  using T = TestType;
  const Communicator comm = world();
  const Layout layout(comm, {6, 5});
  const std::vector<T> h6(6, T(1));
  const auto fails = [&](auto make, const std::string& text) {
    expect_everywhere<InvalidArgument>(comm, make, text);
  };
  fails(
      [&] {
        (void)ConvolveND<T>(layout, h6, {2, 2});
      },
      "ConvolveND: the filter has 6 values, its shape (2, 2) needs 4");
  fails(
      [&] {
        (void)ConvolveND<T>(layout, h6, {2, 3}, {2, 0});
      },
      "ConvolveND: offset 2 of filter axis 0 is outside [0, 2)");
  fails([&] { (void)ConvolveND<T>(layout, h6, {2, 3}, {0, -1}); }, "offset -1 of filter axis 1");
  fails(
      [&] {
        (void)ConvolveND<T>(layout, h6, {2, 3}, {}, {1, -1});
      },
      "ConvolveND: axis 1 is given twice");
  fails([&] { (void)ConvolveND<T>(layout, h6, {2, 3}, {}, {0, 2}); }, "ConvolveND: axis 2");
  fails([&] { (void)ConvolveND<T>(layout, h6, {2, 3}, {0}); }, "1 offsets for a filter");
  fails([&] { (void)ConvolveND<T>(layout, h6, {6}, {}, {0, 1}); }, "2 axes for a filter");
  fails([&] { (void)ConvolveND<T>(layout, h6, {1, 1, 6}); }, "needs 1 to 2 axes");
  fails([&] { (void)ConvolveND<T>(layout, {}, {0, 3}); }, "has an empty axis");
  fails([&] { (void)Convolve2D<T>(layout, h6, {6}); }, "Convolve2D: the filter must be 2-d");
  fails(
      [&] {
        (void)Convolve2D<T>(Layout(comm, {6, 5}, Partition::UNSAFE_BROADCAST), h6, {2, 3});
      },
      "UNSAFE_BROADCAST");
  // Each rank's own input: an error on one rank, or arguments that differ, raised on all.
  if (comm.size() > 1) {
    const bool one = comm.rank() == 1;
    fails(
        [&] {
          (void)ConvolveND<T>(layout, h6, {2, 3}, {one ? 5 : 0, 0});
        },
        "ConvolveND: offset 5 of filter axis 0 is outside [0, 2)");
    fails(
        [&] {
          (void)ConvolveND<T>(layout, h6, one ? Shape{3, 2} : Shape{2, 3});
        },
        "ConvolveND's filter, offset and axes differs between ranks");
  }
  CHECK_THROWS_AS(local::Convolve2D<T>({6, 5}, h6, {3, 2}, {0, 2}), InvalidArgument);
  CHECK_THROWS_AS(local::ConvolveND<T>({}, h6, {6}), InvalidArgument);
  CHECK_THROWS_AS(local::ConvolveND<T>(Shape(9, 1), h6, {6}), InvalidArgument);
  expect_in_step(comm);
}
