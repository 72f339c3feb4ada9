// SPDX-License-Identifier: BSD-3-Clause
// Copyright (c) 2026 The distlops authors
// The host kernel of the stencil operators (stencil_kernels.hpp), the row form: the taps along a
// row come from one input row, loaded once per vector and shifted in registers (one load feeds all
// 2 reach + 1 taps), and the taps of the other axes are whole rows. Compiled for the portable, AVX2
// and AVX-512 levels (core/detail/instruction_set.hpp); the vector width follows the level. With
// Stores::streaming and beta == 0 the vectors of y go around the cache
// (core/detail/streaming_stores.hpp).
#include <algorithm>
#include <cstdint>
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

// Calls f(std::integral_constant<int, k>) for k = 0 ... K - 1, unrolled.
template <int K, class F>
[[gnu::always_inline]] inline void for_lines(F&& f) {
  [&]<int... L>(std::integer_sequence<int, L...>) __attribute__((always_inline)) {
    (f(std::integral_constant<int, L>{}), ...);
  }
  (std::make_integer_sequence<int, K>{});
}

// K lines at once: line k reads rows[k] and sources[k * Count + j] and writes ys[k]. Per point
// the sum is formed in the order of the row taps (offsets -Reach ... Reach), then of the
// sources, and beta * y is added last: the same order in the vector and the scalar parts, and
// whatever K, so K lines give the values of K calls with one line. Interleaving the lines keeps
// K input rows streaming from memory at once: with one line the loads of the rows in cache and
// the row from memory took turns, and an apply ran at about 60 % of the triad (2-d, 4096^2).
// Each line's vectors start where its output is aligned to the vector (after W to 2 W - 1
// points formed one by one), so that every store is aligned, streaming or not, and the same
// points are formed in vectors whatever the stores. Vdot (beta == 0 only): partials[k] =
// sum_i rows[k][i] * ys[k][i], from the registers that form y.
template <int Bytes, int Reach, int Count, bool Vdot, int K, class T>
[[gnu::always_inline]] inline void row_kernel(Index n, const T* weights, const T* const* rows,
                                              const T* coefficients, const T* const* sources,
                                              T beta, T* const* ys, T* partials, Stores stores) {
  using V = typename Lanes<T, Bytes>::vector;
  constexpr int W = Lanes<T, Bytes>::width;
  constexpr int taps = 2 * Reach + 1;
  static_assert(Reach <= W);
  const BetaMode mode =
      beta == T(0) ? BetaMode::zero : (beta == T(1) ? BetaMode::one : BetaMode::other);
  // Per line, the first point of its vectors (W + skip, y + W + skip aligned) and pointers
  // moved there; the vector loop runs over offsets i = 0, W, ... from them.
  Index first[K];
  const T* row[K];
  T* y[K];
  const T* src[K][Count + 1];
  Index vector_end = n;  // the least of the lines' n - first[k]: where the common loop ends
  for (int k = 0; k < K; ++k) {
    const bool element_aligned = reinterpret_cast<std::uintptr_t>(ys[k]) % sizeof(T) == 0;
    first[k] = W + (element_aligned ? elements_to_alignment(ys[k] + W, Bytes) : 0);
    row[k] = rows[k] + first[k];
    y[k] = ys[k] + first[k];
    for (int j = 0; j < Count; ++j)
      src[k][j] = sources[k * Count + j] + first[k];
    vector_end = std::min(vector_end, n - first[k]);
  }
  T coef[Count + 1];
  for (int j = 0; j < Count; ++j)
    coef[j] = coefficients[j];
  T scalar_partial[K] = {};
  // Every lambda here is inlined: a lambda does not inherit the level's target attribute, and
  // out of line it would run as portable code (no FMA), rounding differently from the level.
  auto scalar_points = [&](int k, Index from, Index to) __attribute__((always_inline)) {
    const T* in = rows[k];
    T* out = ys[k];
    const T* const* line_sources = sources + k * Count;
    for (Index i = from; i < to; ++i) {
      T sum = weights[0] * in[i - Reach];
      for (int o = 1; o < taps; ++o)
        sum += weights[o] * in[i - Reach + o];
      for (int j = 0; j < Count; ++j)
        sum += coef[j] * line_sources[j][i];
      if constexpr (Vdot) scalar_partial[k] += in[i] * sum;
      if (mode == BetaMode::zero) {
        out[i] = sum;
      } else if (mode == BetaMode::one) {
        out[i] += sum;
      } else {
        out[i] = sum + beta * out[i];
      }
    }
  };
  // Vectors need W points before them and W after (the previous and next vectors of the row);
  // a line too short for any is formed point by point.
  for (int k = 0; k < K; ++k)
    scalar_points(k, 0, std::min(first[k], n));
  V w[taps];
  for (int o = 0; o < taps; ++o)
    w[o] = V{} + weights[o];
  V c[Count + 1];
  for (int j = 0; j < Count; ++j)
    c[j] = V{} + coef[j];
  const V b = V{} + beta;
  V vector_partial[K] = {};
  // Per line, the offset (from first[k]) where its vectors end.
  Index done[K];
  auto vector_points = [&]<BetaMode Mode, bool Streaming>(std::integral_constant<BetaMode, Mode>,
                                                          std::bool_constant<Streaming>)
      __attribute__((always_inline)) {
    // The vector of points [i, i + W) of the line, from its input vectors before, at and after.
    auto form = [&](auto line, Index i, const V& before, const V& now, const V& next)
        __attribute__((always_inline)) {
      constexpr int k = decltype(line)::value;
      V sum = [&]<std::size_t... O>(std::index_sequence<O...>) __attribute__((always_inline)) {
        V total = w[0] * shifted<-Reach, W>(before, now, next);
        ((total += w[O + 1] * shifted<static_cast<int>(O) + 1 - Reach, W>(before, now, next)), ...);
        return total;
      }
      (std::make_index_sequence<taps - 1>{});
      for (int j = 0; j < Count; ++j)
        sum += c[j] * load<V>(src[k][j] + i);
      if constexpr (Vdot) vector_partial[k] += now * sum;
      T* out = y[k] + i;
      if constexpr (Streaming) {
        stream_vector(out, sum);
      } else if constexpr (Mode == BetaMode::zero) {
        store(out, sum);
      } else if constexpr (Mode == BetaMode::one) {
        store(out, load<V>(out) + sum);
      } else {
        store(out, sum + b * load<V>(out));
      }
    };
    Index i = 0;
    if (vector_end >= 2 * W) {
      V previous[K], current[K];
      for_lines<K>([&](auto line) __attribute__((always_inline)) {
        constexpr int k = decltype(line)::value;
        previous[k] = load<V>(row[k] - W);
        current[k] = load<V>(row[k]);
      });
      for (; i + 2 * W <= vector_end; i += W) {
        for_lines<K>([&](auto line) __attribute__((always_inline)) {
          constexpr int k = decltype(line)::value;
          const V next = load<V>(row[k] + i + W);
          form(line, i, previous[k], current[k], next);
          previous[k] = current[k];
          current[k] = next;
        });
      }
    }
    // The lines' first points differ by less than a vector, so a line has at most one vector
    // past the common bound: formed here, each line forms in vectors the points it would alone.
    for_lines<K>([&](auto line) __attribute__((always_inline)) {
      constexpr int k = decltype(line)::value;
      done[k] = i;
      if (i + 2 * W <= n - first[k]) {
        form(line, i, load<V>(row[k] + i - W), load<V>(row[k] + i), load<V>(row[k] + i + W));
        done[k] = i + W;
      }
    });
  };
  using Zero = std::integral_constant<BetaMode, BetaMode::zero>;
  if constexpr (Vdot) {
    // Ordinary stores only: the fused form writes CG's q, which the iteration reads back at once
    // (streaming it was measured slower).
    (void)stores;
    vector_points(Zero{}, std::false_type{});
  } else {
    // Streaming needs the lines equally aligned (y[k] is aligned only then): lines that start
    // at different offsets of the vector interleave their streams badly (2-d Laplacian, rows of
    // 4099 doubles, four lines: 16.4 ms per apply streaming, 13.2 through the cache, 14.5 with
    // one line streaming).
    bool streaming = stores == Stores::streaming && mode == BetaMode::zero;
    for (int k = 0; k < K; ++k)
      streaming = streaming && first[k] == first[0] && elements_to_alignment(y[k], Bytes) == 0;
    if (streaming) {
      vector_points(Zero{}, std::true_type{});
    } else {
      switch (mode) {
        case BetaMode::zero:
          vector_points(Zero{}, std::false_type{});
          break;
        case BetaMode::one:
          vector_points(std::integral_constant<BetaMode, BetaMode::one>{}, std::false_type{});
          break;
        case BetaMode::other:
          vector_points(std::integral_constant<BetaMode, BetaMode::other>{}, std::false_type{});
          break;
      }
    }
  }
  for (int k = 0; k < K; ++k)
    scalar_points(k, first[k] + done[k], n);
  if constexpr (Vdot) {
    for (int k = 0; k < K; ++k) {
      T total = scalar_partial[k];
      for (int l = 0; l < W; ++l)
        total += vector_partial[k][l];
      partials[k] = total;
    }
  }
}

