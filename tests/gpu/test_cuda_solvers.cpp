// The solvers on Cuda arrays against the same solvers on host arrays (which tests/solvers
// checks against independent references), on the same random least-squares problem: CG,
// CGLS (with and without damping), LSQR, power iteration, ISTA and FISTA (the three
// thresholding rules) must follow the host's iterates and histories, synchronise with the
// device once per iteration (the read-back of the iteration's scalars; with MPI staging each
// collective adds its two copies), and allocate nothing in their loops. Both collective
// paths; every case skips without a device.
#include "distlops/distlops.hpp"
#include "gpu_support.hpp"

using namespace distlops;
using namespace distlops::testing;

namespace {

// A tall well-conditioned MatrixMult block per rank (two on odd ranks) in both spaces.
template <class T>
struct Problem {
  LinearOperator<T, Host> host;
  LinearOperator<T, Cuda> device;
};

template <class T>
Problem<T> block_problem(const Communicator& comm) {
  std::vector<LocalOperator<T, Host>> host_blocks;
  std::vector<LocalOperator<T, Cuda>> device_blocks;
  const Index rows = 24, cols = 16;
  for (int b = 0; b < 1 + comm.rank() % 2; ++b) {
    std::vector<T> m = random_values<T>(rows * cols, 700 + 10 * comm.rank() + b);
    for (Index i = 0; i < cols; ++i)
      m[static_cast<std::size_t>(i * cols + i)] += T(4);  // well conditioned
    host_blocks.push_back(local::MatrixMult<T, Host>(rows, cols, m));
    device_blocks.push_back(local::MatrixMult<T, Cuda>(rows, cols, m));
  }
  return {BlockDiag(host_blocks, comm), BlockDiag(device_blocks, comm)};
}

std::uint64_t synchronizations() {
  return cuda::Context::get().synchronizations();
}

// What a device run of `niter` = 2 n costs beyond one of n, per iteration: synchronisations
// and allocations (after a first run).
struct LoopCost {
  double synchronizations;
  std::uint64_t extra_allocations;
};
template <class Run>
LoopCost loop_cost(int n, Run&& run) {
  run(n);  // first uses: NCCL communicators, cuBLAS handles, operator workspaces
  const std::uint64_t s0 = synchronizations(), a0 = memory::allocation_count();
  run(n);
  const std::uint64_t s1 = synchronizations(), a1 = memory::allocation_count();
  run(2 * n);
  const std::uint64_t s2 = synchronizations(), a2 = memory::allocation_count();
  return {static_cast<double>((s2 - s1) - (s1 - s0)) / n, (a2 - a1) - (a1 - a0)};
}

// The synchronisations per iteration of an iteration with `collectives` collectives: the
// read-back, plus the two copies of each staged collective (MPI path on several ranks).
double expected_synchronizations(const Communicator& comm, int collectives) {
  const bool staged = gpu_collectives() == GpuCollectives::mpi && comm.size() > 1;
  return 1.0 + (staged ? 2.0 * collectives : 0.0);
}

template <class DeviceResult, class HostResult>
void check_same_run(const DeviceResult& device, const HostResult& host, double tol) {
  CHECK(device.iterations == host.iterations);
  CHECK(device.reason == host.reason);
  CHECK(all_close(device.x.gather(), host.x.gather(), tol));
  CHECK(all_close(device.residual_norms, host.residual_norms, tol));
  CHECK(all_close(device.costs, host.costs, tol));
}

}  // namespace

