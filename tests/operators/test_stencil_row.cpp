// SPDX-License-Identifier: BSD-3-Clause
// Copyright (c) 2026 The distlops authors
// The row form of the stencil kernel (operators/derivative/stencil_kernels.hpp) at every
// instruction set the processor has, against the formula summed in long double: every
// supported shape, every kind of beta, rows shorter and longer than the vectors (the scalar
// head and tail, the shifted vectors), the fused form stencil_row_vdot (y and sum row[i] y[i]),
// and the shapes it refuses. Streaming stores (stencil_row and kernels::combine with
// Stores::streaming) write exactly what ordinary stores write, at every alignment of y, and the
// values do not depend on that alignment. stencil_rows (several lines at once, in batches)
// forms every line bit for bit as stencil_row does for it alone, lines aligned alike or not.
#include <array>
#include <cmath>
#include <complex>
#include <initializer_list>
#include <memory>

#include "../../operators/derivative/stencil_kernels.hpp"
#include "distlops/core/error.hpp"
#include "test_support.hpp"

using namespace distlops;
using namespace distlops::testing;
using kernels::InstructionSet;

namespace {

// The inputs of one stencil_row call: a row padded by `pad` points on each side, its 2 reach + 1
// taps, and `count` other rows with their coefficients.
template <class T>
struct RowInputs {
  RowInputs(Index n, int pad, int reach, int count)
      : row(random_values<T>(n + 2 * pad, 1 + n)),
        weights(random_values<T>(2 * reach + 1, 2)),
        coefficients(random_values<T>(4, 3)) {
    for (int k = 0; k < count; ++k) {
      others[k] = random_values<T>(n, 10 + k);
      sources[k] = others[k].data();
    }
  }
  RowInputs(const RowInputs&) = delete;  // sources point into others
  RowInputs& operator=(const RowInputs&) = delete;

  std::vector<T> row, weights, coefficients;
  std::array<std::vector<T>, 4> others;
  std::array<const T*, 4> sources{};
};

// Calls f(level, reach, count) for every instruction-set level the processor has, reach 1 and
// 2, and each of the counts of other rows given.
template <class F>
void for_each_row_shape(std::initializer_list<int> counts, F&& f) {
  for (InstructionSet level :
       {InstructionSet::portable, InstructionSet::avx2, InstructionSet::avx512}) {
    if (!kernels::instruction_set_available(level)) continue;
    for (int reach : {1, 2}) {
      for (int count : counts)
        f(level, reach, count);
    }
  }
}

}  // namespace

TEMPLATE_TEST_CASE("stencil_row sums the row taps and the other rows", "[kernels][stencil]", float,
                   double) {
  using T = TestType;
  constexpr int pad = 2;  // the row is read up to 2 points beyond [0, n)
  for_each_row_shape({0, 2, 4}, [&](InstructionSet level, int reach, int count) {
    for (Index n : {0, 1, 5, 17, 24, 47, 48, 49, 64, 100, 131, 1000}) {
      for (double beta_value : {0.0, 1.0, -0.75}) {
        INFO("level " << int(level) << " reach " << reach << " count " << count << " n " << n
                      << " beta " << beta_value);
        const RowInputs<T> inputs(n, pad, reach, count);
        const auto& [row, weights, coefficients, others, sources] = inputs;
        const T beta = static_cast<T>(beta_value);
        std::vector<T> y = random_values<T>(n, 4);
        if (beta_value == 0) std::fill(y.begin(), y.end(), std::nan(""));  // never read
        std::vector<long double> expected(static_cast<std::size_t>(n));
        for (Index i = 0; i < n; ++i) {
          long double sum = 0;
          for (int o = -reach; o <= reach; ++o)
            sum += (long double)weights[o + reach] * row[i + pad + o];
          for (int k = 0; k < count; ++k)
            sum += (long double)coefficients[k] * others[k][i];
          if (beta_value != 0) sum += (long double)beta * y[i];
          expected[i] = sum;
        }
        kernels::stencil_row(Host{}, level, n, reach, weights.data(), row.data() + pad, count,
                             coefficients.data(), sources.data(), beta, y.data());
        double error = 0;
        for (Index i = 0; i < n; ++i)
          error = std::max(error, double(std::abs((long double)y[i] - expected[i])));
        CHECK(error <= 20 * tolerance<T>());
        if (beta_value != 0) continue;
        // The fused form: the same y, and sum_i row[i] y[i] against the exact sum.
        std::vector<T> fused_y(static_cast<std::size_t>(n), T(std::nan("")));
        const T partial =
            kernels::stencil_row_vdot(Host{}, level, n, reach, weights.data(), row.data() + pad,
                                      count, coefficients.data(), sources.data(), fused_y.data());
        CHECK(fused_y == y);
        long double vdot = 0, scale = 0;
        for (Index i = 0; i < n; ++i) {
          vdot += (long double)row[i + pad] * expected[i];
          scale += std::abs((long double)row[i + pad] * expected[i]);
        }
        CHECK(std::abs((long double)partial - vdot) <= 20 * tolerance<T>() * (scale + 1));
      }
    }
  });
}

