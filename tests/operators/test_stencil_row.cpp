// SPDX-License-Identifier: BSD-3-Clause
// Copyright (c) 2026 The distlops authors
// The row form of the stencil kernel (operators/derivative/stencil_kernels.hpp) at every
// instruction set the processor has, against the formula summed in long double: every
// supported shape, every kind of beta, rows shorter and longer than the vectors (the scalar
// head and tail, the shifted vectors), the fused form stencil_row_vdot (y and sum row[i] y[i]),
// and the shapes it refuses. Streaming stores (stencil_row and kernels::combine with
// Stores::streaming) write exactly what ordinary stores write, at every alignment of y.
#include <array>
#include <cmath>
#include <complex>

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

}  // namespace

TEMPLATE_TEST_CASE("stencil_row sums the row taps and the other rows", "[kernels][stencil]", float,
                   double) {
  using T = TestType;
  constexpr int pad = 2;  // the row is read up to 2 points beyond [0, n)
  for (InstructionSet level :
       {InstructionSet::portable, InstructionSet::avx2, InstructionSet::avx512}) {
    if (!kernels::instruction_set_available(level)) continue;
    for (int reach : {1, 2}) {
      for (int count : {0, 2, 4}) {
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
            const T partial = kernels::stencil_row_vdot(
                Host{}, level, n, reach, weights.data(), row.data() + pad, count,
                coefficients.data(), sources.data(), fused_y.data());
            CHECK(fused_y == y);
            long double vdot = 0, scale = 0;
            for (Index i = 0; i < n; ++i) {
              vdot += (long double)row[i + pad] * expected[i];
              scale += std::abs((long double)row[i + pad] * expected[i]);
            }
            CHECK(std::abs((long double)partial - vdot) <= 20 * tolerance<T>() * (scale + 1));
          }
        }
      }
    }
  }
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
  for (InstructionSet level :
       {InstructionSet::portable, InstructionSet::avx2, InstructionSet::avx512}) {
    if (!kernels::instruction_set_available(level)) continue;
    for (int reach : {1, 2}) {
      for (int count : {0, 4}) {
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
      }
    }
  }
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
