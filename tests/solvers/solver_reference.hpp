// SPDX-License-Identifier: BSD-3-Clause
// Copyright (c) 2026 The distlops authors
#pragma once
// Serial references of the solvers for the tests: PyLops' recurrences (pylops/optimization/
// cls_basic.py and cls_sparsity.py) written out on dense Eigen matrices, step by step as PyLops
// does them (NumPy's bilinear dot with an explicit conjugate, |.| of the curvature, direct
// residuals), and the proximal solvers (ADMM, linearized ADMM, Chambolle-Pock) on quadratic and
// total-variation problems written out the same way. They share no code with the library, so
// agreement of every iterate checks the distributed implementations against an independent
// transcription.
//
// Only declared here: solver_reference_impl.hpp defines them, and solver_reference_real.cpp
// and solver_reference_complex.cpp compile them once for the four scalar types of the tests
// (DISTLOPS_SCALAR_TYPES) into the test support library, so that the test programs do not
// each instantiate the recurrences and Eigen's decompositions (at -O0, Eigen's self-adjoint
// eigensolver for the four types costs a test program about 25 s of compile time, an LDL^T
// solve about 9 s).
#include <Eigen/Dense>

#include <cstdint>
#include <utility>
#include <vector>

#include "dense_reference.hpp"

namespace distlops::testing {

/// The iterates x_0, x_1, ... and the cost history of a reference run.
template <class T>
struct ReferenceRun {
  std::vector<DenseVector<T>> iterates;
  std::vector<double> costs;
};

template <class T>
T as_scalar(double value) {
  return T(static_cast<real_type_t<T>>(value));
}

/// PyLops' CG (tol = 0).
template <class T>
ReferenceRun<T> reference_cg(const DenseMatrix<T>& a, const DenseVector<T>& y,
                             const DenseVector<T>& x0, int niter);

/// PyLops' CGLS (tol = 0) with damp^2 also in the initial normal residual (PyLops uses damp
/// there; the two agree when x0 = 0). Costs: ||y - A x_k||.
template <class T>
ReferenceRun<T> reference_cgls(const DenseMatrix<T>& a, const DenseVector<T>& y,
                               const DenseVector<T>& x0, int niter, double damp);

/// PyLops' (SciPy's) LSQR recurrence, without its stopping tests. Costs: the r1norm estimate.
template <class T>
ReferenceRun<T> reference_lsqr(const DenseMatrix<T>& a, const DenseVector<T>& y,
                               const DenseVector<T>& x0, int niter, double damp);

/// PyLops' thresholding rules (kind 0: soft, 1: hard, 2: half), written as in NumPy.
template <class T>
DenseVector<T> reference_threshold(const DenseVector<T>& x, int kind, double thresh);

/// PyLops' ISTA (accelerated = false) or FISTA (true), tol = 0, with an optional dense
/// sparsifying matrix `sop` (empty: none).
template <class T>
ReferenceRun<T> reference_sparse(const DenseMatrix<T>& a, const DenseVector<T>& y,
                                 const DenseVector<T>& x0, int niter, double eps, double alpha,
                                 int kind, bool accelerated, const DenseMatrix<T>& sop = {},
                                 const std::vector<double>& decay = {});

/// max_k ||a_k - b_k|| / max(1, ||b_k||) over two sequences of vectors.
template <class T>
double max_relative_difference(const std::vector<DenseVector<T>>& a,
                               const std::vector<DenseVector<T>>& b);

/// lambda_max(M^H M), from Eigen's self-adjoint eigensolver.
template <class T>
double largest_eigenvalue_of_normal(const DenseMatrix<T>& m);

/// The eigenvalue of largest modulus of a Hermitian matrix, with its sign, from Eigen's
/// self-adjoint eigensolver.
template <class T>
double largest_magnitude_eigenvalue(const DenseMatrix<T>& hermitian);

/// x with A x = b for a Hermitian positive definite A (normal equations and the like), from
/// Eigen's LDL^T factorisation.
template <class T>
DenseVector<T> solve_hermitian(const DenseMatrix<T>& a, const DenseVector<T>& b);

/// The minimiser of 1/2 ||Op x - b||^2 + eps/2 ||A x||^2, from its normal equations
/// (Op^H Op + eps A^H A) x = Op^H b (solve_hermitian).
template <class T>
DenseVector<T> reference_regularized_solution(const DenseMatrix<T>& op, const DenseVector<T>& b,
                                              double eps, const DenseMatrix<T>& a);

/// The quadratic problem of the proximal solvers' start-vector tests, gathered: Op (n x n),
/// A (m x n), b, and the closed-form proxes of f = 1/2 ||x - b||^2 and g = eps/2 ||z||^2, with
/// ADMM, linearized ADMM and Chambolle-Pock written out on them.
template <class T>
struct ReferenceQuadratic {
  DenseMatrix<T> op, a;
  DenseVector<T> b;
  double eps;
  DenseVector<T> prox_f(const DenseVector<T>& v, double t) const;
  DenseVector<T> prox_g(const DenseVector<T>& v, double t) const;
  /// g* = ||y||^2 / (2 eps): prox_{t g*}(v) = eps v / (eps + t).
  DenseVector<T> prox_g_conjugate(const DenseVector<T>& v, double t) const;
  /// ADMM with an exact x-update, z first or x first.
  DenseVector<T> admm(DenseVector<T> x, DenseVector<T> z, double tau, bool g_first,
                      int niter) const;
  DenseVector<T> linearized_admm(DenseVector<T> x, DenseVector<T> z, double tau, double mu,
                                 int niter) const;
  /// Chambolle-Pock with K = A, dual step first or primal step first; returns (x, y).
  std::pair<DenseVector<T>, DenseVector<T>> primal_dual(DenseVector<T> x, DenseVector<T> y,
                                                        double tau, double sigma, double theta,
                                                        bool dual_first, int niter) const;
};

/// Chambolle-Pock for min 1/2 ||x - b||^2 + weight sum_i ||(K x)_group i||, with K dense
/// (components of `n` rows stacked), the prox of f and the projection of g* written out.
template <class T>
DenseVector<T> reference_tv_denoising(const DenseMatrix<T>& k, const DenseVector<T>& b, Index n,
                                      double weight, double tau, double sigma, double theta,
                                      int niter);

/// Q D with Q unitary (from a QR factorisation of a random matrix with this key) and
/// D = diag(d): (Q D)^H (Q D) = D^2.
template <class T>
DenseMatrix<T> with_singular_values(const std::vector<double>& d, std::uint64_t key);

}  // namespace distlops::testing
