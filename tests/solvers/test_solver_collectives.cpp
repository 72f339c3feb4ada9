// The scalar slots of the solvers (solvers/detail/scalar_slots.hpp) and the collectives an
// iteration costs on the host: batched reductions equal the arrays' own vdot and norm on
// stacked arrays with plain, masked and replicated blocks, a batch costs one MPI allreduce per
// distinct communicator, and CG, CGLS, LSQR need 2 allreduces per iteration, power iteration,
// ISTA and FISTA 1. MPI_Allreduce is counted through the MPI profiling interface (this file
// defines it and forwards to PMPI_Allreduce), so the library has no test hook.
#include <mpi.h>

#include <atomic>

#include "distlops/operators/local/matrix_mult.hpp"
#include "distlops/operators/stack/block_diag.hpp"
#include "distlops/operators/stack/stacked.hpp"
#include "distlops/operators/stack/vstack.hpp"
#include "distlops/solvers/detail/scalar_slots.hpp"
#include "solver_test_support.hpp"

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

// The allreduces per iteration of a solver run: those of `niter` = 8 less those of 4, over 4.
template <class Run>
double allreduces_per_iteration(Run&& run) {
  const long long four = allreduces_of([&] { run(4); });
  const long long eight = allreduces_of([&] { run(8); });
  return static_cast<double>(eight - four) / 4.0;
}

// A tall well-conditioned block per rank (ranks with an odd rank hold two): the applies of
// BlockDiag make no collective, so every allreduce of a run is the solver's.
template <class T>
LinearOperator<T> block_problem(const Communicator& comm) {
  std::vector<LocalOperator<T>> blocks;
  for (int b = 0; b < 1 + comm.rank() % 2; ++b) {
    const DenseMatrix<T> m = well_conditioned<T>(40, 30, std::uint64_t(40 + 10 * comm.rank() + b));
    std::vector<T> values(static_cast<std::size_t>(m.size()));
    for (Index i = 0; i < m.rows(); ++i)
      for (Index j = 0; j < m.cols(); ++j)
        values[static_cast<std::size_t>(i * m.cols() + j)] = m(i, j);
    blocks.push_back(local::MatrixMult<T, Host>(m.rows(), m.cols(), values));
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
    // The plain block's communicator and the mask group's: the replicated block needs none.
    CHECK(calls == 2);
    const double norm = static_cast<double>(a.norm());
    CHECK(slots[0] == Approx(norm * norm).epsilon(tol));
    const T ab = a.vdot(b), ba = b.vdot(a);
    CHECK(slots[1] == Approx(static_cast<double>(std::real(ab))).epsilon(tol));
    CHECK(slots[2] == Approx(static_cast<double>(std::real(ba))).epsilon(tol));
    CHECK(slots[3] == Approx(static_cast<double>(std::imag(ba))).margin(tol * std::abs(ba)));
    CHECK(slots[4] == Approx(static_cast<double>(a.norm(1))).epsilon(tol));
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
    CHECK(calls == 1);
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
  CHECK(same_on_every_rank(calls));
}

TEMPLATE_TEST_CASE("solver iterations cost the documented allreduces on the host",
                   "[solvers][collectives]", float, std::complex<double>) {
  using T = TestType;
  using V = DistributedArray<T>;
  const Communicator comm = world();
  const LinearOperator<T> op = block_problem<T>(comm);
  V y(op.range());
  fill_random(y, 7);
  const LinearOperator<T> normal = op.adjoint() * op;
  V b(normal.range());
  fill_random(b, 8);

  CHECK(allreduces_per_iteration([&](int n) {
          CgOptions<V> options;
          options.niter = n;
          REQUIRE(cg(normal, b, options).iterations == n);
        }) == 2);
  for (double damp : {0.0, 0.5}) {
    INFO("damp " << damp);
    CHECK(allreduces_per_iteration([&](int n) {
            CglsOptions<V> options;
            options.niter = n;
            options.damp = damp;
            REQUIRE(cgls(op, y, options).iterations == n);
          }) == 2);
  }
  CHECK(allreduces_per_iteration([&](int n) {
          LsqrOptions<V> options;
          options.niter = n;
          options.atol = options.btol = 0;
          options.conlim = 0;
          REQUIRE(lsqr(op, y, options).iterations == n);
        }) == 2);
  CHECK(allreduces_per_iteration([&](int n) {
          PowerIterationOptions options;
          options.niter = n;
          options.tol = 0;
          REQUIRE(power_iteration(normal, options).iterations == n);
        }) == 1);
  for (bool accelerated : {false, true}) {
    INFO((accelerated ? "fista" : "ista"));
    CHECK(allreduces_per_iteration([&](int n) {
            IstaOptions<V> options;
            options.niter = n;
            options.tol = 0;
            options.alpha = 0.05;
            const auto result = accelerated ? fista(op, y, options) : ista(op, y, options);
            REQUIRE(result.iterations == n);
          }) == 1);
  }
}
