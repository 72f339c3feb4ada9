// SPDX-License-Identifier: BSD-3-Clause
// Copyright (c) 2026 The distlops authors
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

#include "distlops/config.hpp"
#include "distlops/core/types.hpp"
#include "distlops/solvers/detail/vectors.hpp"
#include "distlops/solvers/threshold_rules.hpp"

namespace distlops {

/// "soft", "hard" or "half".
const char* to_string(ThresholdKind kind);

/// The soft rule on one value of the host's scalar types: max(|x| - t, 0) x / |x|.
template <class T>
T soft_threshold(T x, real_type_t<T> t) {
  return threshold_rules::soft(x, t);
}
/// The hard rule on one value: x where |x| > cut, else 0 (cut = hard_threshold_cut(t)).
template <class T>
T hard_threshold(T x, real_type_t<T> cut) {
  return threshold_rules::hard(x, cut);
}
/// The half rule on one value for threshold t (cut = half_threshold_cut(t)).
template <class T>
T half_threshold(T x, real_type_t<T> t, real_type_t<T> cut) {
  return threshold_rules::half(x, t, cut);
}

/// Applies the rule `kind` with threshold t to every element of v (local data only: no
/// communication; replicated arrays stay consistent). Compiled in the library for distributed,
/// stacked and local arrays of every scalar type and memory space.
template <class V>
void threshold(V& v, ThresholdKind kind, double t);

/// The penalty R(v) of the rule `kind` (one reduction).
template <class V>
double penalty(const V& v, ThresholdKind kind) {
  return detail::penalty_sum(v, penalty_exponent(kind));
}

}  // namespace distlops
