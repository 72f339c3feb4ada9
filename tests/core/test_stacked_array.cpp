// SPDX-License-Identifier: BSD-3-Clause
// Copyright (c) 2026 The distlops authors
// StackedDistributedArray: algebra and reductions of the concatenated vector, nesting, mixed
// partitions and masks (in every memory space), and mismatches.
#include <Eigen/Core>

#include "spaces.hpp"
#include "test_support.hpp"

using namespace distlops;
using namespace distlops::testing;

namespace {

template <class T, class Space = Host>
struct Stack {
  StackedDistributedArray<T, Space> array;
  std::vector<T> global;  // concatenation of the blocks' global arrays
};

// Three blocks: a SCATTER 2-d array along axis 1, a BROADCAST vector, and a nested stack of a
// SCATTER vector with fewer items than ranks and a 3-d array cut over a process grid.
template <class T, class Space = Host>
Stack<T, Space> make_stack(const Communicator& comm, std::uint64_t seed) {
  Stack<T, Space> stack;
  const Layout a(comm, {3, 5}, Partition::SCATTER, 1);
  const Layout b(comm, {4}, Partition::BROADCAST);
  const Layout c(comm, {2});
  const Layout d(comm, {4, 3, 2}, LayoutOptions{.grid = default_grid({4, 3, 2}, comm.size())});
  const auto ga = random_values<T>(15, seed), gb = random_values<T>(4, seed + 1),
             gc = random_values<T>(2, seed + 2), gd = random_values<T>(24, seed + 3);
  stack.array.push_back(DistributedArray<T, Space>::from_global(a, ga));
  stack.array.push_back(DistributedArray<T, Space>::from_global(b, gb));
  StackedDistributedArray<T, Space> nested;
  nested.push_back(DistributedArray<T, Space>::from_global(c, gc));
  nested.push_back(DistributedArray<T, Space>::from_global(d, gd));
  stack.array.push_back(std::move(nested));
  for (const auto* part : {&ga, &gb, &gc, &gd})
    stack.global.insert(stack.global.end(), part->begin(), part->end());
  return stack;
}

template <class T>
Eigen::Map<const Eigen::Matrix<T, Eigen::Dynamic, 1>> as_eigen(const std::vector<T>& values) {
  return {values.data(), static_cast<Eigen::Index>(values.size())};
}

}  // namespace

