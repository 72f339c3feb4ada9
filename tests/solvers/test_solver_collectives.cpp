// SPDX-License-Identifier: BSD-3-Clause
// Copyright (c) 2026 The distlops authors
// The scalar slots of the solvers (solvers/detail/scalar_slots.hpp) and the collectives an
// iteration costs: batched reductions equal the arrays' own vdot and norm on stacked arrays with
// plain, masked and replicated blocks, and a batch costs one MPI allreduce per distinct
// communicator of more than one rank (a one-rank sum makes no MPI call). CG, CGLS, LSQR need 2
// reductions per iteration, power iteration, ISTA and FISTA 1: on the host as many MPI
// allreduces (none on one rank); on the device one synchronisation (the read-back of the
// iteration's scalars) plus, where collectives are staged through host memory, the two copies of
// each. No iteration allocates. MPI_Allreduce is counted through the MPI profiling interface
// (this file defines it and forwards to PMPI_Allreduce), so the library has no test hook.
#include <mpi.h>

#include <atomic>

#include "distlops/config.hpp"
#include "distlops/core/gpu_collectives.hpp"
#include "distlops/operators/derivative/derivatives.hpp"
#include "distlops/operators/local/matrix_mult.hpp"
#include "distlops/operators/stack/block_diag.hpp"
#include "distlops/operators/stack/stacked.hpp"
#include "distlops/operators/stack/vstack.hpp"
#include "distlops/solvers/detail/scalar_slots.hpp"
#include "solver_test_support.hpp"
#if DISTLOPS_WITH_CUDA
#include "distlops/core/cuda_context.hpp"
#endif

namespace {
std::atomic<long long> allreduce_calls{0};
}  // namespace

extern "C" int MPI_Allreduce(const void* send, void* recv, int count, MPI_Datatype type, MPI_Op op,
                             MPI_Comm comm) {
  allreduce_calls.fetch_add(1);
  return PMPI_Allreduce(send, recv, count, type, op, comm);
}

using namespace distlops;
using namespace distlops::testing;

namespace {

// The allreduces `body` makes on this rank.
template <class F>
long long allreduces_of(F&& body) {
  const long long before = allreduce_calls.load();
  body();
  return allreduce_calls.load() - before;
}

// Synchronisations of the host with the device so far (none for host memory).
template <class Space>
std::uint64_t synchronizations() {
#if DISTLOPS_WITH_CUDA
  if constexpr (on_device<Space>) return cuda::Context::get().synchronizations();
#endif
  return 0;
}

// What one iteration of a solver run costs: the allreduces, synchronisations and allocations of
// `niter` = 8 less those of 4, over 4, after a first run (NCCL communicators, cuBLAS handles,
// operator workspaces).
struct IterationCost {
  double allreduces, synchronizations, allocations;
};
template <class Space, class Run>
IterationCost cost_per_iteration(Run&& run) {
  run(4);
  const long long a0 = allreduce_calls.load();
  const std::uint64_t s0 = synchronizations<Space>(), m0 = memory::allocation_count();
  run(4);
  const long long a1 = allreduce_calls.load();
  const std::uint64_t s1 = synchronizations<Space>(), m1 = memory::allocation_count();
  run(8);
  const long long a2 = allreduce_calls.load();
  const std::uint64_t s2 = synchronizations<Space>(), m2 = memory::allocation_count();
  return {static_cast<double>((a2 - a1) - (a1 - a0)) / 4.0,
          (static_cast<double>(s2 - s1) - static_cast<double>(s1 - s0)) / 4.0,
          (static_cast<double>(m2 - m1) - static_cast<double>(m1 - m0)) / 4.0};
}

// Checks the cost of an iteration that makes `reductions` reductions of its scalars.
template <class Space, class Run>
void check_iteration_cost(const Communicator& comm, int reductions, Run&& run) {
  const IterationCost cost = cost_per_iteration<Space>(run);
  CHECK(cost.allocations == 0);
  if constexpr (on_device<Space>) {
    const bool staged = gpu_collectives_for(comm) == GpuCollectives::mpi && comm.size() > 1;
    CHECK(cost.synchronizations == 1.0 + (staged ? 2.0 * reductions : 0.0));
  } else {
    CHECK(cost.allreduces == (comm.size() > 1 ? reductions : 0));
  }
}

// A tall well-conditioned block per rank (ranks with an odd rank hold two): the applies of
// BlockDiag make no collective, so every collective of a run is the solver's.
template <class T, class Space = Host>
LinearOperator<T, Space> block_problem(const Communicator& comm) {
  std::vector<LocalOperator<T, Space>> blocks;
  for (int b = 0; b < 1 + comm.rank() % 2; ++b) {
    const DenseMatrix<T> m = well_conditioned<T>(40, 30, std::uint64_t(40 + 10 * comm.rank() + b));
    std::vector<T> values(static_cast<std::size_t>(m.size()));
    for (Index i = 0; i < m.rows(); ++i)
      for (Index j = 0; j < m.cols(); ++j)
        values[static_cast<std::size_t>(i * m.cols() + j)] = m(i, j);
    blocks.push_back(local::MatrixMult<T, Space>(m.rows(), m.cols(), values));
  }
  return BlockDiag(blocks, comm);
}

}  // namespace

