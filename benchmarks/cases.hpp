// SPDX-License-Identifier: BSD-3-Clause
// Copyright (c) 2026 The distlops authors
#pragma once
// The benchmark cases of docs/benchmarks.md (and a few more), each defined by its problem, its
// deterministic inputs and the bytes it must move.
#include <memory>
#include <vector>

#include "harness.hpp"

namespace distlops::bench {

/// One forward and one adjoint apply of an operator per repeat: x = V(key, i) (fill_random) in
/// its domain, y = A x, z = A^H y; the caller adds the checks and their verification.
template <Scalar T>
struct ForwardAdjointRun {
  std::shared_ptr<DistributedArray<T>> x, y, z;
  Run run;  // two units "apply" of `bytes` each
};

template <Scalar T>
ForwardAdjointRun<T> forward_adjoint_run(const LinearOperator<T>& op, std::uint64_t key,
                                         double bytes) {
  ForwardAdjointRun<T> result{std::make_shared<DistributedArray<T>>(op.domain()),
                              std::make_shared<DistributedArray<T>>(op.range()),
                              std::make_shared<DistributedArray<T>>(op.domain()),
                              {}};
  fill_random(*result.x, key);
  result.run.body = [op, x = result.x, y = result.y, z = result.z] {
    op.apply(*x, *y);
    op.apply_adjoint(*y, *z);
  };
  result.run.units = 2;
  result.run.unit_name = "apply";
  result.run.bytes_per_unit = bytes;
  return result;
}

std::vector<Case> all_cases();

/// The solver cases (cases_solvers.cpp).
std::vector<Case> solver_cases();

/// docs/benchmarks.md's dense block: A[i, j] = V(key, i cols + j) / sqrt(cols) + (i == j),
/// row-major (cases_solvers.cpp; the device blockdiag-cgls builds the same blocks).
std::vector<double> benchmark_block(Index rows, Index cols, std::uint64_t key);

/// The fft2d case and its reference, FFTW's own 2-d plan (case_fft2d.cpp).
Case fft2d_case();
/// The fft3d case: FFTND on slabs or pencils (case_fft2d.cpp).
Case fft3d_case();
Case fftw2d_case();

/// The convolve2d case (case_convolve2d.cpp).
Case convolve2d_case();

/// The post-stack inversion of the main example (case_poststack.cpp).
Case poststack_case();
/// Kirchhoff least-squares migration (case_kirchhoff.cpp), on the host or the device (Cuda,
/// in builds with the CUDA backend).
template <MemorySpace Space>
Case kirchhoff_lsm_case();

/// TV denoising by the primal-dual algorithm (case_primaldual_tv.cpp).
Case primaldual_tv_case();

/// Slabs to pencils with one ReshapePlan, against one MPI_Alltoallv of the same bytes
/// (case_reshape.cpp).
Case reshape_case();

/// Messages above 2 GiB through the data movements against MPI_Send (case_big_transfer.cpp).
Case big_transfer_case();

/// Point-to-point latency and bandwidth between rank 0 and the last rank (case_pingpong.cpp).
Case pingpong_case();

/// Write and read of an HDF5 file against the disk's bandwidth (case_io_hdf5.cpp; builds with
/// HDF5 only).
Case io_hdf5_case();

}  // namespace distlops::bench
