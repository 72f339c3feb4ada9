// The dense operators in the Cuda space against the same operators in the host space (which
// tests/operators/fft_dense checks against Eigen references), on the same random data: the
// distributed MatrixMult (SUMMA and block kinds, edge tiles that are padded or empty) and
// Fredholm1 (local, and distributed with replicated or split model and data, ranks with no
// slices), through both paths of device collectives. Dot tests run on the device, and a
// second apply allocates nothing. The cases that need a device skip without one; the argument
// errors, raised before any device memory is touched, run everywhere.
#include "../operators/fft_dense/operator_checks.hpp"
#include "distlops/distlops.hpp"
#include "gpu_support.hpp"

using namespace distlops;
using namespace distlops::testing;

namespace {

bool square(int size) {
  int p = 0;
  while ((p + 1) * (p + 1) <= size)
    ++p;
  return p * p == size;
}

const char* name(MatrixMultKind kind) {
  return kind == MatrixMultKind::summa ? "summa" : "block";
}

struct Sizes {
  Index n, k, m;
};

// This rank's block `b` of a global matrix, in C order.
template <class T>
EigenRowMajorMatrix<T> block_of(const DenseMatrix<T>& full, const MatrixBlock& b) {
  return full.block(b.row_begin, b.col_begin, b.rows(), b.cols());
}

// The same values in an array of each space: this rank's block `b` of a global matrix (so
// replicas of the block kind agree).
template <class T>
Pair<T> distribute(const Layout& layout, const DenseMatrix<T>& full, const MatrixBlock& b) {
  const EigenRowMajorMatrix<T> tile = block_of(full, b);
  Pair<T> pair{DistributedArray<T, Host>(layout), DistributedArray<T, Cuda>(layout)};
  REQUIRE(pair.host.local_size() == Index(tile.size()));
  std::copy(tile.data(), tile.data() + tile.size(), pair.host.local().begin());
  memory::copy_bytes<Cuda, Host>(pair.device.data(), tile.data(),
                                 static_cast<std::size_t>(tile.size()) * sizeof(T));
  return pair;
}

// Slices [begin, end) of a kernel (nsl, nx, ny) in C order, as a host array.
template <class T>
LocalArray<T, Host> slices(const std::vector<T>& g, Index nx, Index ny, Index begin, Index end) {
  LocalArray<T, Host> local({end - begin, nx, ny});
  std::copy(g.begin() + begin * nx * ny, g.begin() + end * nx * ny, local.data());
  return local;
}

// Slices of rank r: (r + 1) % 3, so that rank 2 holds none.
Index slices_of(int rank) {
  return (rank + 1) % 3;
}

}  // namespace

TEMPLATE_TEST_CASE("device MatrixMult matches the host's on every grid", "[gpu][matrixmult]",
                   DISTLOPS_SCALAR_TYPES) {
  DISTLOPS_SKIP_WITHOUT_DEVICE();
  using T = TestType;
  const Communicator comm = world();
  if (!square(comm.size())) return;  // see the error case
  const double tol = device_operator_tolerance<T>();
  for (GpuCollectives path : collective_paths()) {
    const CollectivesPath selected(path);
    for (MatrixMultKind kind : {MatrixMultKind::summa, MatrixMultKind::block}) {
      // Uneven and empty edge tiles on a 2 x 2 grid, one column (GEMV), no padding (4, 4, 4).
      for (const Sizes& s : std::vector<Sizes>{
               {7, 6, 5}, {5, 4, 3}, {1, 2, 1}, {2, 1, 3}, {6, 3, 1}, {4, 4, 4}, {3, 5, 2}}) {
        INFO(to_string(path) << " " << name(kind) << " N " << s.n << " K " << s.k << " M " << s.m);
        const DenseMatrix<T> a = random_matrix<T>(s.n, s.k, 11);
        const DenseMatrix<T> x = random_matrix<T>(s.k, s.m, 12);
        const DenseMatrix<T> y = random_matrix<T>(s.n, s.m, 13);
        const MatrixMultBlocks blocks =
            matrix_mult_blocks(kind, s.n, s.k, s.m, comm.rank(), comm.size());
        const EigenRowMajorMatrix<T> local_a = block_of(a, blocks.a);
        const auto host = MatrixMult<T, Host>(local_a, s.m, kind);
        const auto device = MatrixMult<T, Cuda>(local_a, s.m, kind);
        CHECK(device.domain() == host.domain());
        CHECK(device.range() == host.range());
        const Pair<T> xs = distribute(device.domain(), x, blocks.x);
        const Pair<T> ys = distribute(device.range(), y, blocks.y);
        const DistributedArray<T, Cuda> ax = device.apply(xs.device);
        const DistributedArray<T, Cuda> ahy = device.apply_adjoint(ys.device);
        CHECK(all_close(ax.gather(), host.apply(xs.host).gather(), tol));
        CHECK(all_close(ahy.gather(), host.apply_adjoint(ys.host).gather(), tol));
        // The dot test on the device, with consistent replicas (block kind).
        const T forward_side = ax.vdot(ys.device);
        const T adjoint_side = xs.device.vdot(ahy);
        CHECK(std::abs(forward_side - adjoint_side) <=
              100 * dottest_tolerance<T>() * std::max(1.0, double(std::abs(forward_side))));
        CHECK(close(forward_side, T(((a * x).adjoint() * y).trace()), tol));
        if (kind == MatrixMultKind::summa) {
          CHECK(dottest(device, 14, 100 * dottest_tolerance<T>(), 0.0, false).passed);
        }
      }
    }
  }
}

