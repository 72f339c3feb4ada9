// SPDX-License-Identifier: BSD-3-Clause
// Copyright (c) 2026 The distlops authors
// The per-element formulas of pointwise.hpp (shared by the host and CUDA kernels) against
// std::complex and plain arithmetic; in every memory space, the reductions against sums in long
// double and copy_box against element-by-element index arithmetic on random boxes of 1-d to 9-d
// arrays.
#include <cstddef>
#include <cstring>
#include <limits>
#include <random>

#include "../../solvers/slot_kernels.hpp"
#include "distlops/core/buffer.hpp"
#include "distlops/core/fused_kernels.hpp"
#include "distlops/core/kernels.hpp"
#include "distlops/core/pointwise.hpp"
#include "spaces.hpp"
#include "test_support.hpp"

using namespace distlops;
using namespace distlops::testing;

namespace {

template <class T>
bool same_or_both_nan(T a, T b) {
  if constexpr (is_complex_v<T>) {
    return same_or_both_nan(a.real(), b.real()) && same_or_both_nan(a.imag(), b.imag());
  } else {
    return (std::isnan(a) && std::isnan(b)) || a == b;
  }
}

}  // namespace

TEMPLATE_TEST_CASE("pointwise arithmetic matches the scalar types' own", "[kernels][pointwise]",
                   DISTLOPS_SCALAR_TYPES) {
  using T = TestType;
  using R = real_type_t<T>;
  namespace pw = pointwise;
  const std::vector<T> a = random_values<T>(2000, 40), b = random_values<T>(2000, 41);
  for (std::size_t i = 0; i < a.size(); ++i) {
    CHECK(pw::add(a[i], b[i]) == a[i] + b[i]);
    CHECK(pw::subtract(a[i], b[i]) == a[i] - b[i]);
    CHECK(close(pw::multiply(a[i], b[i]), a[i] * b[i], 4 * epsilon<T>()));
    CHECK(close(pw::divide(a[i], b[i]), a[i] / b[i], 8 * epsilon<T>() * std::abs(a[i] / b[i])));
    CHECK(pw::conjugate(a[i]) == conjugate(a[i]));
    CHECK(close(pw::magnitude(a[i]), std::abs(a[i]), 4 * epsilon<T>()));
    CHECK(close(pw::abs_squared(a[i]), std::norm(a[i]), 4 * epsilon<T>()));
    // Division by a fixed divisor is bit for bit the general quotient.
    const T q = pw::divide(a[i], b[0]);
    const T by_scalar = pw::divisor_imag_larger(b[0]) ? pw::DivideByScalar<T, true>(b[0])(a[i])
                                                      : pw::DivideByScalar<T, false>(b[0])(a[i]);
    CHECK(same_or_both_nan(q, by_scalar));
  }
  if constexpr (is_complex_v<T>) {
    // Smith's algorithm: no overflow where the textbook quotient overflows.
    const R big = std::numeric_limits<R>::max() / 4;
    const T q = pw::divide(T(big, big), T(big, big));
    CHECK(close(q, T(1), 4 * epsilon<T>()));
    // The two cases of the algorithm.
    CHECK(close(pw::divide(T(1, 2), T(3, 4)), T(11, 2) / R(25), 4 * epsilon<T>()));
    CHECK(close(pw::divide(T(1, 2), T(4, 3)), T(10, 5) / R(25), 4 * epsilon<T>()));
    // Both cases of the fixed-divisor form, on values where they differ from the general
    // form only if the formulas differ.
    for (const T divisor : {T(3, 4), T(4, 3), T(-2, 0), T(0, -2)}) {
      for (const T x : {T(1, 2), T(-5, 0.25), T(0, 0)}) {
        const T expected = pw::divide(x, divisor);
        const T actual = pw::divisor_imag_larger(divisor)
                             ? pw::DivideByScalar<T, true>(divisor)(x)
                             : pw::DivideByScalar<T, false>(divisor)(x);
        CHECK(same_or_both_nan(actual, expected));
      }
    }
  }
  CHECK(pw::nonzero_indicator(T(0)) == R(0));
  CHECK(pw::nonzero_indicator(T(R(-0.0))) == R(0));
  CHECK(pw::nonzero_indicator(T(R(1e-30))) == R(1));
  // A running maximum or minimum ignores NaN values.
  const R nan = std::numeric_limits<R>::quiet_NaN();
  CHECK(pw::running_max(R(2), nan) == R(2));
  CHECK(pw::running_min(R(2), nan) == R(2));
  CHECK(pw::running_max(R(2), R(3)) == R(3));
  CHECK(pw::running_min(R(2), R(-3)) == R(-3));
  CHECK(pw::power_of_magnitude(T(R(-2)), R(3)) == Approx(8.0));
}

