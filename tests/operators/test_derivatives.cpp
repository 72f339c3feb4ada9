// SPDX-License-Identifier: BSD-3-Clause
// Copyright (c) 2026 The distlops authors
// Distributed derivatives against serial references that follow PyLops' formulas line by line
// (written here independently of the library's stencils), for every kind, order, edge flag
// and sampling, on 1-d, 2-d and 3-d arrays split along the first or a later axis, including
// splits where ranks own a single plane (the stencil reaches two neighbours away) or none;
// the adjoint against the transposed reference matrix; dot tests; values computed by PyLops; the
// fused apply_vdot (y and x^H y in one pass) against the reference y and its x^H y. The
// operators run in every memory space (device collectives over both of their paths). On the
// host, applies above the streaming threshold (lowered for the test) write the same values, bit
// for bit, as with ordinary stores. On box layouts (process grids 1x1 ... 1x3 and 3-d grids,
// uneven grids whose last rank owns nothing, explicit boxes that form no grid): the derivatives
// whose stencils reach one and two planes, Laplacian and Gradient against the same references,
// their adjoints against the transposed reference matrices, dot tests and the fused apply_vdot.
#include "allocation_checks.hpp"
#include "box_layouts.hpp"
#include "dense_reference.hpp"
#include "distlops/operators/derivative/derivatives.hpp"
#include "distlops/operators/dottest.hpp"
#include "spaces.hpp"
#include "test_support.hpp"

using namespace distlops;
using namespace distlops::testing;

