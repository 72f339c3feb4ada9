// SPDX-License-Identifier: BSD-3-Clause
// Copyright (c) 2026 The distlops authors
// The host kernel of the stencil operators (stencil_kernels.hpp), the row form: the taps along a
// row come from one input row, loaded once per vector and shifted in registers (one load feeds all
// 2 reach + 1 taps), and the taps of the other axes are whole rows. Compiled for the portable, AVX2
// and AVX-512 levels (core/detail/instruction_set.hpp); the vector width follows the level. With
// Stores::streaming and beta == 0 the vectors of y go around the cache
// (core/detail/streaming_stores.hpp).
#include <cstring>
#include <utility>

#include "../derivative/stencil_kernels.hpp"
#include "distlops/core/detail/instruction_set.hpp"
#include "distlops/core/detail/streaming_stores.hpp"
#include "distlops/core/error.hpp"

// The vectors below never cross a function boundary that is not inlined.
#pragma GCC diagnostic ignored "-Wpsabi"

namespace distlops::kernels {

namespace {

template <class T, int Bytes>
struct Lanes {
  typedef T vector __attribute__((vector_size(Bytes)));
  static constexpr int width = Bytes / static_cast<int>(sizeof(T));
};

template <class V>
[[gnu::always_inline]] inline V load(const void* p) {
  V v;
  std::memcpy(&v, p, sizeof(V));
  return v;
}
template <class V>
[[gnu::always_inline]] inline void store(void* p, const V& v) {
  std::memcpy(p, &v, sizeof(V));
}

// Lanes [S, S + width) of the concatenation (low, high).
template <int S, class V, std::size_t... J>
[[gnu::always_inline]] inline V window(const V& low, const V& high, std::index_sequence<J...>) {
  return __builtin_shufflevector(low, high, static_cast<int>(J + S)...);
}

// The input at offset O from the points of `current` (O in [-width, width]).
template <int O, int W, class V>
[[gnu::always_inline]] inline V shifted(const V& previous, const V& current, const V& next) {
  if constexpr (O < 0) {
    return window<W + O>(previous, current, std::make_index_sequence<W>{});
  } else if constexpr (O == 0) {
    return current;
  } else {
    return window<O>(current, next, std::make_index_sequence<W>{});
  }
}

// beta: 0 (y not read), 1 (added to y) or any other value.
enum class BetaMode { zero, one, other };

// The sum is formed in the order of the row taps (offsets -Reach ... Reach), then of the
// sources, and beta * y is added last: the same order in the vector and the scalar parts.
// Vdot (beta == 0 only): *partial = sum_i row[i] * y[i], from the registers that form y.
template <int Bytes, int Reach, int Count, bool Vdot, class T>
[[gnu::always_inline]] inline void row_kernel(Index n, const T* weights, const T* row,
                                              const T* coefficients, const T* const* sources,
                                              T beta, T* __restrict y, T* partial, Stores stores) {
  using V = typename Lanes<T, Bytes>::vector;
  constexpr int W = Lanes<T, Bytes>::width;
  constexpr int taps = 2 * Reach + 1;
  static_assert(Reach <= W);
  const T* __restrict src[Count + 1];
  T coef[Count + 1];
  for (int k = 0; k < Count; ++k) {
    src[k] = sources[k];
    coef[k] = coefficients[k];
  }
  const BetaMode mode =
      beta == T(0) ? BetaMode::zero : (beta == T(1) ? BetaMode::one : BetaMode::other);
  T scalar_partial = 0;
  // Every lambda here is inlined: a lambda does not inherit the level's target attribute, and
  // out of line it would run as portable code (no FMA), rounding differently from the level.
  auto finish = [&](Index i, T sum) __attribute__((always_inline)) {
    if constexpr (Vdot) scalar_partial += row[i] * sum;
    if (mode == BetaMode::zero) {
      y[i] = sum;
    } else if (mode == BetaMode::one) {
      y[i] += sum;
    } else {
      y[i] = sum + beta * y[i];
    }
  };
  auto scalar_points = [&](Index first, Index last) __attribute__((always_inline)) {
    for (Index i = first; i < last; ++i) {
      T sum = weights[0] * row[i - Reach];
      for (int o = 1; o < taps; ++o)
        sum += weights[o] * row[i - Reach + o];
      for (int k = 0; k < Count; ++k)
        sum += coef[k] * src[k][i];
      finish(i, sum);
    }
  };
  // Vectors [i, i + W) for W <= i and i + 2 W <= n: the previous and next vectors of the row
  // are then inside it.
  if (n < 3 * W) {
    scalar_points(0, n);
    if constexpr (Vdot) *partial = scalar_partial;
    return;
  }
  scalar_points(0, W);
  V w[taps];
  for (int o = 0; o < taps; ++o)
    w[o] = V{} + weights[o];
  V c[Count + 1];
  for (int k = 0; k < Count; ++k)
    c[k] = V{} + coef[k];
  const V b = V{} + beta;
  V vector_partial{};
  // Shift < 0: ordinary stores. Shift >= 0: streaming stores, y + W + Shift being aligned to
  // the vector. The vectors of sums keep their grid (W, 2 W, ...) whatever the alignment, so
  // every point is formed as with ordinary stores; what is stored are aligned windows of two
  // consecutive sums, with the Shift points before the first window and the W - Shift after
  // the last stored one by one.
  auto vector_points = [&]<BetaMode Mode, int Shift>(std::integral_constant<BetaMode, Mode>,
                                                     std::integral_constant<int, Shift>)
      __attribute__((always_inline)) {
    V previous = load<V>(row);
    V current = load<V>(row + W);
    V carry{};
    Index i = W;
    for (; i + 2 * W <= n; i += W) {
      const V next = load<V>(row + i + W);
      V sum = [&]<std::size_t... O>(std::index_sequence<O...>) __attribute__((always_inline)) {
        V total = w[0] * shifted<-Reach, W>(previous, current, next);
        ((total += w[O + 1] * shifted<static_cast<int>(O) + 1 - Reach, W>(previous, current, next)),
         ...);
        return total;
      }
      (std::make_index_sequence<taps - 1>{});
      for (int k = 0; k < Count; ++k)
        sum += c[k] * load<V>(src[k] + i);
      if constexpr (Vdot) vector_partial += current * sum;
      if constexpr (Shift == 0) {
        stream_vector(y + i, sum);
      } else if constexpr (Shift > 0) {
        if (i == W) {
          for (int l = 0; l < Shift; ++l)
            y[i + l] = sum[l];
        } else {
          stream_vector(y + i - W + Shift,
                        window<Shift>(carry, sum, std::make_index_sequence<W>{}));
        }
        carry = sum;
      } else if constexpr (Mode == BetaMode::zero) {
        store(y + i, sum);
      } else if constexpr (Mode == BetaMode::one) {
        store(y + i, load<V>(y + i) + sum);
      } else {
        store(y + i, sum + b * load<V>(y + i));
      }
      previous = current;
      current = next;
    }
    if constexpr (Shift > 0) {
      for (int l = Shift; l < W; ++l)
        y[i - W + l] = carry[l];
    }
    return i;
  };
  using Zero = std::integral_constant<BetaMode, BetaMode::zero>;
  using Cached = std::integral_constant<int, -1>;
  Index done = 0;
  if constexpr (Vdot) {
    // Ordinary stores only: the fused form writes CG's q, which the iteration reads back at once
    // (streaming it was measured slower), and one instantiation per alignment would double the
    // kernel's compile time for no caller.
    (void)stores;
    done = vector_points(Zero{}, Cached{});
  } else if (stores == Stores::streaming && mode == BetaMode::zero) {
    // One instantiation per alignment of y + W.
    const Index skip = elements_to_alignment(y + W, Bytes);
    [&]<int... S>(std::integer_sequence<int, S...>) __attribute__((always_inline)) {
      ((skip == S ? (done = vector_points(Zero{}, std::integral_constant<int, S>{}), true)
                  : false) ||
       ...);
    }
    (std::make_integer_sequence<int, W>{});
  } else {
    switch (mode) {
      case BetaMode::zero:
        done = vector_points(Zero{}, Cached{});
        break;
      case BetaMode::one:
        done = vector_points(std::integral_constant<BetaMode, BetaMode::one>{}, Cached{});
        break;
      case BetaMode::other:
        done = vector_points(std::integral_constant<BetaMode, BetaMode::other>{}, Cached{});
        break;
    }
  }
  scalar_points(done, n);
  if constexpr (Vdot) {
    T total = scalar_partial;
    for (int l = 0; l < W; ++l)
      total += vector_partial[l];
    *partial = total;
  }
}

// The supported shapes: reach 1 or 2, 0, 2 or 4 other rows (2-d and 3-d stencils).
template <int Bytes, bool Vdot, class T>
[[gnu::always_inline]] inline void row_shapes(Index n, int reach, const T* weights, const T* row,
                                              int count, const T* coefficients,
                                              const T* const* sources, T beta, T* y, T* partial,
                                              Stores stores) {
#define DISTLOPS_ROW_CASE(R, C)                                                                    \
  if (reach == R && count == C)                                                                    \
    return row_kernel<Bytes, R, C, Vdot>(n, weights, row, coefficients, sources, beta, y, partial, \
                                         stores);
  DISTLOPS_ROW_CASE(1, 0)
  DISTLOPS_ROW_CASE(1, 2)
  DISTLOPS_ROW_CASE(1, 4)
  DISTLOPS_ROW_CASE(2, 0)
  DISTLOPS_ROW_CASE(2, 2)
  DISTLOPS_ROW_CASE(2, 4)
#undef DISTLOPS_ROW_CASE
}

template <bool Vdot, class T>
void row_portable(Index n, int reach, const T* weights, const T* row, int count,
                  const T* coefficients, const T* const* sources, T beta, T* y, T* partial,
                  Stores stores) {
  row_shapes<16, Vdot>(n, reach, weights, row, count, coefficients, sources, beta, y, partial,
                       stores);
}
#if DISTLOPS_HAVE_X86_TARGETS
template <bool Vdot, class T>
DISTLOPS_TARGET_AVX2 void row_avx2(Index n, int reach, const T* weights, const T* row, int count,
                                   const T* coefficients, const T* const* sources, T beta, T* y,
                                   T* partial, Stores stores) {
  row_shapes<32, Vdot>(n, reach, weights, row, count, coefficients, sources, beta, y, partial,
                       stores);
}
template <bool Vdot, class T>
DISTLOPS_TARGET_AVX512 void row_avx512(Index n, int reach, const T* weights, const T* row,
                                       int count, const T* coefficients, const T* const* sources,
                                       T beta, T* y, T* partial, Stores stores) {
  row_shapes<64, Vdot>(n, reach, weights, row, count, coefficients, sources, beta, y, partial,
                       stores);
}
#endif

// The level's kernel, with the partial sum of row[i] * y[i] when Vdot.
template <bool Vdot, class T>
void row_at_level(InstructionSet level, Index n, int reach, const T* row_weights, const T* row,
                  int count, const T* coefficients, const T* const* sources, T beta, T* y,
                  T* partial, Stores stores) {
  if (!stencil_row_supported(reach, count)) {
    throw InvalidArgument("stencil_row: reach 1 or 2 and 0, 2 or 4 other rows, got reach " +
                          std::to_string(reach) + " and " + std::to_string(count) + " rows");
  }
  if (!instruction_set_available(level)) {
    throw InvalidArgument("stencil_row: the processor lacks the instruction set asked for");
  }
  switch (level) {
#if DISTLOPS_HAVE_X86_TARGETS
    case InstructionSet::avx512:
      return row_avx512<Vdot>(n, reach, row_weights, row, count, coefficients, sources, beta, y,
                              partial, stores);
    case InstructionSet::avx2:
      return row_avx2<Vdot>(n, reach, row_weights, row, count, coefficients, sources, beta, y,
                            partial, stores);
#endif
    default:
      return row_portable<Vdot>(n, reach, row_weights, row, count, coefficients, sources, beta, y,
                                partial, stores);
  }
}

}  // namespace

bool stencil_row_supported(int reach, int count) {
  return (reach == 1 || reach == 2) && (count == 0 || count == 2 || count == 4);
}

template <std::floating_point T>
void stencil_row(Host, InstructionSet level, Index n, int reach, const T* row_weights, const T* row,
                 int count, const T* coefficients, const T* const* sources, T beta, T* y,
                 Stores stores) {
  row_at_level<false>(level, n, reach, row_weights, row, count, coefficients, sources, beta, y,
                      static_cast<T*>(nullptr), stores);
}

template <std::floating_point T>
void stencil_row(Host, Index n, int reach, const T* row_weights, const T* row, int count,
                 const T* coefficients, const T* const* sources, T beta, T* y, Stores stores) {
  stencil_row(Host{}, host_instruction_set(), n, reach, row_weights, row, count, coefficients,
              sources, beta, y, stores);
}

template <std::floating_point T>
T stencil_row_vdot(Host, InstructionSet level, Index n, int reach, const T* row_weights,
                   const T* row, int count, const T* coefficients, const T* const* sources, T* y) {
  T partial = 0;
  row_at_level<true>(level, n, reach, row_weights, row, count, coefficients, sources, T(0), y,
                     &partial, Stores::cached);
  return partial;
}

template <std::floating_point T>
T stencil_row_vdot(Host, Index n, int reach, const T* row_weights, const T* row, int count,
                   const T* coefficients, const T* const* sources, T* y) {
  return stencil_row_vdot(Host{}, host_instruction_set(), n, reach, row_weights, row, count,
                          coefficients, sources, y);
}

#define DISTLOPS_INSTANTIATE_STENCIL_ROW(T)                                                 \
  template void stencil_row<T>(Host, InstructionSet, Index, int, const T*, const T*, int,   \
                               const T*, const T* const*, T, T*, Stores);                   \
  template void stencil_row<T>(Host, Index, int, const T*, const T*, int, const T*,         \
                               const T* const*, T, T*, Stores);                             \
  template T stencil_row_vdot<T>(Host, InstructionSet, Index, int, const T*, const T*, int, \
                                 const T*, const T* const*, T*);                            \
  template T stencil_row_vdot<T>(Host, Index, int, const T*, const T*, int, const T*,       \
                                 const T* const*, T*);
DISTLOPS_INSTANTIATE_STENCIL_ROW(float)
DISTLOPS_INSTANTIATE_STENCIL_ROW(double)
#undef DISTLOPS_INSTANTIATE_STENCIL_ROW

}  // namespace distlops::kernels
