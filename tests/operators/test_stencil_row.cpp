// SPDX-License-Identifier: BSD-3-Clause
// Copyright (c) 2026 The distlops authors
// The row form of the stencil kernel (operators/derivative/stencil_kernels.hpp) at every
// instruction set the processor has, against the formula summed in long double: every
// supported shape, every kind of beta, rows shorter and longer than the vectors (the scalar
// head and tail, the shifted vectors), the fused form stencil_row_vdot (y and sum row[i] y[i]),
// and the shapes it refuses.
#include <array>
#include <cmath>

#include "../../operators/derivative/stencil_kernels.hpp"
#include "distlops/core/error.hpp"
#include "test_support.hpp"

using namespace distlops;
using namespace distlops::testing;
using kernels::InstructionSet;

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
            const std::size_t length = static_cast<std::size_t>(n + 2 * pad);
            const std::vector<T> row = random_values<T>(Index(length), 1 + n);
            const std::vector<T> weights = random_values<T>(2 * reach + 1, 2);
            const std::vector<T> coefficients = random_values<T>(4, 3);
            std::array<std::vector<T>, 4> others;
            std::array<const T*, 4> sources{};
            for (int k = 0; k < count; ++k) {
              others[k] = random_values<T>(n, 10 + k);
              sources[k] = others[k].data();
            }
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