TEMPLATE_TEST_CASE("device solvers follow the host's iterates with one read-back per iteration",
                   "[gpu][solvers]", DISTLOPS_SCALAR_TYPES) {
  DISTLOPS_SKIP_WITHOUT_DEVICE();
  using T = TestType;
  using HostArray = DistributedArray<T, Host>;
  using DeviceArray = DistributedArray<T, Cuda>;
  const Communicator comm = world();
  const Problem<T> op = block_problem<T>(comm);
  HostArray hy(op.host.range());
  DeviceArray dy(op.device.range());
  fill_random(hy, 800);
  fill_random(dy, 800);
  const LinearOperator<T, Host> host_normal = op.host.adjoint() * op.host;
  const LinearOperator<T, Cuda> device_normal = op.device.adjoint() * op.device;
  HostArray hb(host_normal.range());
  DeviceArray db(device_normal.range());
  fill_random(hb, 810);
  fill_random(db, 810);
  const int niter = 6;
  const double tol = 1e3 * tolerance<T>();

  for (GpuCollectives path : collective_paths()) {
    const CollectivesPath selected(path);
    INFO(to_string(path));

    {  // cg
      CgOptions<HostArray> host_options;
      CgOptions<DeviceArray> device_options;
      host_options.niter = device_options.niter = niter;
      check_same_run(cg(device_normal, db, device_options), cg(host_normal, hb, host_options), tol);
      const LoopCost cost = loop_cost(niter, [&](int n) {
        device_options.niter = n;
        REQUIRE(cg(device_normal, db, device_options).iterations == n);
      });
      CHECK(cost.synchronizations == expected_synchronizations(comm, 2));
      CHECK(cost.extra_allocations == 0);
    }
    {  // cgls
      for (double damp : {0.0, 0.3}) {
        INFO("damp " << damp);
        CglsOptions<HostArray> host_options;
        CglsOptions<DeviceArray> device_options;
        host_options.niter = device_options.niter = niter;
        host_options.damp = device_options.damp = damp;
        const auto host = cgls(op.host, hy, host_options);
        const auto device = cgls(op.device, dy, device_options);
        check_same_run(device, host, tol);
        CHECK(device.r2norm == Approx(host.r2norm).epsilon(tol));
        const LoopCost cost = loop_cost(niter, [&](int n) {
          device_options.niter = n;
          REQUIRE(cgls(op.device, dy, device_options).iterations == n);
        });
        CHECK(cost.synchronizations == expected_synchronizations(comm, 2));
        CHECK(cost.extra_allocations == 0);
      }
    }
    {  // lsqr
      LsqrOptions<HostArray> host_options;
      LsqrOptions<DeviceArray> device_options;
      host_options.niter = device_options.niter = niter;
      host_options.damp = device_options.damp = 0.2;
      const auto host = lsqr(op.host, hy, host_options);
      const auto device = lsqr(op.device, dy, device_options);
      check_same_run(device, host, tol);
      CHECK(device.istop == host.istop);
      CHECK(device.anorm == Approx(host.anorm).epsilon(tol));
      CHECK(device.acond == Approx(host.acond).epsilon(tol));
      const LoopCost cost = loop_cost(niter, [&](int n) {
        device_options.niter = n;
        REQUIRE(lsqr(op.device, dy, device_options).iterations == n);
      });
      CHECK(cost.synchronizations == expected_synchronizations(comm, 2));
      CHECK(cost.extra_allocations == 0);
    }
    {  // power iteration
      PowerIterationOptions options;
      options.niter = niter;
      options.tol = 0;
      const auto host = power_iteration(host_normal, options);
      const auto device = power_iteration(device_normal, options);
      CHECK(device.iterations == host.iterations);
      CHECK(std::abs(device.eigenvalue - host.eigenvalue) <= tol * std::abs(host.eigenvalue));
      CHECK(all_close(device.eigenvector.gather(), host.eigenvector.gather(), tol));
      const LoopCost cost = loop_cost(niter, [&](int n) {
        PowerIterationOptions more = options;
        more.niter = n;
        REQUIRE(power_iteration(device_normal, more).iterations == n);
      });
      CHECK(cost.synchronizations == expected_synchronizations(comm, 1));
      CHECK(cost.extra_allocations == 0);
    }
    {  // ista and fista
      for (ThresholdKind kind : {ThresholdKind::soft, ThresholdKind::hard, ThresholdKind::half}) {
        for (bool accelerated : {false, true}) {
          INFO(to_string(kind) << (accelerated ? " fista" : " ista"));
          IstaOptions<HostArray> host_options;
          IstaOptions<DeviceArray> device_options;
          host_options.niter = device_options.niter = niter;
          host_options.tol = device_options.tol = 0;
          host_options.eps = device_options.eps = 0.5;
          host_options.alpha = device_options.alpha = 0.02;
          host_options.threshold = device_options.threshold = kind;
          auto run_host = [&] {
            return accelerated ? fista(op.host, hy, host_options) : ista(op.host, hy, host_options);
          };
          auto run_device = [&] {
            return accelerated ? fista(op.device, dy, device_options)
                               : ista(op.device, dy, device_options);
          };
          const auto host = run_host();
          const auto device = run_device();
          check_same_run(device, host, tol);
          // Entry 0 is infinity in both.
          CHECK(all_close(
              std::vector<double>(device.model_updates.begin() + 1, device.model_updates.end()),
              std::vector<double>(host.model_updates.begin() + 1, host.model_updates.end()), tol));
          const LoopCost cost = loop_cost(niter, [&](int n) {
            device_options.niter = n;
            REQUIRE(run_device().iterations == n);
          });
          CHECK(cost.synchronizations == expected_synchronizations(comm, 1));
          CHECK(cost.extra_allocations == 0);
        }
      }
      // The step from power iteration when alpha is absent, as on the host.
      IstaOptions<HostArray> host_options;
      IstaOptions<DeviceArray> device_options;
      host_options.niter = device_options.niter = 3;
      const auto host = ista(op.host, hy, host_options);
      const auto device = ista(op.device, dy, device_options);
      CHECK(device.alpha == Approx(host.alpha).epsilon(tol));
      CHECK(all_close(device.x.gather(), host.x.gather(), tol));
    }
  }
}

TEMPLATE_TEST_CASE("device thresholding rules match the host's element by element",
                   "[gpu][solvers][threshold]", DISTLOPS_SCALAR_TYPES) {
  DISTLOPS_SKIP_WITHOUT_DEVICE();
  using T = TestType;
  const Index n = 1000;
  const std::vector<T> values = random_values<T>(n, 900);
  for (ThresholdKind kind : {ThresholdKind::soft, ThresholdKind::hard, ThresholdKind::half}) {
    INFO(to_string(kind));
    for (double t : {0.0, 0.05, 0.4}) {
      std::vector<T> host = values;
      kernels::threshold(Host{}, kind, n, static_cast<real_type_t<T>>(t), host.data());
      Buffer<T, Cuda> device(n);
      memory::copy_bytes<Cuda, Host>(device.data(), values.data(), values.size() * sizeof(T));
      kernels::threshold(Cuda{}, kind, n, static_cast<real_type_t<T>>(t), device.data());
      CHECK(all_close(to_host(device.data(), n), host, 10 * tolerance<T>()));
    }
  }
}
