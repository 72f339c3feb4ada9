// Operators and solvers in the Cuda space against the same operators in the host space
// (which tests/operators and tests/solvers check against independent references), on the
// same random data: local operators, the distributed stencils (derivatives and Laplacian, with
// ghost planes across ranks), the stacks, and CG, CGLS, LSQR and power iteration, whose
// iterates must follow the host's. Dot tests run on the device. Every case skips without a
// device.
#include "distlops/distlops.hpp"
#include "gpu_support.hpp"

using namespace distlops;
using namespace distlops::testing;

namespace {

template <class T>
std::vector<LocalPair<T>> local_operators() {
  std::vector<LocalPair<T>> ops;
  const std::vector<T> weights = random_values<T>(6, 5);
  ops.push_back({local::Diagonal<T, Host>(weights), local::Diagonal<T, Cuda>(weights)});
  ops.push_back({local::Diagonal<T, Host>(weights, {4, 6, 3}, 1),
                 local::Diagonal<T, Cuda>(weights, {4, 6, 3}, 1)});
  const std::vector<Index> iava = {0, 3, 3, 5};
  ops.push_back(
      {local::Restriction<T, Host>({4, 6}, iava, 1), local::Restriction<T, Cuda>({4, 6}, iava, 1)});
  ops.push_back(
      {local::Restriction<T, Host>({6, 5}, iava, 0), local::Restriction<T, Cuda>({6, 5}, iava, 0)});
  const std::vector<T> matrix = random_values<T>(5 * 7, 6);
  ops.push_back(
      {local::MatrixMult<T, Host>(5, 7, matrix), local::MatrixMult<T, Cuda>(5, 7, matrix)});
  ops.push_back({local::MatrixMult<T, Host>(5, 7, matrix, {3}),
                 local::MatrixMult<T, Cuda>(5, 7, matrix, {3})});
  ops.push_back({local::Zero<T, Host>({4}, {3}), local::Zero<T, Cuda>({4}, {3})});
  ops.push_back({local::Scaling<T, Host>({7}, T(2)), local::Scaling<T, Cuda>({7}, T(2))});
  ops.push_back(
      {local::Identity<T, Host>({5, 4}, {3, 4}), local::Identity<T, Cuda>({5, 4}, {3, 4})});
  for (const int order : {3, 5}) {
    for (const bool edge : {false, true}) {
      const local::FirstDerivativeOptions first{
          .axis = 1, .sampling = 0.5, .edge = edge, .order = order};
      ops.push_back({local::FirstDerivative<T, Host>({5, 9, 2}, first),
                     local::FirstDerivative<T, Cuda>({5, 9, 2}, first)});
    }
  }
  for (const DerivativeKind kind :
       {DerivativeKind::forward, DerivativeKind::backward, DerivativeKind::centered}) {
    const local::SecondDerivativeOptions second{.axis = 0, .kind = kind, .edge = true};
    ops.push_back({local::SecondDerivative<T, Host>({8, 3}, second),
                   local::SecondDerivative<T, Cuda>({8, 3}, second)});
  }
  const local::LaplacianOptions laplacian{
      .axes = {0, 2}, .weights = {1.0, 2.0}, .sampling = {1.0, 0.5}, .edge = true};
  ops.push_back({local::Laplacian<T, Host>({6, 4, 7}, laplacian),
                 local::Laplacian<T, Cuda>({6, 4, 7}, laplacian)});
  return ops;
}

}  // namespace

TEMPLATE_TEST_CASE("device local operators match the host's", "[gpu][operators]",
                   DISTLOPS_SCALAR_TYPES) {
  DISTLOPS_SKIP_WITHOUT_DEVICE();
  using T = TestType;
  std::uint64_t seed = 100;
  for (const LocalPair<T>& op : local_operators<T>()) {
    INFO(op.host.name());
    check_local_pair(op, seed += 10);
  }
}

