// SPDX-License-Identifier: BSD-3-Clause
// Copyright (c) 2026 The distlops authors
// The proximal operators (solvers/proximal/*.hpp) against direct serial formulas on the
// gathered vectors: values, proxes, the conjugates' proxes, Moreau's identity and gradients, on
// uneven splits with a rank that owns nothing, for distributed and stacked arrays of the four
// scalar types in every memory space; bad input raised on every rank.
#include "dense_algebra.hpp"
#include "dense_reference.hpp"
#include "distlops/solvers/proximal/box.hpp"
#include "distlops/solvers/proximal/composition.hpp"
#include "distlops/solvers/proximal/euclidean_ball.hpp"
#include "distlops/solvers/proximal/l1.hpp"
#include "distlops/solvers/proximal/l2.hpp"
#include "distlops/solvers/proximal/l21.hpp"
#include "expect_everywhere.hpp"
#include "solver_reference.hpp"
#include "spaces.hpp"
#include "uneven_layout.hpp"

using namespace distlops;
using namespace distlops::testing;

namespace {

template <class V>
V random_vector(const vector_layout_t<V>& layout, std::uint64_t key) {
  V v(layout);
  fill_random(v, key);
  return v;
}

/// A distributed array or a stack of two of uneven layouts, of about n items.
template <class V>
vector_layout_t<V> test_layout(Index n) {
  if constexpr (std::is_same_v<vector_layout_t<V>, Layout>) {
    return uneven_layout(n);
  } else {
    using A = DistributedArray<typename V::value_type, typename V::space_type>;
    return V(std::vector<A>{A::zeros(uneven_layout(n)), A::zeros(Layout(world(), {n / 2 + 1}))})
        .layout();
  }
}

template <class T>
using Dense = DenseVector<T>;

template <class T>
double max_difference(const Dense<T>& a, const Dense<T>& b) {
  REQUIRE(a.size() == b.size());
  double scale = 1;
  for (Eigen::Index i = 0; i < b.size(); ++i)
    scale = std::max(scale, static_cast<double>(std::abs(b(i))));
  return static_cast<double>((a - b).cwiseAbs().maxCoeff()) / scale;
}

template <class T>
T soft(T x, double t) {
  const double m = std::abs(std::complex<double>(x));
  return m > t ? static_cast<T>(x * static_cast<real_type_t<T>>((m - t) / m)) : T(0);
}

template <class T>
T clip_magnitude(T x, double bound) {
  const double m = std::abs(std::complex<double>(x));
  return m > bound ? static_cast<T>(x * static_cast<real_type_t<T>>(bound / m)) : x;
}

/// Moreau's identity x = prox_{tau f}(x) + tau prox_{f*/tau}(x / tau), checked numerically.
template <class V>
void check_moreau(const ProxOperator<V>& f, const V& x, double tau, double tol) {
  using T = typename V::value_type;
  V scaled(x);
  scaled.scale(T(static_cast<real_type_t<T>>(1 / tau)));
  const V primal = f.prox(x, tau);
  const V dual = f.prox_conjugate(scaled, 1 / tau);
  const Dense<T> sum =
      global_vector(primal) + global_vector(dual) * static_cast<real_type_t<T>>(tau);
  INFO(f.name() << ", tau = " << tau);
  CHECK(max_difference(sum, global_vector(x)) <= tol);
}

template <class V>
void scale_values(V& v, double factor) {
  v.scale(typename V::value_type(static_cast<real_type_t<typename V::value_type>>(factor)));
}

}  // namespace