TEMPLATE_TEST_CASE("host kernels apply the pointwise formulas element by element",
                   "[kernels][pointwise]", DISTLOPS_SCALAR_TYPES) {
  using T = TestType;
  using R = real_type_t<T>;
  const Index n = 37;
  const std::vector<T> x = random_values<T>(n, 50), y = random_values<T>(n, 51);
  const T a = random_scalar<T>(52), b = random_scalar<T>(53), s = random_scalar<T>(54);
  std::vector<T> z(n);
  kernels::binary_scalar(Host{}, kernels::BinaryOp::divide, n, x.data(), s, z.data());
  for (Index i = 0; i < n; ++i)
    CHECK(same_or_both_nan(z[i], pointwise::divide(x[i], s)));
  kernels::scalar_binary(Host{}, kernels::BinaryOp::divide, n, s, y.data(), z.data());
  for (Index i = 0; i < n; ++i)
    CHECK(same_or_both_nan(z[i], pointwise::divide(s, y[i])));
  z = y;
  kernels::axpby(Host{}, n, a, x.data(), b, z.data());
  for (Index i = 0; i < n; ++i)
    CHECK(same_or_both_nan(z[i], pointwise::Axpby<T>{a, b}(x[i], y[i])));
  // max and min of magnitudes skip NaN entries, as the device reductions do.
  std::vector<T> with_nan = x;
  with_nan[3] = T(std::numeric_limits<R>::quiet_NaN());
  R expected_max = 0, expected_min = std::numeric_limits<R>::infinity();
  for (Index i = 0; i < n; ++i) {
    if (i == 3) continue;
    expected_max = std::max(expected_max, static_cast<R>(std::abs(x[i])));
    expected_min = std::min(expected_min, static_cast<R>(std::abs(x[i])));
  }
  CHECK(close(kernels::norm_reduce(Host{}, kernels::NormKind::max_abs, R(0), n, with_nan.data()),
              expected_max, 4 * epsilon<T>()));
  CHECK(close(kernels::norm_reduce(Host{}, kernels::NormKind::min_abs, R(0), n, with_nan.data()),
              expected_min, 4 * epsilon<T>()));
  CHECK_THROWS_AS(kernels::norm_reduce(Host{}, kernels::NormKind::power_sum, R(0), n, x.data()),
                  InvalidArgument);
}

