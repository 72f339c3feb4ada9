// SPDX-License-Identifier: BSD-3-Clause
// Copyright (c) 2026 The distlops authors
// DistributedArray against references computed on the global array: construction and gathers,
// element-wise algebra, fused updates, reductions and norms (with Eigen), norms along axes,
// redistribution, ghost cells, masks and replicas. Every case runs on uneven splits, ranks
// owning nothing, 1-d to 3-d arrays split along the first or a later axis, all scalar types, in
// every memory space (the collectives of device arrays over both of their paths).
#include <Eigen/Core>

#include <limits>

#include "box_layouts.hpp"
#include "distlops/core/buffer.hpp"
#include "distlops/core/ghost_cells.hpp"
#include "distlops/core/redistribute.hpp"
#include "distlops/core/transport.hpp"
#include "spaces.hpp"
#include "test_support.hpp"

using namespace distlops;
using namespace distlops::testing;

namespace {

constexpr double infinity = std::numeric_limits<double>::infinity();

template <class T>
using Vector = Eigen::Matrix<T, Eigen::Dynamic, 1>;

template <class T>
Eigen::Map<const Vector<T>> as_eigen(const std::vector<T>& values) {
  return {values.data(), static_cast<Eigen::Index>(values.size())};
}

template <class Space, class T>
DistributedArray<T, Space> make_array(const Layout& layout, const std::vector<T>& global) {
  return DistributedArray<T, Space>::from_global(layout, global);
}

// Reference norm of a vector (Eigen for 1, 2 and inf, plain loops for the others).
template <class T>
double reference_norm(const std::vector<T>& values, double ord) {
  const auto v = as_eigen(values);
  if (ord == 2) return static_cast<double>(v.norm());
  if (ord == 1) return static_cast<double>(v.template lpNorm<1>());
  if (ord == infinity)
    return values.empty() ? 0.0 : static_cast<double>(v.template lpNorm<Eigen::Infinity>());
  if (ord == -infinity) {
    double smallest = infinity;
    for (const T& x : values)
      smallest = std::min(smallest, static_cast<double>(std::abs(x)));
    return smallest;
  }
  if (ord == 0) {
    double count = 0;
    for (const T& x : values)
      count += x != T(0) ? 1 : 0;
    return count;
  }
  double sum = 0;
  for (const T& x : values)
    sum += std::pow(static_cast<double>(std::abs(x)), ord);
  return std::pow(sum, 1.0 / ord);
}

const std::vector<Partition> all_partitions = {Partition::SCATTER, Partition::BROADCAST,
                                               Partition::UNSAFE_BROADCAST};

// The layouts the array tests run on: the slabs of shape_cases() in every partition, and the
// box layouts of a 2-d and a 3-d shape (grids cut along several axes, uneven grids with empty
// ranks, explicit boxes) that are not slabs already among them.
std::vector<NamedLayout> array_test_layouts(const Communicator& comm) {
  std::vector<NamedLayout> layouts;
  for (const ShapeCase& c : shape_cases()) {
    for (Partition partition : all_partitions) {
      layouts.push_back(
          {describe(c) + " " + to_string(partition), Layout(comm, c.shape, partition, c.axis)});
    }
  }
  for (const Shape& shape : {Shape{5, 7}, Shape{4, 3, 5}}) {
    for (NamedLayout& named : box_test_layouts(comm, shape, false)) {
      if (named.layout.is_slab() && named.name.find("uneven") == std::string::npos) continue;
      layouts.push_back({"shape " + to_string(shape) + " " + named.name, named.layout});
    }
  }
  return layouts;
}

// dot, vdot and norms of masked arrays against those of the parts of their global arrays
// that this rank's group holds.
template <class T, class Space>
void check_group_reductions(const DistributedArray<T, Space>& x,
                            const DistributedArray<T, Space>& y, const std::vector<T>& part_x,
                            const std::vector<T>& part_y, double rtol) {
  CHECK(close(x.vdot(y), T(as_eigen(part_x).dot(as_eigen(part_y))), rtol));
  CHECK(close(x.dot(y), T((as_eigen(part_x).transpose() * as_eigen(part_y))(0, 0)), rtol));
  for (double ord : {2.0, 1.0, infinity, -infinity}) {
    INFO("ord " << ord);
    CHECK(close(static_cast<double>(x.norm(ord)), reference_norm(part_x, ord), rtol));
  }
}

}  // namespace

