#pragma once
// Serial references of the solvers for the tests: PyLops' recurrences (pylops/optimization/
// cls_basic.py and cls_sparsity.py) written out on dense Eigen matrices, step by step as PyLops
// does them (NumPy's bilinear dot with an explicit conjugate, |.| of the curvature, direct
// residuals). They share no code with the library, so agreement of every iterate checks the
// distributed implementations against an independent transcription.
#include <Eigen/Dense>

#include <cmath>
#include <complex>
#include <functional>
#include <vector>

#include "dense_reference.hpp"

namespace distlops::testing {

/// The iterates x_0, x_1, ... and the cost history of a reference run.
template <class T>
struct ReferenceRun {
  std::vector<DenseVector<T>> iterates;
  std::vector<double> costs;
};

/// NumPy's a.dot(b): bilinear, no conjugate.
template <class T>
T numpy_dot(const DenseVector<T>& a, const DenseVector<T>& b) {
  return (a.array() * b.array()).sum();
}

template <class T>
T as_scalar(double value) {
  return T(static_cast<real_type_t<T>>(value));
}

/// PyLops' CG (tol = 0).
template <class T>
ReferenceRun<T> reference_cg(const DenseMatrix<T>& a, const DenseVector<T>& y,
                             const DenseVector<T>& x0, int niter) {
  ReferenceRun<T> run;
  DenseVector<T> x = x0;
  DenseVector<T> r = y - a * x;
  DenseVector<T> c = r;
  double kold = std::abs(numpy_dot<T>(r, r.conjugate()));
  run.iterates.push_back(x);
  run.costs.push_back(std::sqrt(kold));
  for (int i = 0; i < niter; ++i) {
    const DenseVector<T> opc = a * c;
    const double copc = std::abs(numpy_dot<T>(c, opc.conjugate()));
    const double alpha = kold / copc;
    x += as_scalar<T>(alpha) * c;
    r -= as_scalar<T>(alpha) * opc;
    const double k = std::abs(numpy_dot<T>(r, r.conjugate()));
    const double beta = k / kold;
    c = r + as_scalar<T>(beta) * c;
    kold = k;
    run.iterates.push_back(x);
    run.costs.push_back(std::sqrt(kold));
  }
  return run;
}

/// max_k ||a_k - b_k|| / max(1, ||b_k||) over two sequences of vectors.
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

}  // namespace distlops::testing
