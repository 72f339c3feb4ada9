// SPDX-License-Identifier: BSD-3-Clause
// Copyright (c) 2026 The distlops authors
#pragma once
/// \file pointwise.hpp
/// The per-element arithmetic of the kernels, written once for the host loops (src/host) and
/// the CUDA kernels (src/cuda): inline functions and small function objects that compile for
/// both, so that the host tests exercise the formulas the device runs.
///
/// Complex numbers are handled as pairs of reals through `.real()`, `.imag()` and a two-real
/// constructor. The host passes std::complex; device code, where std::complex is not usable,
/// passes `complex_pair`, which has std::complex's size and alignment (an array of one may be
/// reinterpreted as an array of the other). Products and quotients are spelled out: the
/// product is the textbook formula and the quotient is Smith's algorithm, which are exactly
/// what GCC emits for std::complex under the project's -fcx-fortran-rules, so the host results
/// are unchanged by going through these functions.

#include <cmath>
#include <complex>
#include <concepts>
#include <type_traits>
#include <utility>

#include "distlops/core/host_device.hpp"

/// The per-element formulas shared by the host loops and the CUDA kernels.
namespace distlops::pointwise {

/// A complex number type: std::complex or complex_pair.
template <class T>
concept ComplexLike = requires(const T& value) {
  value.real();
  value.imag();
};

/// The real type underlying T (T itself for real types).
template <class T>
struct real_of {
  using type = T;  ///< T itself for a real type.
};
/// The complex case of real_of.
template <ComplexLike T>
struct real_of<T> {
  using type = std::remove_cvref_t<decltype(std::declval<const T&>().real())>;  ///< real()'s type.
};
/// real_of<T>::type.
template <class T>
using real_of_t = typename real_of<T>::type;

/// Two reals with the layout of std::complex<R>, usable in device code. Trivially
/// default-constructible so that it may live in CUDA shared memory.
template <class R>
struct complex_pair {
  R re;  ///< The real part.
  R im;  ///< The imaginary part.
  /// Uninitialised parts (trivial, as CUDA shared memory requires).
  complex_pair() = default;
  /// real_part + i imag_part.
  DISTLOPS_HOST_DEVICE constexpr complex_pair(R real_part, R imag_part)
      : re(real_part), im(imag_part) {}
  /// The real part, as std::complex::real().
  DISTLOPS_HOST_DEVICE constexpr R real() const { return re; }
  /// The imaginary part, as std::complex::imag().
  DISTLOPS_HOST_DEVICE constexpr R imag() const { return im; }
};
static_assert(sizeof(complex_pair<float>) == sizeof(std::complex<float>) &&
              alignof(complex_pair<float>) == alignof(std::complex<float>));
static_assert(sizeof(complex_pair<double>) == sizeof(std::complex<double>) &&
              alignof(complex_pair<double>) == alignof(std::complex<double>));

/// The value `value + 0i` of type T.
template <class T>
DISTLOPS_HOST_DEVICE constexpr T from_real(real_of_t<T> value) {
  if constexpr (ComplexLike<T>) {
    return T(value, real_of_t<T>(0));
  } else {
    return value;
  }
}

/// a + b.
template <class T>
DISTLOPS_HOST_DEVICE constexpr T add(const T& a, const T& b) {
  if constexpr (ComplexLike<T>) {
    return T(a.real() + b.real(), a.imag() + b.imag());
  } else {
    return a + b;
  }
}

/// a - b.
template <class T>
DISTLOPS_HOST_DEVICE constexpr T subtract(const T& a, const T& b) {
  if constexpr (ComplexLike<T>) {
    return T(a.real() - b.real(), a.imag() - b.imag());
  } else {
    return a - b;
  }
}

/// a * b of reals, rounded on its own: device code may not fuse it with a neighbouring sum, so
/// that every formula written once rounds on the device as on the host, and two kernels that
/// evaluate it round alike (conj(x) * x has an imaginary part of exactly 0 on both, which a
/// fused multiply-add would leave as the rounding error of x.re * x.im).
template <class R>
DISTLOPS_HOST_DEVICE constexpr R rounded_product(R a, R b) {
#if defined(__CUDA_ARCH__)
  if constexpr (std::is_same_v<R, double>) {
    return __dmul_rn(a, b);
  } else if constexpr (std::is_same_v<R, float>) {
    return __fmul_rn(a, b);
  } else {
    return a * b;
  }
#else
  return a * b;
#endif
}

/// a * b, each real product rounded on its own (rounded_product); complex products by the
/// textbook formula (no special handling of infinities).
template <class T>
DISTLOPS_HOST_DEVICE constexpr T multiply(const T& a, const T& b) {
  if constexpr (ComplexLike<T>) {
    return T(rounded_product(a.real(), b.real()) - rounded_product(a.imag(), b.imag()),
             rounded_product(a.real(), b.imag()) + rounded_product(a.imag(), b.real()));
  } else {
    return rounded_product(a, b);
  }
}

/// a / b; complex quotients by Smith's algorithm (no overflow for large |b|, no NaN recovery).
/// The two cases of the algorithm are written with selections rather than branches, which
/// lets compilers vectorise loops of quotients; the arithmetic is that of the branches.
template <class T>
DISTLOPS_HOST_DEVICE inline T divide(const T& a, const T& b) {
  if constexpr (ComplexLike<T>) {
    using R = real_of_t<T>;
    const R ar = a.real(), ai = a.imag(), br = b.real(), bi = b.imag();
    const bool imag_larger = std::fabs(br) < std::fabs(bi);
    const R small = imag_larger ? br : bi;
    const R large = imag_larger ? bi : br;
    const R u = imag_larger ? ar : ai;
    const R v = imag_larger ? ai : ar;
    const R ratio = small / large;
    const R denominator = small * ratio + large;
    const R imag_numerator = imag_larger ? v * ratio - u : u - v * ratio;
    return T((u * ratio + v) / denominator, imag_numerator / denominator);
  } else {
    return a / b;
  }
}

/// True when Smith's algorithm divides by `divisor` in its first case (|real| < |imag|).
template <class T>
DISTLOPS_HOST_DEVICE inline bool divisor_imag_larger(const T& divisor) {
  if constexpr (ComplexLike<T>) {
    return std::fabs(divisor.real()) < std::fabs(divisor.imag());
  } else {
    return false;
  }
}

/// x / s for a fixed divisor s, bit for bit divide(x, s): the divisor's share of Smith's
/// algorithm is computed once, and the case is a template parameter (ImagLarger must equal
/// divisor_imag_larger(s)), so that a loop over x has no selection left and vectorises.
template <class T, bool ImagLarger>
struct DivideByScalar {
  using R = real_of_t<T>;  ///< T's real type.
  T s;                     ///< The divisor.
  R ratio;                 ///< Smith's small / large part of the divisor (complex T only).
  R denominator;           ///< Smith's small * ratio + large (complex T only).
  /// Precomputes the divisor's share of the quotient.
  DISTLOPS_HOST_DEVICE explicit DivideByScalar(const T& divisor) : s(divisor) {
    if constexpr (ComplexLike<T>) {
      const R small = ImagLarger ? divisor.real() : divisor.imag();
      const R large = ImagLarger ? divisor.imag() : divisor.real();
      ratio = small / large;
      denominator = small * ratio + large;
    } else {
      ratio = R(0);
      denominator = R(0);
    }
  }
  /// x / s.
  DISTLOPS_HOST_DEVICE T operator()(const T& x) const {
    if constexpr (ComplexLike<T>) {
      const R u = ImagLarger ? x.real() : x.imag();
      const R v = ImagLarger ? x.imag() : x.real();
      const R imag_numerator = ImagLarger ? v * ratio - u : u - v * ratio;
      return T((u * ratio + v) / denominator, imag_numerator / denominator);
    } else {
      return x / s;
    }
  }
};

/// Complex conjugate; the identity on reals.
template <class T>
DISTLOPS_HOST_DEVICE constexpr T conjugate(const T& value) {
  if constexpr (ComplexLike<T>) {
    return T(value.real(), -value.imag());
  } else {
    return value;
  }
}

/// |value|^2, without a square root.
template <class T>
DISTLOPS_HOST_DEVICE constexpr real_of_t<T> abs_squared(const T& value) {
  if constexpr (ComplexLike<T>) {
    return value.real() * value.real() + value.imag() * value.imag();
  } else {
    return value * value;
  }
}

/// |value|: sqrt(re^2 + im^2) for complex values (no scaling: as the host kernels always did).
template <class T>
DISTLOPS_HOST_DEVICE inline real_of_t<T> magnitude(const T& value) {
  if constexpr (ComplexLike<T>) {
    return std::sqrt(abs_squared(value));
  } else {
    return std::fabs(value);
  }
}

/// |value|^p, with the exact forms for p = 1 and p = 2.
template <class T>
DISTLOPS_HOST_DEVICE inline real_of_t<T> power_of_magnitude(const T& value, real_of_t<T> p) {
  using R = real_of_t<T>;
  if (p == R(1)) return magnitude(value);
  if (p == R(2)) return abs_squared(value);
  return std::pow(magnitude(value), p);
}

/// 1 for a non-zero value (NaN counts as non-zero), else 0.
template <class T>
DISTLOPS_HOST_DEVICE constexpr real_of_t<T> nonzero_indicator(const T& value) {
  using R = real_of_t<T>;
  if constexpr (ComplexLike<T>) {
    return value.real() != R(0) || value.imag() != R(0) ? R(1) : R(0);
  } else {
    return value != R(0) ? R(1) : R(0);
  }
}

/// Running maximum and minimum: the new value replaces the running one only when it compares
/// larger (smaller). A NaN never does, so a running value that starts as a number stays one.
template <class R>
DISTLOPS_HOST_DEVICE constexpr R running_max(R running, R value) {
  return running < value ? value : running;
}
/// The running minimum (see running_max()).
template <class R>
DISTLOPS_HOST_DEVICE constexpr R running_min(R running, R value) {
  return value < running ? value : running;
}

// ---- function objects of the element-wise kernels ------------------------------------------

/// y <- a * y.
template <class T>
struct Scale {
  T a;  ///< The factor.
  /// a * y (as y * a).
  DISTLOPS_HOST_DEVICE T operator()(const T& y) const { return multiply(y, a); }
};
/// y <- y + a * x.
template <class T>
struct Axpy {
  T a;  ///< The factor of x.
  /// y + a * x.
  DISTLOPS_HOST_DEVICE T operator()(const T& x, const T& y) const { return add(y, multiply(a, x)); }
};
/// y <- a * x + b * y (also z <- a * x + b * y).
template <class T>
struct Axpby {
  T a;  ///< The factor of x.
  T b;  ///< The factor of y.
  /// a * x + b * y.
  DISTLOPS_HOST_DEVICE T operator()(const T& x, const T& y) const {
    return add(multiply(a, x), multiply(b, y));
  }
};
/// z <- a * x + b * y + c * z.
template <class T>
struct Axpbypcz {
  T a;  ///< The factor of x.
  T b;  ///< The factor of y.
  T c;  ///< The factor of z.
  /// (a * x + b * y) + c * z.
  DISTLOPS_HOST_DEVICE T operator()(const T& x, const T& y, const T& z) const {
    return add(add(multiply(a, x), multiply(b, y)), multiply(c, z));
  }
};
/// x + y, for BinaryOp::add.
struct Add {
  /// add(x, y).
  template <class T>
  DISTLOPS_HOST_DEVICE T operator()(const T& x, const T& y) const {
    return add(x, y);
  }
};
/// x - y, for BinaryOp::subtract.
struct Subtract {
  /// subtract(x, y).
  template <class T>
  DISTLOPS_HOST_DEVICE T operator()(const T& x, const T& y) const {
    return subtract(x, y);
  }
};
/// x * y, for BinaryOp::multiply.
struct Multiply {
  /// multiply(x, y).
  template <class T>
  DISTLOPS_HOST_DEVICE T operator()(const T& x, const T& y) const {
    return multiply(x, y);
  }
};
/// x / y, for BinaryOp::divide.
struct Divide {
  /// divide(x, y).
  template <class T>
  DISTLOPS_HOST_DEVICE T operator()(const T& x, const T& y) const {
    return divide(x, y);
  }
};
/// x op s: a binary function object Op with its right operand fixed.
template <class Op, class T>
struct WithScalarRight {
  T s;  ///< The right operand.
  /// Op{}(x, s).
  DISTLOPS_HOST_DEVICE T operator()(const T& x) const { return Op{}(x, s); }
};
/// s op x: a binary function object Op with its left operand fixed.
template <class Op, class T>
struct WithScalarLeft {
  T s;  ///< The left operand.
  /// Op{}(s, x).
  DISTLOPS_HOST_DEVICE T operator()(const T& x) const { return Op{}(s, x); }
};
/// conj(x); the identity on reals.
struct Conjugate {
  /// conjugate(x).
  template <class T>
  DISTLOPS_HOST_DEVICE T operator()(const T& x) const {
    return conjugate(x);
  }
};

// ---- terms of the reductions -----------------------------------------------------------------

/// x * y (bilinear): the term of dot.
struct DotTerm {
  /// multiply(x, y).
  template <class T>
  DISTLOPS_HOST_DEVICE T operator()(const T& x, const T& y) const {
    return multiply(x, y);
  }
};
/// conj(x) * y: the term of vdot.
struct VdotTerm {
  /// multiply(conjugate(x), y).
  template <class T>
  DISTLOPS_HOST_DEVICE T operator()(const T& x, const T& y) const {
    return multiply(conjugate(x), y);
  }
};

}  // namespace distlops::pointwise
