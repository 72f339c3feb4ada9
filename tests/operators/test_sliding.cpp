// SPDX-License-Identifier: BSD-3-Clause
// Copyright (c) 2026 The distlops authors
// Sliding1D, Sliding2D and Patch2D against the dense matrix of the global problem written from
// PyLops' definition (window starts every nwin - nover samples while they fit, the operator's
// matrix placed at each window times its taper, sums where windows overlap), with the tapers
// written here from their formulas and checked against PyLops' values; windows split over 1 to
// 4 ranks by default and by hand (ranks without windows, one rank with all); every taper; the
// adjoint against the conjugate transpose; dot tests; errors on every rank. In every memory
// space.
#include "dense_algebra.hpp"
#include "dense_reference.hpp"
#include "distlops/operators/dense/matrix_mult.hpp"
#include "distlops/operators/signal/sliding.hpp"
#include "expect_everywhere.hpp"
#include "spaces.hpp"
#include "test_support.hpp"

using namespace distlops;
using namespace distlops::testing;

namespace {

std::vector<Index> starts_of(Index n, Index nwin, Index nover) {
  std::vector<Index> starts;
  for (Index s = 0; s + nwin <= n; s += nwin - nover)
    starts.push_back(s);
  return starts;
}

// 0.5 (1 - cos(pi n / (ntap - 1))) rising over ntap samples (hanning and cosine agree), squared
// for cosinesquare; the first (last) window keeps 1 at its start (end); one window: no taper.
std::vector<double> window_taper(Index nwin, Index nover, Taper type, Index position, Index count) {
  std::vector<double> t(static_cast<std::size_t>(nwin), 1.0);
  if (type == Taper::none || count == 1) return t;
  for (Index n = 0; n < nover; ++n) {
    double v = nover == 1 ? 1.0 : 0.5 * (1 - std::cos(3.141592653589793 * n / double(nover - 1)));
    if (type == Taper::cosinesquare) v *= v;
    if (position != 0) t[std::size_t(n)] = v;
    if (position != count - 1) t[std::size_t(nwin - 1 - n)] = v;
  }
  return t;
}

// The global matrix: windows (i, j) with model block (i * columns + j) mapped by A into the
// data box at (starts0[i], starts1[j]) of nwin0 x nwin1, times the taper.
template <class T>
DenseMatrix<T> windowed_matrix(const DenseMatrix<T>& a, Index rows, Index cols,
                               const std::vector<Index>& starts0, Index nwin0, Index nover0,
                               const std::vector<Index>& starts1, Index nwin1, Index nover1,
                               Taper taper) {
  const auto n0 = Index(starts0.size()), n1 = Index(starts1.size());
  DenseMatrix<T> m = DenseMatrix<T>::Zero(rows * cols, n0 * n1 * a.cols());
  for (Index i = 0; i < n0; ++i) {
    const std::vector<double> t0 = window_taper(nwin0, nover0, taper, i, n0);
    for (Index j = 0; j < n1; ++j) {
      const std::vector<double> t1 = window_taper(nwin1, nover1, taper, j, n1);
      for (Index r = 0; r < nwin0; ++r) {
        for (Index c = 0; c < nwin1; ++c) {
          const Index row = (starts0[i] + r) * cols + starts1[j] + c;
          const auto weight = static_cast<real_type_t<T>>(t0[r] * t1[c]);
          for (Index k = 0; k < a.cols(); ++k)
            m(row, (i * n1 + j) * a.cols() + k) += weight * a(r * nwin1 + c, k);
        }
      }
    }
  }
  return m;
}

template <class T, MemorySpace Space>
LocalOperator<T, Space> matrix_operator(const DenseMatrix<T>& a) {
  const Eigen::Matrix<T, Eigen::Dynamic, Eigen::Dynamic, Eigen::RowMajor> row_major = a;
  return local::MatrixMult<T, Space>(
      a.rows(), a.cols(), std::span<const T>(row_major.data(), std::size_t(row_major.size())));
}

template <class T, MemorySpace Space>
void check_windowed(const LinearOperator<T, Space>& op, const DenseMatrix<T>& reference) {
  const double rtol = 10 * space_tolerance<T, Space>();
  REQUIRE(op.rows() == reference.rows());
  REQUIRE(op.cols() == reference.cols());
  DistributedArray<T, Space> x(op.domain()), y(op.range());
  fill_random(x, 4);
  fill_random(y, 5);
  const DenseVector<T> x0 = global_vector(x), y0 = global_vector(y);
  CHECK(matrices_close(DenseMatrix<T>(global_vector(op.apply(x))),
                       DenseMatrix<T>(product(reference, x0)), rtol));
  CHECK(matrices_close(DenseMatrix<T>(global_vector(op.apply_adjoint(y))),
                       DenseMatrix<T>(adjoint_product(reference, y0)), rtol));
  CHECK(dottest(op, 6, space_dottest_tolerance<T, Space>()).passed);
  const T alpha = random_scalar<T>(7), beta = random_scalar<T>(8);
  DistributedArray<T, Space> y1 = y, x1 = x;
  op.apply_add(alpha, x, beta, y1);
  CHECK(matrices_close(DenseMatrix<T>(global_vector(y1)),
                       DenseMatrix<T>(alpha * product(reference, x0) + beta * y0), rtol));
  op.apply_adjoint_add(alpha, y, beta, x1);
  CHECK(matrices_close(DenseMatrix<T>(global_vector(x1)),
                       DenseMatrix<T>(alpha * adjoint_product(reference, y0) + beta * x0), rtol));
}

// Windows per rank: the default split, all on the last rank, and rank 0 with all but one on
// the last.
std::vector<std::vector<Index>> splits(const Communicator& comm, Index windows) {
  std::vector<std::vector<Index>> result = {{}};
  if (comm.size() > 1) {
    std::vector<Index> last(comm.size(), 0), first(comm.size(), 0);
    last.back() = windows;
    first[0] = windows - 1;
    first.back() = 1;
    result.push_back(last);
    result.push_back(first);
  }
  return result;
}

}  // namespace