// Lines go through the kernel several at a time, the rest one at a time. Measured on the 2-d
// Laplacian at 4096^2, one rank, interior rows, ms per apply with streaming stores (cached):
// AVX-512 one line 14.4 (16.9), two 11.2 (13.5), four 10.5-11.3 (12.9-13.7); AVX2 one 16.3
// (17.5), two 13.1 (16.3), four 21.5 (15.5); SSE2 one 20.0 (20.8), two 28.0 (19.5). Streaming
// stores narrower than a cache line, interleaved over more lines than the processor has
// write-combining buffers for, are flushed half-filled: hence fewer lines for narrower vectors.
template <int Bytes>
inline constexpr int lines_per_batch = Bytes == 64 ? 4 : (Bytes == 32 ? 2 : 1);

template <int Bytes, int Reach, int Count, bool Vdot, class T>
[[gnu::always_inline]] inline void row_batches(Index n, int lines, const T* weights,
                                               const T* const* rows, const T* coefficients,
                                               const T* const* sources, T beta, T* const* ys,
                                               T* partials, Stores stores) {
  // L lines from line k on, in one call of the kernel.
  auto lines_from = [&]<int L>(std::integral_constant<int, L>, int k)
      __attribute__((always_inline)) {
    row_kernel<Bytes, Reach, Count, Vdot, L>(n, weights, rows + k, coefficients,
                                             sources + k * Count, beta, ys + k,
                                             Vdot ? partials + k : nullptr, stores);
  };
  constexpr int K = lines_per_batch<Bytes>;
  int k = 0;
  if constexpr (K > 1) {
    for (; k + K <= lines; k += K)
      lines_from(std::integral_constant<int, K>{}, k);
  }
  for (; k < lines; ++k)
    lines_from(std::integral_constant<int, 1>{}, k);
}