DISTLOPS_SPACE_TEMPLATE_TEST_CASE("arrays built from global data gather back to it", "[array]",
                                  DISTLOPS_SCALAR_TYPES) {
  using T = TestType;
  const Communicator comm = world();
  for_each_collective_path<Space>([&] {
    for (const NamedLayout& named : array_test_layouts(comm)) {
      INFO(named.name);
      const Layout& layout = named.layout;
      const Shape& shape = layout.global_shape();
      const Partition partition = layout.partition();
      const std::vector<T> global = random_values<T>(element_count(shape), 17);

      const auto x = DistributedArray<T, Space>::from_global(layout, global);
      CHECK(x.global_shape() == shape);
      CHECK(x.local_size() == layout.local_size());
      CHECK(x.gather() == global);
      // The local block is this rank's box of the global array (replicated: all of it).
      CHECK(local_values(x) == box_of(global, shape, layout.box()));
      const int root = comm.size() - 1;
      const auto y = DistributedArray<T, Space>::from_root(
          layout, comm.rank() == root ? std::span<const T>(global) : std::span<const T>(), root);
      CHECK(y.gather() == global);
      const std::vector<T> on_root = y.gather_to(0);
      if (comm.rank() == 0) {
        CHECK(on_root == global);
      } else {
        CHECK(on_root.empty());
      }
      const DistributedArray<T, Space> filled(layout, T(3));
      CHECK(filled.gather() == std::vector<T>(global.size(), T(3)));
      if (partition != Partition::UNSAFE_BROADCAST) x.check_replicas();
    }
  });
}

DISTLOPS_SPACE_TEMPLATE_TEST_CASE("zeros, empty and to_dist build arrays as PyLops-MPI does",
                                  "[array]", DISTLOPS_SCALAR_TYPES) {
  using T = TestType;
  using Array = DistributedArray<T, Space>;
  const Communicator comm = world();
  for (const ShapeCase& c : shape_cases()) {
    for (Partition partition : all_partitions) {
      INFO(describe(c) << " " << to_string(partition));
      const Layout layout(comm, c.shape, partition, c.axis);
      const Array zeros = Array::zeros(layout);
      CHECK(zeros.layout() == layout);
      CHECK(local_values(zeros) == std::vector<T>(std::size_t(layout.local_size()), T(0)));
      const Array empty = Array::empty(layout);
      CHECK(empty.layout() == layout);
      CHECK(empty.local_size() == layout.local_size());

      // Every rank holds the global array and keeps its part (replicated: all of it).
      const std::vector<T> global = random_values<T>(element_count(c.shape), 19);
      const Array x = Array::to_dist(
          global, {.shape = c.shape, .comm = comm, .partition = partition, .axis = c.axis});
      CHECK(x.layout() == layout);
      const std::vector<T> expected =
          partition == Partition::SCATTER
              ? slice_along(global, c.shape, layout.axis(), layout.offset(comm.rank()),
                            layout.local_extent(comm.rank()))
              : global;
      CHECK(local_values(x) == expected);
    }
  }
  // Grids and boxes.
  const std::vector<T> cube = random_values<T>(60, 23);
  const std::vector<int> grid = default_grid({3, 4, 5}, comm.size());
  const Array by_grid = Array::to_dist(cube, {.shape = {3, 4, 5}, .grid = grid});
  CHECK(by_grid.layout() == Layout(comm, {3, 4, 5}, LayoutOptions{.grid = grid}));
  CHECK(local_values(by_grid) == box_of(cube, {3, 4, 5}, by_grid.layout().box()));
  const Layout boxed = box_test_layouts(comm, {3, 4, 5}, false).back().layout;
  std::vector<ArrayBox> boxes;
  for (int r = 0; r < comm.size(); ++r)
    boxes.push_back(boxed.box(r));
  const Array by_boxes = Array::to_dist(cube, {.shape = {3, 4, 5}, .boxes = boxes});
  CHECK(by_boxes.layout() == boxed);
  CHECK(local_values(by_boxes) == box_of(cube, {3, 4, 5}, boxed.box()));
  // Defaults: one axis with every element, MPI_COMM_WORLD, SCATTER.
  const std::vector<T> line = random_values<T>(11, 20);
  const Array flat = Array::to_dist(line);
  CHECK(flat.layout() == Layout(comm, {11}));
  CHECK(flat.gather() == line);
  // Custom local shapes (the last rank holds everything) and a mask.
  std::vector<Shape> local_shapes(std::size_t(comm.size()), Shape{0, 3});
  local_shapes.back() = {4, 3};
  const std::vector<T> matrix = random_values<T>(12, 21);
  const Array custom = Array::to_dist(matrix, {.shape = {4, 3}, .local_shapes = local_shapes});
  CHECK(custom.local_shape() == local_shapes[std::size_t(comm.rank())]);
  CHECK(custom.gather() == matrix);
  std::vector<int> mask(std::size_t(comm.size()));
  for (int r = 0; r < comm.size(); ++r)
    mask[std::size_t(r)] = r % 2;
  const Array masked = Array::to_dist(matrix, {.shape = {4, 3}, .axis = 1, .mask = mask});
  CHECK(masked.layout() == Layout(comm, {4, 3}, LayoutOptions{.axis = 1, .mask = mask}));
  CHECK(masked.gather() == matrix);
  // BROADCAST takes rank 0's values when the ranks' arrays differ.
  const std::vector<T> mine = random_values<T>(5, 200 + comm.rank());
  const Array replicated = Array::to_dist(mine, {.partition = Partition::BROADCAST});
  CHECK(local_values(replicated) == random_values<T>(5, 200));
  replicated.check_replicas();

  // Bad input raises the same error on every rank, never a hang.
  CHECK_THROWS_AS(Array::to_dist(matrix, {.shape = {5, 3}}), ShapeMismatch);
  const std::vector<T> uneven = random_values<T>(comm.rank() == comm.size() - 1 ? 13 : 12, 22);
  CHECK_THROWS_AS(Array::to_dist(uneven, {.shape = {4, 3}}), ShapeMismatch);
  if (comm.size() > 1) {
    CHECK_THROWS_AS(Array::to_dist(uneven), InvalidArgument);  // shapes differ between ranks
  }
  CHECK_THROWS_AS(Array::to_dist(matrix, {.shape = {4, 3}, .axis = 2}), InvalidArgument);
  CHECK(comm.allreduce(1, ReduceOp::sum) == comm.size());
}

