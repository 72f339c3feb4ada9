// SPDX-License-Identifier: BSD-3-Clause
// Copyright (c) 2026 The distlops authors
// PoststackLinearModelling against the dense matrix of PyLops' formula written here from its
// definition, (W D) (x) I over the spatial axes, with D PyLops' first derivative without edge
// (centered or forward, unit sampling) and W the convolution matrix centred at the wavelet's
// middle tap: explicit and implicit forms, 1-d to 3-d models, odd and even wavelets; the
// distributed form over traces split along a spatial axis, with uneven splits, ranks holding no
// traces and replicated models, box layouts that keep time whole, at 1 to 4 ranks; dot tests;
// errors on every rank. In every memory space.
#include "dense_algebra.hpp"
#include "dense_reference.hpp"
#include "distlops/operators/signal/poststack.hpp"
#include "expect_everywhere.hpp"
#include "local_operator_checks.hpp"
#include "spaces.hpp"
#include "test_support.hpp"

using namespace distlops;
using namespace distlops::testing;

namespace {

template <class T>
DenseMatrix<T> modelling_matrix(const std::vector<T>& w, Index nt0, DerivativeKind kind,
                                Index traces, bool time_last = false) {
  DenseMatrix<T> d = DenseMatrix<T>::Zero(nt0, nt0), c = DenseMatrix<T>::Zero(nt0, nt0);
  for (Index t = 0; t + 1 < nt0; ++t) {
    if (kind == DerivativeKind::forward) {
      d(t, t) = T(-1);
      d(t, t + 1) = T(1);
    } else if (t > 0) {
      d(t, t - 1) = T(-0.5);
      d(t, t + 1) = T(0.5);
    }
  }
  const auto taps = Index(w.size());
  for (Index i = 0; i < nt0; ++i) {
    for (Index j = 0; j < nt0; ++j) {
      const Index k = i - j + taps / 2;
      if (k >= 0 && k < taps) c(i, j) = w[std::size_t(k)];
    }
  }
  const DenseMatrix<T> wd = product(c, d);
  // Time on the first axis: sample t of trace s is element t * traces + s; on the last axis,
  // element s * nt0 + t.
  const auto at = [&](Index t, Index s) { return time_last ? s * nt0 + t : t * traces + s; };
  DenseMatrix<T> m = DenseMatrix<T>::Zero(nt0 * traces, nt0 * traces);
  for (Index i = 0; i < nt0; ++i) {
    for (Index j = 0; j < nt0; ++j) {
      for (Index s = 0; s < traces; ++s)
        m(at(i, s), at(j, s)) = wd(i, j);
    }
  }
  return m;
}

}  // namespace

DISTLOPS_SPACE_TEMPLATE_TEST_CASE("local PoststackLinearModelling is W D along time",
                                  "[poststack][local]", DISTLOPS_SCALAR_TYPES) {
  using T = TestType;
  std::uint64_t key = 1;
  for (const Shape& spatial : {Shape{}, Shape{3}, Shape{2, 3}}) {
    for (Index taps : {1, 4, 5}) {
      for (DerivativeKind kind : {DerivativeKind::centered, DerivativeKind::forward}) {
        for (bool explicit_matrix : {false, true}) {
          const Index nt0 = 7;
          INFO("spatial " << to_string(spatial) << " taps " << taps << " kind " << to_string(kind)
                          << " explicit " << explicit_matrix);
          const std::vector<T> w = random_values<T>(taps, key++);
          Shape dims{nt0};
          dims.insert(dims.end(), spatial.begin(), spatial.end());
          const auto op = local::PoststackLinearModelling<T, Space>(
              w, nt0, spatial, {.kind = kind, .explicit_matrix = explicit_matrix});
          check_local_operator(op, modelling_matrix(w, nt0, kind, element_count(spatial)), dims,
                               dims);
        }
      }
    }
  }
  // Time on the last axis of (traces, samples) sections.
  const std::vector<T> w = random_values<T>(3, key++);
  for (int axis : {1, -1}) {
    check_local_operator(local::PoststackLinearModelling<T, Space>(w, 6, {4}, {.time_axis = axis}),
                         modelling_matrix(w, 6, DerivativeKind::centered, 4, true), Shape{4, 6},
                         Shape{4, 6});
  }
}