DISTLOPS_SPACE_TEMPLATE_TEST_CASE("with a zero beta, the output is written and never read",
                                  "[kernels][pointwise]", DISTLOPS_SCALAR_TYPES) {
  // NaN in the output before the call must not leak into the result, in any space.
  using T = TestType;
  using R = real_type_t<T>;
  const Index n = 300;
  const std::vector<T> x = random_values<T>(n, 60), y = random_values<T>(n, 61);
  const T a = random_scalar<T>(62), b = random_scalar<T>(63);
  const std::vector<T> poisoned(static_cast<std::size_t>(n),
                                T(std::numeric_limits<R>::quiet_NaN()));
  std::vector<T> scaled(static_cast<std::size_t>(n)), combined(static_cast<std::size_t>(n));
  for (std::size_t i = 0; i < scaled.size(); ++i) {
    scaled[i] = pointwise::multiply(a, x[i]);
    combined[i] = pointwise::Axpby<T>{a, b}(x[i], y[i]);
  }
  const double rtol = space_tolerance<T, Space>();
  auto check_values = [&](const std::vector<T>& actual, const std::vector<T>& expected) {
    for (std::size_t i = 0; i < actual.size(); ++i)
      CHECK(close(actual[i], expected[i], rtol));
  };
  const auto dx = buffer_of<Space>(x), dy = buffer_of<Space>(y);
  {
    INFO("kernels::axpby with b == 0");
    auto out = buffer_of<Space>(poisoned);
    kernels::axpby(Space{}, n, a, dx.data(), T(0), out.data());
    check_values(values_of(out), scaled);
  }
  {
    INFO("kernels::axpbypcz with c == 0");
    auto out = buffer_of<Space>(poisoned);
    kernels::axpbypcz(Space{}, n, a, dx.data(), b, dy.data(), T(0), out.data());
    check_values(values_of(out), combined);
  }
  {
    INFO("the solvers' slot axpby with a zero slot b");
    const auto slots = buffer_of<Space>(std::vector<double>{0.75, 0.0});
    auto out = buffer_of<Space>(poisoned);
    kernels::slots::axpby(Space{}, n, slots.data(), dx.data(), slots.data() + 1, out.data());
    std::vector<T> expected(static_cast<std::size_t>(n));
    for (std::size_t i = 0; i < expected.size(); ++i)
      expected[i] = pointwise::multiply(T(R(0.75)), x[i]);
    check_values(values_of(out), expected);
  }
}

DISTLOPS_SPACE_TEMPLATE_TEST_CASE("reductions equal sums in long double", "[kernels][reductions]",
                                  DISTLOPS_SCALAR_TYPES) {
  using T = TestType;
  using R = real_type_t<T>;
  using Wide = std::conditional_t<is_complex_v<T>, std::complex<long double>, long double>;
  const double rtol = 10 * space_tolerance<T, Space>();
  // Sizes around the block and grid sizes of the device kernels.
  for (Index n : {Index(1), Index(255), Index(257), Index(4097), Index(300001)}) {
    INFO("n " << n);
    const std::vector<T> x = random_values<T>(n, 70), y = random_values<T>(n, 71);
    const Buffer<T, Space> dx = buffer_of<Space>(x), dy = buffer_of<Space>(y);
    // Sums are compared relative to the sum of their terms' magnitudes.
    Wide dot = 0, vdot = 0;
    long double magnitudes = 0, cubes = 0, nonzero = 0, largest = 0;
    long double smallest = std::numeric_limits<long double>::infinity();
    for (Index i = 0; i < n; ++i) {
      const Wide a(x[i]), b(y[i]);
      dot += a * b;
      if constexpr (is_complex_v<T>) {
        vdot += std::conj(a) * b;
      } else {
        vdot += a * b;
      }
      magnitudes += std::abs(a * b);
      cubes += std::pow(std::abs(a), 3.0L);
      nonzero += x[i] != T(0) ? 1 : 0;
      largest = std::max(largest, std::abs(a));
      smallest = std::min(smallest, std::abs(a));
    }
    auto near = [&](auto actual, Wide expected, long double scale) {
      return static_cast<double>(std::abs(Wide(actual) - expected)) <=
             rtol * std::max(1.0, static_cast<double>(scale));
    };
    const T actual_dot = kernels::dot(Space{}, n, dx.data(), dy.data());
    CHECK(near(actual_dot, dot, magnitudes));
    CHECK(near(kernels::vdot(Space{}, n, dx.data(), dy.data()), vdot, magnitudes));
    // The same reduction twice gives the same bits.
    CHECK(kernels::dot(Space{}, n, dx.data(), dy.data()) == actual_dot);
    CHECK(near(kernels::norm_reduce(Space{}, kernels::NormKind::power_sum, R(3), n, dx.data()),
               cubes, cubes));
    CHECK(kernels::norm_reduce(Space{}, kernels::NormKind::count_nonzero, R(0), n, dx.data()) ==
          static_cast<R>(nonzero));
    CHECK(near(kernels::norm_reduce(Space{}, kernels::NormKind::max_abs, R(0), n, dx.data()),
               largest, largest));
    CHECK(near(kernels::norm_reduce(Space{}, kernels::NormKind::min_abs, R(0), n, dx.data()),
               smallest, largest));
    // Squares along the middle axis of (1, length, inner) views of the same data.
    for (Index inner : {Index(1), Index(3)}) {
      if (n % inner != 0) continue;
      const Index length = n / inner;
      Buffer<R, Space> out(inner);
      kernels::norm_reduce_axis(Space{}, kernels::NormKind::power_sum, R(2), 1, length, inner,
                                dx.data(), out.data());
      const std::vector<R> actual = values_of(out);
      for (Index k = 0; k < inner; ++k) {
        long double squares = 0;
        for (Index l = 0; l < length; ++l)
          squares += std::norm(Wide(x[l * inner + k]));
        CHECK(near(actual[k], squares, squares));
      }
    }
  }
}