// The supported shapes: reach 1 or 2, 0, 2 or 4 other rows (2-d and 3-d stencils).
template <int Bytes, bool Vdot, class T>
[[gnu::always_inline]] inline void row_shapes(Index n, int lines, int reach, const T* weights,
                                              const T* const* rows, int count,
                                              const T* coefficients, const T* const* sources,
                                              T beta, T* const* ys, T* partials, Stores stores) {
#define DISTLOPS_ROW_CASE(R, C)                                                                 \
  if (reach == R && count == C)                                                                 \
    return row_batches<Bytes, R, C, Vdot>(n, lines, weights, rows, coefficients, sources, beta, \
                                          ys, partials, stores);
  DISTLOPS_ROW_CASE(1, 0)
  DISTLOPS_ROW_CASE(1, 2)
  DISTLOPS_ROW_CASE(1, 4)
  DISTLOPS_ROW_CASE(2, 0)
  DISTLOPS_ROW_CASE(2, 2)
  DISTLOPS_ROW_CASE(2, 4)
#undef DISTLOPS_ROW_CASE
}

template <bool Vdot, class T>
void rows_portable(Index n, int lines, int reach, const T* weights, const T* const* rows, int count,
                   const T* coefficients, const T* const* sources, T beta, T* const* ys,
                   T* partials, Stores stores) {
  row_shapes<16, Vdot>(n, lines, reach, weights, rows, count, coefficients, sources, beta, ys,
                       partials, stores);
}
#if DISTLOPS_HAVE_X86_TARGETS
template <bool Vdot, class T>
DISTLOPS_TARGET_AVX2 void rows_avx2(Index n, int lines, int reach, const T* weights,
                                    const T* const* rows, int count, const T* coefficients,
                                    const T* const* sources, T beta, T* const* ys, T* partials,
                                    Stores stores) {
  row_shapes<32, Vdot>(n, lines, reach, weights, rows, count, coefficients, sources, beta, ys,
                       partials, stores);
}
template <bool Vdot, class T>
DISTLOPS_TARGET_AVX512 void rows_avx512(Index n, int lines, int reach, const T* weights,
                                        const T* const* rows, int count, const T* coefficients,
                                        const T* const* sources, T beta, T* const* ys, T* partials,
                                        Stores stores) {
  row_shapes<64, Vdot>(n, lines, reach, weights, rows, count, coefficients, sources, beta, ys,
                       partials, stores);
}
#endif