TEMPLATE_TEST_CASE("a second apply of device MatrixMult allocates nothing",
                   "[gpu][matrixmult][allocation]", DISTLOPS_SCALAR_TYPES) {
  DISTLOPS_SKIP_WITHOUT_DEVICE();
  using T = TestType;
  const Communicator comm = world();
  if (!square(comm.size())) return;
  for (GpuCollectives path : collective_paths()) {
    const CollectivesPath selected(path);
    for (MatrixMultKind kind : {MatrixMultKind::summa, MatrixMultKind::block}) {
      INFO(to_string(path) << " " << name(kind));
      const MatrixMultBlocks blocks = matrix_mult_blocks(kind, 9, 7, 5, comm.rank(), comm.size());
      const auto op = MatrixMult<T, Cuda>(block_of(random_matrix<T>(9, 7, 1), blocks.a), 5, kind);
      CHECK(second_apply_allocates_nothing(op));
    }
  }
}

TEMPLATE_TEST_CASE("bad device MatrixMult arguments fail on every rank",
                   "[gpu][matrixmult][errors]", DISTLOPS_SCALAR_TYPES) {
  // No device needed: the checks come before any device memory.
  using T = TestType;
  const Communicator comm = world();
  const int size = comm.size();
  for (MatrixMultKind kind : {MatrixMultKind::summa, MatrixMultKind::block}) {
    INFO(name(kind));
    if (!square(size)) {
      try {
        (void)MatrixMult<T, Cuda>(EigenRowMajorMatrix<T>::Zero(2, 2), 3, kind);
        FAIL("no exception");
      } catch (const InvalidArgument& error) {
        CHECK(std::string(error.what()).find("perfect square") != std::string::npos);
      }
      continue;
    }
    const MatrixMultBlocks blocks = matrix_mult_blocks(kind, 6, 5, 4, comm.rank(), size);
    CHECK_THROWS_AS((MatrixMult<T, Cuda>(
                        EigenRowMajorMatrix<T>::Zero(blocks.a.rows(), blocks.a.cols()), -1, kind)),
                    InvalidArgument);
    if (size > 1) {
      const Index extra = comm.rank() == size - 1 ? 1 : 0;
      CHECK_THROWS_AS(
          (MatrixMult<T, Cuda>(
              EigenRowMajorMatrix<T>::Zero(blocks.a.rows(), blocks.a.cols() + extra), 4, kind)),
          InvalidArgument);
    }
  }
  CHECK(comm.allreduce(1, ReduceOp::sum) == size);
}