namespace {

enum class Derivative { first, second };

// PyLops' formulas on one line v (length n), returning w.
template <class T>
std::vector<T> reference_line(const std::vector<T>& v, Derivative which, DerivativeKind kind,
                              int order, bool edge, double sampling) {
  const Index n = static_cast<Index>(v.size());
  std::vector<T> w(v.size(), T(0));
  using R = real_type_t<T>;
  auto r = [](double value) { return T(static_cast<R>(value)); };
  if (which == Derivative::first) {
    if (kind == DerivativeKind::forward) {
      for (Index i = 0; i + 1 < n; ++i)
        w[i] = v[i + 1] - v[i];
    } else if (kind == DerivativeKind::backward) {
      for (Index i = 1; i < n; ++i)
        w[i] = v[i] - v[i - 1];
    } else if (order == 3) {
      for (Index i = 1; i + 1 < n; ++i)
        w[i] = r(0.5) * (v[i + 1] - v[i - 1]);
      if (edge) {
        w[0] = v[1] - v[0];
        w[n - 1] = v[n - 1] - v[n - 2];
      }
    } else {
      for (Index i = 2; i + 2 < n; ++i) {
        w[i] = v[i - 2] / r(12.0) - r(2.0) * v[i - 1] / r(3.0) + r(2.0) * v[i + 1] / r(3.0) -
               v[i + 2] / r(12.0);
      }
      if (edge) {
        w[0] = v[1] - v[0];
        w[1] = r(0.5) * (v[2] - v[0]);
        w[n - 2] = r(0.5) * (v[n - 1] - v[n - 3]);
        w[n - 1] = v[n - 1] - v[n - 2];
      }
    }
    for (T& value : w)
      value /= r(sampling);
    return w;
  }
  if (kind == DerivativeKind::forward) {
    for (Index i = 0; i + 2 < n; ++i)
      w[i] = v[i + 2] - r(2.0) * v[i + 1] + v[i];
  } else if (kind == DerivativeKind::backward) {
    for (Index i = 2; i < n; ++i)
      w[i] = v[i] - r(2.0) * v[i - 1] + v[i - 2];
  } else {
    for (Index i = 1; i + 1 < n; ++i)
      w[i] = v[i + 1] - r(2.0) * v[i] + v[i - 1];
    if (edge) {
      w[0] = v[0] - r(2.0) * v[1] + v[2];
      w[n - 1] = v[n - 3] - r(2.0) * v[n - 2] + v[n - 1];
    }
  }
  for (T& value : w)
    value /= r(sampling * sampling);
  return w;
}

// The reference applied along `axis` of a global C-order array.
template <class T>
std::vector<T> reference_apply(const std::vector<T>& x, const Shape& shape, int axis,
                               Derivative which, DerivativeKind kind, int order, bool edge,
                               double sampling) {
  const Shape strides = strides_of(shape);
  const Index n = shape[axis];
  std::vector<T> y(x.size(), T(0));
  for (Index flat = 0; flat < Index(x.size()); ++flat) {
    if ((flat / strides[axis]) % n != 0) continue;  // one start per line
    std::vector<T> line(static_cast<std::size_t>(n));
    for (Index i = 0; i < n; ++i)
      line[i] = x[flat + i * strides[axis]];
    const auto result = reference_line(line, which, kind, order, edge, sampling);
    for (Index i = 0; i < n; ++i)
      y[flat + i * strides[axis]] = result[i];
  }
  return y;
}

// Layouts of a shape: default split along each axis, and splits with single-plane and empty
// blocks along axis 0.
std::vector<Layout> layouts_of(const Communicator& comm, const Shape& shape) {
  std::vector<Layout> layouts;
  for (int axis = 0; axis < int(shape.size()); ++axis)
    layouts.emplace_back(comm, shape, Partition::SCATTER, axis);
  if (comm.size() > 1) {
    // Rank r owns 1 plane for odd r, none for even r > 0, rank 0 the rest.
    std::vector<Shape> local(comm.size(), shape);
    Index rest = shape[0];
    for (int r = 1; r < comm.size(); ++r) {
      local[r][0] = r % 2 == 1 && rest > 1 ? 1 : 0;
      rest -= local[r][0];
    }
    local[0][0] = rest;
    layouts.emplace_back(comm, shape, LayoutOptions{.local_shapes = local});
  }
  layouts.emplace_back(comm, shape, Partition::BROADCAST);
  return layouts;
}

// A VdotSink keeping each group's partial sums in the space's memory, completed over the groups
// by total(), as CG's scalar slots combine them.
template <class Space>
class RecordingSink final : public VdotSink {
 public:
  static constexpr int most_groups = 4;
  RecordingSink() { memory::copy_bytes<Space, Host>(memory_.data(), zeros_, sizeof(zeros_)); }
  double* target(const Communicator* group) override {
    REQUIRE(groups_.size() < most_groups);
    groups_.push_back(group);
    return memory_.data() + 2 * (groups_.size() - 1);
  }
  bool imaginary() const override { return true; }
  std::size_t groups() const { return groups_.size(); }
  std::complex<double> total() const {
    double host[2 * most_groups];
    memory::copy_bytes<Host, Space>(host, memory_.data(), sizeof(host));
    std::complex<double> sum = 0;
    for (std::size_t g = 0; g < groups_.size(); ++g) {
      double parts[2] = {host[2 * g], host[2 * g + 1]};
      if (groups_[g]) groups_[g]->allreduce(parts, parts, 2, ReduceOp::sum);
      sum += std::complex<double>(parts[0], parts[1]);
    }
    return sum;
  }

