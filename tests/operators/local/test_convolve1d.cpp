// SPDX-License-Identifier: BSD-3-Clause
// Copyright (c) 2026 The distlops authors
// Convolve1D against the convolution matrix written from its definition,
// y[i] = sum_j h[i + offset - j] x[j] for 0 <= i < max(n, nh) (checked against PyLops 2.8's
// operator for every filter length and offset of the cases below), along every axis of 1-d to
// 3-d arrays, short and long filters, every valid offset, and large arrays, in every memory
// space; values computed by PyLops; errors. The host's row kernels (time on the last axis) and
// the post-stack modelling kernel beside them at every instruction set the processor has,
// against sums in long double.
#include <cmath>
#include <complex>

#include "../../../operators/signal/convolve1d_kernels.hpp"
#include "distlops/operators/signal/convolve1d.hpp"
#include "local_operator_checks.hpp"
#include "spaces.hpp"

using namespace distlops;
using namespace distlops::testing;

namespace {

template <class T>
SparseRows<T> convolution_rows(Index n, const std::vector<T>& h, Index offset) {
  const auto nh = static_cast<Index>(h.size());
  SparseRows<T> m(std::max(n, nh), n);
  for (Index i = 0; i < m.row_count(); ++i) {
    std::vector<std::pair<Index, T>> row;
    for (Index j = 0; j < n; ++j) {
      const Index k = i + offset - j;
      if (k >= 0 && k < nh) row.emplace_back(j, h[std::size_t(k)]);
    }
    m.set(i, row);
  }
  return m;
}

}  // namespace

DISTLOPS_SPACE_TEMPLATE_TEST_CASE("Convolve1D convolves along any axis", "[local][convolve1d]",
                                  DISTLOPS_SCALAR_TYPES) {
  using T = TestType;
  std::uint64_t key = 1;
  // 1-d signals against filters shorter, as long and longer, at every valid offset.
  for (Index n : {1, 2, 5, 6}) {
    for (Index nh : {1, 2, 3, 4, 5, 8}) {
      const std::vector<T> h = random_values<T>(nh, key++);
      const Index offsets = nh <= n ? nh : n;
      for (Index offset = 0; offset < offsets; ++offset) {
        INFO("n " << n << " nh " << nh << " offset " << offset);
        const std::vector<AxisTerm<T>> terms = {{0, convolution_rows(n, h, offset)}};
        check_local_operator(local::Convolve1D<T, Space>({n}, h, offset),
                             dense_of_terms<T>(terms, {n}), {n}, {std::max(n, nh)});
      }
    }
  }
  // N-d arrays along every axis.
  for (const Shape& dims : {Shape{4, 5}, Shape{3, 2, 4}, Shape{1, 6}}) {
    const int ndim = int(dims.size());
    for (int axis = -1; axis < ndim; ++axis) {
      const int normalised = axis < 0 ? axis + ndim : axis;
      const Index n = dims[std::size_t(normalised)];
      for (Index nh : {Index(2), Index(3), n + 2}) {
        const std::vector<T> h = random_values<T>(nh, key++);
        const Index offset = std::min(nh, n) / 2;
        INFO("dims " << to_string(dims) << " axis " << axis << " nh " << nh);
        Shape data = dims;
        data[std::size_t(normalised)] = std::max(n, nh);
        const std::vector<AxisTerm<T>> terms = {{normalised, convolution_rows(n, h, offset)}};
        check_local_operator(local::Convolve1D<T, Space>(dims, h, offset, axis),
                             dense_of_terms<T>(terms, dims), dims, data);
      }
    }
  }
}