TEST_CASE("stencil_row refuses the shapes it has no kernel for", "[kernels][stencil][errors]") {
  std::vector<double> row(16, 1.0), y(8);
  const std::vector<double> weights(7, 1.0), coefficients(5, 1.0);
  std::array<const double*, 5> sources{};
  for (const double*& source : sources)
    source = row.data();
  for (auto [reach, count] : {std::pair{0, 2}, {3, 2}, {1, 1}, {2, 3}, {1, 5}}) {
    CHECK_FALSE(kernels::stencil_row_supported(reach, count));
    CHECK_THROWS_AS(kernels::stencil_row(Host{}, 8, reach, weights.data(), row.data() + 4, count,
                                         coefficients.data(), sources.data(), 0.0, y.data()),
                    InvalidArgument);
    CHECK_THROWS_AS(kernels::stencil_row_vdot(Host{}, 8, reach, weights.data(), row.data() + 4,
                                              count, coefficients.data(), sources.data(), y.data()),
                    InvalidArgument);
  }
}

// A y of n elements starting `offset` elements after a 64-byte boundary, filled with NaN (the
// kernels never read it with beta == 0).
template <class T>
struct OffsetOutput {
  OffsetOutput(Index n, int offset) : storage(static_cast<std::size_t>(n + 64)) {
    const std::ptrdiff_t skip = kernels::elements_to_alignment(storage.data(), 64);
    first = storage.data() + skip + offset;
    std::fill(storage.begin(), storage.end(), T(std::nan("")));
  }
  std::vector<T> values(Index n) const { return std::vector<T>(first, first + n); }
  std::vector<T> storage;
  T* first;
};

TEMPLATE_TEST_CASE("stencil_row with streaming stores writes what ordinary stores write",
                   "[kernels][stencil][streaming]", float, double) {
  using T = TestType;
  constexpr int pad = 2;
  constexpr int lanes_of_64_bytes = 64 / static_cast<int>(sizeof(T));
  for_each_row_shape({0, 4}, [&](InstructionSet level, int reach, int count) {
    for (Index n : {5, 47, 100, 131}) {
      const RowInputs<T> inputs(n, pad, reach, count);
      const auto& [row, weights, coefficients, others, sources] = inputs;
      // Every alignment of y within a 64-byte line.
      for (int offset = 0; offset < lanes_of_64_bytes; ++offset) {
        INFO("level " << int(level) << " reach " << reach << " count " << count << " n " << n
                      << " offset " << offset);
        OffsetOutput<T> cached(n, offset), streamed(n, offset);
        kernels::stencil_row(Host{}, level, n, reach, weights.data(), row.data() + pad, count,
                             coefficients.data(), sources.data(), T(0), cached.first);
        kernels::stencil_row(Host{}, level, n, reach, weights.data(), row.data() + pad, count,
                             coefficients.data(), sources.data(), T(0), streamed.first,
                             kernels::Stores::streaming);
        kernels::streaming_fence();
        CHECK(streamed.values(n) == cached.values(n));
      }
    }
  });
}