template <class V>
static void check_l1() {
  using T = typename V::value_type;
  using Space = typename V::space_type;
  const double tol = space_tolerance<T, Space>();
  const auto layout = test_layout<V>(13);
  V x = random_vector<V>(layout, 11);
  scale_values(x, 3.0);
  const V w = random_vector<V>(layout, 12);
  const Dense<T> gx = global_vector(x), gw = global_vector(w);
  const double sigma = 0.7, tau = 0.9;
  for (const bool weighted : {false, true}) {
    INFO((weighted ? "weighted" : "unweighted"));
    const L1<V> f = weighted ? L1<V>(w, sigma) : L1<V>(sigma);
    Dense<T> expected_prox(gx.size()), expected_dual(gx.size());
    double expected_value = 0;
    for (Eigen::Index i = 0; i < gx.size(); ++i) {
      const double wi = weighted ? std::abs(std::complex<double>(gw(i))) : 1.0;
      expected_value += sigma * wi * std::abs(std::complex<double>(gx(i)));
      expected_prox(i) = soft(gx(i), tau * sigma * wi);
      expected_dual(i) = clip_magnitude(gx(i), sigma * wi);
    }
    CHECK(close(f.value(x), expected_value, tol));
    CHECK(max_difference(global_vector(f.prox(x, tau)), expected_prox) <= tol);
    CHECK(max_difference(global_vector(f.prox_conjugate(x, tau)), expected_dual) <= tol);
    // In place gives the same.
    V y(x);
    f.prox(y, tau, y);
    CHECK(max_difference(global_vector(y), expected_prox) <= tol);
    check_moreau(f, x, tau, 10 * tol);
    check_moreau(f, x, 0.3, 10 * tol);
    CHECK_FALSE(f.differentiable());
  }
}

template <class V>
static void check_l2_identity() {
  using T = typename V::value_type;
  using Space = typename V::space_type;
  const double tol = space_tolerance<T, Space>();
  const auto layout = test_layout<V>(12);
  const V x = random_vector<V>(layout, 21), b = random_vector<V>(layout, 22);
  const Dense<T> gx = global_vector(x), gb = global_vector(b);
  const double sigma = 1.7, tau = 0.6;
  const L2<V> f(b, sigma);
  const auto rs = static_cast<real_type_t<T>>(sigma), rt = static_cast<real_type_t<T>>(tau);
  CHECK(close(f.value(x), 0.5 * sigma * static_cast<double>((gx - gb).squaredNorm()), tol));
  const Dense<T> expected = (gx + rt * rs * gb) / (1 + rt * rs);
  CHECK(max_difference(global_vector(f.prox(x, tau)), expected) <= tol);
  CHECK(max_difference(global_vector(f.gradient(x)), Dense<T>(rs * (gx - gb))) <= tol);
  // f*(y) = ||y||^2 / (2 sigma) + Re<b, y>, prox by its optimality condition.
  const Dense<T> dual = rs * (gx - rt * gb) / (rs + rt);
  CHECK(max_difference(global_vector(f.prox_conjugate(x, tau)), dual) <= tol);
  check_moreau(f, x, tau, 10 * tol);
  const L2<V> plain(sigma);
  CHECK(max_difference(global_vector(plain.prox(x, tau)), Dense<T>(gx / (1 + rt * rs))) <= tol);
  check_moreau(plain, x, 2.5, 10 * tol);
}

