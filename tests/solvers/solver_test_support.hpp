// SPDX-License-Identifier: BSD-3-Clause
// Copyright (c) 2026 The distlops authors
#pragma once
// Helpers of the solver tests: well-conditioned test matrices, dense operators on any vector
// type of any memory space, a callback that records the gathered iterates, comparisons and a
// shared scratch directory.
#include <unistd.h>

#include <filesystem>
#include <string>
#include <vector>

#include "dense_algebra.hpp"
#include "dense_reference.hpp"
#include "distlops/solvers/cg.hpp"
#include "distlops/solvers/cgls.hpp"
#include "distlops/solvers/common.hpp"
#include "distlops/solvers/fista.hpp"
#include "distlops/solvers/ista.hpp"
#include "distlops/solvers/lsqr.hpp"
#include "distlops/solvers/power_iteration.hpp"
#include "distlops/solvers/thresholding.hpp"
#include "solver_reference.hpp"
#include "spaces.hpp"
#include "test_support.hpp"

namespace distlops::testing {

template <class T, class Space = Host>
using Array = DistributedArray<T, Space>;

/// A dense global matrix as an operator between vectors of the given layouts (in the Cuda space
/// its products run on the host, so the solver's own work is what runs on the device).
template <class Domain, class Range = Domain>
BasicLinearOperator<Domain, Range> dense_operator(const DenseMatrix<typename Domain::value_type>& m,
                                                  const vector_layout_t<Domain>& domain,
                                                  const vector_layout_t<Range>& range,
                                                  std::string name = "Dense") {
  return BasicLinearOperator<Domain, Range>::template make<DenseOperator<Domain, Range>>(
      m, domain, range, std::move(name));
}

/// The matrix of -L, L the Laplacian of an array of `shape` (centered, no edge, unit weights and
/// sampling), by the formula: on a row away from the ends of an axis, 2 on the diagonal and -1 at
/// the two neighbours along that axis; the end rows of an axis get nothing from it.
template <class T>
DenseMatrix<T> negative_laplacian_matrix(const Shape& shape) {
  const Index n = element_count(shape);
  DenseMatrix<T> m = DenseMatrix<T>::Zero(n, n);
  Index stride = n;
  for (const Index extent : shape) {
    stride /= extent;
    for (Index row = 0; row < n; ++row) {
      const Index i = (row / stride) % extent;
      if (i == 0 || i == extent - 1) continue;
      m(row, row) += T(2);
      m(row, row - stride) -= T(1);
      m(row, row + stride) -= T(1);
    }
  }
  return m;
}

/// B^H B / n + I for a random n x n B: Hermitian positive definite, condition number ~ 5.
template <class T>
DenseMatrix<T> hpd_matrix(Index n, std::uint64_t key) {
  const DenseMatrix<T> b = random_matrix<T>(n, n, key);
  DenseMatrix<T> m = product(adjoint_of(b), b) / static_cast<real_type_t<T>>(n);
  m += DenseMatrix<T>::Identity(n, n);
  return m;
}

/// A random rows x cols matrix scaled by 1/sqrt(cols) plus 2 on the diagonal: full rank and
/// well conditioned (the blocks of docs/benchmarks.md with a stronger diagonal).
template <class T>
DenseMatrix<T> well_conditioned(Index rows, Index cols, std::uint64_t key) {
  DenseMatrix<T> m = random_matrix<T>(rows, cols, key) /
                     static_cast<real_type_t<T>>(std::sqrt(static_cast<double>(cols)));
  for (Index i = 0; i < std::min(rows, cols); ++i)
    m(i, i) += T(2);
  return m;
}

/// ||x - x_true|| / ||x_true|| of the gathered vectors.
template <class V>
double relative_error(const V& x, const DenseVector<typename V::value_type>& x_true) {
  return distance(global_vector(x), x_true) / norm_of(x_true);
}

/// Tolerance of a converged solution of a well-conditioned system in precision T.
template <class T>
constexpr double solution_tolerance() {
  return std::is_same_v<real_type_t<T>, float> ? 2e-3 : 1e-9;
}
/// Tolerance of iterates of the same recurrence computed in another order (a few iterations),
/// in memory space Space.
template <class T, class Space = Host>
constexpr double iterate_tolerance() {
  return space_factor<Space>() * (std::is_same_v<real_type_t<T>, float> ? 5e-4 : 1e-10);
}
/// A residual tolerance that well-conditioned systems reach in precision T, relative to the
/// data norm.
template <class T>
constexpr double residual_tolerance() {
  return std::is_same_v<real_type_t<T>, float> ? 1e-5 : 1e-12;
}

/// True when `value` is the same on every rank of the world.
inline bool same_on_every_rank(long long value) {
  const Communicator comm = world();
  return comm.allreduce(value, ReduceOp::max) == comm.allreduce(value, ReduceOp::min);
}

/// A callback that records every iterate, gathered (so it runs on every rank).
template <class V>
struct IterateRecorder {
  std::vector<DenseVector<typename V::value_type>> iterates;
  SolverCallback<V> callback() {
    return [this](int, const V& x, double, double) {
      iterates.push_back(global_vector(x));
      return CallbackAction::proceed;
    };
  }
};

/// A fresh directory under the system's temporary directory, the same name on every rank;
/// removed by rank 0 when the object goes (after a barrier).
class ScratchDirectory {
 public:
  ScratchDirectory() {
    const Communicator comm = world();
    static int counter = 0;
    long long tag[2] = {static_cast<long long>(::getpid()), counter++};
    comm.broadcast(tag, 2, 0);
    path_ = (std::filesystem::temp_directory_path() /
             ("distlops-solvers-" + std::to_string(tag[0]) + "-" + std::to_string(tag[1])))
                .string();
    if (comm.rank() == 0) std::filesystem::create_directories(path_);
    comm.barrier();
  }
  ~ScratchDirectory() {
    const Communicator comm = world();
    comm.barrier();
    std::error_code ignored;
    if (comm.rank() == 0) std::filesystem::remove_all(path_, ignored);
  }
  ScratchDirectory(const ScratchDirectory&) = delete;
  ScratchDirectory& operator=(const ScratchDirectory&) = delete;
  const std::string& path() const { return path_; }
  std::string sub(const std::string& name) const { return path_ + "/" + name; }

 private:
  std::string path_;
};

}  // namespace distlops::testing