DISTLOPS_SPACE_TEMPLATE_TEST_CASE("Convolve1D of large arrays crosses the loops' blocks",
                                  "[local][convolve1d]", DISTLOPS_SCALAR_TYPES) {
  using T = TestType;
  struct Case {
    Shape dims;
    int axis;
    Index taps;
    Index offset;
  };
  const std::vector<Case> cases = {{{9000}, 0, 7, 3},
                                   {{3, 3000}, 0, 2, 1},
                                   {{5, 2000}, 1, 31, 30},
                                   {{100}, 0, 6000, 50},
                                   {{4, 700, 9}, 1, 5, 0},
                                   // Traces of a post-stack section: contiguous rows longer
                                   // than the filter, both ends and a short last block.
                                   {{6, 203}, 1, 41, 20},
                                   {{3, 40}, 1, 45, 5}};
  std::uint64_t key = 100;
  for (const Case& c : cases) {
    INFO("dims " << to_string(c.dims) << " axis " << c.axis << " taps " << c.taps);
    const std::vector<T> h = random_values<T>(c.taps, key++);
    check_large_operator(local::Convolve1D<T, Space>(c.dims, h, c.offset, c.axis),
                         std::vector<AxisTerm<T>>{
                             {c.axis, convolution_rows(c.dims[std::size_t(c.axis)], h, c.offset)}});
  }
}

TEMPLATE_TEST_CASE("Convolve1D gives PyLops' values", "[local][convolve1d][pylops]",
                   DISTLOPS_SCALAR_TYPES) {
  using T = TestType;
  const double rtol = 10 * tolerance<T>();
  // import numpy as np, pylops
  // from pylops.signalprocessing import Convolve1D
  // h = np.array([1., -2., 0.5, 3.]); x = np.array([1., 2., -1., 0.5, 3., -2., 1.])
  // C = Convolve1D(7, h, offset=offset); C @ x, C.H @ x
  const std::vector<T> h = {T(1), T(-2), T(0.5), T(3)};
  const LocalArray<T> x = array_of<T>({7}, std::vector<double>{1, 2, -1, 0.5, 3, -2, 1});
  const std::vector<std::tuple<Index, std::vector<double>, std::vector<double>>> short_filter = {
      {0, {1.0, 0.0, -4.5, 6.5, 7.5, -10.75, 8.0}, {-2.0, 13.25, -6.5, -3.5, 7.5, -4.0, 1.0}},
      {1, {0.0, -4.5, 6.5, 7.5, -10.75, 8.0, 6.0}, {-4.0, -2.0, 13.25, -6.5, -3.5, 7.5, -4.0}},
      {3, {6.5, 7.5, -10.75, 8.0, 6.0, -5.5, 3.0}, {3.0, 6.5, -4.0, -2.0, 13.25, -6.5, -3.5}}};
  for (const auto& [offset, forward, adjoint] : short_filter) {
    const auto op = local::Convolve1D<T>({7}, h, offset);
    check_values(op.apply(x), forward, rtol);
    check_values(op.apply_adjoint(x), adjoint, rtol);
  }
  // A filter longer than the signal: C = Convolve1D(3, np.array([0.5, 1., -1., 2., 0.25]),
  // offset=1); C @ np.array([1., -1., 2.]), C.H @ np.arange(1., 6.)
  const auto long_filter =
      local::Convolve1D<T>({3}, std::vector<T>{T(0.5), T(1), T(-1), T(2), T(0.25)}, 1);
  CHECK(long_filter.range() == Shape{5});
  check_values(long_filter.apply(array_of<T>({3}, std::vector<double>{1, -1, 2})),
               std::vector<double>{0.5, -1.0, 5.0, -3.75, 3.75}, rtol);
  check_values(long_filter.apply_adjoint(array_of<T>({5}, std::vector<double>{1, 2, 3, 4, 5})),
               std::vector<double>{6.0, 8.75, 10.0}, rtol);
  // Along an axis of a 2-d array: xx = np.arange(15.).reshape(3, 5) - 4
  // C = Convolve1D((3, 5), h[:3], offset=2, axis=0); C @ xx.ravel(), C.H @ xx.ravel()
  // Convolve1D((3, 5), h[:3], offset=1, axis=1) @ xx.ravel()
  const LocalArray<T> grid = array_of<T>({3, 5}, arange(15, -4));
  const std::vector<T> h3(h.begin(), h.begin() + 3);
  const auto axis0 = local::Convolve1D<T>({3, 5}, h3, 2, 0);
  check_values(axis0.apply(grid),
               std::vector<double>{1.9999999999999998, 1.5, 1.0, 0.5000000000000004, 0.0, -11.5,
                                   -13.0, -14.5, -16.0, -17.5, 3.0, 3.4999999999999996,
                                   3.999999999999999, 4.5, 5.0},
               rtol);
  check_values(axis0.apply_adjoint(grid),
               std::vector<double>{-1.9999999999999991, -1.4999999999999991, -0.9999999999999982,
                                   -0.5, 8.881784197001252e-16, 8.5, 7.0, 5.499999999999999,
                                   3.999999999999999, 2.4999999999999996, -3.0000000000000004, -3.5,
                                   -3.999999999999999, -4.5, -5.0},
               rtol);
  check_values(local::Convolve1D<T>({3, 5}, h3, 1, 1).apply(grid),
               std::vector<double>{5.0, 2.0, 1.4999999999999998, 1.0000000000000004, -0.5, 0.0,
                                   -0.49999999999999933, -0.9999999999999998, -1.5, -8.0,
                                   -5.000000000000001, -2.9999999999999973, -3.5, -4.0, -15.5},
               rtol);
}

