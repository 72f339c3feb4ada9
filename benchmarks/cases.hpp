// SPDX-License-Identifier: BSD-3-Clause
// Copyright (c) 2026 The distlops authors
#pragma once
// The benchmark cases of docs/benchmarks.md (and a few more), each defined by its problem, its
// deterministic inputs and the bytes it must move.
#include <vector>

#include "harness.hpp"

namespace distlops::bench {

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
/// Kirchhoff least-squares migration (case_kirchhoff.cpp).
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