TEMPLATE_TEST_CASE("device local Fredholm1 matches the host's", "[gpu][fredholm1][local]",
                   DISTLOPS_SCALAR_TYPES) {
  DISTLOPS_SKIP_WITHOUT_DEVICE();
  using T = TestType;
  const double tol = device_operator_tolerance<T>();
  struct Case {
    Index nsl, nx, ny;
  };
  for (const Case& c : std::vector<Case>{{3, 4, 5}, {1, 6, 2}, {0, 3, 4}, {2, 0, 3}}) {
    for (Index nz : {1, 3}) {
      for (bool keep : {false, true}) {
        INFO("nsl " << c.nsl << " nx " << c.nx << " ny " << c.ny << " nz " << nz << " keep "
                    << keep);
        const std::vector<T> g = random_values<T>(c.nsl * c.nx * c.ny, 21);
        const LocalArray<T, Host> gl = slices(g, c.nx, c.ny, 0, c.nsl);
        const auto host = local::Fredholm1<T, Host>(gl, nz, keep);
        const auto device = local::Fredholm1<T, Cuda>(gl, nz, keep);
        CHECK(device.domain() == host.domain());
        CHECK(device.range() == host.range());
        LocalArray<T, Host> hx(host.domain()), hy(host.range());
        LocalArray<T, Cuda> dx(device.domain()), dy(device.range());
        fill_random(hx, 22);
        fill_random(dx, 22);
        fill_random(hy, 23);
        fill_random(dy, 23);
        CHECK(all_close(values_of(device.apply(dx)), values_of(host.apply(hx)), tol));
        CHECK(
            all_close(values_of(device.apply_adjoint(dy)), values_of(host.apply_adjoint(hy)), tol));
        CHECK(dottest(device, 24, 100 * dottest_tolerance<T>(), 0.0, false).passed);
        // A second apply allocates nothing.
        device.apply(dx, dy);
        device.apply_adjoint(dy, dx);
        const std::uint64_t before = memory::allocation_count();
        device.apply(dx, dy);
        device.apply_adjoint(dy, dx);
        CHECK(memory::allocation_count() == before);
      }
    }
  }
}

TEMPLATE_TEST_CASE("device Fredholm1 matches the host's across ranks",
                   "[gpu][fredholm1][distributed]", DISTLOPS_SCALAR_TYPES) {
  DISTLOPS_SKIP_WITHOUT_DEVICE();
  using T = TestType;
  const Communicator comm = world();
  const double tol = device_operator_tolerance<T>();
  const Index nx = 3, ny = 4;
  Index nsl = 0, begin = 0;
  for (int r = 0; r < comm.size(); ++r) {
    if (r == comm.rank()) begin = nsl;
    nsl += slices_of(r);
  }
  const std::vector<T> g = random_values<T>(nsl * nx * ny, 31);
  const LocalArray<T, Host> local_g = slices(g, nx, ny, begin, begin + slices_of(comm.rank()));
  for (GpuCollectives path : collective_paths()) {
    const CollectivesPath selected(path);
    for (Partition partition : {Partition::BROADCAST, Partition::SCATTER}) {
      for (Index nz : {1, 2}) {
        for (bool keep : {false, true}) {
          INFO(to_string(path) << " " << to_string(partition) << " nz " << nz << " keep " << keep);
          const Fredholm1Options options{.partition = partition, .keep_adjoint = keep};
          const auto host = Fredholm1<T, Host>(local_g, nz, options);
          const auto device = Fredholm1<T, Cuda>(local_g, nz, options);
          CHECK(device.domain() == host.domain());
          CHECK(device.range() == host.range());
          DistributedArray<T, Host> hx(host.domain()), hy(host.range());
          DistributedArray<T, Cuda> dx(device.domain()), dy(device.range());
          fill_random(hx, 32);
          fill_random(dx, 32);
          fill_random(hy, 33);
          fill_random(dy, 33);
          CHECK(all_close(device.apply(dx).gather(), host.apply(hx).gather(), tol));
          CHECK(all_close(device.apply_adjoint(dy).gather(), host.apply_adjoint(hy).gather(), tol));
          CHECK(dottest(device, 34, 100 * dottest_tolerance<T>(), 0.0, false).passed);
          CHECK(second_apply_allocates_nothing(device));
        }
      }
    }
  }
}

TEMPLATE_TEST_CASE("bad device Fredholm1 arguments fail on every rank", "[gpu][fredholm1][errors]",
                   DISTLOPS_SCALAR_TYPES) {
  // No device needed: the checks come before any device memory.
  using T = TestType;
  const Communicator comm = world();
  CHECK_THROWS_AS((local::Fredholm1<T, Cuda>(LocalArray<T, Host>({3, 4}), 1)), InvalidArgument);
  CHECK_THROWS_AS((local::Fredholm1<T, Cuda>(LocalArray<T, Host>({3, 4, 2}), -1)), InvalidArgument);
  CHECK_THROWS_AS((Fredholm1<T, Cuda>(LocalArray<T, Host>({2, 3}), 1)), InvalidArgument);
  if (comm.size() > 1) {
    // nz differs on rank 0 only.
    CHECK_THROWS_AS((Fredholm1<T, Cuda>(LocalArray<T, Host>({1, 3, 4}), comm.rank() == 0 ? 2 : 1)),
                    InvalidArgument);
  }
  CHECK(comm.allreduce(1, ReduceOp::sum) == comm.size());
}