TEMPLATE_TEST_CASE("Convolve1D of a complex filter gives PyLops' forward and the exact adjoint",
                   "[local][convolve1d][pylops]", std::complex<float>, std::complex<double>) {
  using T = TestType;
  using C = std::complex<double>;
  const double rtol = 10 * tolerance<T>();
  // hc = np.array([1 + 1j, -2 + 0.5j, 0.5]); xc = np.array([1., 2j, -1., 0.5 - 1j, 3.])
  // Convolve1D(5, hc, offset=1, dtype="complex128") @ xc
  const std::vector<T> h = {T(1, 1), T(-2, 0.5), T(0.5)};
  const auto op = local::Convolve1D<T>({5}, h, 1);
  const LocalArray<T> x =
      array_of<T>({5}, std::vector<C>{{1, 0}, {0, 2}, {-1, 0}, {0.5, -1}, {3, 0}});
  check_values(op.apply(x),
               std::vector<C>{{-4.0, 2.5}, {-1.5, -5.0}, {3.5, 0.0}, {2.0, 5.25}, {-5.75, 1.0}},
               rtol);
  // PyLops' adjoint correlates with h instead of conj(h): it is the transpose, and its dot test
  // fails. Here the adjoint is the conjugate correlation, x[j] = sum_k conj(h[k]) y[j - 1 + k],
  // written out for j = 0 (y[-1] does not exist): conj(h[1]) y[0] + conj(h[2]) y[1].
  const LocalArray<T> back = op.apply_adjoint(x);
  CHECK(close(back.data()[0], std::conj(h[1]) * x.data()[0] + std::conj(h[2]) * x.data()[1], rtol));
  CHECK(dottest(op, 3).passed);
}

