// SPDX-License-Identifier: BSD-3-Clause
// Copyright (c) 2026 The distlops authors
#pragma once
/// \file dottest.hpp
/// The dot test: a correct adjoint satisfies <A u, v> = <u, A^H v> for any u and v. For an
/// operator between real and complex arrays (linear over the reals, operator_scalar_t) the
/// inner product of the complex side is the real one, Re <a, b>: the test compares
/// Re <A u, v> with <u, A^H v> for real u and complex v (or <A u, v> with Re <u, A^H v> for
/// complex u and real v), as PyLops' dottest does for operators that are not complex-linear.

#include <cmath>
#include <complex>
#include <cstdint>
#include <string>

#include "distlops/core/random.hpp"
#include "distlops/operators/linear_operator.hpp"

namespace distlops {

/// Default relative tolerance of the dot test for a scalar type: a few hundred rounding
/// errors of the precision (float 1e-4, double 1e-10).
template <Scalar T>
constexpr double dottest_tolerance() {
  return std::is_same_v<real_type_t<T>, float> ? 1e-4 : 1e-10;
}

/// The two sides of a dot test.
template <Scalar T>
struct DotTestResult {
  T forward_side;  ///< vdot(A u, v)
  T adjoint_side;  ///< vdot(u, A^H v)
  /// |forward_side - adjoint_side| / max(|forward_side|, |adjoint_side|) (0 when both are zero).
  double relative_error;
  /// Whether |a - b| <= rtol max(|a|, |b|) + atol held.
  bool passed;
};

namespace detail {
/// An inner product as a scalar of type T: its real part when T is real.
template <class T, class U>
T inner_product_as(const U& value) {
  if constexpr (is_complex_v<U> && !is_complex_v<T>) {
    return value.real();
  } else {
    return T(value);
  }
}
}  // namespace detail

/// Evaluates vdot(A u, v) and vdot(u, A^H v) (their real parts for an operator between real and
/// complex arrays) and compares them: |a - b| <= rtol * max(|a|, |b|) + atol. With `raise`, a
/// failure throws distlops::Error (on every rank: both sides are reductions, equal on every
/// rank).
template <class Domain, class Range>
DotTestResult<operator_scalar_t<Domain, Range>> dottest(
    const BasicLinearOperator<Domain, Range>& op, const Domain& u, const Range& v,
    double rtol = dottest_tolerance<typename Domain::value_type>(), double atol = 0.0,
    bool raise = true) {
  using T = operator_scalar_t<Domain, Range>;
  const Range au = op.apply(u);
  const Domain ahv = op.apply_adjoint(v);
  const T forward_side = detail::inner_product_as<T>(au.vdot(v));
  const T adjoint_side = detail::inner_product_as<T>(u.vdot(ahv));
  const double difference =
      std::abs(std::complex<double>(forward_side) - std::complex<double>(adjoint_side));
  const double scale = std::max(std::abs(std::complex<double>(forward_side)),
                                std::abs(std::complex<double>(adjoint_side)));
  const double relative = scale > 0 ? difference / scale : difference;
  const bool passed = difference <= rtol * scale + atol;
  if (!passed && raise) {
    auto text = [](const T& value) {
      if constexpr (is_complex_v<T>) {
        return "(" + std::to_string(value.real()) + ", " + std::to_string(value.imag()) + ")";
      } else {
        return std::to_string(value);
      }
    };
    throw Error("dottest of " + op.name() + " failed: <A u, v> = " + text(forward_side) +
                ", <u, A^H v> = " + text(adjoint_side) + ", relative error " +
                std::to_string(relative) + " > " + std::to_string(rtol));
  }
  return {forward_side, adjoint_side, relative, passed};
}

/// The dot test with deterministic random u and v (fill_random with keys `seed` and
/// `seed + 100`).
template <class Domain, class Range>
DotTestResult<operator_scalar_t<Domain, Range>> dottest(
    const BasicLinearOperator<Domain, Range>& op, std::uint64_t seed = 1,
    double rtol = dottest_tolerance<typename Domain::value_type>(), double atol = 0.0,
    bool raise = true) {
  Domain u(op.domain());
  Range v(op.range());
  fill_random(u, seed);
  fill_random(v, seed + 100);
  return dottest(op, u, v, rtol, atol, raise);
}

}  // namespace distlops