template <class V>
static void check_box_and_ball() {
  using T = typename V::value_type;
  using Space = typename V::space_type;
  using R = real_type_t<T>;
  const double tol = space_tolerance<T, Space>();
  const auto layout = test_layout<V>(14);
  V x = random_vector<V>(layout, 31);
  scale_values(x, 2.0);
  const V c = random_vector<V>(layout, 32);
  const Dense<T> gx = global_vector(x), gc = global_vector(c);
  auto clip = [](R v, R lo, R hi) { return std::min(std::max(v, lo), hi); };
  const Box<V> box(-0.5, 0.8);
  Dense<T> clipped(gx.size());
  for (Eigen::Index i = 0; i < gx.size(); ++i) {
    if constexpr (is_complex_v<T>) {
      clipped(i) = T(clip(gx(i).real(), R(-0.5), R(0.8)), clip(gx(i).imag(), R(-0.5), R(0.8)));
    } else {
      clipped(i) = clip(gx(i), R(-0.5), R(0.8));
    }
  }
  const V projected = box.prox(x, 3.0);
  CHECK(max_difference(global_vector(projected), clipped) == 0);
  CHECK(box.value(x) == std::numeric_limits<double>::infinity());
  CHECK(box.value(projected) == 0);
  check_moreau(box, x, 0.7, 10 * tol);
  const Box<V> positive = nonnegative<V>();
  CHECK(positive.value(positive.prox(x, 1.0)) == 0);

  // Element-wise bounds: lower_i = c_i - 0.3 (- infinity for every third), upper_i = c_i + 0.4.
  Dense<T> lower_bounds = gc, upper_bounds = gc;
  auto both_parts = [](double v) {
    if constexpr (is_complex_v<T>) {
      return T(static_cast<R>(v), static_cast<R>(v));
    } else {
      return static_cast<T>(v);
    }
  };
  for (Eigen::Index i = 0; i < gc.size(); ++i) {
    lower_bounds(i) -= both_parts(0.3);
    upper_bounds(i) += both_parts(0.4);
    if (i % 3 == 0) lower_bounds(i) = both_parts(-std::numeric_limits<double>::infinity());
  }
  V lower(layout), upper(layout);
  scatter_vector(lower_bounds, lower);
  scatter_vector(upper_bounds, upper);
  const Box<V> between(lower, upper);
  Dense<T> clipped_between(gx.size());
  for (Eigen::Index i = 0; i < gx.size(); ++i) {
    if constexpr (is_complex_v<T>) {
      clipped_between(i) = T(clip(gx(i).real(), lower_bounds(i).real(), upper_bounds(i).real()),
                             clip(gx(i).imag(), lower_bounds(i).imag(), upper_bounds(i).imag()));
    } else {
      clipped_between(i) = clip(gx(i), lower_bounds(i), upper_bounds(i));
    }
  }
  const V projected_between = between.prox(x, 2.0);
  CHECK(max_difference(global_vector(projected_between), clipped_between) == 0);
  CHECK(between.value(x) == std::numeric_limits<double>::infinity());
  CHECK(between.value(projected_between) == 0);
  CHECK(between.value(c) == 0);
  check_moreau(between, x, 0.7, 10 * tol);

  const double radius = 0.9;
  const EuclideanBall<V> ball(c, radius);
  const Dense<T> d = gx - gc;
  const double distance = static_cast<double>(d.norm());
  REQUIRE(distance > radius);
  const Dense<T> on_ball = gc + d * static_cast<R>(radius / distance);
  const V ball_projected = ball.prox(x, 1.0);
  CHECK(max_difference(global_vector(ball_projected), on_ball) <= tol);
  CHECK(ball.value(x) == std::numeric_limits<double>::infinity());
  CHECK(ball.value(ball_projected) == 0);
  CHECK(ball.value(c) == 0);
  check_moreau(ball, x, 0.4, 10 * tol);
  const EuclideanBall<V> big(10.0);
  CHECK(max_difference(global_vector(big.prox(x, 1.0)), gx) == 0);
}