TEMPLATE_TEST_CASE("combine with streaming stores writes what ordinary stores write",
                   "[kernels][stencil][streaming]", float, double, std::complex<float>,
                   std::complex<double>) {
  using T = TestType;
  constexpr int lanes_of_64_bytes = 64 / static_cast<int>(sizeof(T));
  const std::vector<T> coefficients = random_values<T>(9, 5);
  std::array<std::vector<T>, 9> inputs;
  std::array<const T*, 9> sources{};
  for (Index n : {3, 40, 129}) {
    for (int k = 0; k < 9; ++k) {
      inputs[k] = random_values<T>(n, 20 + k);
      sources[k] = inputs[k].data();
    }
    for (int count : {1, 2, 5, 7, 9}) {
      for (int offset = 0; offset < lanes_of_64_bytes; ++offset) {
        INFO("n " << n << " count " << count << " offset " << offset);
        OffsetOutput<T> cached(n, offset), streamed(n, offset);
        kernels::combine(Host{}, n, count, coefficients.data(), sources.data(), T(0), cached.first);
        kernels::combine(Host{}, n, count, coefficients.data(), sources.data(), T(0),
                         streamed.first, kernels::Stores::streaming);
        kernels::streaming_fence();
        CHECK(streamed.values(n) == cached.values(n));
        // And the formula, summed in long double.
        double error = 0, scale = 0;
        for (Index i = 0; i < n; ++i) {
          std::complex<long double> sum = 0;
          for (int k = 0; k < count; ++k) {
            sum +=
                std::complex<long double>(std::real(coefficients[k]), std::imag(coefficients[k])) *
                std::complex<long double>(std::real(inputs[k][i]), std::imag(inputs[k][i]));
          }
          const std::complex<long double> got(std::real(streamed.first[i]),
                                              std::imag(streamed.first[i]));
          error = std::max(error, double(std::abs(got - sum)));
          scale = std::max(scale, double(std::abs(sum)) + 1);
        }
        CHECK(error <= 20 * count * tolerance<T>() * scale);
      }
    }
  }
}

TEMPLATE_TEST_CASE("stencil_row's values do not depend on the alignment of y", "[kernels][stencil]",
                   float, double) {
  using T = TestType;
  constexpr int pad = 2;
  constexpr int lanes_of_64_bytes = 64 / static_cast<int>(sizeof(T));
  for_each_row_shape({0, 2, 4}, [&](InstructionSet level, int reach, int count) {
    for (Index n : {17, 47, 100, 131}) {
      const RowInputs<T> inputs(n, pad, reach, count);
      const auto& [row, weights, coefficients, others, sources] = inputs;
      // The kernel starts its vectors where y is aligned: which points it forms one by one
      // moves with y, and must not change them.
      OffsetOutput<T> first(n, 0);
      kernels::stencil_row(Host{}, level, n, reach, weights.data(), row.data() + pad, count,
                           coefficients.data(), sources.data(), T(0), first.first);
      for (int offset = 1; offset < lanes_of_64_bytes; ++offset) {
        INFO("level " << int(level) << " reach " << reach << " count " << count << " n " << n
                      << " offset " << offset);
        OffsetOutput<T> moved(n, offset);
        kernels::stencil_row(Host{}, level, n, reach, weights.data(), row.data() + pad, count,
                             coefficients.data(), sources.data(), T(0), moved.first);
        CHECK(moved.values(n) == first.values(n));
      }
    }
  });
}

