// SPDX-License-Identifier: BSD-3-Clause
// Copyright (c) 2026 The distlops authors
#pragma once
// The definitions of the serial references of solver_reference.hpp, included only by the
// files that compile them once per scalar type (solver_reference_real.cpp and
// solver_reference_complex.cpp: one of four types takes about as long as a whole test program).
#include "solver_reference.hpp"

#include <Eigen/Cholesky>
#include <Eigen/Eigenvalues>
#include <Eigen/QR>

#include <algorithm>
#include <cmath>
#include <complex>
#include <limits>

namespace distlops::testing {

namespace detail {

/// NumPy's a.dot(b): bilinear, no conjugate.
template <class T>
T numpy_dot(const DenseVector<T>& a, const DenseVector<T>& b) {
  return (a.array() * b.array()).sum();
}

}  // namespace detail

template <class T>
ReferenceRun<T> reference_cg(const DenseMatrix<T>& a, const DenseVector<T>& y,
                             const DenseVector<T>& x0, int niter) {
  ReferenceRun<T> run;
  DenseVector<T> x = x0;
  DenseVector<T> r = y - a * x;
  DenseVector<T> c = r;
  double kold = std::abs(detail::numpy_dot<T>(r, r.conjugate()));
  run.iterates.push_back(x);
  run.costs.push_back(std::sqrt(kold));
  for (int i = 0; i < niter; ++i) {
    const DenseVector<T> opc = a * c;
    const double copc = std::abs(detail::numpy_dot<T>(c, opc.conjugate()));
    const double alpha = kold / copc;
    x += as_scalar<T>(alpha) * c;
    r -= as_scalar<T>(alpha) * opc;
    const double k = std::abs(detail::numpy_dot<T>(r, r.conjugate()));
    const double beta = k / kold;
    c = r + as_scalar<T>(beta) * c;
    kold = k;
    run.iterates.push_back(x);
    run.costs.push_back(std::sqrt(kold));
  }
  return run;
}

template <class T>
ReferenceRun<T> reference_cgls(const DenseMatrix<T>& a, const DenseVector<T>& y,
                               const DenseVector<T>& x0, int niter, double damp) {
  const double damp2 = damp * damp;
  ReferenceRun<T> run;
  DenseVector<T> x = x0;
  DenseVector<T> s = y - a * x;
  DenseVector<T> c = a.adjoint() * s - as_scalar<T>(damp2) * x;
  DenseVector<T> q = a * c;
  double kold = std::abs(detail::numpy_dot<T>(c, c.conjugate()));
  run.iterates.push_back(x);
  run.costs.push_back(static_cast<double>(s.norm()));
  for (int i = 0; i < niter; ++i) {
    const double alpha =
        kold / std::abs(detail::numpy_dot<T>(q, q.conjugate()) +
                        as_scalar<T>(damp2) * detail::numpy_dot<T>(c, c.conjugate()));
    x = x + as_scalar<T>(alpha) * c;
    s = s - as_scalar<T>(alpha) * q;
    const DenseVector<T> r = a.adjoint() * s - as_scalar<T>(damp2) * x;
    const double k = std::abs(detail::numpy_dot<T>(r, r.conjugate()));
    const double beta = k / kold;
    c = r + as_scalar<T>(beta) * c;
    q = a * c;
    kold = k;
    run.iterates.push_back(x);
    run.costs.push_back(static_cast<double>(s.norm()));
  }
  return run;
}

template <class T>
ReferenceRun<T> reference_lsqr(const DenseMatrix<T>& a, const DenseVector<T>& y,
                               const DenseVector<T>& x0, int niter, double damp) {
  ReferenceRun<T> run;
  DenseVector<T> x = x0;
  DenseVector<T> u = y - a * x;
  double alfa = 0;
  double beta = static_cast<double>(u.norm());
  DenseVector<T> v = DenseVector<T>::Zero(x.size());
  if (beta > 0) {
    u = u / as_scalar<T>(beta);
    v = a.adjoint() * u;
    alfa = static_cast<double>(v.norm());
    if (alfa > 0) v = v / as_scalar<T>(alfa);
  }
  DenseVector<T> w = v;
  double rhobar = alfa, phibar = beta, res2 = 0, xxnorm = 0, z = 0, cs2 = -1, sn2 = 0;
  run.iterates.push_back(x);
  run.costs.push_back(beta);
  for (int i = 0; i < niter; ++i) {
    u = a * v - as_scalar<T>(alfa) * u;
    beta = static_cast<double>(u.norm());
    if (beta > 0) {
      u = u / as_scalar<T>(beta);
      v = a.adjoint() * u - as_scalar<T>(beta) * v;
      alfa = static_cast<double>(v.norm());
      if (alfa > 0) v = v / as_scalar<T>(alfa);
    }
    const double rhobar1 = std::sqrt(rhobar * rhobar + damp * damp);
    const double cs1 = rhobar / rhobar1;
    const double sn1 = damp / rhobar1;
    const double psi = sn1 * phibar;
    phibar = cs1 * phibar;
    const double rho = std::sqrt(rhobar1 * rhobar1 + beta * beta);
    const double cs = rhobar1 / rho;
    const double sn = beta / rho;
    const double theta = sn * alfa;
    rhobar = -cs * alfa;
    const double phi = cs * phibar;
    phibar = sn * phibar;
    x = x + as_scalar<T>(phi / rho) * w;
    w = v + as_scalar<T>(-theta / rho) * w;
    const double delta = sn2 * rho;
    const double gambar = -cs2 * rho;
    const double rhs = phi - delta * z;
    const double gamma = std::sqrt(gambar * gambar + theta * theta);
    cs2 = gambar / gamma;
    sn2 = theta / gamma;
    z = rhs / gamma;
    xxnorm += z * z;
    res2 += psi * psi;
    const double rnorm = std::sqrt(phibar * phibar + res2);
    run.iterates.push_back(x);
    run.costs.push_back(std::sqrt(std::abs(rnorm * rnorm - damp * damp * xxnorm)));
  }
  return run;
}

template <class T>
DenseVector<T> reference_threshold(const DenseVector<T>& x, int kind, double thresh) {
  using R = real_type_t<T>;
  DenseVector<T> result = x;
  for (Eigen::Index i = 0; i < x.size(); ++i) {
    const double magnitude = std::abs(std::complex<double>(x(i)));
    if (kind == 0) {  // soft: max(|x| - t, 0) * exp(1j angle(x))
      const double shrunk = std::max(magnitude - thresh, 0.0);
      const double angle = std::arg(std::complex<double>(x(i)));
      if constexpr (is_complex_v<T>) {
        result(i) = T(std::polar(shrunk, angle));
      } else {
        result(i) = static_cast<T>(shrunk * (x(i) > 0 ? 1 : x(i) < 0 ? -1 : 0));
      }
    } else if (kind == 1) {  // hard
      if (magnitude <= std::sqrt(2 * thresh)) result(i) = T(0);
    } else {  // half
      double arg = 1.0;
      if (magnitude != 0) arg = (thresh / 8.0) * std::pow(magnitude / 3.0, -1.5);
      arg = std::clamp(arg, -1.0, 1.0);
      const double phi = 2.0 / 3.0 * std::acos(arg);
      const double pi = std::acos(-1.0);
      result(i) = x(i) * static_cast<R>(2.0 / 3.0 * (1 + std::cos(2.0 * pi / 3.0 - phi)));
      if (magnitude <= std::cbrt(54.0) / 4.0 * std::pow(thresh, 2.0 / 3.0)) result(i) = T(0);
    }
  }
  return result;
}

template <class T>
ReferenceRun<T> reference_sparse(const DenseMatrix<T>& a, const DenseVector<T>& y,
                                 const DenseVector<T>& x0, int niter, double eps, double alpha,
                                 int kind, bool accelerated, const DenseMatrix<T>& sop,
                                 const std::vector<double>& decay) {
  ReferenceRun<T> run;
  const double thresh = eps * alpha * 0.5;
  DenseVector<T> x = x0;
  DenseVector<T> z = x0;
  double t = 1;
  run.iterates.push_back(x);
  for (int i = 0; i < niter; ++i) {
    const DenseVector<T> xold = x;
    const DenseVector<T>& from = accelerated ? z : x;
    const DenseVector<T> res = y - a * from;
    const DenseVector<T> grad = as_scalar<T>(alpha) * (a.adjoint() * res);
    const DenseVector<T> unthresholded = from + grad;
    const double factor = decay.empty() ? 1.0 : decay[static_cast<std::size_t>(i)];
    if (sop.size() == 0) {
      x = reference_threshold<T>(unthresholded, kind, factor * thresh);
    } else {
      x = sop * reference_threshold<T>(DenseVector<T>(sop.adjoint() * unthresholded), kind,
                                       factor * thresh);
    }
    if (accelerated) {
      const double told = t;
      t = (1.0 + std::sqrt(1.0 + 4.0 * t * t)) / 2.0;
      z = x + as_scalar<T>((told - 1.0) / t) * (x - xold);
    }
    run.iterates.push_back(x);
  }
  return run;
}

template <class T>
double max_relative_difference(const std::vector<DenseVector<T>>& a,
                               const std::vector<DenseVector<T>>& b) {
  if (a.size() != b.size()) return std::numeric_limits<double>::infinity();
  double worst = 0;
  for (std::size_t k = 0; k < a.size(); ++k) {
    const double scale = std::max(1.0, static_cast<double>(b[k].norm()));
    worst = std::max(worst, static_cast<double>((a[k] - b[k]).norm()) / scale);
  }
  return worst;
}

template <class T>
double largest_eigenvalue_of_normal(const DenseMatrix<T>& m) {
  Eigen::SelfAdjointEigenSolver<DenseMatrix<T>> solver(DenseMatrix<T>(m.adjoint() * m));
  return static_cast<double>(solver.eigenvalues().maxCoeff());
}

template <class T>
double largest_magnitude_eigenvalue(const DenseMatrix<T>& hermitian) {
  const Eigen::SelfAdjointEigenSolver<DenseMatrix<T>> solver(hermitian, Eigen::EigenvaluesOnly);
  const auto& values = solver.eigenvalues();
  double largest = 0;
  for (Eigen::Index i = 0; i < values.size(); ++i) {
    if (std::abs(double(values(i))) > std::abs(largest)) largest = double(values(i));
  }
  return largest;
}

template <class T>
DenseVector<T> solve_hermitian(const DenseMatrix<T>& a, const DenseVector<T>& b) {
  return a.ldlt().solve(b);
}

template <class T>
DenseVector<T> reference_regularized_solution(const DenseMatrix<T>& op, const DenseVector<T>& b,
                                              double eps, const DenseMatrix<T>& a) {
  using R = real_type_t<T>;
  return solve_hermitian<T>(op.adjoint() * op + static_cast<R>(eps) * a.adjoint() * a,
                            op.adjoint() * b);
}

template <class T>
DenseVector<T> ReferenceQuadratic<T>::prox_f(const DenseVector<T>& v, double t) const {
  using R = real_type_t<T>;
  return (v + static_cast<R>(t) * b) / static_cast<R>(1 + t);
}

template <class T>
DenseVector<T> ReferenceQuadratic<T>::prox_g(const DenseVector<T>& v, double t) const {
  using R = real_type_t<T>;
  return v / static_cast<R>(1 + t * eps);
}

template <class T>
DenseVector<T> ReferenceQuadratic<T>::prox_g_conjugate(const DenseVector<T>& v, double t) const {
  using R = real_type_t<T>;
  return static_cast<R>(eps / (eps + t)) * v;
}

template <class T>
DenseVector<T> ReferenceQuadratic<T>::admm(DenseVector<T> x, DenseVector<T> z, double tau,
                                           bool g_first, int niter) const {
  using R = real_type_t<T>;
  const R scale = static_cast<R>(1 / tau);
  const DenseMatrix<T> normal = op.adjoint() * op + scale * a.adjoint() * a;
  DenseVector<T> u = DenseVector<T>::Zero(z.size());
  auto update_x = [&] {
    x = normal.ldlt().solve(DenseVector<T>(op.adjoint() * b + scale * a.adjoint() * (z - u)));
  };
  for (int k = 0; k < niter; ++k) {
    if (g_first) {
      z = prox_g(a * x + u, tau);
      update_x();
    } else {
      update_x();
      z = prox_g(a * x + u, tau);
    }
    u += a * x - z;
  }
  return x;
}

template <class T>
DenseVector<T> ReferenceQuadratic<T>::linearized_admm(DenseVector<T> x, DenseVector<T> z,
                                                      double tau, double mu, int niter) const {
  using R = real_type_t<T>;
  DenseVector<T> u = DenseVector<T>::Zero(z.size());
  for (int k = 0; k < niter; ++k) {
    x = prox_f(x - static_cast<R>(mu / tau) * a.adjoint() * (a * x - z + u), mu);
    z = prox_g(a * x + u, tau);
    u += a * x - z;
  }
  return x;
}

template <class T>
std::pair<DenseVector<T>, DenseVector<T>> ReferenceQuadratic<T>::primal_dual(
    DenseVector<T> x, DenseVector<T> y, double tau, double sigma, double theta, bool dual_first,
    int niter) const {
  using R = real_type_t<T>;
  DenseVector<T> xbar = x;
  for (int k = 0; k < niter; ++k) {
    const DenseVector<T> xold = x;
    if (dual_first) y = prox_g_conjugate(y + static_cast<R>(sigma) * a * xbar, sigma);
    x = prox_f(x - static_cast<R>(tau) * a.adjoint() * y, tau);
    xbar = x + static_cast<R>(theta) * (x - xold);
    if (!dual_first) y = prox_g_conjugate(y + static_cast<R>(sigma) * a * xbar, sigma);
  }
  return {x, y};
}

template <class T>
DenseVector<T> reference_tv_denoising(const DenseMatrix<T>& k, const DenseVector<T>& b, Index n,
                                      double weight, double tau, double sigma, double theta,
                                      int niter) {
  using R = real_type_t<T>;
  const Index components = k.rows() / n;
  DenseVector<T> x = b, y = DenseVector<T>::Zero(k.rows());
  for (int it = 0; it < niter; ++it) {
    const DenseVector<T> xold = x;
    x = (xold - static_cast<R>(tau) * k.adjoint() * y + static_cast<R>(tau) * b) /
        static_cast<R>(1 + tau);
    const DenseVector<T> xbar = x + static_cast<R>(theta) * (x - xold);
    y += static_cast<R>(sigma) * k * xbar;
    for (Index i = 0; i < n; ++i) {
      double norm = 0;
      for (Index j = 0; j < components; ++j)
        norm += std::norm(std::complex<double>(y(j * n + i)));
      norm = std::sqrt(norm);
      if (norm > weight) {
        for (Index j = 0; j < components; ++j)
          y(j * n + i) *= static_cast<R>(weight / norm);
      }
    }
  }
  return x;
}

template <class T>
DenseMatrix<T> with_singular_values(const std::vector<double>& d, std::uint64_t key) {
  const Index n = Index(d.size());
  const DenseMatrix<T> q =
      Eigen::HouseholderQR<DenseMatrix<T>>(random_matrix<T>(n, n, key)).householderQ() *
      DenseMatrix<T>::Identity(n, n);
  DenseMatrix<T> result = q;
  for (Index j = 0; j < n; ++j)
    result.col(j) *= as_scalar<T>(d[std::size_t(j)]);
  return result;
}

/// Compiles every reference for the scalar type T (expanded inside distlops::testing).
#define DISTLOPS_INSTANTIATE_SOLVER_REFERENCE(T)                                                  \
  template ReferenceRun<T> reference_cg<T>(const DenseMatrix<T>&, const DenseVector<T>&,          \
                                           const DenseVector<T>&, int);                           \
  template ReferenceRun<T> reference_cgls<T>(const DenseMatrix<T>&, const DenseVector<T>&,        \
                                             const DenseVector<T>&, int, double);                 \
  template ReferenceRun<T> reference_lsqr<T>(const DenseMatrix<T>&, const DenseVector<T>&,        \
                                             const DenseVector<T>&, int, double);                 \
  template DenseVector<T> reference_threshold<T>(const DenseVector<T>&, int, double);             \
  template ReferenceRun<T> reference_sparse<T>(                                                   \
      const DenseMatrix<T>&, const DenseVector<T>&, const DenseVector<T>&, int, double, double,   \
      int, bool, const DenseMatrix<T>&, const std::vector<double>&);                              \
  template double max_relative_difference<T>(const std::vector<DenseVector<T>>&,                  \
                                             const std::vector<DenseVector<T>>&);                 \
  template double largest_eigenvalue_of_normal<T>(const DenseMatrix<T>&);                         \
  template double largest_magnitude_eigenvalue<T>(const DenseMatrix<T>&);                         \
  template DenseVector<T> solve_hermitian<T>(const DenseMatrix<T>&, const DenseVector<T>&);       \
  template DenseMatrix<T> with_singular_values<T>(const std::vector<double>&, std::uint64_t);     \
  template DenseVector<T> reference_regularized_solution<T>(                                      \
      const DenseMatrix<T>&, const DenseVector<T>&, double, const DenseMatrix<T>&);               \
  template struct ReferenceQuadratic<T>;                                                          \
  template DenseVector<T> reference_tv_denoising<T>(const DenseMatrix<T>&, const DenseVector<T>&, \
                                                    Index, double, double, double, double, int);

}  // namespace distlops::testing