TEMPLATE_TEST_CASE("scalar slots reduce like vdot and norm, one allreduce per communicator",
                   "[solvers][slots]", DISTLOPS_SCALAR_TYPES) {
  using T = TestType;
  const Communicator comm = world();
  const int size = comm.size();
  // Blocks: plain, masked (two groups when there are two ranks or more), replicated.
  std::vector<int> mask(static_cast<std::size_t>(size));
  for (int r = 0; r < size; ++r)
    mask[static_cast<std::size_t>(r)] = r < size / 2 ? 0 : 1;
  const Layout plain(comm, {7});
  const Layout masked(comm, {5}, LayoutOptions{.mask = mask});
  const Layout replicated(comm, {3}, Partition::BROADCAST);
  auto make = [&](std::uint64_t seed) {
    std::vector<DistributedArray<T>> leaves;
    for (const Layout* layout : {&plain, &masked, &replicated}) {
      leaves.emplace_back(*layout);
      fill_random(leaves.back(), seed++);
    }
    return StackedDistributedArray<T>(std::move(leaves));
  };
  const StackedDistributedArray<T> a = make(10), b = make(20);

  detail::ScalarSlots<Host> slots(6);
  long long calls = 0;
  const double tol = 10 * tolerance<T>();
  SECTION("stacked arrays with masked and replicated blocks") {
    calls = allreduces_of([&] {
      slots.begin(0, 5);
      slots.add_squared_norm(0, a);
      slots.add_real_vdot(1, a, b);
      slots.add_vdot(2, b, a);
      slots.add_power_sum(4, a, 1.0);
      slots.combine();
      slots.read_back();
    });
    // The plain block's communicator and the mask group's, where they hold more than this
    // rank: the replicated block needs none.
    CHECK(calls == (size > 1 ? 1 : 0) + (masked.sub_communicator().size() > 1 ? 1 : 0));
    const double norm = static_cast<double>(a.norm());
    CHECK(slots[0] == Approx(norm * norm).epsilon(tol));
    const T ab = a.vdot(b), ba = b.vdot(a);
    CHECK(slots[1] == Approx(static_cast<double>(std::real(ab))).epsilon(tol));
    CHECK(slots[2] == Approx(static_cast<double>(std::real(ba))).epsilon(tol));
    CHECK(slots[3] == Approx(static_cast<double>(std::imag(ba))).margin(tol * std::abs(ba)));
    CHECK(slots[4] == Approx(static_cast<double>(a.norm(1))).epsilon(tol));
  }
  SECTION("an apply with its vdot, fused or not, costs the batch's allreduce alone") {
    // A stencil operator fuses (its partial sum lands in its layout's group, the mask group of
    // the masked layout); a scaled one applies, then the slots reduce.
    for (const Layout* layout : {&plain, &masked, &replicated}) {
      INFO("layout " << layout->describe());
      const LinearOperator<T> stencil = SecondDerivative<T>(*layout);
      const LinearOperator<T> scaled = T(2) * stencil;
      DistributedArray<T> x(*layout), y(*layout);
      fill_random(x, 30);
      for (const LinearOperator<T>* op : {&stencil, &scaled}) {
        calls = allreduces_of([&] {
          const AgreedOperands agreed;  // the operands are agreed, as in a solver loop
          slots.begin(0, 1);
          slots.add_apply_real_vdot(0, *op, x, y);
          slots.combine();
        });
        const bool spread = !layout->replicated() && layout->sub_communicator().size() > 1;
        CHECK(calls == (spread ? 1 : 0));
        slots.read_back();
        const DistributedArray<T> expected_y = op->apply(x);
        CHECK(all_close(y.gather(), expected_y.gather(), tol));
        const double expected = static_cast<double>(std::real(x.vdot(expected_y)));
        const double scale = static_cast<double>(x.norm() * expected_y.norm());
        CHECK(std::abs(slots[0] - expected) <= tol * scale);
      }
    }
  }
  SECTION("a single distributed array: one allreduce for the batch") {
    const DistributedArray<T>& x = a[0];
    const DistributedArray<T>& y = b[0];
    calls = allreduces_of([&] {
      slots.begin(1, 3);
      slots.add_squared_norm(1, x);
      slots.add_squared_norm(2, y);
      slots.add_power_sum(3, x, 0.0);
      slots.combine();
    });
    CHECK(calls == (size > 1 ? 1 : 0));
    // Derived on the slots: 1 / sqrt and a guarded step.
    slots.reciprocal_sqrt(4, 1, -1.0);
    slots.step_length(5, 2.0, 1, 2, 0.5);
    slots.read_back();
    const double xx = std::pow(static_cast<double>(x.norm()), 2);
    const double yy = std::pow(static_cast<double>(y.norm()), 2);
    CHECK(slots[1] == Approx(xx).epsilon(tol));
    CHECK(slots[3] == static_cast<double>(x.norm(0)));
    CHECK(slots[4] == Approx(1 / std::sqrt(xx)).epsilon(tol));
    CHECK(slots[5] == Approx(2.0 / (xx + 0.5 * yy)).epsilon(tol));
    // A zero curvature gives a zero step, which leaves a vector untouched.
    DistributedArray<T> zero(plain);
    zero.set_zero();
    slots.begin(0, 1);
    slots.add_squared_norm(0, zero);
    slots.combine();
    slots.step_length(5, 1.0, 0);
    slots.reciprocal_sqrt(4, 0, -1.0);
    slots.read_back();
    CHECK(slots[5] == 0.0);
    CHECK(slots[4] == -1.0);
    DistributedArray<T> z = x;
    detail::axpy_by_slot(z, slots.device(5), 1.0, y);
    CHECK(z.gather() == x.gather());
  }
}

