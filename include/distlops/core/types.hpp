// SPDX-License-Identifier: BSD-3-Clause
// Copyright (c) 2026 The distlops authors
#pragma once
/// \file types.hpp
/// Index and shape types, and the traits of the four supported scalar types.

#include <complex>
#include <cstdint>
#include <limits>
#include <string>
#include <type_traits>
#include <vector>

namespace distlops {

/// Signed 64-bit index: element counts and offsets of arrays that may exceed 2^31.
using Index = std::int64_t;

/// The shape of an N-d array, row-major (C order) like NumPy.
using Shape = std::vector<Index>;

namespace detail {
/// Throws InvalidArgument naming the shape whose element count exceeds an Index.
[[noreturn]] void throw_element_count_overflow(const Shape& shape);
}  // namespace detail

/// Number of elements of an array of the given shape (1 for a 0-d shape, 0 when an extent is
/// 0). Throws InvalidArgument when the product exceeds an Index, instead of overflowing.
inline Index element_count(const Shape& shape) {
  for (Index extent : shape) {
    if (extent == 0) return 0;  // (0, 2^62, 4) has no element, whatever the others multiply to
  }
  Index count = 1;
  for (Index extent : shape) {
    if (__builtin_mul_overflow(count, extent, &count)) detail::throw_element_count_overflow(shape);
  }
  return count;
}

/// Whether `factor` times the product of the non-zero extents of `shape` fits in an Index:
/// then no product of some of its extents (sizes, strides, byte counts at `factor` bytes per
/// element) overflows, even when a zero extent makes the array empty.
inline bool extents_fit(const Shape& shape, Index factor = 1) {
  Index product = factor;
  for (Index extent : shape) {
    if (extent > 0 && __builtin_mul_overflow(product, extent, &product)) return false;
  }
  return true;
}

/// "(4, 5, 6)": the NumPy spelling of a shape, for messages.
std::string to_string(const Shape& shape);

/// True (as a std::true_type) for std::complex<R>, false for every other type.
template <class T>
struct is_complex : std::false_type {};
/// The complex case of is_complex.
template <class R>
struct is_complex<std::complex<R>> : std::true_type {};
/// is_complex<T>::value.
template <class T>
inline constexpr bool is_complex_v = is_complex<T>::value;

/// The real type underlying a scalar type: float for std::complex<float>, etc.
template <class T>
struct real_type {
  using type = T;  ///< T itself for a real type.
};
/// The complex case of real_type.
template <class R>
struct real_type<std::complex<R>> {
  using type = R;  ///< R for std::complex<R>.
};
/// real_type<T>::type.
template <class T>
using real_type_t = typename real_type<T>::type;

/// The complex type of a scalar type's precision: std::complex<float> for float and for
/// std::complex<float>, std::complex<double> for double and for std::complex<double>.
template <class T>
using complex_type_t = std::complex<real_type_t<T>>;

/// The four scalar types of the library: float, double, complex<float>, complex<double>.
template <class T>
concept Scalar = std::is_same_v<T, float> || std::is_same_v<T, double> ||
    std::is_same_v<T, std::complex<float>> || std::is_same_v<T, std::complex<double>>;

/// NumPy's name of a scalar type ("float64", "complex64", ...), for messages and .npy headers.
template <Scalar T>
constexpr const char* scalar_name() {
  if constexpr (std::is_same_v<T, float>) return "float32";
  if constexpr (std::is_same_v<T, double>) return "float64";
  if constexpr (std::is_same_v<T, std::complex<float>>) return "complex64";
  if constexpr (std::is_same_v<T, std::complex<double>>) return "complex128";
}

/// Complex conjugate that is the identity on real types (std::conj returns a complex).
template <class T>
constexpr T conjugate(const T& value) {
  if constexpr (is_complex_v<T>) {
    return std::conj(value);
  } else {
    return value;
  }
}

/// |value|^2 without the square root (and without std::norm's promotion of reals).
template <class T>
constexpr real_type_t<T> abs_squared(const T& value) {
  if constexpr (is_complex_v<T>) {
    return value.real() * value.real() + value.imag() * value.imag();
  } else {
    return value * value;
  }
}

/// Machine epsilon of the real type underlying T.
template <class T>
constexpr real_type_t<T> epsilon() {
  return std::numeric_limits<real_type_t<T>>::epsilon();
}

}  // namespace distlops