template <class V>
static void check_composition() {
  using T = typename V::value_type;
  using Space = typename V::space_type;
  using R = real_type_t<T>;
  const double tol = space_tolerance<T, Space>();
  const auto layout = test_layout<V>(11);
  V x = random_vector<V>(layout, 41);
  scale_values(x, 2.0);
  const V b = random_vector<V>(layout, 42), v = random_vector<V>(layout, 43);
  const Dense<T> gx = global_vector(x), gb = global_vector(b), gv = global_vector(v);
  const double sigma = 0.6, a = -1.5, s = 2.0, tau = 0.7;
  const L1<V> l1(sigma);
  // g(x) = f(a x + b): (prox_{a^2 tau f}(a x + b) - b) / a.
  const Precomposed<V> pre(l1, a, b);
  Dense<T> expected(gx.size());
  double value = 0;
  for (Eigen::Index i = 0; i < gx.size(); ++i) {
    const T z = static_cast<R>(a) * gx(i) + gb(i);
    value += sigma * std::abs(std::complex<double>(z));
    expected(i) = (soft(z, a * a * tau * sigma) - gb(i)) / static_cast<R>(a);
  }
  CHECK(close(pre.value(x), value, tol));
  CHECK(max_difference(global_vector(pre.prox(x, tau)), expected) <= tol);
  check_moreau(pre, x, tau, 10 * tol);
  // g(x) = s f(x) + Re<v, x>: prox_{s tau f}(x - tau v).
  const Postcomposed<V> post(l1, s, v);
  value = s * sigma * static_cast<double>(gx.template lpNorm<1>());
  if constexpr (is_complex_v<T>) {
    value = 0;
    for (Eigen::Index i = 0; i < gx.size(); ++i)
      value += s * sigma * std::abs(std::complex<double>(gx(i)));
  }
  value += static_cast<double>(std::real(gv.dot(gx)));  // Eigen's dot conjugates its left side
  for (Eigen::Index i = 0; i < gx.size(); ++i)
    expected(i) = soft(T(gx(i) - static_cast<R>(tau) * gv(i)), s * tau * sigma);
  CHECK(close(post.value(x), value, tol));
  CHECK(max_difference(global_vector(post.prox(x, tau)), expected) <= tol);
  check_moreau(post, x, tau, 10 * tol);
  // Gradients through the composites of a differentiable function.
  const L2<V> l2(b, 1.3);
  const Precomposed<V> pre_l2(l2, a);
  REQUIRE(pre_l2.differentiable());
  const Dense<T> grad = static_cast<R>(a * 1.3) * (static_cast<R>(a) * gx - gb);
  CHECK(max_difference(global_vector(pre_l2.gradient(x)), grad) <= tol);
  const Postcomposed<V> post_l2(l2, s, v);
  const Dense<T> grad_post = static_cast<R>(s * 1.3) * (gx - gb) + gv;
  CHECK(max_difference(global_vector(post_l2.gradient(x)), grad_post) <= tol);
}

DISTLOPS_SPACE_TEMPLATE_TEST_CASE("L1: value, soft threshold, projection of the conjugate",
                                  "[proximal][l1]", DISTLOPS_SCALAR_TYPES) {
  check_l1<DistributedArray<TestType, Space>>();
  check_l1<StackedDistributedArray<TestType, Space>>();
}

DISTLOPS_SPACE_TEMPLATE_TEST_CASE("L2 without operator: closed forms", "[proximal][l2]",
                                  DISTLOPS_SCALAR_TYPES) {
  check_l2_identity<DistributedArray<TestType, Space>>();
  check_l2_identity<StackedDistributedArray<TestType, Space>>();
}

DISTLOPS_SPACE_TEMPLATE_TEST_CASE("Box and EuclideanBall project", "[proximal][box][ball]",
                                  DISTLOPS_SCALAR_TYPES) {
  check_box_and_ball<DistributedArray<TestType, Space>>();
  check_box_and_ball<StackedDistributedArray<TestType, Space>>();
}

DISTLOPS_SPACE_TEMPLATE_TEST_CASE("Precomposed and Postcomposed", "[proximal][composition]",
                                  DISTLOPS_SCALAR_TYPES) {
  check_composition<DistributedArray<TestType, Space>>();
  check_composition<StackedDistributedArray<TestType, Space>>();
}