DISTLOPS_SPACE_TEMPLATE_TEST_CASE("BROADCAST data entering from one rank are broadcast once",
                                  "[array]", DISTLOPS_SCALAR_TYPES) {
  using T = TestType;
  const Communicator comm = world();
  const Layout layout(comm, {6}, Partition::BROADCAST);
  // Every rank passes different values; rank 0's win everywhere.
  const std::vector<T> mine = random_values<T>(6, 100 + comm.rank());
  const std::vector<T> rank0 = random_values<T>(6, 100);
  const auto x = DistributedArray<T, Space>::from_global(layout, mine);
  CHECK(local_values(x) == rank0);
  x.check_replicas();
  // UNSAFE_BROADCAST keeps every rank's own values.
  const Layout unsafe(comm, {6}, Partition::UNSAFE_BROADCAST);
  const auto u = DistributedArray<T, Space>::from_global(unsafe, mine);
  CHECK(local_values(u) == mine);
  if (comm.size() > 1) {
    CHECK_THROWS_AS(u.check_replicas(), ReplicaMismatch);
  }
}

DISTLOPS_SPACE_TEMPLATE_TEST_CASE("element-wise algebra matches the global reference", "[array]",
                                  DISTLOPS_SCALAR_TYPES) {
  using T = TestType;
  const Communicator comm = world();
  const double rtol = space_tolerance<T, Space>();
  for (const NamedLayout& named : array_test_layouts(comm)) {
    INFO(named.name);
    const Layout& layout = named.layout;
    const Index n = layout.global_size();
    const std::vector<T> gx = random_values<T>(n, 1), gy = random_values<T>(n, 2),
                         gz = random_values<T>(n, 3);
    std::vector<T> gy_nonzero = gy;
    for (T& v : gy_nonzero)
      v += T(real_type_t<T>(3));
    const auto x = make_array<Space>(layout, gx), y = make_array<Space>(layout, gy),
               z = make_array<Space>(layout, gz);
    const auto w = make_array<Space>(layout, gy_nonzero);
    const T a = random_scalar<T>(4), b = random_scalar<T>(5), s = random_scalar<T>(6);

    auto reference = [&](auto f) {
      std::vector<T> out(static_cast<std::size_t>(n));
      for (Index i = 0; i < n; ++i)
        out[i] = f(i);
      return out;
    };
    CHECK(all_close((x + y).gather(), reference([&](Index i) { return gx[i] + gy[i]; }), rtol));
    CHECK(all_close((x - y).gather(), reference([&](Index i) { return gx[i] - gy[i]; }), rtol));
    CHECK(all_close((x * y).gather(), reference([&](Index i) { return gx[i] * gy[i]; }), rtol));
    CHECK(all_close((x / w).gather(), reference([&](Index i) { return gx[i] / gy_nonzero[i]; }),
                    rtol));
    CHECK(all_close((x + s).gather(), reference([&](Index i) { return gx[i] + s; }), rtol));
    CHECK(all_close((s - x).gather(), reference([&](Index i) { return s - gx[i]; }), rtol));
    CHECK(all_close((x * s).gather(), reference([&](Index i) { return gx[i] * s; }), rtol));
    CHECK(all_close((s * x).gather(), reference([&](Index i) { return s * gx[i]; }), rtol));
    CHECK(all_close((x / s).gather(), reference([&](Index i) { return gx[i] / s; }), rtol));
    CHECK(all_close((s / w).gather(), reference([&](Index i) { return s / gy_nonzero[i]; }), rtol));
    CHECK(all_close((-x).gather(), reference([&](Index i) { return -gx[i]; }), rtol));
    CHECK(all_close(x.conj().gather(), reference([&](Index i) { return conjugate(gx[i]); }), rtol));

    auto t = x.copy();
    t += y;
    t -= z;
    t *= w;
    t /= s;
    t += s;
    t -= b;
    t *= a;
    CHECK(all_close(t.gather(), reference([&](Index i) {
                      return (((gx[i] + gy[i] - gz[i]) * gy_nonzero[i]) / s + s - b) * a;
                    }),
                    rtol));
    t.copy_from(x).axpy(a, y);
    CHECK(all_close(t.gather(), reference([&](Index i) { return gx[i] + a * gy[i]; }), rtol));
    t.copy_from(x).axpby(a, y, b);
    CHECK(all_close(t.gather(), reference([&](Index i) { return a * gy[i] + b * gx[i]; }), rtol));
    t.copy_from(z).axpbypcz(a, x, b, y, s);
    CHECK(all_close(t.gather(),
                    reference([&](Index i) { return a * gx[i] + b * gy[i] + s * gz[i]; }), rtol));
    t.fill(T(std::numeric_limits<real_type_t<T>>::quiet_NaN()));
    t.axpbypcz(a, x, b, y, T(0));  // c = 0 must not read the (NaN) destination
    CHECK(all_close(t.gather(), reference([&](Index i) { return a * gx[i] + b * gy[i]; }), rtol));
    t.copy_from(x).scale(a).conj_in_place();
    CHECK(all_close(t.gather(), reference([&](Index i) { return conjugate(a * gx[i]); }), rtol));
    CHECK(x.zeros_like().gather() == std::vector<T>(static_cast<std::size_t>(n), T(0)));
    CHECK(x.empty_like().layout() == layout);
  }
}