// The level's kernel, with the partial sums of rows[k][i] * ys[k][i] when Vdot.
template <bool Vdot, class T>
void rows_at_level(InstructionSet level, Index n, int lines, int reach, const T* row_weights,
                   const T* const* rows, int count, const T* coefficients, const T* const* sources,
                   T beta, T* const* ys, T* partials, Stores stores) {
  if (!stencil_row_supported(reach, count)) {
    throw InvalidArgument("stencil_row: reach 1 or 2 and 0, 2 or 4 other rows, got reach " +
                          std::to_string(reach) + " and " + std::to_string(count) + " rows");
  }
  if (!instruction_set_available(level)) {
    throw InvalidArgument("stencil_row: the processor lacks the instruction set asked for");
  }
  if (lines < 0) {
    throw InvalidArgument("stencil_rows: a negative number of lines (" + std::to_string(lines) +
                          ")");
  }
  switch (level) {
#if DISTLOPS_HAVE_X86_TARGETS
    case InstructionSet::avx512:
      return rows_avx512<Vdot>(n, lines, reach, row_weights, rows, count, coefficients, sources,
                               beta, ys, partials, stores);
    case InstructionSet::avx2:
      return rows_avx2<Vdot>(n, lines, reach, row_weights, rows, count, coefficients, sources, beta,
                             ys, partials, stores);
#endif
    default:
      return rows_portable<Vdot>(n, lines, reach, row_weights, rows, count, coefficients, sources,
                                 beta, ys, partials, stores);
  }
}

}  // namespace

bool stencil_row_supported(int reach, int count) {
  return (reach == 1 || reach == 2) && (count == 0 || count == 2 || count == 4);
}

template <std::floating_point T>
void stencil_rows(Host, InstructionSet level, Index n, int lines, int reach, const T* row_weights,
                  const T* const* rows, int count, const T* coefficients, const T* const* sources,
                  T beta, T* const* ys, Stores stores) {
  rows_at_level<false>(level, n, lines, reach, row_weights, rows, count, coefficients, sources,
                       beta, ys, static_cast<T*>(nullptr), stores);
}