TEMPLATE_TEST_CASE("stencil_rows forms each line as stencil_row does alone", "[kernels][stencil]",
                   float, double) {
  using T = TestType;
  constexpr int pad = 2;
  constexpr int lanes_of_64_bytes = 64 / static_cast<int>(sizeof(T));
  constexpr int most_lines = 9;  // two batches of four and one line left
  for_each_row_shape({0, 2, 4}, [&](InstructionSet level, int reach, int count) {
    for (Index n : {5, 17, 47, 100, 131}) {
      // Every line its own inputs; the outputs equally aligned, or each line differently.
      std::vector<std::unique_ptr<RowInputs<T>>> inputs;
      for (int k = 0; k < most_lines; ++k)
        inputs.push_back(std::make_unique<RowInputs<T>>(n + k, pad, reach, count));
      for (bool alike : {true, false}) {
        for (int lines : {1, 2, 3, 4, 5, 8, 9}) {
          for (double beta_value : {0.0, 1.0, -0.75}) {
            for (auto stores : {kernels::Stores::cached, kernels::Stores::streaming}) {
              INFO("level " << int(level) << " reach " << reach << " count " << count << " n " << n
                            << " alike " << alike << " lines " << lines << " beta " << beta_value
                            << " streaming " << (stores == kernels::Stores::streaming));
              const T beta = static_cast<T>(beta_value);
              std::vector<std::unique_ptr<OffsetOutput<T>>> together, alone;
              std::vector<const T*> rows, line_sources;
              std::vector<T*> ys;
              for (int k = 0; k < lines; ++k) {
                const int offset = alike ? 3 % lanes_of_64_bytes : (5 * k) % lanes_of_64_bytes;
                together.push_back(std::make_unique<OffsetOutput<T>>(n, offset));
                alone.push_back(std::make_unique<OffsetOutput<T>>(n, offset));
                if (beta_value != 0) {
                  const std::vector<T> start = random_values<T>(n, 30 + k);
                  std::copy(start.begin(), start.end(), together[k]->first);
                  std::copy(start.begin(), start.end(), alone[k]->first);
                }
                rows.push_back(inputs[k]->row.data() + pad);
                ys.push_back(together[k]->first);
                for (int j = 0; j < count; ++j)
                  line_sources.push_back(inputs[k]->sources[j]);
              }
              const T* weights = inputs[0]->weights.data();
              const T* coefficients = inputs[0]->coefficients.data();
              kernels::stencil_rows(Host{}, level, n, lines, reach, weights, rows.data(), count,
                                    coefficients, line_sources.data(), beta, ys.data(), stores);
              kernels::streaming_fence();
              for (int k = 0; k < lines; ++k) {
                kernels::stencil_row(Host{}, level, n, reach, weights, rows[k], count, coefficients,
                                     line_sources.data() + k * count, beta, alone[k]->first);
                CHECK(together[k]->values(n) == alone[k]->values(n));
              }
              if (beta_value != 0 || stores == kernels::Stores::streaming) continue;
              // The fused form: the same lines and each line's sum_i row[i] y[i].
              std::vector<std::unique_ptr<OffsetOutput<T>>> fused;
              std::vector<T*> fused_ys;
              for (int k = 0; k < lines; ++k) {
                fused.push_back(std::make_unique<OffsetOutput<T>>(
                    n, alike ? 3 % lanes_of_64_bytes : (5 * k) % lanes_of_64_bytes));
                fused_ys.push_back(fused[k]->first);
              }
              std::vector<T> partials(static_cast<std::size_t>(lines));
              kernels::stencil_rows_vdot(Host{}, level, n, lines, reach, weights, rows.data(),
                                         count, coefficients, line_sources.data(), fused_ys.data(),
                                         partials.data());
              for (int k = 0; k < lines; ++k) {
                CHECK(fused[k]->values(n) == alone[k]->values(n));
                // At the same alignment: where y sits decides which points the sum takes
                // from vectors, and so its order.
                OffsetOutput<T> single_y(
                    n, alike ? 3 % lanes_of_64_bytes : (5 * k) % lanes_of_64_bytes);
                const T single = kernels::stencil_row_vdot(
                    Host{}, level, n, reach, weights, rows[k], count, coefficients,
                    line_sources.data() + k * count, single_y.first);
                CHECK(partials[k] == single);
              }
            }
          }
        }
      }
    }
  });
}

TEST_CASE("stencil_rows refuses a negative number of lines", "[kernels][stencil][errors]") {
  const std::vector<double> row(16, 1.0), weights(3, 1.0);
  std::vector<double> y(8);
  const double* rows[1] = {row.data() + 4};
  double* ys[1] = {y.data()};
  CHECK_THROWS_AS(kernels::stencil_rows(Host{}, 8, -1, 1, weights.data(), rows, 0, weights.data(),
                                        rows, 0.0, ys),
                  InvalidArgument);
}