 private:
  double zeros_[2 * most_groups] = {};
  Buffer<double, Space> memory_{2 * most_groups};
  std::vector<const Communicator*> groups_;
};

// apply_vdot gives the reference y and x^H y, fused in both spaces (an operator that does not
// fuse leaves the sink untouched and the caller reduces).
template <class T, class Space>
void check_apply_vdot(const LinearOperator<T, Space>& op, const DistributedArray<T, Space>& x,
                      const std::vector<T>& global_x, const std::vector<T>& expected_y,
                      double rtol) {
  DistributedArray<T, Space> y(op.range());
  RecordingSink<Space> sink;
  const bool fused = op.apply_vdot(x, y, sink);
  CHECK(fused);
  CHECK(all_close(y.gather(), expected_y, rtol));
  std::complex<double> expected = 0;
  double scale = 0;
  for (std::size_t i = 0; i < global_x.size(); ++i) {
    const std::complex<double> xi(std::real(global_x[i]), std::imag(global_x[i]));
    const std::complex<double> yi(std::real(expected_y[i]), std::imag(expected_y[i]));
    expected += std::conj(xi) * yi;
    scale += std::abs(xi) * std::abs(yi);
  }
  if (!fused) CHECK(sink.groups() == 0);
  const std::complex<double> got = fused ? sink.total() : std::complex<double>(x.vdot(y));
  CHECK(std::abs(got - expected) <= rtol * scale + 1e-300);
}

struct Case {
  Derivative which;
  DerivativeKind kind;
  int order;
  bool edge;
};

std::vector<Case> cases() {
  std::vector<Case> result;
  for (bool edge : {false, true}) {
    result.push_back({Derivative::first, DerivativeKind::forward, 3, edge});
    result.push_back({Derivative::first, DerivativeKind::backward, 3, edge});
    result.push_back({Derivative::first, DerivativeKind::centered, 3, edge});
    result.push_back({Derivative::first, DerivativeKind::centered, 5, edge});
    result.push_back({Derivative::second, DerivativeKind::forward, 3, edge});
    result.push_back({Derivative::second, DerivativeKind::backward, 3, edge});
    result.push_back({Derivative::second, DerivativeKind::centered, 3, edge});
  }
  return result;
}

template <class T, class Space = Host>
LinearOperator<T, Space> make(const Layout& layout, const Case& c, int axis, double sampling) {
  const DerivativeOptions options{
      .axis = axis, .sampling = sampling, .kind = c.kind, .edge = c.edge, .order = c.order};
  return c.which == Derivative::first ? FirstDerivative<T, Space>(layout, options)
                                      : SecondDerivative<T, Space>(layout, options);
}

template <class T, class Space>
void check_formulas() {
  const Communicator comm = world();
  const double rtol = 10 * space_tolerance<T, Space>();
  for (const Shape& shape : std::vector<Shape>{{11}, {7, 5}, {6, 3, 5}}) {
    const std::vector<T> global = random_values<T>(element_count(shape), 3);
    for (const Layout& layout : layouts_of(comm, shape)) {
      const auto x = DistributedArray<T, Space>::from_global(layout, global);
      for (int axis = 0; axis < int(shape.size()); ++axis) {
        for (const Case& c : cases()) {
          const double sampling = c.edge ? 0.5 : 1.0;
          INFO("shape " << to_string(shape) << " layout " << layout.describe() << " axis " << axis
                        << (c.which == Derivative::first ? " first " : " second ")
                        << to_string(c.kind) << " order " << c.order << " edge " << c.edge);
          const auto op = make<T, Space>(layout, c, axis, sampling);
          const auto expected =
              reference_apply(global, shape, axis, c.which, c.kind, c.order, c.edge, sampling);
          CHECK(all_close(op.apply(x).gather(), expected, rtol));
          check_apply_vdot(op, x, global, expected, rtol);
          // forward_add accumulates: y = 2 D x - 3 y
          DistributedArray<T, Space> y(layout);
          fill_random(y, 4);
          const std::vector<T> y0 = y.gather();
          op.apply_add(T(2), x, T(-3), y);
          std::vector<T> expected_add(expected.size());
          for (std::size_t i = 0; i < expected.size(); ++i)
            expected_add[i] = T(2) * expected[i] - T(3) * y0[i];
          CHECK(all_close(y.gather(), expected_add, rtol));
          CHECK(dottest(op, 5, space_dottest_tolerance<T, Space>()).passed);
        }
      }
    }
  }
}

}  // namespace

DISTLOPS_SPACE_TEMPLATE_TEST_CASE("derivatives equal PyLops' formulas on every split",
                                  "[derivatives]", DISTLOPS_SCALAR_TYPES) {
  for_each_collective_path<Space>([] { check_formulas<TestType, Space>(); });
}