TEMPLATE_TEST_CASE("device derivatives and Laplacians match the host's across ranks",
                   "[gpu][operators][stencil]", DISTLOPS_SCALAR_TYPES) {
  DISTLOPS_SKIP_WITHOUT_DEVICE();
  using T = TestType;
  const Communicator comm = world();
  for (GpuCollectives path : collective_paths()) {
    const CollectivesPath selected(path);
    // Uneven splits along each axis, ranks with nothing when the axis is short. Derivatives
    // need 3 samples (5 for order 5) along their axis.
    for (const Shape& shape : {Shape{11, 6}, Shape{3, 9, 5}, Shape{2, 7}}) {
      for (int axis = 0; axis < static_cast<int>(shape.size()); ++axis) {
        INFO(to_string(path) << " shape " << to_string(shape) << " axis " << axis);
        const Layout layout(comm, shape, Partition::SCATTER, axis);
        for (int derivative_axis = 0; derivative_axis < static_cast<int>(shape.size());
             ++derivative_axis) {
          const Index length = shape[static_cast<std::size_t>(derivative_axis)];
          if (length < 3) continue;
          for (const int order : {3, 5}) {
            if (length < order) continue;
            const DerivativeOptions options{
                .axis = derivative_axis, .sampling = 0.7, .edge = true, .order = order};
            check_distributed_pair(FirstDerivative<T, Host>(layout, options),
                                   FirstDerivative<T, Cuda>(layout, options), 300 + order);
          }
          const DerivativeOptions second{.axis = derivative_axis, .edge = true};
          check_distributed_pair(SecondDerivative<T, Host>(layout, second),
                                 SecondDerivative<T, Cuda>(layout, second), 320);
        }
        if (shape.front() < 3 || shape.back() < 3) continue;
        const LaplacianOptions laplacian{
            .axes = {0, -1}, .weights = {1.0, 0.5}, .sampling = {1.0, 2.0}};
        check_distributed_pair(Laplacian<T, Host>(layout, laplacian),
                               Laplacian<T, Cuda>(layout, laplacian), 330);
      }
    }
  }
}

TEMPLATE_TEST_CASE("device stacks of local operators match the host's", "[gpu][operators][stack]",
                   DISTLOPS_SCALAR_TYPES) {
  DISTLOPS_SKIP_WITHOUT_DEVICE();
  using T = TestType;
  const Communicator comm = world();
  for (GpuCollectives path : collective_paths()) {
    const CollectivesPath selected(path);
    INFO(to_string(path));
    // Rank r holds (r + 1) % 3 blocks: some ranks hold none.
    const int blocks = (comm.rank() + 1) % 3;
    std::vector<LocalOperator<T, Host>> host_blocks, square_host;
    std::vector<LocalOperator<T, Cuda>> device_blocks, square_device;
    for (int b = 0; b < blocks; ++b) {
      const std::vector<T> m = random_values<T>(4 * 3, 40 + 10 * comm.rank() + b);
      host_blocks.push_back(local::MatrixMult<T, Host>(4, 3, m));
      device_blocks.push_back(local::MatrixMult<T, Cuda>(4, 3, m));
      const std::vector<T> d = random_values<T>(5, 70 + 10 * comm.rank() + b);
      square_host.push_back(local::Diagonal<T, Host>(d));
      square_device.push_back(local::Diagonal<T, Cuda>(d));
    }
    check_distributed_pair(BlockDiag(host_blocks, comm), BlockDiag(device_blocks, comm), 400);
    check_distributed_pair(BlockDiag(square_host, comm), BlockDiag(square_device, comm), 410);
    check_distributed_pair(VStack(host_blocks, comm), VStack(device_blocks, comm), 420);
    check_distributed_pair(HStack(host_blocks, comm), HStack(device_blocks, comm), 430);
  }
}

