// SPDX-License-Identifier: BSD-3-Clause
// Copyright (c) 2026 The distlops authors
// The row form of the stencil kernel (operators/derivative/stencil_kernels.hpp) at every
// instruction set the processor has, against the formula summed in long double: every
// supported shape, every kind of beta, rows shorter and longer than the vectors (the scalar
// head and tail, the shifted vectors), the fused form stencil_row_vdot (y and sum row[i] y[i]),
// and the shapes it refuses. Streaming stores (stencil_row and kernels::combine with
// Stores::streaming) write exactly what ordinary stores write, at every alignment of y, and the
// values do not depend on that alignment. stencil_rows (several lines at once, in batches)
// forms every line bit for bit as stencil_row does for it alone, lines aligned alike or not. The
// walk of a block in tiles of rows (stencil_walk) writes what the walk without tiles writes, and
// the tiles' size follows the cache budget.
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

namespace {

// The geometry of a local block of `shape` (no ghost cells) with `specs[k]` along axes[k].
template <class R>
kernels::StencilPoints<R> block_points(const Shape& shape, const std::vector<int>& axes,
                                       const std::vector<stencil::Spec<double>>& specs) {
  kernels::StencilPoints<R> points;
  points.ndim = static_cast<int>(shape.size());
  points.count = static_cast<int>(axes.size());
  Index stride = 1;
  for (int k = points.ndim - 1; k >= 0; --k) {
    points.extent[k] = shape[static_cast<std::size_t>(k)];
    points.strides[k] = stride;
    stride *= points.extent[k];
  }
  for (int t = 0; t < points.count; ++t) {
    const stencil::Spec<double>& s = specs[static_cast<std::size_t>(t)];
    points.axis[t] = axes[static_cast<std::size_t>(t)];
    points.length[t] = points.extent[points.axis[t]];
    points.spec[t] = {s.derivative, s.kind, s.order, s.edge, R(s.scale)};
  }
  return points;
}

// The 3-d Laplacian's terms (second derivatives, centered, edge off) on every axis of `ndim`.
std::vector<stencil::Spec<double>> laplacian_specs(int ndim) {
  return std::vector<stencil::Spec<double>>(static_cast<std::size_t>(ndim),
                                            {2, DerivativeKind::centered, 3, false, 1.0});
}

}  // namespace

TEST_CASE("stencil_tile_rows keeps a tile's planes within the budget", "[kernels][stencil]") {
  const auto laplacian = [](const Shape& shape) {
    std::vector<int> axes;
    for (int k = 0; k < static_cast<int>(shape.size()); ++k)
      axes.push_back(k);
    return block_points<double>(shape, axes, laplacian_specs(static_cast<int>(shape.size())));
  };
  // 256^3 doubles: rows of 2 KiB, the 3 input planes and the output plane of a tile row 8 KiB.
  CHECK(kernels::stencil_tile_rows(laplacian({256, 256, 256}), false, 8) == 32);
  CHECK(kernels::stencil_tile_rows(laplacian({256, 256, 256}), true, 8) == 32);
  CHECK(kernels::stencil_tile_rows(laplacian({256, 256, 256}), false, 16) == 16);
  CHECK(kernels::stencil_tile_rows(laplacian({256, 256, 256}), false, 8, 1 << 20) == 128);
  // A reach of two planes (centered first derivative of order 5): 5 input planes and the output.
  const auto fifth =
      block_points<double>({64, 64, 512}, {0}, {{1, DerivativeKind::centered, 5, false, 1.0}});
  CHECK(kernels::stencil_tile_rows(fifth, false, 8) == 256 * 1024 / (4096 * 6));
  // Four axes, the term along axis 0: each of its planes holds 3 planes of the tile's axis.
  CHECK(kernels::stencil_tile_rows(laplacian({8, 3, 64, 128}), false, 8) ==
        256 * 1024 / (1024 * 4 * 3));
  // No tiles: 2-d blocks, terms along the last two axes only, rows too long for 4 tile rows.
  CHECK(kernels::stencil_tile_rows(laplacian({4096, 4096}), false, 8) == 0);
  const auto rows_only = block_points<double>({256, 256, 256}, {1, 2}, laplacian_specs(2));
  CHECK(kernels::stencil_tile_rows(rows_only, false, 8) == 0);
  CHECK(kernels::stencil_tile_rows(laplacian({16, 16, 4096}), false, 8) == 0);
}