template <std::floating_point T>
void stencil_rows(Host, Index n, int lines, int reach, const T* row_weights, const T* const* rows,
                  int count, const T* coefficients, const T* const* sources, T beta, T* const* ys,
                  Stores stores) {
  stencil_rows(Host{}, host_instruction_set(), n, lines, reach, row_weights, rows, count,
               coefficients, sources, beta, ys, stores);
}

template <std::floating_point T>
void stencil_rows_vdot(Host, InstructionSet level, Index n, int lines, int reach,
                       const T* row_weights, const T* const* rows, int count, const T* coefficients,
                       const T* const* sources, T* const* ys, T* partials) {
  rows_at_level<true>(level, n, lines, reach, row_weights, rows, count, coefficients, sources, T(0),
                      ys, partials, Stores::cached);
}

template <std::floating_point T>
void stencil_rows_vdot(Host, Index n, int lines, int reach, const T* row_weights,
                       const T* const* rows, int count, const T* coefficients,
                       const T* const* sources, T* const* ys, T* partials) {
  stencil_rows_vdot(Host{}, host_instruction_set(), n, lines, reach, row_weights, rows, count,
                    coefficients, sources, ys, partials);
}

template <std::floating_point T>
void stencil_row(Host, InstructionSet level, Index n, int reach, const T* row_weights, const T* row,
                 int count, const T* coefficients, const T* const* sources, T beta, T* y,
                 Stores stores) {
  stencil_rows(Host{}, level, n, 1, reach, row_weights, &row, count, coefficients, sources, beta,
               &y, stores);
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
  stencil_rows_vdot(Host{}, level, n, 1, reach, row_weights, &row, count, coefficients, sources, &y,
                    &partial);
  return partial;
}

template <std::floating_point T>
T stencil_row_vdot(Host, Index n, int reach, const T* row_weights, const T* row, int count,
                   const T* coefficients, const T* const* sources, T* y) {
  return stencil_row_vdot(Host{}, host_instruction_set(), n, reach, row_weights, row, count,
                          coefficients, sources, y);
}

#define DISTLOPS_INSTANTIATE_STENCIL_ROW(T)                                                       \
  template void stencil_row<T>(Host, InstructionSet, Index, int, const T*, const T*, int,         \
                               const T*, const T* const*, T, T*, Stores);                         \
  template void stencil_row<T>(Host, Index, int, const T*, const T*, int, const T*,               \
                               const T* const*, T, T*, Stores);                                   \
  template T stencil_row_vdot<T>(Host, InstructionSet, Index, int, const T*, const T*, int,       \
                                 const T*, const T* const*, T*);                                  \
  template T stencil_row_vdot<T>(Host, Index, int, const T*, const T*, int, const T*,             \
                                 const T* const*, T*);                                            \
  template void stencil_rows<T>(Host, InstructionSet, Index, int, int, const T*, const T* const*, \
                                int, const T*, const T* const*, T, T* const*, Stores);            \
  template void stencil_rows<T>(Host, Index, int, int, const T*, const T* const*, int, const T*,  \
                                const T* const*, T, T* const*, Stores);                           \
  template void stencil_rows_vdot<T>(Host, InstructionSet, Index, int, int, const T*,             \
                                     const T* const*, int, const T*, const T* const*, T* const*,  \
                                     T*);                                                         \
  template void stencil_rows_vdot<T>(Host, Index, int, int, const T*, const T* const*, int,       \
                                     const T*, const T* const*, T* const*, T*);
DISTLOPS_INSTANTIATE_STENCIL_ROW(float)
DISTLOPS_INSTANTIATE_STENCIL_ROW(double)
#undef DISTLOPS_INSTANTIATE_STENCIL_ROW

}  // namespace distlops::kernels
