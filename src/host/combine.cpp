// SPDX-License-Identifier: BSD-3-Clause
// Copyright (c) 2026 The distlops authors
// The combine kernel behind the stencil and convolution operators: a weighted sum of a few
// shifted inputs. The common tap counts are unrolled so that the compiler keeps every source
// pointer in a register and vectorises the loop; the whole is compiled for the portable, AVX2
// and AVX-512 levels and picks the processor's once (core/detail/instruction_set.hpp). With
// Stores::streaming (real types, beta == 0) the vectors of y are written around the cache.
#include <algorithm>
#include <complex>
#include <concepts>
#include <cstring>
#include <utility>

#include "distlops/core/detail/instruction_set.hpp"
#include "distlops/core/instantiate.hpp"
#include "distlops/core/kernels.hpp"

namespace distlops::kernels {

namespace {

// The sum is formed first and beta * y added last (y is not read when beta == 0 and only
// added to when beta == 1): the same order whatever the tap count.
template <int K, class T>
[[gnu::always_inline]] inline void combine_fixed(Index n, const T* c, const T* const* s, T beta,
                                                 T* __restrict y) {
  const T* __restrict src[K];
  T coef[K];
  for (int k = 0; k < K; ++k) {
    src[k] = s[k];
    coef[k] = c[k];
  }
  auto sum = [&](Index i) {
    T value = coef[0] * src[0][i];
    for (int k = 1; k < K; ++k)
      value += coef[k] * src[k][i];
    return value;
  };
  if (beta == T(0)) {
    for (Index i = 0; i < n; ++i)
      y[i] = sum(i);
  } else if (beta == T(1)) {
    for (Index i = 0; i < n; ++i)
      y[i] += sum(i);
  } else {
    for (Index i = 0; i < n; ++i)
      y[i] = sum(i) + beta * y[i];
  }
}

// combine_fixed with beta == 0 and streaming stores, in vectors of Bytes: a scalar head until
// y is aligned to the vector, then whole vectors, then a scalar tail. Each point is summed by
// the same operations in the same order as in combine_fixed, so y is the same.
template <int Bytes, int K, class T>
[[gnu::always_inline]] inline void combine_streaming(Index n, const T* c, const T* const* s,
                                                     T* __restrict y) {
  typedef T V __attribute__((vector_size(Bytes)));
  constexpr Index W = Bytes / static_cast<Index>(sizeof(T));
  const T* __restrict src[K];
  T coef[K];
  for (int k = 0; k < K; ++k) {
    src[k] = s[k];
    coef[k] = c[k];
  }
  auto scalar_points = [&](Index first, Index last) {
    for (Index i = first; i < last; ++i) {
      T value = coef[0] * src[0][i];
      for (int k = 1; k < K; ++k)
        value += coef[k] * src[k][i];
      y[i] = value;
    }
  };
  const Index head = std::min<Index>(n, elements_to_alignment(y, Bytes));
  scalar_points(0, head);
  V vc[K];
  for (int k = 0; k < K; ++k)
    vc[k] = V{} + coef[k];
  Index i = head;
  for (; i + W <= n; i += W) {
    V in[K];
    for (int k = 0; k < K; ++k)
      std::memcpy(&in[k], src[k] + i, sizeof(V));
    V value = vc[0] * in[0];
    for (int k = 1; k < K; ++k)
      value += vc[k] * in[k];
    stream_vector(y + i, value);
  }
  scalar_points(i, n);
}

// More taps than the unrolled cases: groups of the largest unrolled count, each added to y.
constexpr int max_unrolled = 7;

template <class T>
[[gnu::always_inline]] inline void combine_any(Index n, int count, const T* c, const T* const* s,
                                               T beta, T* y) {
  combine_fixed<max_unrolled>(n, c, s, beta, y);
  for (int first = max_unrolled; first < count; first += max_unrolled) {
    const int group = std::min(max_unrolled, count - first);
    kernels::combine(Host{}, n, group, c + first, s + first, T(1), y);
  }
}

// The tap counts with streaming stores; false where there is no streaming form (the caller
// then stores through the cache).
template <int Bytes, class T>
[[gnu::always_inline]] inline bool combine_counts_streaming(Index n, int count,
                                                            const T* coefficients,
                                                            const T* const* sources, T* y) {
  if constexpr (std::floating_point<T>) {
    // One instantiation per unrolled count, 1 to max_unrolled.
    return [&]<int... K>(std::integer_sequence<int, K...>) __attribute__((always_inline)) {
      return ((count == K + 1 &&
               (combine_streaming<Bytes, K + 1>(n, coefficients, sources, y), true)) ||
              ...);
    }
    (std::make_integer_sequence<int, max_unrolled>{});
  }
  return false;
}

// The tap counts, inlined into each instruction-set level below (Bytes: its vector size).
template <int Bytes, class T>
[[gnu::always_inline]] inline void combine_counts(Index n, int count, const T* coefficients,
                                                  const T* const* sources, T beta, T* y,
                                                  Stores stores) {
  if (stores == Stores::streaming && beta == T(0) &&
      combine_counts_streaming<Bytes>(n, count, coefficients, sources, y))
    return;
  switch (count) {
    case 0:
      if (beta == T(0)) {
        std::fill(y, y + n, T(0));
      } else if (beta != T(1)) {
        for (Index i = 0; i < n; ++i)
          y[i] *= beta;
      }
      return;
    case 1:
      return combine_fixed<1>(n, coefficients, sources, beta, y);
    case 2:
      return combine_fixed<2>(n, coefficients, sources, beta, y);
    case 3:
      return combine_fixed<3>(n, coefficients, sources, beta, y);
    case 4:
      return combine_fixed<4>(n, coefficients, sources, beta, y);
    case 5:
      return combine_fixed<5>(n, coefficients, sources, beta, y);
    case 6:
      return combine_fixed<6>(n, coefficients, sources, beta, y);
    case 7:
      return combine_fixed<7>(n, coefficients, sources, beta, y);
    default:
      return combine_any(n, count, coefficients, sources, beta, y);
  }
}

template <class T>
void combine_portable(Index n, int count, const T* c, const T* const* s, T beta, T* y,
                      Stores stores) {
  combine_counts<16>(n, count, c, s, beta, y, stores);
}
#if DISTLOPS_HAVE_X86_TARGETS
template <class T>
DISTLOPS_TARGET_AVX2 void combine_avx2(Index n, int count, const T* c, const T* const* s, T beta,
                                       T* y, Stores stores) {
  combine_counts<32>(n, count, c, s, beta, y, stores);
}
template <class T>
DISTLOPS_TARGET_AVX512 void combine_avx512(Index n, int count, const T* c, const T* const* s,
                                           T beta, T* y, Stores stores) {
  combine_counts<64>(n, count, c, s, beta, y, stores);
}
#endif

}  // namespace

template <Scalar T>
void combine(Host, Index n, int count, const T* coefficients, const T* const* sources, T beta, T* y,
             Stores stores) {
#if DISTLOPS_HAVE_X86_TARGETS
  switch (host_instruction_set()) {
    case InstructionSet::avx512:
      return combine_avx512(n, count, coefficients, sources, beta, y, stores);
    case InstructionSet::avx2:
      return combine_avx2(n, count, coefficients, sources, beta, y, stores);
    case InstructionSet::portable:
      break;
  }
#endif
  combine_portable(n, count, coefficients, sources, beta, y, stores);
}

#define DISTLOPS_INSTANTIATE_COMBINE(T) \
  template void combine<T>(Host, Index, int, const T*, const T* const*, T, T*, Stores);
DISTLOPS_FOR_EACH_SCALAR(DISTLOPS_INSTANTIATE_COMBINE)
#undef DISTLOPS_INSTANTIATE_COMBINE

}  // namespace distlops::kernels