DISTLOPS_SPACE_TEMPLATE_TEST_CASE("L2 with an operator: prox by inner CGLS against Eigen",
                                  "[proximal][l2]", DISTLOPS_SCALAR_TYPES) {
  using T = TestType;
  using R = real_type_t<T>;
  using D = DistributedArray<T, Space>;
  using S = StackedDistributedArray<T, Space>;
  const double tol = std::is_same_v<R, float> ? 2e-4 : 1e-9;
  const Layout domain = uneven_layout(9);
  const S range_vector(std::vector<D>{D(uneven_layout(5)), D(Layout(world(), {6}))});
  const DenseMatrix<T> m = random_matrix<T>(11, 9, 51);
  const auto op = BasicLinearOperator<D, S>::template make<DenseOperator<D, S>>(
      m, domain, range_vector.layout());
  S b(range_vector.layout());
  fill_random(b, 52);
  D x(domain);
  fill_random(x, 53);
  const double sigma = 0.8, tau = 1.3;
  const L2<D, S> f(op, b, sigma, {60, std::is_same_v<R, float> ? 1e-6 : 1e-12});
  const Dense<T> gx = global_vector(x), gb = global_vector(b);
  const auto rs = static_cast<R>(sigma), rts = static_cast<R>(tau * sigma);
  const Dense<T> misfit = product(m, gx) - gb;
  CHECK(close(f.value(x), 0.5 * sigma * static_cast<double>(misfit.squaredNorm()), tol));
  const Dense<T> gradient = rs * adjoint_product(m, misfit);
  CHECK(max_difference(global_vector(f.gradient(x)), gradient) <= tol);
  const DenseMatrix<T> normal = identity_matrix<T>(9) + rts * product(adjoint_of(m), m);
  const Dense<T> expected = solve_hermitian<T>(normal, gx + rts * adjoint_product(m, gb));
  CHECK(max_difference(global_vector(f.prox(x, tau)), expected) <= tol);
  check_moreau(f, x, tau, tol);
}

DISTLOPS_SPACE_TEMPLATE_TEST_CASE("L21: group shrinkage and projection of the conjugate",
                                  "[proximal][l21]", DISTLOPS_SCALAR_TYPES) {
  using T = TestType;
  using R = real_type_t<T>;
  using D = DistributedArray<T, Space>;
  using S = StackedDistributedArray<T, Space>;
  const double tol = space_tolerance<T, Space>();
  const Layout layout = uneven_layout(10);
  for (const int components : {1, 2, 3}) {
    INFO(components << " components");
    std::vector<D> parts;
    for (int j = 0; j < components; ++j) {
      D part(layout);
      fill_random(part, 60 + static_cast<std::uint64_t>(j));
      parts.push_back(part);
    }
    const S x(parts);
    const Dense<T> gx = global_vector(x);
    const double sigma = 0.5, tau = 0.9;
    const L21<S> f(sigma);
    Dense<T> shrunk(gx.size()), projected(gx.size());
    double value = 0;
    for (Eigen::Index i = 0; i < 10; ++i) {
      double norm = 0;
      for (int j = 0; j < components; ++j)
        norm += std::norm(std::complex<double>(gx(j * 10 + i)));
      norm = std::sqrt(norm);
      value += sigma * norm;
      const double shrink = norm > tau * sigma ? 1 - tau * sigma / norm : 0.0;
      const double project = norm > sigma ? sigma / norm : 1.0;
      for (int j = 0; j < components; ++j) {
        shrunk(j * 10 + i) = gx(j * 10 + i) * static_cast<R>(shrink);
        projected(j * 10 + i) = gx(j * 10 + i) * static_cast<R>(project);
      }
    }
    CHECK(close(f.value(x), value, tol));
    CHECK(max_difference(global_vector(f.prox(x, tau)), shrunk) <= tol);
    CHECK(max_difference(global_vector(f.prox_conjugate(x, tau)), projected) <= tol);
    check_moreau(f, x, tau, 10 * tol);
    check_moreau(f, x, 0.2, 10 * tol);
  }
}