DISTLOPS_SPACE_TEMPLATE_TEST_CASE("stacked arrays behave as the concatenated vector", "[stacked]",
                                  DISTLOPS_SCALAR_TYPES) {
  using T = TestType;
  const Communicator comm = world();
  const double rtol = space_tolerance<T, Space>();
  for_each_collective_path<Space>([&] {
    const auto x = make_stack<T, Space>(comm, 1), y = make_stack<T, Space>(comm, 10),
               z = make_stack<T, Space>(comm, 20);
    const std::size_t n = x.global.size();
    CHECK(x.array.narrays() == 3);
    CHECK(x.array.is_nested(2));
    CHECK(x.array.global_size() == Index(n));
    CHECK(x.array.gather() == x.global);

    const T a = random_scalar<T>(2), b = random_scalar<T>(3), c = random_scalar<T>(4);
    auto reference = [&](auto f) {
      std::vector<T> out(n);
      for (std::size_t i = 0; i < n; ++i)
        out[i] = f(i);
      return out;
    };
    CHECK(all_close((x.array + y.array).gather(),
                    reference([&](auto i) { return x.global[i] + y.global[i]; }), rtol));
    CHECK(all_close((x.array - y.array).gather(),
                    reference([&](auto i) { return x.global[i] - y.global[i]; }), rtol));
    CHECK(all_close((x.array * y.array).gather(),
                    reference([&](auto i) { return x.global[i] * y.global[i]; }), rtol));
    CHECK(all_close((a * x.array).gather(), reference([&](auto i) { return a * x.global[i]; }),
                    rtol));
    CHECK(all_close((a - x.array).gather(), reference([&](auto i) { return a - x.global[i]; }),
                    rtol));
    CHECK(all_close((-x.array).gather(), reference([&](auto i) { return -x.global[i]; }), rtol));
    CHECK(all_close(x.array.conj().gather(),
                    reference([&](auto i) { return conjugate(x.global[i]); }), rtol));
    auto t = x.array.copy();
    t.axpy(a, y.array);
    CHECK(all_close(t.gather(), reference([&](auto i) { return x.global[i] + a * y.global[i]; }),
                    rtol));
    t.copy_from(x.array).axpby(a, y.array, b);
    CHECK(all_close(t.gather(),
                    reference([&](auto i) { return a * y.global[i] + b * x.global[i]; }), rtol));
    t.copy_from(z.array).axpbypcz(a, x.array, b, y.array, c);
    CHECK(all_close(t.gather(), reference([&](auto i) {
                      return a * x.global[i] + b * y.global[i] + c * z.global[i];
                    }),
                    rtol));
    t /= T(2);
    t -= z.array;
    CHECK(all_close(t.gather(), reference([&](auto i) {
                      return (a * x.global[i] + b * y.global[i] + c * z.global[i]) / T(2) -
                             z.global[i];
                    }),
                    rtol));
    CHECK(t.zeros_like().gather() == std::vector<T>(n, T(0)));
    t = y.array;
    CHECK(t.gather() == y.global);

    // Reductions: replicated blocks count once, whatever the number of ranks.
    CHECK(close(x.array.vdot(y.array), T(as_eigen(x.global).dot(as_eigen(y.global))), rtol));
    CHECK(close(x.array.dot(y.array),
                T((as_eigen(x.global).transpose() * as_eigen(y.global))(0, 0)), rtol));
    CHECK(close(static_cast<double>(x.array.norm()), static_cast<double>(as_eigen(x.global).norm()),
                rtol));
    CHECK(close(static_cast<double>(x.array.norm(1)),
                static_cast<double>(as_eigen(x.global).template lpNorm<1>()), rtol));
    CHECK(close(static_cast<double>(x.array.norm(std::numeric_limits<double>::infinity())),
                static_cast<double>(as_eigen(x.global).template lpNorm<Eigen::Infinity>()), rtol));
  });
}

DISTLOPS_SPACE_TEMPLATE_TEST_CASE("stacked reductions with masked blocks reduce per block",
                                  "[stacked][mask]", DISTLOPS_SCALAR_TYPES) {
  using T = TestType;
  const Communicator comm = world();
  const double rtol = space_tolerance<T, Space>();
  std::vector<int> mask(comm.size(), 0);  // one group: same values as without a mask
  const Layout masked(comm, {7}, LayoutOptions{.mask = mask});
  const Layout plain(comm, {5});
  const auto g1 = random_values<T>(7, 3), g2 = random_values<T>(5, 4);
  StackedDistributedArray<T, Space> x({DistributedArray<T, Space>::from_global(masked, g1),
                                       DistributedArray<T, Space>::from_global(plain, g2)});
  std::vector<T> all = g1;
  all.insert(all.end(), g2.begin(), g2.end());
  for_each_collective_path<Space>([&] {
    CHECK(close(x.vdot(x), T(as_eigen(all).squaredNorm()), rtol));
    CHECK(
        close(static_cast<double>(x.norm(3)),
              std::pow(static_cast<double>(as_eigen(all).cwiseAbs().array().pow(3).sum()), 1.0 / 3),
              rtol));
  });
  // Two groups when there are two ranks or more: the masked block counts its group's part.
  std::vector<int> groups(comm.size());
  for (int r = 0; r < comm.size(); ++r)
    groups[r] = r * 2 / comm.size();
  const Layout split(comm, {7}, LayoutOptions{.mask = groups});
  StackedDistributedArray<T, Space> z({DistributedArray<T, Space>::from_global(split, g1),
                                       DistributedArray<T, Space>::from_global(plain, g2)});
  Index lo = -1, hi = 0;
  for (int r = 0; r < comm.size(); ++r) {
    if (groups[r] != groups[comm.rank()]) continue;
    if (lo < 0) lo = split.offset(r);
    hi = split.offset(r) + split.local_extent(r);
  }
  std::vector<T> part(g1.begin() + lo, g1.begin() + hi);
  part.insert(part.end(), g2.begin(), g2.end());
  CHECK(close(z.vdot(z), T(as_eigen(part).squaredNorm()), rtol));
  CHECK(close(static_cast<double>(z.norm(1)),
              static_cast<double>(as_eigen(part).template lpNorm<1>()), rtol));
}