TEMPLATE_TEST_CASE("derivative adjoints are the transposed reference matrices", "[derivatives]",
                   DISTLOPS_SCALAR_TYPES) {
  using T = TestType;
  const Communicator comm = world();
  const Shape shape{6, 4};
  for (const Layout& layout : layouts_of(comm, shape)) {
    for (int axis = 0; axis < 2; ++axis) {
      for (const Case& c : cases()) {
        INFO("layout " << layout.describe() << " axis " << axis << " kind " << to_string(c.kind)
                       << " order " << c.order << " edge " << c.edge);
        const auto op = make<T>(layout, c, axis, 2.0);
        // Reference matrix: the reference applied to unit vectors.
        DenseMatrix<T> expected(24, 24);
        for (Index j = 0; j < 24; ++j) {
          std::vector<T> unit(24, T(0));
          unit[j] = T(1);
          const auto column =
              reference_apply(unit, shape, axis, c.which, c.kind, c.order, c.edge, 2.0);
          for (Index i = 0; i < 24; ++i)
            expected(i, j) = column[i];
        }
        CHECK(matrices_close(assemble(op), expected, 10 * tolerance<T>()));
        CHECK(matrices_close(assemble_adjoint(op), DenseMatrix<T>(expected.adjoint()),
                             10 * tolerance<T>()));
      }
    }
  }
}

DISTLOPS_SPACE_TEMPLATE_TEST_CASE("Laplacian and Gradient", "[derivatives][laplacian][gradient]",
                                  DISTLOPS_SCALAR_TYPES) {
  using T = TestType;
  const Communicator comm = world();
  const double rtol = 10 * space_tolerance<T, Space>();
  for (const Shape& shape : std::vector<Shape>{{7, 5}, {5, 4, 6}}) {
    const std::vector<T> global = random_values<T>(element_count(shape), 8);
    const int ndim = static_cast<int>(shape.size());
    for (const Layout& layout : layouts_of(comm, shape)) {
      const auto x = DistributedArray<T, Space>::from_global(layout, global);
      for (bool edge : {false, true}) {
        for (DerivativeKind kind :
             {DerivativeKind::centered, DerivativeKind::forward, DerivativeKind::backward}) {
          INFO("shape " << to_string(shape) << " layout " << layout.describe() << " edge " << edge
                        << " kind " << to_string(kind));
          LaplacianOptions options;
          options.axes.clear();
          options.weights.clear();
          options.sampling.clear();
          for (int axis = 0; axis < ndim; ++axis) {
            options.axes.push_back(axis);
            options.weights.push_back(1.0 + axis);
            options.sampling.push_back(1.0 / (1 + axis));
          }
          options.edge = edge;
          options.kind = kind;
          const auto laplacian = Laplacian<T, Space>(layout, options);
          std::vector<T> expected(global.size(), T(0));
          for (int axis = 0; axis < ndim; ++axis) {
            const auto part = reference_apply(global, shape, axis, Derivative::second, kind, 3,
                                              edge, options.sampling[axis]);
            for (std::size_t i = 0; i < expected.size(); ++i) {
              expected[i] += T(real_type_t<T>(options.weights[axis])) * part[i];
            }
          }
          CHECK(all_close(laplacian.apply(x).gather(), expected, rtol));
          check_apply_vdot(laplacian, x, global, expected, rtol);
          CHECK(dottest(laplacian, 9, space_dottest_tolerance<T, Space>()).passed);

          const auto gradient =
              Gradient<T, Space>(layout, {.sampling = {0.5}, .edge = edge, .kind = kind});
          const auto g = gradient.apply(x);
          REQUIRE(g.narrays() == std::size_t(ndim));
          for (int axis = 0; axis < ndim; ++axis) {
            CHECK(all_close(
                g[axis].gather(),
                reference_apply(global, shape, axis, Derivative::first, kind, 3, edge, 0.5), rtol));
          }
          CHECK(dottest(gradient, 10, space_dottest_tolerance<T, Space>()).passed);
        }
      }
    }
  }
}