TEMPLATE_TEST_CASE("Convolve1D rejects bad arguments", "[local][convolve1d][errors]",
                   DISTLOPS_SCALAR_TYPES) {
  using T = TestType;
  const std::vector<T> h3(3, T(1)), h8(8, T(1)), none;
  CHECK_THROWS_AS(local::Convolve1D<T>({5}, none), InvalidArgument);
  CHECK_THROWS_AS(local::Convolve1D<T>({5}, h3, 3), InvalidArgument);
  CHECK_THROWS_AS(local::Convolve1D<T>({5}, h3, -1), InvalidArgument);
  CHECK_THROWS_AS(local::Convolve1D<T>({5}, h8, 5), InvalidArgument);
  CHECK_THROWS_AS(local::Convolve1D<T>({5, 4}, h3, 0, 2), InvalidArgument);
  CHECK_THROWS_AS(local::Convolve1D<T>({}, h3), InvalidArgument);
  CHECK_NOTHROW(local::Convolve1D<T>({5}, h8, 4));
  try {
    (void)local::Convolve1D<T>({6, 5}, h3, 3, 1);
    FAIL("no exception");
  } catch (const InvalidArgument& error) {
    CHECK(std::string(error.what()) ==
          "Convolve1D: offset 3 is outside [0, 3) (the number of filter taps)");
  }
  try {
    (void)local::Convolve1D<T>({6, 5}, h8, 6, 0);
    FAIL("no exception");
  } catch (const InvalidArgument& error) {
    CHECK(std::string(error.what()) ==
          "Convolve1D: offset 6 is outside [0, 6) (the extent of axis 0 of dims (6, 5), shorter "
          "than the filter)");
  }
}