DISTLOPS_SPACE_TEMPLATE_TEST_CASE("distributed PoststackLinearModelling models each rank's traces",
                                  "[poststack][distributed]", DISTLOPS_SCALAR_TYPES) {
  using T = TestType;
  const Communicator comm = world();
  const double rtol = 10 * space_tolerance<T, Space>();
  const Index nt0 = 9;
  const std::vector<T> w = random_values<T>(5, 20);
  std::vector<Layout> layouts = {Layout(comm, {nt0, 5}, Partition::SCATTER, 1),
                                 Layout(comm, {nt0, 2, 3}, Partition::SCATTER, 1),
                                 Layout(comm, {nt0, 2, 3}, Partition::SCATTER, 2),
                                 Layout(comm, {nt0, 4}, Partition::BROADCAST)};
  // All traces but one per odd rank on rank 0 (while traces last); even ranks > 0 hold none.
  std::vector<Shape> local(comm.size(), Shape{nt0, 0});
  Index rest = 6;
  for (int r = 1; r < comm.size(); ++r) {
    local[r][1] = rest > 1 ? r % 2 : 0;
    rest -= local[r][1];
  }
  local[0][1] = rest;
  layouts.emplace_back(comm, Shape{nt0, 6}, LayoutOptions{.axis = 1, .local_shapes = local});
  // Box layouts that keep time whole: pencils along time over a grid of the traces, an uneven
  // grid whose last parts are empty, and boxes that form no grid.
  const Shape cube{nt0, 4, 5};
  const std::vector<int> trace_axes{1, 2};
  std::vector<std::vector<Index>> extents{{nt0}, {4}, {5}};
  if (comm.size() > 1) {
    extents[2] = default_split(5, comm.size() - 1);
    extents[2].push_back(0);
  }
  std::vector<ArrayBox> boxes;  // rank 0: traces (0, *); the others cut (1..3, *) along axis 2
  for (int r = 0; r < comm.size(); ++r) {
    const std::vector<Index> parts = default_split(5, std::max(1, comm.size() - 1));
    ArrayBox box{{0, r == 0 ? 0 : 1, 0}, {nt0, r == 0 ? 1 : 4, 5}};
    if (r > 0) {
      for (int q = 1; q < r; ++q)
        box.lower[2] += parts[std::size_t(q - 1)];
      box.upper[2] = box.lower[2] + parts[std::size_t(r - 1)];
    }
    if (comm.size() == 1) box.upper[1] = 4;
    boxes.push_back(box);
  }
  layouts.emplace_back(comm, cube,
                       LayoutOptions{.grid = default_grid(cube, comm.size(), trace_axes)});
  layouts.emplace_back(comm, cube, LayoutOptions{.grid_extents = extents});
  layouts.emplace_back(comm, cube, LayoutOptions{.boxes = boxes});
  for (const Layout& layout : layouts) {
    for (bool explicit_matrix : {false, true}) {
      INFO("layout " << layout.describe() << " explicit " << explicit_matrix);
      const auto op = PoststackLinearModelling<T, Space>(
          w, layout, {.kind = DerivativeKind::centered, .explicit_matrix = explicit_matrix});
      CHECK(op.domain() == layout);
      CHECK(op.range() == layout);
      const DenseMatrix<T> reference =
          modelling_matrix(w, nt0, DerivativeKind::centered, layout.global_size() / nt0);
      DistributedArray<T, Space> x(layout), y(layout);
      fill_random(x, 21);
      fill_random(y, 22);
      CHECK(matrices_close(DenseMatrix<T>(global_vector(op.apply(x))),
                           DenseMatrix<T>(product(reference, global_vector(x))), rtol));
      CHECK(matrices_close(DenseMatrix<T>(global_vector(op.apply_adjoint(y))),
                           DenseMatrix<T>(adjoint_product(reference, global_vector(y))), rtol));
      CHECK(dottest(op, 23, space_dottest_tolerance<T, Space>()).passed);
    }
  }
  // (traces, samples) split over the traces, time last (the post-stack demo's grid).
  const Layout sections(comm, {5, nt0});
  const auto op = PoststackLinearModelling<T, Space>(w, sections, {.time_axis = 1});
  DistributedArray<T, Space> x(sections);
  fill_random(x, 24);
  CHECK(matrices_close(DenseMatrix<T>(global_vector(op.apply(x))),
                       DenseMatrix<T>(modelling_matrix(w, nt0, DerivativeKind::centered, 5, true) *
                                      global_vector(x)),
                       rtol));
  CHECK(dottest(op, 25, space_dottest_tolerance<T, Space>()).passed);
  expect_in_step(comm);
}