TEMPLATE_TEST_CASE("L1 with a schedule of sigma: the k-th prox call uses sigma(k)",
                   "[proximal][l1][schedule]", DISTLOPS_SCALAR_TYPES) {
  using T = TestType;
  using V = DistributedArray<T>;
  const double tol = space_tolerance<T, Host>();
  const V x = random_vector<V>(uneven_layout(12), 51);
  const Dense<T> gx = global_vector(x);
  const double norm1 = static_cast<double>(gx.cwiseAbs().sum());
  auto sigma = [](int k) { return 0.5 + 0.25 * k; };
  const L1<V> f(sigma);
  CHECK(f.prox_calls() == 0);
  CHECK(std::abs(f.value(x) - sigma(0) * norm1) <= tol * norm1);
  auto soft_all = [&](double t) {
    Dense<T> y(gx.size());
    for (Eigen::Index i = 0; i < gx.size(); ++i)
      y(i) = soft(gx(i), t);
    return y;
  };
  CHECK(max_difference(global_vector(f.prox(x, 0.4)), soft_all(0.4 * sigma(1))) <= tol);
  // A clone (what a solver keeps) counts on the same calls.
  const auto copy = f.clone();
  CHECK(max_difference(global_vector(copy->prox(x, 0.4)), soft_all(0.4 * sigma(2))) <= tol);
  CHECK(f.prox_calls() == 2);
  CHECK(std::abs(f.value(x) - sigma(2) * norm1) <= tol * norm1);
  CHECK(f.sigma() == sigma(2));
  // The conjugate's prox projects onto |y_i| <= sigma(2) and counts no call.
  Dense<T> projected(gx.size());
  for (Eigen::Index i = 0; i < gx.size(); ++i) {
    const double m = std::abs(std::complex<double>(gx(i)));
    projected(i) =
        m > sigma(2) ? static_cast<T>(gx(i) * static_cast<real_type_t<T>>(sigma(2) / m)) : gx(i);
  }
  CHECK(max_difference(global_vector(f.prox_conjugate(x, 3.0)), projected) <= tol);
  CHECK(f.prox_calls() == 2);
  // A schedule that turns negative raises on every rank at the call that reads it.
  const L1<V> falling([](int k) { return 1.0 - k; });
  (void)falling.prox(x, 1.0);
  expect_everywhere<InvalidArgument>(
      x.communicator(), [&] { (void)falling.prox(x, 1.0); }, "the schedule gave sigma(2)");
  expect_everywhere<InvalidArgument>(
      x.communicator(), [&] { L1<V>(std::function<double(int)>{}).prox(x, 1.0); }, "schedule");
}

TEST_CASE("L21: one object serves arrays of changing layouts", "[proximal][l21]") {
  // The workspace of the groups' norms follows the layout; copies and clones start afresh.
  using D = DistributedArray<double>;
  using S = StackedDistributedArray<double>;
  const L21<S> reused(0.4);
  for (const Layout& layout : {uneven_layout(10), Layout(world(), {13}), uneven_layout(10)}) {
    INFO(layout.describe());
    D a(layout), b(layout);
    fill_random(a, 81);
    fill_random(b, 82);
    const S x(std::vector<D>{a, b});
    const L21<S> fresh(0.4);
    const L21<S> copy(reused);
    CHECK(reused.value(x) == fresh.value(x));
    CHECK(copy.value(x) == fresh.value(x));
    CHECK(global_vector(reused.prox(x, 0.7)) == global_vector(fresh.prox(x, 0.7)));
    CHECK(global_vector(reused.clone()->prox_conjugate(x, 0.7)) ==
          global_vector(fresh.prox_conjugate(x, 0.7)));
    S in_place(x);
    reused.prox(in_place, 0.7, in_place);
    CHECK(global_vector(in_place) == global_vector(fresh.prox(x, 0.7)));
  }
}