namespace {

// The box layouts of `shape`: grids and boxes, not the slabs and the replicated layout that
// layouts_of() covers.
std::vector<NamedLayout> box_layouts_of(const Communicator& comm, const Shape& shape) {
  std::vector<NamedLayout> layouts;
  for (NamedLayout& named : box_test_layouts(comm, shape, false)) {
    if (named.name.rfind("slab", 0) != 0) layouts.push_back(std::move(named));
  }
  return layouts;
}

// Stencils that reach one plane and two, on one side and on both, with and without edges.
std::vector<Case> box_cases() {
  return {{Derivative::first, DerivativeKind::centered, 5, true},
          {Derivative::first, DerivativeKind::backward, 3, false},
          {Derivative::second, DerivativeKind::forward, 3, false},
          {Derivative::second, DerivativeKind::centered, 3, true}};
}

}  // namespace

DISTLOPS_SPACE_TEMPLATE_TEST_CASE("derivatives, Laplacian and Gradient on box layouts",
                                  "[derivatives][box]", DISTLOPS_SCALAR_TYPES) {
  using T = TestType;
  const Communicator comm = world();
  const double rtol = 10 * space_tolerance<T, Space>();
  for_each_collective_path<Space>([&] {
    for (const Shape& shape : std::vector<Shape>{{7, 5}, {5, 4, 6}}) {
      const std::vector<T> global = random_values<T>(element_count(shape), 12);
      const int ndim = static_cast<int>(shape.size());
      for (const NamedLayout& named : box_layouts_of(comm, shape)) {
        const Layout& layout = named.layout;
        const auto x = DistributedArray<T, Space>::from_global(layout, global);
        for (int axis = 0; axis < ndim; ++axis) {
          for (const Case& c : box_cases()) {
            INFO("shape " << to_string(shape) << ", " << named.name << ", axis " << axis
                          << (c.which == Derivative::first ? " first " : " second ")
                          << to_string(c.kind) << " order " << c.order << " edge " << c.edge);
            const auto op = make<T, Space>(layout, c, axis, 0.5);
            const auto expected =
                reference_apply(global, shape, axis, c.which, c.kind, c.order, c.edge, 0.5);
            CHECK(all_close(op.apply(x).gather(), expected, rtol));
            check_apply_vdot(op, x, global, expected, rtol);
            CHECK(dottest(op, 5, space_dottest_tolerance<T, Space>()).passed);
          }
        }
        INFO("shape " << to_string(shape) << ", " << named.name << ", Laplacian and Gradient");
        LaplacianOptions options;
        options.axes.clear();
        options.weights.clear();
        options.sampling.clear();
        std::vector<T> expected(global.size(), T(0));
        for (int axis = 0; axis < ndim; ++axis) {
          options.axes.push_back(axis);
          options.weights.push_back(1.0 + axis);
          options.sampling.push_back(1.0 / (1 + axis));
          const auto part = reference_apply(global, shape, axis, Derivative::second,
                                            DerivativeKind::centered, 3, false, 1.0 / (1 + axis));
          for (std::size_t i = 0; i < expected.size(); ++i)
            expected[i] += T(real_type_t<T>(1.0 + axis)) * part[i];
        }
        const auto laplacian = Laplacian<T, Space>(layout, options);
        CHECK(all_close(laplacian.apply(x).gather(), expected, rtol));
        check_apply_vdot(laplacian, x, global, expected, rtol);
        CHECK(dottest(laplacian, 9, space_dottest_tolerance<T, Space>()).passed);
        const auto gradient = Gradient<T, Space>(
            layout, {.sampling = {0.5}, .edge = true, .kind = DerivativeKind::centered});
        const auto g = gradient.apply(x);
        REQUIRE(g.narrays() == std::size_t(ndim));
        for (int axis = 0; axis < ndim; ++axis) {
          CHECK(all_close(g[axis].gather(),
                          reference_apply(global, shape, axis, Derivative::first,
                                          DerivativeKind::centered, 3, true, 0.5),
                          rtol));
        }
        CHECK(dottest(gradient, 10, space_dottest_tolerance<T, Space>()).passed);
      }
    }
  });
}