DISTLOPS_SPACE_TEMPLATE_TEST_CASE("dot, vdot and norms equal Eigen's on the global vector",
                                  "[array][reductions]", DISTLOPS_SCALAR_TYPES) {
  using T = TestType;
  using R = real_type_t<T>;
  const Communicator comm = world();
  const double rtol = space_tolerance<T, Space>();
  for_each_collective_path<Space>([&] {
    for (const NamedLayout& named : array_test_layouts(comm)) {
      INFO(named.name);
      const Layout& layout = named.layout;
      const Index n = layout.global_size();
      std::vector<T> gx = random_values<T>(n, 7);
      const std::vector<T> gy = random_values<T>(n, 8);
      if (n > 2) gx[1] = T(0);  // something for the 0-"norm" to count
      const auto x = make_array<Space>(layout, gx), y = make_array<Space>(layout, gy);
      // Bilinear dot (no conjugate) and vdot (conjugate of the first argument).
      const T expected_dot = (as_eigen(gx).transpose() * as_eigen(gy))(0, 0);
      const T expected_vdot = as_eigen(gx).dot(as_eigen(gy));
      CHECK(close(x.dot(y), expected_dot, rtol));
      CHECK(close(x.vdot(y), expected_vdot, rtol));
      if (n == 0) continue;
      for (double ord : {2.0, 1.0, 0.0, 3.0, 0.5, -1.5, infinity, -infinity}) {
        INFO("ord " << ord);
        const double expected = reference_norm(gx, ord);
        const double actual = static_cast<double>(x.norm(ord));
        if (std::isinf(expected)) {
          CHECK(actual == expected);
        } else {
          CHECK(close(actual, expected, 10 * rtol));
        }
      }
      CHECK(std::is_same_v<decltype(x.norm()), R>);
    }
  });
}

DISTLOPS_SPACE_TEMPLATE_TEST_CASE("norms along an axis equal the reference per line",
                                  "[array][reductions]", DISTLOPS_SCALAR_TYPES) {
  using T = TestType;
  const Communicator comm = world();
  for_each_collective_path<Space>([&] {
    for (const NamedLayout& named : array_test_layouts(comm)) {
      const Layout& layout = named.layout;
      const Shape& shape = layout.global_shape();
      if (shape.size() < 2 || element_count(shape) == 0) continue;
      {
        const std::vector<T> gx = random_values<T>(element_count(shape), 9);
        const auto x = make_array<Space>(layout, gx);
        const int ndim = static_cast<int>(shape.size());
        for (int norm_axis = 0; norm_axis < ndim; ++norm_axis) {
          for (double ord : {2.0, 1.0, 3.0, infinity, -infinity, 0.0}) {
            INFO(named.name << " norm axis " << norm_axis << " ord " << ord);
            // Reference: collect each line along norm_axis of the global array.
            Shape output_shape = shape;
            output_shape.erase(output_shape.begin() + norm_axis);
            const Shape strides = strides_of(shape);
            const Shape output_strides = strides_of(output_shape);
            std::vector<double> expected(static_cast<std::size_t>(element_count(output_shape)));
            for (Index o = 0; o < static_cast<Index>(expected.size()); ++o) {
              Index base = 0, remainder = o;
              for (int k = 0, ko = 0; k < ndim; ++k) {
                if (k == norm_axis) continue;
                base += (remainder / output_strides[ko]) * strides[k];
                remainder %= output_strides[ko];
                ++ko;
              }
              std::vector<T> line;
              for (Index l = 0; l < shape[norm_axis]; ++l)
                line.push_back(gx[base + l * strides[norm_axis]]);
              expected[o] = reference_norm(line, ord);
            }
            const auto actual = x.norm(ord, norm_axis);
            REQUIRE(actual.size() == expected.size());
            for (std::size_t i = 0; i < expected.size(); ++i) {
              CHECK(close(static_cast<double>(actual[i]), expected[i],
                          10 * space_tolerance<T, Space>()));
            }
          }
        }
        CHECK_THROWS_AS(x.norm(2, ndim), InvalidArgument);
      }
    }
  });
}

