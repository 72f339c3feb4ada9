// The per-element formulas of pointwise.hpp (shared by the host and CUDA kernels) against
// std::complex and plain arithmetic, and copy_box against element-by-element index
// arithmetic on random boxes of 1-d to 5-d arrays.
#include <cstring>
#include <limits>
#include <random>

#include "distlops/core/pointwise.hpp"
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

TEST_CASE("copy_box copies random boxes between arrays of 1 to 5 dimensions", "[kernels][box]") {
  std::mt19937_64 engine(60);
  auto uniform = [&](Index lo, Index hi) {
    return std::uniform_int_distribution<Index>(lo, hi)(engine);
  };
  for (int trial = 0; trial < 400; ++trial) {
    const int ndim = static_cast<int>(uniform(1, 5));
    Shape source_shape(ndim), destination_shape(ndim), extent(ndim), source_corner(ndim),
        destination_corner(ndim);
    for (int k = 0; k < ndim; ++k) {
      // Extents of 1 and boxes spanning whole axes are frequent: they exercise the merging.
      extent[k] = uniform(0, 9) < 2 ? 1 : uniform(1, 4);
      if (trial % 17 == 0 && k == ndim - 1) extent[k] = 0;
      source_shape[k] = extent[k] + (uniform(0, 2) == 0 ? 0 : uniform(0, 3));
      destination_shape[k] = extent[k] + (uniform(0, 2) == 0 ? 0 : uniform(0, 3));
      source_corner[k] = uniform(0, source_shape[k] - extent[k]);
      destination_corner[k] = uniform(0, destination_shape[k] - extent[k]);
    }
    INFO("trial " << trial << " source " << to_string(source_shape) << " destination "
                  << to_string(destination_shape) << " extent " << to_string(extent));
    std::vector<double> source(static_cast<std::size_t>(element_count(source_shape)));
    for (std::size_t i = 0; i < source.size(); ++i)
      source[i] = double(i) + 0.5;
    std::vector<double> destination(static_cast<std::size_t>(element_count(destination_shape)),
                                    -1.0);
    std::vector<double> expected = destination;
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
      expected[static_cast<std::size_t>(d)] = source[static_cast<std::size_t>(s)];
    }
    kernels::copy_box(Host{}, sizeof(double), source.data(), {source_shape, source_corner},
                      destination.data(), {destination_shape, destination_corner}, extent);
    CHECK(destination == expected);
  }
}