TEMPLATE_TEST_CASE("mismatched stacks raise ShapeMismatch", "[stacked][errors]",
                   DISTLOPS_SCALAR_TYPES) {
  using T = TestType;
  const Communicator comm = world();
  auto x = make_stack<T>(comm, 1).array;
  StackedDistributedArray<T> fewer({x[0], x[1]});
  CHECK_THROWS_AS(x.axpy(T(1), fewer), ShapeMismatch);
  StackedDistributedArray<T> flat({x[0], x[1], x.nested(2)[0]});
  CHECK_THROWS_AS(x.dot(flat), ShapeMismatch);
  StackedDistributedArray<T> other_layout({x[0], x[0]});
  other_layout.push_back(x.nested(2));
  CHECK_THROWS_AS(x += other_layout, ShapeMismatch);
  CHECK_THROWS_AS(x.nested(0), InvalidArgument);
  CHECK_THROWS_AS(x[2], InvalidArgument);
}

TEMPLATE_TEST_CASE("a stack that differs on one rank raises the same error on every rank",
                   "[stacked][errors]", DISTLOPS_SCALAR_TYPES) {
  using T = TestType;
  const Communicator comm = world();
  const int last = comm.size() - 1;
  const bool odd_one = comm.rank() == last;
  auto x = make_stack<T>(comm, 1).array;
  const StackedDistributedArray<T> fewer({x[0], x[1]});
  const StackedDistributedArray<T> same = x;
  // Only the last rank's operand has fewer blocks: its local verdict, raised everywhere.
  const std::string where = comm.size() > 1 ? " (raised on rank " + std::to_string(last) + ")" : "";
  auto expect_error = [&](auto&& f, const std::string& expected) {
    bool raised = false;
    try {
      f();
    } catch (const Error& error) {
      raised = true;
      CHECK(std::string(error.what()) == expected);
    }
    CHECK(raised);
    CHECK(comm.allreduce(1, ReduceOp::sum) == comm.size());
  };
  expect_error([&] { (void)x.dot(odd_one ? fewer : same); },
               "StackedDistributedArray dot: 3 blocks vs 2" + where);
  expect_error([&] { x.axpy(T(1), odd_one ? fewer : same); },
               "StackedDistributedArray axpy: 3 blocks vs 2" + where);
  expect_error([&] { (void)x.norm(odd_one ? std::nan("") : 2.0); }, "norm: ord is NaN" + where);
  if (comm.size() > 1) {
    // Valid on every rank but different: named by the first rank that differs from rank 0.
    const std::string differs =
        " differs between ranks (rank " + std::to_string(last) + "'s differs from rank 0's)";
    expect_error([&] { (void)x.norm(odd_one ? 1.0 : 2.0); },
                 "StackedDistributedArray::norm: ord or the stack's layouts" + differs);
    expect_error([&] { (void)(odd_one ? fewer : same).gather(); },
                 "StackedDistributedArray::gather: the stack's layouts" + differs);
  }
  // Agreed stacks reduce as before: the norm of the concatenated vector.
  CHECK(x.norm() == Approx(std::sqrt(std::real(x.vdot(x)))));
}