TEMPLATE_TEST_CASE("PoststackLinearModelling rejects bad arguments on every rank",
                   "[poststack][errors]", float, std::complex<double>) {
  using T = TestType;
  const Communicator comm = world();
  const std::vector<T> w(5, T(1)), none;
  const Layout traces(comm, {4, 6}, Partition::SCATTER, 1);
  expect_everywhere<InvalidArgument>(
      comm, [&] { (void)PoststackLinearModelling<T>(w, traces); },
      "PoststackLinearModelling: the wavelet (5 samples) is longer than the time axis (nt0 = 4)");
  expect_everywhere<InvalidArgument>(
      comm, [&] { (void)PoststackLinearModelling<T>(none, traces); }, "the wavelet is empty");
  expect_everywhere<InvalidArgument>(
      comm,
      [&] {
        (void)PoststackLinearModelling<T>(std::span<const T>(w).first(3), traces,
                                          {.kind = DerivativeKind::backward});
      },
      "the derivative kind must be forward or centered, got backward");
  if (comm.size() > 1) {
    expect_everywhere<InvalidArgument>(
        comm,
        [&] {
          (void)PoststackLinearModelling<T>(w, Layout(comm, {8, 3}));
        },
        "is split along time (axis 0)");
    // A grid that cuts time.
    expect_everywhere<InvalidArgument>(
        comm,
        [&] {
          (void)PoststackLinearModelling<T>(
              w, Layout(comm, {8, 3}, LayoutOptions{.grid = default_grid({8, 3}, comm.size())}));
        },
        "is split along time (axis 0)");
  }
  expect_everywhere<InvalidArgument>(
      comm, [&] { (void)PoststackLinearModelling<T>(w, traces, {.time_axis = 2}); },
      "time_axis 2 is out of range for a 2-d model");
  expect_everywhere<InvalidArgument>(
      comm,
      [&] {
        (void)PoststackLinearModelling<T>(w, Layout(comm, {3, 8}),
                                          {.explicit_matrix = true, .time_axis = 1});
      },
      "the explicit form needs time on axis 0, got time_axis 1");
  if (comm.size() > 1) {
    const std::vector<T> longer(comm.rank() == 1 ? 7 : 3, T(1));
    expect_everywhere<InvalidArgument>(
        comm, [&] { (void)PoststackLinearModelling<T>(longer, traces); },
        "the wavelet (7 samples) is longer than the time axis");
    const std::vector<T> other(3, T(comm.rank() == 1 ? 2 : 1));
    expect_everywhere<InvalidArgument>(
        comm, [&] { (void)PoststackLinearModelling<T>(other, traces); },
        "PoststackLinearModelling's wavelet and options differs between ranks");
  }
  CHECK_THROWS_AS(local::PoststackLinearModelling<T>(w, 0), InvalidArgument);
  CHECK_THROWS_AS(local::PoststackLinearModelling<T>(w, 4), InvalidArgument);
}