TEST_CASE("derivative adjoints on box layouts are the transposed reference matrices",
          "[derivatives][box]") {
  using T = double;
  const Communicator comm = world();
  const Shape shape{6, 5};
  for (const NamedLayout& named : box_layouts_of(comm, shape)) {
    for (int axis = 0; axis < 2; ++axis) {
      for (const Case& c : box_cases()) {
        INFO(named.name << ", axis " << axis << " kind " << to_string(c.kind) << " order "
                        << c.order << " edge " << c.edge);
        const auto op = make<T>(named.layout, c, axis, 2.0);
        const Index n = element_count(shape);
        DenseMatrix<T> expected(n, n);
        for (Index j = 0; j < n; ++j) {
          std::vector<T> unit(static_cast<std::size_t>(n), T(0));
          unit[j] = T(1);
          const auto column =
              reference_apply(unit, shape, axis, c.which, c.kind, c.order, c.edge, 2.0);
          for (Index i = 0; i < n; ++i)
            expected(i, j) = column[i];
        }
        CHECK(matrices_close(assemble(op), expected, 10 * tolerance<T>()));
        CHECK(matrices_close(assemble_adjoint(op), DenseMatrix<T>(expected.transpose()),
                             10 * tolerance<T>()));
      }
    }
  }
}

TEST_CASE("derivatives match numbers computed by PyLops", "[derivatives][pylops]") {
  const Communicator comm = world();
  // import numpy as np, pylops
  // x = np.arange(7.0)**2 + np.sin(np.arange(7.0))
  // pylops.FirstDerivative(7, kind='centered', order=5, edge=True, sampling=0.5): D @ x, D.H @ x
  // pylops.SecondDerivative(7, kind='centered', edge=True, sampling=2.0): S @ x, S.H @ x
  const std::vector<double> x{0.,         1.84147098,  4.90929743, 9.14112001,
                              15.2431975, 24.04107573, 35.7205845};
  const std::vector<double> d5{3.68294197,  4.90929743, 7.19233245, 10.07859931,
                               14.73139311, 20.477387,  23.35901755};
  const std::vector<double> d5h{-1.02325475,  -5.0222099,   -7.80615611, -13.77853344,
                                -12.67113195, -52.64042567, 92.94171181};
  const std::vector<double> s{0.30658886, 0.30658886, 0.29099903, 0.46756373,
                              0.67395018, 0.72040764, 0.72040764};
  const std::vector<double> sh{0.46036775, 0.30658886,   0.29099903, 0.46756373,
                               9.60409631, -26.07003074, 14.94041506};
  const Layout layout(comm, {7});
  const auto xd = DistributedArray<double>::from_global(layout, x);
  const auto d = FirstDerivative<double>(layout, {.sampling = 0.5, .edge = true, .order = 5});
  const auto second = SecondDerivative<double>(layout, {.sampling = 2.0, .edge = true});
  CHECK(all_close(d.apply(xd).gather(), d5, 1e-8));
  CHECK(all_close(d.apply_adjoint(xd).gather(), d5h, 1e-8));
  CHECK(all_close(second.apply(xd).gather(), s, 1e-8));
  CHECK(all_close(second.apply_adjoint(xd).gather(), sh, 1e-8));

  // X = np.outer(np.arange(1.0, 5.0), np.arange(1.0, 4.0)**3)
  // L = pylops.Laplacian((4, 3), axes=(0, 1), weights=(1.0, 2.0), sampling=(1.0, 0.5), edge=True)
  const std::vector<double> big_x{1., 8., 27., 2., 16., 54., 3., 24., 81., 4., 32., 108.};
  const std::vector<double> l{96., 96., 96., 192., 192., 192., 288., 288., 288., 384., 384., 384.};
  const std::vector<double> lh{291., -552.,  369., 577.,  -1144., 603.,
                               853., -1816., 567., 1159., -2248., 1341.};
  const Layout grid(comm, {4, 3});
  const auto lap = Laplacian<double>(
      grid, {.axes = {0, 1}, .weights = {1.0, 2.0}, .sampling = {1.0, 0.5}, .edge = true});
  const auto xg = DistributedArray<double>::from_global(grid, big_x);
  CHECK(all_close(lap.apply(xg).gather(), l, 1e-12));
  CHECK(all_close(lap.apply_adjoint(xg).gather(), lh, 1e-12));
}