TEMPLATE_TEST_CASE("solvers run unchanged on device arrays and follow the host's iterates",
                   "[gpu][solvers]", DISTLOPS_SCALAR_TYPES) {
  DISTLOPS_SKIP_WITHOUT_DEVICE();
  using T = TestType;
  using HostArray = DistributedArray<T, Host>;
  using DeviceArray = DistributedArray<T, Cuda>;
  const Communicator comm = world();
  for (GpuCollectives path : collective_paths()) {
    const CollectivesPath selected(path);
    INFO(to_string(path));
    // A well-posed least-squares problem: a tall block-diagonal operator plus a derivative.
    const int blocks = 1 + comm.rank() % 2;
    std::vector<LocalOperator<T, Host>> host_blocks;
    std::vector<LocalOperator<T, Cuda>> device_blocks;
    for (int b = 0; b < blocks; ++b) {
      std::vector<T> m = random_values<T>(6 * 4, 90 + 10 * comm.rank() + b);
      for (int i = 0; i < 4; ++i)
        m[static_cast<std::size_t>(i * 4 + i)] += T(4);  // well conditioned
      host_blocks.push_back(local::MatrixMult<T, Host>(6, 4, m));
      device_blocks.push_back(local::MatrixMult<T, Cuda>(6, 4, m));
    }
    const LinearOperator<T, Host> host_op = BlockDiag(host_blocks, comm);
    const LinearOperator<T, Cuda> device_op = BlockDiag(device_blocks, comm);
    HostArray hy(host_op.range());
    DeviceArray dy(device_op.range());
    fill_random(hy, 500);
    fill_random(dy, 500);
    const int niter = 5;
    const double tol = 1e3 * tolerance<T>();

    CglsOptions<HostArray> host_cgls;
    CglsOptions<DeviceArray> device_cgls;
    host_cgls.niter = device_cgls.niter = niter;
    host_cgls.damp = device_cgls.damp = 0.1;
    const auto cgls_host = cgls(host_op, hy, host_cgls);
    const auto cgls_device = cgls(device_op, dy, device_cgls);
    CHECK(cgls_device.iterations == cgls_host.iterations);
    CHECK(all_close(cgls_device.x.gather(), cgls_host.x.gather(), tol));
    CHECK(all_close(cgls_device.costs, cgls_host.costs, tol));

    LsqrOptions<HostArray> host_lsqr;
    LsqrOptions<DeviceArray> device_lsqr;
    host_lsqr.niter = device_lsqr.niter = niter;
    const auto lsqr_host = lsqr(host_op, hy, host_lsqr);
    const auto lsqr_device = lsqr(device_op, dy, device_lsqr);
    CHECK(lsqr_device.iterations == lsqr_host.iterations);
    CHECK(all_close(lsqr_device.x.gather(), lsqr_host.x.gather(), tol));

    // CG on the normal equations, an operator built by the algebra.
    const LinearOperator<T, Host> host_normal = host_op.adjoint() * host_op;
    const LinearOperator<T, Cuda> device_normal = device_op.adjoint() * device_op;
    HostArray hb(host_normal.range());
    DeviceArray db(device_normal.range());
    fill_random(hb, 510);
    fill_random(db, 510);
    CgOptions<HostArray> host_cg;
    CgOptions<DeviceArray> device_cg;
    host_cg.niter = device_cg.niter = niter;
    const auto cg_host = cg(host_normal, hb, host_cg);
    const auto cg_device = cg(device_normal, db, device_cg);
    CHECK(cg_device.iterations == cg_host.iterations);
    CHECK(all_close(cg_device.x.gather(), cg_host.x.gather(), tol));

    // The solver loop allocates nothing in either space beyond its work vectors: twice the
    // iterations cost no more allocations than the first run.
    const std::uint64_t before = memory::allocation_count();
    (void)cgls(device_op, dy, device_cgls);
    const std::uint64_t once = memory::allocation_count() - before;
    device_cgls.niter = 2 * niter;
    const std::uint64_t before_twice = memory::allocation_count();
    (void)cgls(device_op, dy, device_cgls);
    CHECK(memory::allocation_count() - before_twice == once);
  }
}

TEST_CASE("symmetric memory holds a device array until its collective release",
          "[gpu][symmetric]") {
  DISTLOPS_SKIP_WITHOUT_DEVICE();
  const Layout layout(world(), {37, 3});
  if (!nccl_built()) {
    CHECK_THROWS_AS(SymmetricArray<double>(layout), InvalidArgument);
    return;
  }
  SymmetricArray<double> buffer(layout);
  CHECK(buffer.registered() == (symmetric_memory_available() && world().size() > 1));
  DistributedArray<double, Cuda>& x = buffer.array();
  DistributedArray<double, Host> reference(layout);
  fill_random(x, 7);
  fill_random(reference, 7);
  CHECK(x.gather() == reference.gather());
  for (GpuCollectives path : collective_paths()) {
    const CollectivesPath selected(path);
    CHECK(close(double(x.norm()), double(reference.norm()), device_operator_tolerance<double>()));
  }
  buffer.release();
  CHECK(buffer.released());
  CHECK_THROWS_AS(buffer.array(), InvalidArgument);
}