DISTLOPS_SPACE_TEMPLATE_TEST_CASE("solver iterations cost the documented collectives",
                                  "[solvers][collectives]", float, std::complex<double>) {
  using T = TestType;
  using V = DistributedArray<T, Space>;
  const Communicator comm = world();
  const LinearOperator<T, Space> op = block_problem<T, Space>(comm);
  V y(op.range());
  fill_random(y, 7);
  const LinearOperator<T, Space> normal = op.adjoint() * op;
  V b(normal.range());
  fill_random(b, 8);

  for_each_collective_path<Space>([&] {
    check_iteration_cost<Space>(comm, 2, [&](int n) {
      CgOptions<V> options;
      options.niter = n;
      REQUIRE(cg(normal, b, options).iterations == n);
    });
    for (double damp : {0.0, 0.5}) {
      INFO("damp " << damp);
      check_iteration_cost<Space>(comm, 2, [&](int n) {
        CglsOptions<V> options;
        options.niter = n;
        options.damp = damp;
        REQUIRE(cgls(op, y, options).iterations == n);
      });
    }
    check_iteration_cost<Space>(comm, 2, [&](int n) {
      LsqrOptions<V> options;
      options.niter = n;
      options.atol = options.btol = 0;
      options.conlim = 0;
      REQUIRE(lsqr(op, y, options).iterations == n);
    });
    check_iteration_cost<Space>(comm, 1, [&](int n) {
      PowerIterationOptions options;
      options.niter = n;
      options.tol = 0;
      REQUIRE(power_iteration(normal, options).iterations == n);
    });
    for (ThresholdKind kind : {ThresholdKind::soft, ThresholdKind::hard, ThresholdKind::half}) {
      for (bool accelerated : {false, true}) {
        INFO(to_string(kind) << (accelerated ? " fista" : " ista"));
        check_iteration_cost<Space>(comm, 1, [&](int n) {
          IstaOptions<V> options;
          options.niter = n;
          options.tol = 0;
          options.alpha = 0.05;
          options.threshold = kind;
          const auto result = accelerated ? fista(op, y, options) : ista(op, y, options);
          REQUIRE(result.iterations == n);
        });
      }
    }
  });
}
