#pragma once
/// \file thresholding.hpp
/// The thresholding rules of ISTA and FISTA (PyLops' _softthreshold, _hardthreshold and
/// _halfthreshold): proximal operators of the sparsity penalties, applied element-wise.
///
///     soft (p = 1):    T(x) = max(|x| - t, 0) x / |x|
///     hard (p = 0):    T(x) = x if |x| > sqrt(2 t), else 0
///     half (p = 1/2):  T(x) = 2/3 x (1 + cos(2 pi / 3 - 2/3 arccos(t / 8 (|x| / 3)^(-3/2))))
///                      if |x| > 54^(1/3) / 4 t^(2/3), else 0
///
/// with the penalties R(x) = sum |x_i| (soft), the number of non-zeros (hard) and
/// sum |x_i|^(1/2) (half). Complex values keep their phase.

#include <cmath>

#include "distlops/core/memory_space.hpp"
#include "distlops/core/types.hpp"
#include "distlops/solvers/detail/vectors.hpp"

namespace distlops {

enum class ThresholdKind { soft, hard, half };

/// "soft", "hard" or "half".
const char* to_string(ThresholdKind kind);

/// The exponent p of the penalty a rule is the proximal operator of: 1, 0 or 0.5.
constexpr double penalty_exponent(ThresholdKind kind) {
  return kind == ThresholdKind::soft ? 1.0 : kind == ThresholdKind::hard ? 0.0 : 0.5;
}

/// The per-element rules (plain arithmetic, shared by every memory space's kernel).
template <class T>
T soft_threshold(T x, real_type_t<T> t) {
  using R = real_type_t<T>;
  const R magnitude = std::sqrt(abs_squared(x));
  return magnitude > t ? x * ((magnitude - t) / magnitude) : T(0);
}

/// `cut` = sqrt(2 t), computed once by the caller.
template <class T>
T hard_threshold(T x, real_type_t<T> cut) {
  return std::sqrt(abs_squared(x)) > cut ? x : T(0);
}

/// `cut` = 54^(1/3) / 4 t^(2/3), computed once by the caller.
template <class T>
T half_threshold(T x, real_type_t<T> t, real_type_t<T> cut) {
  using R = real_type_t<T>;
  const R magnitude = std::sqrt(abs_squared(x));
  if (magnitude <= cut) return T(0);
  R argument = (t / R(8)) * std::pow(magnitude / R(3), R(-1.5));
  argument = std::fmin(std::fmax(argument, R(-1)), R(1));
  const R phi = R(2) / R(3) * std::acos(argument);
  const R two_pi_over_three = R(2.0943951023931954923);
  return x * (R(2) / R(3) * (R(1) + std::cos(two_pi_over_three - phi)));
}

namespace kernels {
/// x[i] = T(x[i]) for the rule `kind` with threshold t >= 0, in place.
template <Scalar T>
void threshold(Host, ThresholdKind kind, Index n, real_type_t<T> t, T* x);
}  // namespace kernels

/// Applies the rule `kind` with threshold t to every element of v (local data only: no
/// communication; replicated arrays stay consistent).
template <class V>
void threshold(V& v, ThresholdKind kind, double t) {
  using T = typename V::value_type;
  using Space = typename V::space_type;
  detail::for_each_block(v, [&](T* data, Index n, Index) {
    kernels::threshold(Space{}, kind, n, static_cast<real_type_t<T>>(t), data);
  });
}

/// The penalty R(v) of the rule `kind` (one reduction).
template <class V>
double penalty(const V& v, ThresholdKind kind) {
  return detail::penalty_sum(v, penalty_exponent(kind));
}

extern template void kernels::threshold<float>(Host, ThresholdKind, Index, float, float*);
extern template void kernels::threshold<double>(Host, ThresholdKind, Index, double, double*);
extern template void kernels::threshold<std::complex<float>>(Host, ThresholdKind, Index, float,
                                                             std::complex<float>*);
extern template void kernels::threshold<std::complex<double>>(Host, ThresholdKind, Index, double,
                                                              std::complex<double>*);

}  // namespace distlops