DISTLOPS_SPACE_TEMPLATE_TEST_CASE("redistribution moves data between axes and partitions",
                                  "[array][redistribute]", DISTLOPS_SCALAR_TYPES) {
  using T = TestType;
  const Communicator comm = world();
  const int size = comm.size();
  for_each_collective_path<Space>([&] {
    for (const ShapeCase& c : shape_cases()) {
      const int ndim = static_cast<int>(c.shape.size());
      const std::vector<T> global = random_values<T>(element_count(c.shape), 12);
      const Layout source(comm, c.shape, Partition::SCATTER, c.axis);
      const auto x = make_array<Space>(source, global);
      std::vector<Layout> targets;
      for (int axis = 0; axis < ndim; ++axis)
        targets.emplace_back(comm, c.shape, Partition::SCATTER, axis);
      targets.emplace_back(comm, c.shape, Partition::BROADCAST, c.axis);
      targets.emplace_back(comm, c.shape, Partition::UNSAFE_BROADCAST, 0);
      // Uneven custom extents along the source axis: everything on the last rank.
      std::vector<Shape> skewed(size, c.shape);
      const int axis = source.axis();
      for (int r = 0; r < size; ++r)
        skewed[r][axis] = r == size - 1 ? c.shape[axis] : 0;
      targets.emplace_back(comm, c.shape, LayoutOptions{.axis = axis, .local_shapes = skewed});
      for (const Layout& target : targets) {
        INFO(describe(c) << " to " << target.describe());
        const auto moved = x.redistribute(target);
        CHECK(moved.layout() == target);
        CHECK(moved.gather() == global);
        if (!target.replicated()) {
          const auto expected =
              slice_along(global, c.shape, target.axis(), target.offset(comm.rank()),
                          target.local_extent(comm.rank()));
          CHECK(local_values(moved) == expected);
        }
        // and back
        const auto back = moved.redistribute(source);
        CHECK(back.gather() == global);
        CHECK(local_values(back) == local_values(x));
      }
      // A plan executed twice through a transport of the caller's.
      const Layout last_axis(comm, c.shape, Partition::SCATTER, ndim - 1);
      const RedistributePlan plan(source, last_axis);
      const std::unique_ptr<Transport> transport = make_transport<Space>(comm);
      for (int repeat = 0; repeat < 2; ++repeat) {
        DistributedArray<T, Space> moved(last_axis);
        plan.execute(*transport, x.data(), moved.data());
        CHECK(moved.gather() == global);
      }
      if (ndim > 1) {
        const auto other = x.redistribute((source.axis() + 1) % ndim);
        CHECK(other.axis() == (source.axis() + 1) % ndim);
        CHECK(other.gather() == global);
      }
    }
  });
  SECTION("chunked transfers") {
    const ChunkLimit limit(3 * sizeof(T));
    const Shape shape{5, 7, 3};
    const std::vector<T> global = random_values<T>(element_count(shape), 13);
    const auto x = make_array<Space>(Layout(comm, shape, Partition::SCATTER, 0), global);
    CHECK(x.redistribute(2).gather() == global);
    CHECK(x.redistribute(Layout(comm, shape, Partition::BROADCAST, 1)).gather() == global);
  }
  SECTION("scatter, broadcast, gathers and ghost cells above the per-call limit") {
    if constexpr (std::is_same_v<Space, Host>) {
      const int rank = comm.rank();
      // 3 elements per call: derived datatypes; 1 byte: the chunked fallback. Rank 0 owns
      // nothing (at several ranks), the others 2r + 3 planes of 4 values: uneven messages.
      for (const std::size_t bytes : {3 * sizeof(T), std::size_t(1)}) {
        const ChunkLimit limit(bytes);
        std::vector<Shape> locals(size);
        Index planes = 0;
        for (int r = 0; r < size; ++r) {
          locals[r] = {size > 1 && r == 0 ? 0 : 2 * r + 3, 4};
          planes += locals[r][0];
        }
        const Shape shape{planes, 4};
        const std::vector<T> global = random_values<T>(element_count(shape), 17);
        const Layout layout(comm, shape, LayoutOptions{.local_shapes = locals});
        const std::span<const T> on_root =
            rank == size - 1 ? std::span<const T>(global) : std::span<const T>();
        const auto x = DistributedArray<T>::from_root(layout, on_root, size - 1);
        CHECK(local_values(x) ==
              slice_along(global, shape, 0, layout.offset(rank), layout.local_extent(rank)));
        const auto replicated = DistributedArray<T>::from_root(
            Layout(comm, shape, Partition::BROADCAST), on_root, size - 1);
        CHECK(local_values(replicated) == global);
        CHECK(x.gather() == global);
        const std::vector<T> at_root = x.gather_to(size / 2);
        CHECK(at_root == (rank == size / 2 ? global : std::vector<T>{}));
        // Every rank with data takes one plane from each neighbour that has one.
        const Index lo = layout.offset(rank), extent = layout.local_extent(rank);
        const Index front = rank > 1 ? 1 : 0, back = rank > 0 && rank + 1 < size ? 1 : 0;
        const LocalArray<T, Host> ghosted = x.add_ghost_cells(front, back);
        CHECK(values_of(ghosted) ==
              slice_along(global, shape, 0, lo - front, extent + front + back));
      }
    }
  }
}