TEST_CASE("tapers give PyLops' values", "[sliding][taper]") {
  // pylops.utils.tapers.taper(8, 3, "hanning"), taper(8, 4, "cosine"),
  // taper(8, 4, "cosinesquare"), taper(5, 1, "cosine"), taper(4, 0, "hanning")
  const std::vector<std::pair<std::vector<double>, std::vector<double>>> cases = {
      {taper(8, 3, Taper::hanning), {0, 0.5, 1, 1, 1, 1, 0.5, 0}},
      {taper(8, 4, Taper::cosine), {0, 0.25, 0.75, 1, 1, 0.75, 0.25, 0}},
      {taper(8, 4, Taper::cosinesquare), {0, 0.0625, 0.5625, 1, 1, 0.5625, 0.0625, 0}},
      {taper(5, 1, Taper::cosine), {1, 1, 1, 1, 1}},
      {taper(5, 1, Taper::hanning), {1, 1, 1, 1, 1}},
      {taper(4, 0, Taper::hanning), {1, 1, 1, 1}},
      {taper(6, 3, Taper::none), {1, 1, 1, 1, 1, 1}}};
  for (const auto& [actual, expected] : cases)
    CHECK(all_close(actual, expected, 1e-12));
  CHECK_THROWS_AS(taper(5, 3, Taper::hanning), InvalidArgument);
  CHECK(taper_from_string("cosinesquare") == Taper::cosinesquare);
  CHECK_THROWS_AS(taper_from_string("cosinesqrt"), InvalidArgument);
}

DISTLOPS_SPACE_TEMPLATE_TEST_CASE("Sliding1D sums the tapered windows of its operator",
                                  "[sliding][sliding1d]", DISTLOPS_SCALAR_TYPES) {
  using T = TestType;
  const Communicator comm = world();
  struct Case {
    Index dimd, nwin, nover, nop;
  };
  std::uint64_t key = 1;
  for (const Case& c : {Case{20, 6, 2, 3}, Case{18, 6, 3, 4}, Case{9, 3, 0, 2}, Case{5, 5, 1, 2}}) {
    const std::vector<Index> starts = starts_of(c.dimd, c.nwin, c.nover);
    const auto nwins = Index(starts.size());
    const DenseMatrix<T> a = random_matrix<T>(c.nwin, c.nop, key++);
    for (Taper taper : {Taper::hanning, Taper::cosinesquare, Taper::none}) {
      const DenseMatrix<T> reference =
          windowed_matrix(a, c.dimd, 1, starts, c.nwin, c.nover, {0}, 1, 0, taper);
      for (const std::vector<Index>& split : splits(comm, nwins)) {
        INFO("dimd " << c.dimd << " nwin " << c.nwin << " nover " << c.nover << " taper "
                     << to_string(taper) << " split of " << split.size());
        const auto op = Sliding1D<T, Space>(matrix_operator<T, Space>(a), comm, nwins * c.nop,
                                            c.dimd, c.nwin, c.nover, taper, split);
        CHECK(op.domain().global_shape() == Shape{nwins, c.nop});
        CHECK(op.range().global_shape() == Shape{c.dimd});
        check_windowed(op, reference);
      }
    }
  }
  expect_in_step(comm);
}