DISTLOPS_SPACE_TEMPLATE_TEST_CASE("the fused CG step rounds as two axpy and a vdot",
                                  "[kernels][reductions]", DISTLOPS_SCALAR_TYPES) {
  using T = TestType;
  // Sizes around the vector lanes and the block and grid sizes of the device kernels.
  for (Index n : {Index(0), Index(1), Index(9), Index(257), Index(300001)}) {
    for (double step : {0.375, 0.0}) {
      INFO("n " << n << " step " << step);
      const std::vector<T> c = random_values<T>(n, 80), q = random_values<T>(n, 81);
      const std::vector<T> x0 = random_values<T>(n, 82), r0 = random_values<T>(n, 83);
      const auto dc = buffer_of<Space>(c), dq = buffer_of<Space>(q);
      const auto slots = buffer_of<Space>(std::vector<double>{step});
      // The separate kernels.
      auto x1 = buffer_of<Space>(x0), r1 = buffer_of<Space>(r0);
      kernels::slots::axpy(Space{}, n, slots.data(), 1.0, dc.data(), x1.data());
      kernels::slots::axpy(Space{}, n, slots.data(), -1.0, dq.data(), r1.data());
      const T separate = kernels::vdot(Space{}, n, r1.data(), r1.data());
      // The fused pass.
      auto x2 = buffer_of<Space>(x0), r2 = buffer_of<Space>(r0);
      Buffer<T, Space> result(1);
      kernels::axpy_pair_vdot_into(Space{}, n, slots.data(), 1.0, dc.data(), x2.data(), -1.0,
                                   dq.data(), r2.data(), result.data());
      CHECK(values_of(x2) == values_of(x1));
      CHECK(values_of(r2) == values_of(r1));
      CHECK(values_of(result)[0] == separate);
      // and the slot form adds its real part to the slot.
      auto x3 = buffer_of<Space>(x0), r3 = buffer_of<Space>(r0);
      auto target = buffer_of<Space>(std::vector<double>{0.5, 0.0, 0.0});
      kernels::slots::add_axpy_pair_squared_norm(Space{}, n, slots.data(), 1.0, dc.data(),
                                                 x3.data(), -1.0, dq.data(), r3.data(),
                                                 target.data(), target.data() + 1);
      CHECK(values_of(target)[0] == 0.5 + static_cast<double>(std::real(separate)));
      // Against the formula: r - step q, summed in long double.
      long double squares = 0;
      for (Index i = 0; i < n; ++i) {
        const auto ri = std::complex<long double>(r0[i]) -
                        static_cast<long double>(step) * std::complex<long double>(q[i]);
        squares += std::norm(ri);
      }
      CHECK(std::abs(static_cast<long double>(std::real(separate)) - squares) <=
            10 * space_tolerance<T, Space>() * std::max(1.0L, squares));
    }
  }
}