DISTLOPS_SPACE_TEMPLATE_TEST_CASE("ghost cells hold the neighbours' planes", "[array][ghost]",
                                  DISTLOPS_SCALAR_TYPES) {
  using T = TestType;
  const Communicator comm = world();
  const int size = comm.size();
  const int rank = comm.rank();
  for_each_collective_path<Space>([&] {
    for (const auto& [shape, axis] : std::vector<std::pair<Shape, int>>{
             {{4 * 4}, 0}, {{9, 3}, 0}, {{3, 12}, 1}, {{2, 9, 2}, 1}, {{2, 2, 10}, 2}}) {
      const Index n = shape[axis];
      const Layout layout(comm, shape, Partition::SCATTER, axis);
      const std::vector<T> global = random_values<T>(element_count(shape), 14);
      const auto x = make_array<Space>(layout, global);
      for (const auto& [front, back] :
           std::vector<std::pair<Index, Index>>{{1, 1}, {2, 0}, {0, 2}, {0, 0}}) {
        // Widths the neighbours can provide.
        bool possible = true;
        for (int r = 1; r < size; ++r)
          possible = possible && layout.local_extent(r - 1) >= front;
        for (int r = 0; r + 1 < size; ++r)
          possible = possible && layout.local_extent(r + 1) >= back;
        if (!possible) continue;
        INFO("shape " << to_string(shape) << " axis " << axis << " front " << front << " back "
                      << back);
        const LocalArray<T, Space> ghosted = x.add_ghost_cells(front, back);
        const Index lo = layout.offset(rank), extent = layout.local_extent(rank);
        const Index first = rank == 0 ? lo : lo - front;
        const Index last = rank == size - 1 ? lo + extent : std::min(n, lo + extent + back);
        const auto expected = slice_along(global, shape, axis, first, last - first);
        CHECK(ghosted.shape()[axis] == last - first);
        CHECK(values_of(ghosted) == expected);
      }
    }
  });
}

DISTLOPS_SPACE_TEMPLATE_TEST_CASE("ghost planes may come from several ranks when asked",
                                  "[array][ghost]", DISTLOPS_SCALAR_TYPES) {
  using T = TestType;
  const Communicator comm = world();
  const int size = comm.size();
  const int rank = comm.rank();
  // Rank r owns r % 2 planes: single planes and empty blocks alternate.
  for_each_collective_path<Space>([&] {
    for (int axis : {0, 1}) {
      std::vector<Shape> shapes;
      Index n = 0;
      for (int r = 0; r < size; ++r) {
        shapes.push_back(axis == 0 ? Shape{r % 2, 3} : Shape{3, r % 2});
        n += r % 2;
      }
      const Shape shape = axis == 0 ? Shape{n, 3} : Shape{3, n};
      const Layout layout(comm, shape, LayoutOptions{.axis = axis, .local_shapes = shapes});
      const std::vector<T> global = random_values<T>(element_count(shape), 15);
      const auto x = make_array<Space>(layout, global);
      const GhostExchange exchange(layout, 2, 2, GhostReach::any);
      const Index lo = layout.offset(rank), hi = lo + layout.local_extent(rank);
      const Index f = std::min<Index>(2, lo), b = std::min<Index>(2, n - hi);
      CHECK(exchange.front() == f);
      CHECK(exchange.back() == b);
      const std::vector<T> expected_front = slice_along(global, shape, axis, lo - f, f);
      const std::vector<T> expected_back = slice_along(global, shape, axis, hi, b);
      Buffer<T, Space> front(element_count(exchange.front_shape()));
      Buffer<T, Space> back(element_count(exchange.back_shape()));
      if constexpr (!on_device<Space>) {
        exchange.exchange(Host{}, x.data(), front.data(), back.data());
        CHECK(values_of(front) == expected_front);
        CHECK(values_of(back) == expected_back);
      }
      // Through a transport of the caller's, twice, split in two phases.
      const std::unique_ptr<Transport> transport = make_transport<Space>(comm);
      for (int repeat = 0; repeat < 2; ++repeat) {
        Buffer<T, Space> front2(front.size()), back2(back.size());
        GhostExchange::Pending pending =
            exchange.begin(*transport, x.data(), front2.data(), back2.data());
        exchange.end(pending);
        CHECK(values_of(front2) == expected_front);
        CHECK(values_of(back2) == expected_back);
      }
    }
  });
}