DISTLOPS_SPACE_TEMPLATE_TEST_CASE("Sliding2D and Patch2D sum tapered windows and patches",
                                  "[sliding][sliding2d][patch2d]", DISTLOPS_SCALAR_TYPES) {
  using T = TestType;
  const Communicator comm = world();
  {
    // Sliding2D: (11, 3) data, windows of 4 rows overlapping by 1: 3 windows; nop0 = 2.
    const Index nwin = 4, nover = 1, nop0 = 2, cols = 3;
    const std::vector<Index> starts = starts_of(11, nwin, nover);
    const auto nwins = Index(starts.size());
    const DenseMatrix<T> a = random_matrix<T>(nwin * cols, nop0 * 2, 30);
    for (const std::vector<Index>& split : splits(comm, nwins)) {
      const auto op = Sliding2D<T, Space>(matrix_operator<T, Space>(a), comm, {nwins * nop0, 2},
                                          {11, cols}, nwin, nover, Taper::hanning, split);
      CHECK(op.domain().global_shape() == Shape{nwins, nop0, 2});
      check_windowed(
          op, windowed_matrix(a, 11, cols, starts, nwin, nover, {0}, cols, 0, Taper::hanning));
    }
  }
  {
    // Patch2D: (9, 8) data, 4 x 4 patches overlapping by (1, 2): 2 x 3 patches; nop (2, 3).
    const std::vector<Index> starts0 = starts_of(9, 4, 1), starts1 = starts_of(8, 4, 2);
    const auto n0 = Index(starts0.size()), n1 = Index(starts1.size());
    const DenseMatrix<T> a = random_matrix<T>(16, 6, 31);
    for (Taper taper : {Taper::cosine, Taper::none}) {
      for (const std::vector<Index>& split : splits(comm, n0)) {
        const auto op = Patch2D<T, Space>(matrix_operator<T, Space>(a), comm, {n0 * 2, n1 * 3},
                                          {9, 8}, {4, 4}, {1, 2}, {2, 3}, taper, split);
        CHECK(op.domain().global_shape() == Shape{n0, n1, 2, 3});
        check_windowed(op, windowed_matrix(a, 9, 8, starts0, 4, 1, starts1, 4, 2, taper));
      }
    }
  }
  expect_in_step(comm);
}

TEMPLATE_TEST_CASE("windowed operators reject bad arguments on every rank", "[sliding][errors]",
                   double, std::complex<float>) {
  using T = TestType;
  const Communicator comm = world();
  const auto a = matrix_operator<T, Host>(random_matrix<T>(6, 3, 40));
  const auto fails = [&](auto make, const std::string& text) {
    expect_everywhere<InvalidArgument>(comm, make, text);
  };
  fails([&] { (void)Sliding1D<T>(a, comm, 12, 5, 6, 2); },
        "Sliding1D: nwin = 6 must be in [1, 5] (the data's extent)");
  fails([&] { (void)Sliding1D<T>(a, comm, 12, 20, 6, 6); },
        "Sliding1D: nover = 6 must be in [0, nwin = 6)");
  fails([&] { (void)Sliding1D<T>(a, comm, 12, 20, 6, 4); },
        "Sliding1D: a hanning taper of nover = 4 samples needs windows of at least 8 samples");
  fails([&] { (void)Sliding1D<T>(a, comm, 13, 20, 6, 2); },
        "Sliding1D: the model has dim = 13 samples, 4 windows of 3 (the operator's columns) "
        "need 12");
  fails([&] { (void)Sliding1D<T>(a, comm, 12, 20, 5, 1); },
        "Sliding1D: the operator is 6 x 3, a window needs 5 x 3");
  fails(
      [&] {
        (void)Sliding1D<T>(a, comm, 12, 20, 6, 2, Taper::hanning,
                           std::vector<Index>(comm.size() + 1, 1));
      },
      "windows_per_rank must give");
  fails([&] { (void)Sliding2D<T>(a, comm, {4, 1}, {20}, 6, 2); }, "must both be 2-d");
  // Each rank's own operator and arguments: an error on one rank raised on all.
  if (comm.size() > 1) {
    const auto b = matrix_operator<T, Host>(random_matrix<T>(comm.rank() == 1 ? 5 : 6, 3, 41));
    fails([&] { (void)Sliding1D<T>(b, comm, 12, 20, 6, 2); },
          "Sliding1D: the operator is 5 x 3, a window needs 6 x 3");
    fails([&] { (void)Sliding1D<T>(a, comm, 12, comm.rank() == 1 ? 21 : 20, 6, 2); },
          "Sliding1D's arguments differs between ranks");
  }
  fails(
      [&] {
        (void)Patch2D<T>(a, comm, {2, 3}, {3, 2}, {3, 2}, {0, 0}, {2});
      },
      "Patch2D: dims, dimsd, nwin, nover and nop must have 2 entries");
  fails(
      [&] {
        (void)Patch2D<T>(a, comm, {2, 4}, {3, 2}, {3, 2}, {0, 0}, {2, 3});
      },
      "Patch2D: the model dims (2, 4) are not the (1, 1) windows times nop (2, 3)");
}