TEMPLATE_TEST_CASE("bad derivative arguments", "[derivatives][errors]", DISTLOPS_SCALAR_TYPES) {
  using T = TestType;
  const Communicator comm = world();
  const Layout layout(comm, {8, 4});
  CHECK_THROWS_AS(FirstDerivative<T>(layout, {.axis = 2}), InvalidArgument);
  CHECK_THROWS_AS(FirstDerivative<T>(layout, {.order = 4}), InvalidArgument);
  CHECK_THROWS_AS(FirstDerivative<T>(layout, {.sampling = 0.0}), InvalidArgument);
  // The one-sided edge formulas read 2 (order 3) or 3 samples, as for the local derivatives.
  CHECK_THROWS_AS(FirstDerivative<T>(Layout(comm, {1}), {.edge = true}), InvalidArgument);
  CHECK_THROWS_AS(SecondDerivative<T>(Layout(comm, {2}), {.edge = true}), InvalidArgument);
  // Without `edge` any length is valid, as in PyLops: rows a stencil cannot reach are zero.
  const Layout pair(comm, {2});
  CHECK(SecondDerivative<T>(pair)
            .apply(DistributedArray<T>::from_global(pair, std::vector<T>{T(1), T(5)}))
            .norm() == 0);
  const auto x = DistributedArray<T>::from_global(layout, random_values<T>(32, 5));
  CHECK(FirstDerivative<T>(layout, {.axis = 1, .order = 5}).apply(x).norm() == 0);
  CHECK_THROWS_AS(Laplacian<T>(layout, {.axes = {0, 1}, .weights = {1.0}, .sampling = {1.0, 1.0}}),
                  InvalidArgument);
  CHECK_THROWS_AS(Laplacian<T>(Layout(comm, {8}), {}), InvalidArgument);
  CHECK_THROWS_AS(Gradient<T>(layout, {.sampling = {1.0, 2.0, 3.0}}), InvalidArgument);
  CHECK(comm.allreduce(1, ReduceOp::sum) == comm.size());
}

DISTLOPS_SPACE_TEMPLATE_TEST_CASE("a second apply of a derivative allocates nothing",
                                  "[derivatives][allocation]", DISTLOPS_SCALAR_TYPES) {
  using T = TestType;
  const Communicator comm = world();
  const Layout layout(comm, {12, 5});
  const auto op = Laplacian<T, Space>(layout) + FirstDerivative<T, Space>(layout, {.order = 5});
  CHECK(second_apply_allocates_nothing(op));
  // A 3-d grid: ghost cells across the faces of every cut axis.
  const Shape shape{6, 5, 4};
  const Layout grid(comm, shape, LayoutOptions{.grid = default_grid(shape, comm.size())});
  LaplacianOptions three;
  three.axes = {0, 1, 2};
  three.weights = {1.0, 1.0, 1.0};
  three.sampling = {1.0, 1.0, 1.0};
  CHECK(second_apply_allocates_nothing(Laplacian<T, Space>(grid, three)));
}