TEMPLATE_TEST_CASE("stencil walks in tiles write what the walk without tiles writes",
                   "[kernels][stencil]", DISTLOPS_SCALAR_TYPES) {
  using T = TestType;
  using R = real_type_t<T>;
  struct Block {
    Shape shape;
    std::vector<int> axes;
    std::vector<stencil::Spec<double>> specs;
    bool chunks = false;  // some budget also cuts the planes into chunks
  };
  const std::vector<Block> blocks = {
      {{7, 23, 37}, {0, 1, 2}, laplacian_specs(3)},
      {{20, 20, 21}, {0, 1, 2}, laplacian_specs(3), true},
      // A reach of two planes, one-sided edge rows, a derivative along the tiles' axis.
      {{9, 19, 21},
       {0, 1},
       {{1, DerivativeKind::centered, 5, true, 0.5}, {1, DerivativeKind::forward, 3, false, 2.0}}},
      {{3, 4, 17, 21}, {0, 1, 2, 3}, laplacian_specs(4)},
  };
  for (const Block& block : blocks) {
    const auto points = block_points<R>(block.shape, block.axes, block.specs);
    const auto plan_points = block_points<double>(block.shape, block.axes, block.specs);
    const Index n = element_count(block.shape);
    const std::vector<T> x = random_values<T>(n, 41), start = random_values<T>(n, 42);
    for (bool adjoint : {false, true}) {
      const kernels::StencilWalk whole =
          kernels::stencil_walk(Host{}, plan_points, adjoint, sizeof(T), 0);
      const std::size_t rows_axis = block.shape.size() - 2;
      // Budgets from 4-row tiles up to tiles as long as the interior.
      int tiled_walks = 0, chunked_walks = 0;
      for (std::size_t budget = 1024; budget <= (std::size_t(1) << 20); budget += budget / 2) {
        const kernels::StencilWalk tiled =
            kernels::stencil_walk(Host{}, plan_points, adjoint, sizeof(T), budget);
        if (tiled.segments[rows_axis].size() == whole.segments[rows_axis].size()) continue;
        ++tiled_walks;
        if (tiled.segments[rows_axis - 1].size() > whole.segments[rows_axis - 1].size())
          ++chunked_walks;
        INFO("shape " << to_string(block.shape) << " adjoint " << adjoint << " budget " << budget
                      << " tile rows "
                      << kernels::stencil_tile_rows(plan_points, adjoint, sizeof(T), budget));
        for (double beta_value : {0.0, -0.75}) {
          const T alpha = T(R(1.5)), beta = T(R(beta_value));
          std::vector<T> expected = start, got = start;
          kernels::stencil_apply(Host{}, whole, points, kernels::StencilPart::all, alpha, x.data(),
                                 static_cast<const T*>(nullptr), beta, expected.data(), {});
          kernels::stencil_apply(Host{}, tiled, points, kernels::StencilPart::all, alpha, x.data(),
                                 static_cast<const T*>(nullptr), beta, got.data(), {});
          CHECK(got == expected);
        }
        if (adjoint) continue;
        // The fused forward: the same y, and x^H y summed in the tiles' order.
        std::vector<T> expected = start, got = start;
        double whole_sum[2] = {0, 0}, tiled_sum[2] = {0, 0}, scratch[2];
        kernels::stencil_apply(Host{}, whole, points, kernels::StencilPart::all, T(1), x.data(),
                               static_cast<const T*>(nullptr), T(0), expected.data(),
                               {&whole_sum[0], &whole_sum[1], scratch});
        kernels::stencil_apply(Host{}, tiled, points, kernels::StencilPart::all, T(1), x.data(),
                               static_cast<const T*>(nullptr), T(0), got.data(),
                               {&tiled_sum[0], &tiled_sum[1], scratch});
        CHECK(got == expected);
        double scale = 0;
        for (Index i = 0; i < n; ++i)
          scale += std::abs(x[i]) * std::abs(expected[i]);
        CHECK(std::abs(tiled_sum[0] - whole_sum[0]) <= 10 * tolerance<T>() * scale);
        CHECK(std::abs(tiled_sum[1] - whole_sum[1]) <= 10 * tolerance<T>() * scale);
      }
      CHECK(tiled_walks >= 2);
      if (block.chunks) CHECK(chunked_walks >= 1);
    }
  }
}