DISTLOPS_SPACE_TEST_CASE("copy_box copies random boxes between arrays of 1 to 9 dimensions",
                         "[kernels][box]") {
  std::mt19937_64 engine(60);
  auto uniform = [&](Index lo, Index hi) {
    return std::uniform_int_distribution<Index>(lo, hi)(engine);
  };
  for (int trial = 0; trial < 400; ++trial) {
    // Now and then more axes than one device launch takes, and boxes larger than a block.
    const int ndim = static_cast<int>(uniform(1, trial % 10 == 0 ? 9 : 5));
    const Index longest = ndim > 5 ? 2 : trial % 3 == 0 ? 200 / (ndim * ndim) : 4;
    Shape source_shape(ndim), destination_shape(ndim), extent(ndim), source_corner(ndim),
        destination_corner(ndim);
    for (int k = 0; k < ndim; ++k) {
      // Extents of 1 and boxes spanning whole axes are frequent: they exercise the merging.
      extent[k] = uniform(0, 9) < 2 ? 1 : uniform(1, longest);
      if (trial % 17 == 0 && k == ndim - 1) extent[k] = 0;
      source_shape[k] = extent[k] + (uniform(0, 2) == 0 ? 0 : uniform(0, 3));
      destination_shape[k] = extent[k] + (uniform(0, 2) == 0 ? 0 : uniform(0, 3));
      source_corner[k] = uniform(0, source_shape[k] - extent[k]);
      destination_corner[k] = uniform(0, destination_shape[k] - extent[k]);
    }
    // The element sizes of the scalar types, and odd ones.
    const std::size_t element_size = std::vector<std::size_t>{8, 4, 16, 12, 3}[trial % 5];
    INFO("trial " << trial << " element size " << element_size << " source "
                  << to_string(source_shape) << " destination " << to_string(destination_shape)
                  << " extent " << to_string(extent));
    std::vector<std::byte> source(static_cast<std::size_t>(element_count(source_shape)) *
                                  element_size);
    for (std::size_t i = 0; i < source.size(); ++i)
      source[i] = static_cast<std::byte>(i * 7 + 3);
    std::vector<std::byte> expected(
        static_cast<std::size_t>(element_count(destination_shape)) * element_size, std::byte{0xff});
    const Shape source_strides = strides_of(source_shape);
    const Shape destination_strides = strides_of(destination_shape);
    const Index count = element_count(extent);
    const Shape extent_strides = strides_of(extent);
    for (Index flat = 0; flat < count; ++flat) {
      Index s = 0, d = 0;
      for (int k = 0; k < ndim; ++k) {
        const Index index = (flat / extent_strides[k]) % extent[k];
        s += (source_corner[k] + index) * source_strides[k];
        d += (destination_corner[k] + index) * destination_strides[k];
      }
      std::copy_n(source.begin() + static_cast<std::ptrdiff_t>(std::size_t(s) * element_size),
                  element_size,
                  expected.begin() + static_cast<std::ptrdiff_t>(std::size_t(d) * element_size));
    }
    const Buffer<std::byte, Space> from = buffer_of<Space>(source);
    Buffer<std::byte, Space> to =
        buffer_of<Space>(std::vector<std::byte>(expected.size(), std::byte{0xff}));
    kernels::copy_box(Space{}, element_size, from.data(), {source_shape, source_corner}, to.data(),
                      {destination_shape, destination_corner}, extent);
    CHECK(values_of(to) == expected);
  }
}