DISTLOPS_SPACE_TEMPLATE_TEST_CASE("masked arrays reduce inside their group", "[array][mask]",
                                  DISTLOPS_SCALAR_TYPES) {
  using T = TestType;
  const Communicator comm = world();
  const double rtol = space_tolerance<T, Space>();
  const int size = comm.size();
  // Two groups when possible: ranks [0, size/2) and [size/2, size); one group at 1 rank.
  const int groups = size >= 2 ? 2 : 1;
  std::vector<int> mask(size);
  for (int r = 0; r < size; ++r)
    mask[r] = r * groups / size;
  const Index n = 11;
  const Layout layout(comm, {n, 2}, LayoutOptions{.mask = mask});
  const std::vector<T> gx = random_values<T>(2 * n, 20), gy = random_values<T>(2 * n, 21);
  const auto x = make_array<Space>(layout, gx), y = make_array<Space>(layout, gy);
  // Reference: the part of the global array that this rank's group holds.
  const int colour = mask[comm.rank()];
  Index lo = -1, hi = 0;
  for (int r = 0; r < size; ++r) {
    if (mask[r] != colour) continue;
    if (lo < 0) lo = layout.offset(r);
    hi = layout.offset(r) + layout.local_extent(r);
  }
  const std::vector<T> part_x(gx.begin() + 2 * lo, gx.begin() + 2 * hi);
  const std::vector<T> part_y(gy.begin() + 2 * lo, gy.begin() + 2 * hi);
  for_each_collective_path<Space>([&] {
    check_group_reductions(x, y, part_x, part_y, rtol);
    // Along axis 0: the columns of the group's part.
    const auto columns = x.norm(2, 0);
    REQUIRE(columns.size() == 2);
    for (std::size_t j = 0; j < 2; ++j) {
      std::vector<T> column;
      for (std::size_t i = j; i < part_x.size(); i += 2)
        column.push_back(part_x[i]);
      CHECK(close(static_cast<double>(columns[j]), reference_norm(column, 2), rtol));
    }
    CHECK(x.masked_shape() == Shape{hi - lo, 2});
    CHECK(x.gather(true) == part_x);
    CHECK(x.gather() == gx);
  });
  CHECK(x.zeros_like().layout().mask() == mask);
}