namespace {

// Lowers the streaming threshold for its lifetime (every output above one byte streams).
struct StreamEveryOutput {
  StreamEveryOutput() { kernels::set_streaming_threshold_bytes(1); }
  ~StreamEveryOutput() { kernels::set_streaming_threshold_bytes(0); }
  StreamEveryOutput(const StreamEveryOutput&) = delete;
  StreamEveryOutput& operator=(const StreamEveryOutput&) = delete;
};

// y = op x, op^H x and the fused apply_vdot's y and x^H y, gathered.
template <class T>
struct Applies {
  std::vector<T> forward, adjoint, fused;
  std::complex<double> vdot;
};

template <class T>
Applies<T> apply_all(const LinearOperator<T>& op, const DistributedArray<T>& x) {
  Applies<T> result;
  result.forward = op.apply(x).gather();
  result.adjoint = op.apply_adjoint(x).gather();
  DistributedArray<T> y(op.range());
  RecordingSink<Host> sink;
  REQUIRE(op.apply_vdot(x, y, sink));
  result.fused = y.gather();
  result.vdot = sink.total();
  return result;
}

}  // namespace

TEMPLATE_TEST_CASE("stencil applies above the streaming threshold write the same values",
                   "[derivatives][laplacian][streaming]", DISTLOPS_SCALAR_TYPES) {
  using T = TestType;
  const Communicator comm = world();
  const double rtol = 10 * tolerance<T>();
  // Rows long enough for whole vectors at every level, of lengths that start rows at every
  // alignment.
  for (const Shape& shape : std::vector<Shape>{{9, 70}, {4, 3, 53}}) {
    const int ndim = static_cast<int>(shape.size());
    const std::vector<T> global = random_values<T>(element_count(shape), 12);
    std::vector<T> laplacian_expected(global.size(), T(0));
    for (int axis = 0; axis < ndim; ++axis) {
      const auto part = reference_apply(global, shape, axis, Derivative::second,
                                        DerivativeKind::centered, 3, false, 1.0);
      for (std::size_t i = 0; i < global.size(); ++i)
        laplacian_expected[i] += part[i];
    }
    LaplacianOptions all_axes;
    all_axes.axes.clear();
    all_axes.weights.assign(static_cast<std::size_t>(ndim), 1.0);
    all_axes.sampling.assign(static_cast<std::size_t>(ndim), 1.0);
    for (int axis = 0; axis < ndim; ++axis)
      all_axes.axes.push_back(axis);
    for (const Layout& layout : layouts_of(comm, shape)) {
      const auto x = DistributedArray<T>::from_global(layout, global);
      // The combine path (taps on other rows only), the row kernel with no other rows, and
      // the row kernel with 2 or 4 other rows (with combine on the boundary boxes).
      const std::vector<std::pair<LinearOperator<T>, std::vector<T>>> operators = {
          {FirstDerivative<T>(layout, {.axis = 0}),
           reference_apply(global, shape, 0, Derivative::first, DerivativeKind::centered, 3, false,
                           1.0)},
          {SecondDerivative<T>(layout, {.axis = ndim - 1}),
           reference_apply(global, shape, ndim - 1, Derivative::second, DerivativeKind::centered, 3,
                           false, 1.0)},
          {Laplacian<T>(layout, all_axes), laplacian_expected}};
      for (std::size_t k = 0; k < operators.size(); ++k) {
        INFO("shape " << to_string(shape) << " layout " << layout.describe() << " operator " << k);
        const auto& [op, expected] = operators[k];
        const std::size_t block_bytes = sizeof(T) * static_cast<std::size_t>(x.local_size());
        REQUIRE(kernels::stores_for_output(block_bytes) == kernels::Stores::cached);
        const Applies<T> cached = apply_all(op, x);
        Applies<T> streamed;
        {
          const StreamEveryOutput streaming;
          REQUIRE(kernels::stores_for_output(2) == kernels::Stores::streaming);
          streamed = apply_all(op, x);
        }
        CHECK(all_close(streamed.forward, expected, rtol));
        CHECK(streamed.forward == cached.forward);
        CHECK(streamed.adjoint == cached.adjoint);
        CHECK(streamed.fused == cached.fused);
        CHECK(streamed.vdot == cached.vdot);
      }
    }
  }
}