TEST_CASE("proximal operators: bad input raises on every rank", "[proximal][errors]") {
  using D = DistributedArray<double>;
  using S = StackedDistributedArray<double>;
  const Communicator comm = world();
  const Layout layout = uneven_layout(8);
  D x(layout, 1.0);
  const L1<D> l1(0.5);
  expect_everywhere<InvalidArgument>(
      comm, [&] { l1.prox(x, -1.0); }, "tau must be positive");
  expect_everywhere<InvalidArgument>(
      comm, [&] { l1.prox_conjugate(x, std::nan("")); }, "tau must be positive");
  D other(Layout(comm, {9}));
  expect_everywhere<ShapeMismatch>(
      comm, [&] { l1.prox(x, 1.0, other); }, "out is expected");
  D short_weights(Layout(comm, {7}), 1.0);
  expect_everywhere<ShapeMismatch>(
      comm, [&] { L1<D>(short_weights, 1.0).prox(x, 1.0); }, "the weights");
  // Constructors communicate nothing and raise nothing: the first call reports a parameter out
  // of range, on every rank.
  CHECK_NOTHROW(L1<D>(-1.0));
  CHECK_NOTHROW(Box<D>(1.0, 0.0));
  expect_everywhere<InvalidArgument>(
      comm, [&] { L1<D>(-1.0).prox(x, 1.0); }, "sigma must be");
  expect_everywhere<InvalidArgument>(
      comm, [&] { (void)Box<D>(1.0, 0.0).value(x); }, "lower <= upper");
  // Element-wise bounds crossed on the last element only (owned by one rank), NaN in one
  // element, and bounds of another layout.
  const D lower(layout, 0.0), upper(layout, 1.0);
  D crossed(layout);
  std::vector<double> crossed_global(8, 0.0);
  crossed_global[7] = 2.0;
  crossed.assign_global(crossed_global);
  expect_everywhere<InvalidArgument>(
      comm, [&] { Box<D>(crossed, upper).prox(x, 1.0); }, "a lower bound above its upper bound");
  D with_nan = upper.copy();
  std::vector<double> nan_global(8, 1.0);
  nan_global[3] = std::nan("");
  with_nan.assign_global(nan_global);
  expect_everywhere<InvalidArgument>(
      comm, [&] { Box<D>(lower, with_nan).prox(x, 1.0); }, "NaN");
  D other_bounds(Layout(comm, {9}), 1.0);
  expect_everywhere<ShapeMismatch>(
      comm, [&] { Box<D>(lower, other_bounds).prox(x, 1.0); }, "the upper bounds");
  expect_everywhere<ShapeMismatch>(
      comm, [&] { Box<D>(other_bounds, other_bounds).prox(x, 1.0); }, "the bounds");
  expect_everywhere<InvalidArgument>(
      comm, [&] { EuclideanBall<D>(-1.0).prox(x, 1.0); }, "radius");
  expect_everywhere<InvalidArgument>(
      comm, [&] { Precomposed<D>(l1, 0.0).prox(x, 1.0); }, "non-zero");
  expect_everywhere<InvalidArgument>(
      comm, [&] { (void)Postcomposed<D>(l1, -2.0).value(x); }, "positive");
  expect_everywhere<InvalidArgument>(
      comm, [&] { l1.gradient(x); }, "not differentiable");
  const S mixed(std::vector<D>{D(layout, 1.0), D(Layout(comm, {9}), 1.0)});
  expect_everywhere<ShapeMismatch>(
      comm, [&] { L21<S>(1.0).prox(mixed, 1.0); }, "component 1");
  const DenseMatrix<double> m = random_matrix<double>(5, 8, 1);
  const auto op =
      BasicLinearOperator<D, D>::make<DenseOperator<D, D>>(m, layout, Layout(comm, {5}));
  expect_everywhere<ShapeMismatch>(
      comm, [&] { L2<D>(op, x, 1.0).prox(x, 1.0); }, "b is expected");
}
