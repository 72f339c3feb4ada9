// SPDX-License-Identifier: BSD-3-Clause
// Copyright (c) 2026 The distlops authors
// CGLS on a block-diagonal operator, with the progress table, the cost history and a
// checkpoint/restart.
//
// The global problem does not depend on the number of ranks: 12 dense 40 x 40 blocks
// (the benchmarks' deterministic blocks of docs/benchmarks.md, key 1000 + block index) are dealt
// out to the ranks in order, PyLops-MPI's default split. Run it at several rank counts and compare
// the printed cost histories: they agree to rounding.
//
//     mpiexec -n 3 ./cgls_blockdiag
#include <Eigen/Dense>

#include <unistd.h>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <iostream>
#include <string>

#include "distlops/distlops.hpp"
#include "support/no_options.hpp"

using namespace distlops;

namespace {

/// y = M x for one rank's dense block (a local operator, like PyLops' MatrixMult).
class DenseBlock final : public LinearOperatorBase<LocalArray<double>> {
 public:
  using Matrix = Eigen::Matrix<double, Eigen::Dynamic, Eigen::Dynamic, Eigen::RowMajor>;
  using Map = Eigen::Map<Eigen::VectorXd>;
  using ConstMap = Eigen::Map<const Eigen::VectorXd>;
  explicit DenseBlock(Matrix m)
      : LinearOperatorBase<LocalArray<double>>({m.cols()}, {m.rows()}, "Block"), m_(std::move(m)) {}
  void forward(const LocalArray<double>& x, LocalArray<double>& y) const override {
    Map(y.data(), y.size()).noalias() = m_ * ConstMap(x.data(), x.size());
  }
  void adjoint(const LocalArray<double>& y, LocalArray<double>& x) const override {
    Map(x.data(), x.size()).noalias() = m_.transpose() * ConstMap(y.data(), y.size());
  }

 private:
  Matrix m_;
};

/// The benchmarks' block (docs/benchmarks.md): A[i, j] = V(key, i n + j) / sqrt(n) + (i == j).
DenseBlock::Matrix benchmark_block(Index n, std::uint64_t key) {
  DenseBlock::Matrix m(n, n);
  for (Index i = 0; i < n; ++i) {
    for (Index j = 0; j < n; ++j) {
      m(i, j) = signed_uniform_value(key, std::uint64_t(i * n + j)) / std::sqrt(double(n)) +
                (i == j ? 1.0 : 0.0);
    }
  }
  return m;
}

}  // namespace

int main(int argc, char** argv) {
  Environment environment(argc, argv);
  const Communicator comm = Communicator::world();
  if (const auto status = examples::parse_no_options(
          "CGLS on a block-diagonal operator of 12 dense 40 x 40 blocks dealt out to the ranks, "
          "with the progress table, the cost history and a checkpoint/restart. The problem does "
          "not depend on the number of ranks.",
          "cgls_blockdiag", argc, argv, comm)) {
    return *status;
  }
  const Index blocks = 12, n = 40;

  // This rank's blocks: a contiguous range of the 12, as PyLops-MPI splits them.
  const std::vector<Index> split = default_split(blocks, comm.size());
  Index first = 0;
  for (int r = 0; r < comm.rank(); ++r)
    first += split[std::size_t(r)];
  std::vector<LocalOperator<double>> mine;
  for (Index b = first; b < first + split[std::size_t(comm.rank())]; ++b) {
    mine.push_back(LocalOperator<double>::make<DenseBlock>(benchmark_block(n, 1000 + b)));
  }
  const LinearOperator<double> op = BlockDiag(mine, comm);

  DistributedArray<double> x_true(op.domain());
  fill_random(x_true, 11);
  const DistributedArray<double> y = op.apply(x_true);

  CglsOptions<DistributedArray<double>> options;
  options.niter = 20;
  options.progress.show = true;
  const auto result = cgls(op, y, options);
  DistributedArray<double> error = result.x;
  error -= x_true;
  if (comm.rank() == 0) {
    std::printf("cost history on %d rank(s):\n", comm.size());
    for (std::size_t k = 0; k < result.costs.size(); ++k)
      std::printf("  %2zu  %.17e\n", k, result.costs[k]);
  }
  const double relative_error = error.norm() / x_true.norm();
  if (comm.rank() == 0) std::printf("relative model error: %.3e\n", relative_error);

  // Stop at iteration 8 (checkpoints every 4 iterations), resume to 20, and compare with the
  // uninterrupted run bit for bit.
  std::string directory;
  if (comm.rank() == 0) {
    directory =
        (std::filesystem::temp_directory_path() / ("cgls-blockdiag-" + std::to_string(::getpid())))
            .string();
  }
  long long length = static_cast<long long>(directory.size());
  comm.broadcast(&length, 1, 0);
  directory.resize(std::size_t(length));
  comm.broadcast(directory.data(), length, 0);

  auto interrupted = options;
  interrupted.progress.show = false;
  interrupted.checkpoint.directory = directory;
  interrupted.checkpoint.every = 4;
  interrupted.callback = [](int iteration, const DistributedArray<double>&, double, double) {
    return iteration == 8 ? CallbackAction::stop : CallbackAction::proceed;
  };
  const auto stopped = cgls(op, y, interrupted);
  auto resumed_options = options;
  resumed_options.progress.show = false;
  resumed_options.checkpoint.directory = directory;
  resumed_options.checkpoint.resume = true;
  const auto resumed = cgls(op, y, resumed_options);
  const std::vector<double> a = resumed.x.gather(), b = result.x.gather();
  const bool equal = a.size() == b.size() &&
                     std::memcmp(a.data(), b.data(), a.size() * sizeof(double)) == 0 &&
                     resumed.costs == result.costs;
  if (comm.rank() == 0) {
    std::printf("stopped at iteration %d (%s), resumed from %d to %d: %s\n", stopped.iterations,
                to_string(stopped.reason), resumed.resumed_from, resumed.iterations,
                equal ? "bit-for-bit equal to the uninterrupted run"
                      : "DIFFERENT from the uninterrupted run");
    std::filesystem::remove_all(directory);
  }
  return equal ? 0 : 1;
}