DISTLOPS_SPACE_TEMPLATE_TEST_CASE("masked box layouts reduce and gather inside their group",
                                  "[array][mask][box]", DISTLOPS_SCALAR_TYPES) {
  using T = TestType;
  const Communicator comm = world();
  const double rtol = space_tolerance<T, Space>();
  const int size = comm.size();
  std::vector<NamedLayout> layouts;
  // One replica per group along a leading axis: grid (groups, ranks per group, 1), each group
  // cutting its (1, 6, 5) slice over its ranks.
  const int groups = size % 2 == 0 ? 2 : size;
  std::vector<int> replica_mask;
  for (int r = 0; r < size; ++r)
    replica_mask.push_back(r / (size / groups));
  layouts.push_back(
      {"a replica per group",
       Layout(comm, {groups, 6, 5},
              LayoutOptions{.mask = replica_mask, .grid = {groups, size / groups, 1}})});
  // Rank 0 alone holding the first half of axis 0, the others together the second half, cut
  // along axis 1 (explicit boxes).
  if (size > 1) {
    const Layout boxed = box_test_layouts(comm, {4, 6, 5}, false).back().layout;
    std::vector<int> mask(static_cast<std::size_t>(size), 1);
    mask[0] = 0;
    std::vector<ArrayBox> boxes;
    for (int r = 0; r < size; ++r)
      boxes.push_back(boxed.box(r));
    layouts.push_back({"half on rank 0, half on the others",
                       Layout(comm, {4, 6, 5}, LayoutOptions{.mask = mask, .boxes = boxes})});
  }
  for (const NamedLayout& named : layouts) {
    INFO(named.name);
    const Layout& layout = named.layout;
    const Shape& shape = layout.global_shape();
    const std::vector<T> gx = random_values<T>(layout.global_size(), 24);
    const std::vector<T> gy = random_values<T>(layout.global_size(), 25);
    const auto x = make_array<Space>(layout, gx), y = make_array<Space>(layout, gy);
    // The box this rank's group tiles, from the boxes of its members.
    ArrayBox bound{shape, Shape(shape.size(), 0)};
    for (int r = 0; r < size; ++r) {
      if (layout.mask()[r] != layout.mask()[comm.rank()] || layout.local_size(r) == 0) continue;
      for (std::size_t k = 0; k < shape.size(); ++k) {
        bound.lower[k] = std::min(bound.lower[k], layout.box_lower(r, int(k)));
        bound.upper[k] = std::max(bound.upper[k], layout.box_upper(r, int(k)));
      }
    }
    const std::vector<T> part_x = box_of(gx, shape, bound), part_y = box_of(gy, shape, bound);
    for_each_collective_path<Space>([&] {
      check_group_reductions(x, y, part_x, part_y, rtol);
      CHECK(x.masked_shape() == bound.extent());
      CHECK(x.gather(true) == part_x);
      CHECK(x.gather() == gx);
      // Along each axis: a line the group holds part of is reduced over that part; the other
      // lines are held whole by another group here, which gives their whole norm.
      const Shape strides = strides_of(shape);
      for (int axis = 0; axis < 3; ++axis) {
        INFO("norm along axis " << axis);
        const auto actual = x.norm(2, axis);
        std::vector<double> expected;
        for (Index i = 0; i < shape[0]; ++i) {
          for (Index j = 0; j < shape[1]; ++j) {
            for (Index k = 0; k < shape[2]; ++k) {
              const Shape at{i, j, k};
              if (at[axis] != 0) continue;
              bool held = true;
              for (int a = 0; a < 3; ++a)
                held = held && (a == axis || (bound.lower[a] <= at[a] && at[a] < bound.upper[a]));
              std::vector<T> line;
              for (Index l = held ? bound.lower[axis] : 0;
                   l < (held ? bound.upper[axis] : shape[axis]); ++l) {
                line.push_back(gx[static_cast<std::size_t>(i * strides[0] + j * strides[1] +
                                                           k * strides[2] + l * strides[axis])]);
              }
              expected.push_back(reference_norm(line, 2));
            }
          }
        }
        REQUIRE(actual.size() == expected.size());
        for (std::size_t i = 0; i < expected.size(); ++i)
          CHECK(close(static_cast<double>(actual[i]), expected[i], 10 * rtol));
      }
    });
  }
  // Groups whose boxes tile no box: the gather of a group raises on every rank.
  if (size == 4) {
    const Layout diagonal(comm, {4, 4}, LayoutOptions{.mask = {0, 1, 1, 0}, .grid = {2, 2}});
    const auto x = DistributedArray<T, Space>(diagonal, T(1));
    CHECK_THROWS_AS(x.gather(true), InvalidArgument);
    CHECK(x.gather() == std::vector<T>(16, T(1)));
  }
}

DISTLOPS_SPACE_TEMPLATE_TEST_CASE("copies are deep, views alias, assignment reuses storage",
                                  "[array]", DISTLOPS_SCALAR_TYPES) {
  using T = TestType;
  const Communicator comm = world();
  const Layout layout(comm, {6, 4});
  const std::vector<T> global = random_values<T>(24, 30);
  auto x = make_array<Space>(layout, global);
  DistributedArray<T, Space> copy = x;
  copy *= T(2);
  CHECK(x.gather() == global);

  // The 2-d array seen as a flat vector with the same split: no copy.
  const Layout flat = Layout::from_local_shape(comm, {x.local_size()});
  auto view = x.view(flat);
  CHECK(view.data() == x.data());
  view.fill(T(1));
  CHECK(x.gather() == std::vector<T>(24, T(1)));

  // Wrapping user memory.
  Buffer<T, Space> memory =
      buffer_of<Space>(std::vector<T>(static_cast<std::size_t>(layout.local_size()), T(5)));
  auto wrapped = DistributedArray<T, Space>::wrap(
      layout, std::span<T>(memory.data(), static_cast<std::size_t>(memory.size())));
  wrapped += T(1);
  CHECK(values_of(memory) == std::vector<T>(static_cast<std::size_t>(memory.size()), T(6)));

  // Assignment between equal layouts copies into the existing storage.
  const std::uint64_t before = memory::allocation_count();
  wrapped = copy;
  CHECK(memory::allocation_count() == before);
  CHECK(wrapped.data() == memory.data());
  CHECK(wrapped.gather() == copy.gather());
  DistributedArray<T, Space> empty;
  CHECK(empty.empty());
  empty = x;
  CHECK(empty.gather() == x.gather());
  DistributedArray<T, Space> moved = std::move(copy);
  CHECK(moved.gather().size() == 24);
}