TEMPLATE_TEST_CASE("Convolve1D's row kernels agree with the sum at every instruction set",
                   "[local][convolve1d][kernels]", float, double, std::complex<double>) {
  using T = TestType;
  using kernels::InstructionSet;
  // y[r] = alpha sum_k w[k] x[r + shift(k)] + beta y[r], shift(k) = offset - k (forward) or
  // k - offset (adjoint), summed in long double; then W D and D^H W^H of post-stack modelling.
  const auto reference = [](bool adjoint, Index n_in, Index n_out, const std::vector<T>& w,
                            Index offset, const T* x, T alpha, T beta, const T* y0, Index r) {
    std::complex<long double> sum = 0;
    for (Index k = 0; k < Index(w.size()); ++k) {
      const Index i = r + (adjoint ? k - offset : offset - k);
      if (i >= 0 && i < n_in) {
        const std::complex<long double> wk(std::real(w[std::size_t(k)]),
                                           std::imag(w[std::size_t(k)]));
        sum += wk * std::complex<long double>(std::real(x[i]), std::imag(x[i]));
      }
    }
    (void)n_out;
    sum *= std::complex<long double>(std::real(alpha), std::imag(alpha));
    if (y0) {
      sum += std::complex<long double>(std::real(beta), std::imag(beta)) *
             std::complex<long double>(std::real(y0[r]), std::imag(y0[r]));
    }
    return sum;
  };
  const auto error_of = [](const std::complex<long double>& a, const T& b) {
    return double(std::abs(a - std::complex<long double>(std::real(b), std::imag(b))));
  };
  std::uint64_t key = 300;
  for (InstructionSet level :
       {InstructionSet::portable, InstructionSet::avx2, InstructionSet::avx512}) {
    if (!kernels::instruction_set_available(level)) continue;
    for (Index n : {1, 7, 203}) {
      for (Index taps : {1, 8, 9, 41}) {
        if (taps > n) continue;
        for (bool adjoint : {false, true}) {
          for (double beta_value : {0.0, -0.5}) {
            // Odd taps with beta == 0: a symmetric filter (the paired taps of the windowed
            // kernel); otherwise a random one.
            const bool symmetric = taps % 2 == 1 && beta_value == 0;
            INFO("level " << int(level) << " n " << n << " taps " << taps << " adjoint " << adjoint
                          << " beta " << beta_value << " symmetric " << symmetric);
            const Index rows = 3, offset = taps / 2;
            std::vector<T> w = random_values<T>(taps, key++);
            if (symmetric) {
              for (Index k = 0; k < taps / 2; ++k)
                w[std::size_t(taps - 1 - k)] = w[std::size_t(k)];
            }
            const std::vector<T> x = random_values<T>(rows * n, key++);
            std::vector<T> y = random_values<T>(rows * n, key++);
            const std::vector<T> y0 = y;
            if (beta_value == 0) std::fill(y.begin(), y.end(), T(std::nan("")));  // never read
            const T alpha = T(1.5), beta = T(beta_value);
            kernels::convolve1d_rows(Host{}, level, adjoint, rows, n, n, taps, offset, w.data(),
                                     alpha, x.data(), beta, y.data());
            double error = 0, scale = 0;
            for (Index o = 0; o < rows; ++o) {
              for (Index r = 0; r < n; ++r) {
                const auto expected =
                    reference(adjoint, n, n, w, offset, x.data() + o * n, alpha, beta,
                              beta_value == 0 ? nullptr : y0.data() + o * n, r);
                error = std::max(error, error_of(expected, y[std::size_t(o * n + r)]));
                scale = std::max(scale, double(std::abs(expected)));
              }
            }
            CHECK(error <= 50 * tolerance<T>() * std::max(1.0, scale));
            // W D (forward) and D^H W^H (adjoint) with the centered and forward derivatives.
            for (bool centered : {true, false}) {
              std::vector<T> d(std::size_t(rows * n), T(0));
              const std::vector<T>& source = x;
              std::vector<T> out = random_values<T>(rows * n, key++);
              const std::vector<T> out0 = out;
              if (beta_value == 0) std::fill(out.begin(), out.end(), T(std::nan("")));
              kernels::derivative_convolve1d(Host{}, level, adjoint, centered, rows, n, taps,
                                             offset, w.data(), alpha, source.data(), beta,
                                             out.data());
              const Index lo = centered ? 1 : 0;
              const auto derivative = [&](const T* v, Index t) {
                if (t < lo || t >= n - 1) return T(0);
                return centered ? T(0.5) * (v[t + 1] - v[t - 1]) : v[t + 1] - v[t];
              };
              double modelling_error = 0, modelling_scale = 0;
              for (Index o = 0; o < rows; ++o) {
                const T* v = source.data() + o * n;
                std::vector<T> inner(static_cast<std::size_t>(n));
                std::vector<std::complex<long double>> expected(static_cast<std::size_t>(n));
                if (!adjoint) {
                  for (Index t = 0; t < n; ++t)
                    inner[std::size_t(t)] = derivative(v, t);
                  for (Index r = 0; r < n; ++r) {
                    expected[std::size_t(r)] =
                        reference(false, n, n, w, offset, inner.data(), alpha, beta,
                                  beta_value == 0 ? nullptr : out0.data() + o * n, r);
                  }
                } else {
                  // D^H z with z = W^H v: z[t] enters D's rows t only for lo <= t < n - 1.
                  std::vector<std::complex<long double>> z(static_cast<std::size_t>(n));
                  for (Index t = 0; t < n; ++t)
                    z[std::size_t(t)] = (t < lo || t >= n - 1) ? 0
                                                               : reference(true, n, n, w, offset, v,
                                                                           T(1), T(0), nullptr, t);
                  const long double half = centered ? 0.5L : 1.0L;
                  for (Index j = 0; j < n; ++j) {
                    std::complex<long double> sum = 0;
                    if (j - 1 >= 0) sum += half * z[std::size_t(j - 1)];
                    const Index ahead = centered ? j + 1 : j;
                    if (ahead < n) sum -= half * z[std::size_t(ahead)];
                    sum *= std::complex<long double>(std::real(alpha), std::imag(alpha));
                    if (beta_value != 0) {
                      const T previous = out0[std::size_t(o * n + j)];
                      sum += std::complex<long double>(beta_value) *
                             std::complex<long double>(std::real(previous), std::imag(previous));
                    }
                    expected[std::size_t(j)] = sum;
                  }
                }
                for (Index r = 0; r < n; ++r) {
                  modelling_error =
                      std::max(modelling_error,
                               error_of(expected[std::size_t(r)], out[std::size_t(o * n + r)]));
                  modelling_scale =
                      std::max(modelling_scale, double(std::abs(expected[std::size_t(r)])));
                }
              }
              CHECK(modelling_error <= 50 * tolerance<T>() * std::max(1.0, modelling_scale));
            }
          }
        }
      }
    }
  }
}
