// SPDX-License-Identifier: BSD-3-Clause
// Copyright (c) 2026 The distlops authors
// Convolve1D on the host by the direct method. Along the last axis (contiguous rows, the
// traces of a (traces, samples) section) each row is copied once into a zero-padded scratch row
// and every output element sums all taps in registers, a block of outputs at a time. Along
// other axes, for each block of the output, one fused pass per group of filter taps over the
// rows they all reach.
#include "../signal/convolve1d_kernels.hpp"

#include <algorithm>
#include <type_traits>
#include <vector>

#include "../support.hpp"
#include "distlops/core/detail/instruction_set.hpp"
#include "distlops/core/instantiate.hpp"
#include "distlops/core/kernels.hpp"

namespace distlops::kernels {

namespace {

// Output elements handled per block (the block stays in cache while every tap adds to it).
constexpr Index block_elements = 4096;

// Outputs summed at once along a row: eight independent vector accumulators at AVX2 width hide
// the latency of the multiply-adds; the short block finishes the row.
constexpr int wide_block = 32;
constexpr int short_block = 8;

// out[j] = alpha * sum_k w[k] source[j + k step] + beta out[j] for j < count <= B, `source`
// readable for B outputs. The taps are summed in order, each output in its own accumulator.
template <int B, class T>
[[gnu::always_inline]] inline void correlate_block(Index taps, const T* w, const T* source,
                                                   Index step, T alpha, T beta, int count,
                                                   T* __restrict out) {
  T sum[B];
  for (int j = 0; j < B; ++j)
    sum[j] = T(0);
  for (Index k = 0; k < taps; ++k) {
    const T weight = w[k];
    const T* __restrict tap = source + k * step;
    for (int j = 0; j < B; ++j)
      sum[j] += weight * tap[j];
  }
  if (beta == T(0)) {
    for (int j = 0; j < count; ++j)
      out[j] = alpha * sum[j];
  } else {
    for (int j = 0; j < count; ++j)
      out[j] = alpha * sum[j] + beta * out[j];
  }
}

// One row: out[r] = alpha * sum_k w[k] padded[r + first + k step] + beta out[r] for
// r < out_rows, `padded` readable (zeros beyond the input) wherever a block reaches.
template <class T>
[[gnu::always_inline]] inline void correlate_row(Index out_rows, Index taps, const T* w,
                                                 const T* padded, Index first, Index step, T alpha,
                                                 T beta, T* out) {
  Index r = 0;
  for (; r + wide_block <= out_rows; r += wide_block)
    correlate_block<wide_block>(taps, w, padded + r + first, step, alpha, beta, wide_block,
                                out + r);
  for (; r < out_rows; r += short_block) {
    const int count = static_cast<int>(std::min<Index>(short_block, out_rows - r));
    correlate_block<short_block>(taps, w, padded + r + first, step, alpha, beta, count, out + r);
  }
}

// The same row with AVX-512 vectors of real values: the taps are taken in classes of equal
// residue modulo the vector width V, whose inputs are whole vectors apart, so a window of Q
// loaded vectors slides along the row and each load serves up to Q multiply-adds (one load per
// multiply-add above, most of them split across cache lines). Q vectors of outputs at once.
//
// A symmetric filter (w[i] == w[taps - 1 - i], as a zero-phase wavelet) adds the two inputs of
// each pair of mirrored taps first: half the multiply-adds, the additions going to the other
// floating-point pipes; the mirrored taps' window slides the other way.
template <class T>
[[gnu::always_inline]] inline void correlate_row_windowed(Index out_rows, Index taps, const T* w,
                                                          const T* padded, Index first, Index step,
                                                          T alpha, T beta, T* out, bool symmetric) {
  constexpr int V = 64 / static_cast<int>(sizeof(T));
  constexpr int Q = 8;
  typedef T vec __attribute__((vector_size(64)));
  // Tap i of the ascending form reads padded[r + start + i] with weight w[i] (step 1) or
  // w[taps - 1 - i] (step -1).
  const Index start = step > 0 ? first : first - (taps - 1);
  for (Index r = 0; r < out_rows; r += V * Q) {
    vec sum[Q];
    for (int q = 0; q < Q; ++q)
      sum[q] = vec{};
    if (symmetric) {
      const Index pairs = taps / 2;
      for (Index residue = 0; residue < V && residue < pairs; ++residue) {
        const T* ahead = padded + r + start + residue;
        const T* behind = padded + r + start + (taps - 1 - residue);
        vec low[Q], high[Q];
        for (int q = 0; q < Q; ++q) {
          __builtin_memcpy(&low[q], ahead + V * q, sizeof(vec));
          __builtin_memcpy(&high[q], behind + V * q, sizeof(vec));
        }
        for (Index i = residue; i < pairs; i += V) {
          const vec weight = w[i] - vec{};
          for (int q = 0; q < Q; ++q)
            sum[q] += weight * (low[q] + high[q]);
          for (int q = 0; q + 1 < Q; ++q)
            low[q] = low[q + 1];
          for (int q = Q - 1; q > 0; --q)
            high[q] = high[q - 1];
          ahead += V;
          behind -= V;
          __builtin_memcpy(&low[Q - 1], ahead + V * (Q - 1), sizeof(vec));
          __builtin_memcpy(&high[0], behind, sizeof(vec));
        }
      }
      if (taps % 2 == 1) {
        const vec weight = w[pairs] - vec{};
        const T* middle = padded + r + start + pairs;
        for (int q = 0; q < Q; ++q) {
          vec input;
          __builtin_memcpy(&input, middle + V * q, sizeof(vec));
          sum[q] += weight * input;
        }
      }
    }
    for (Index residue = 0; !symmetric && residue < V && residue < taps; ++residue) {
      const T* base = padded + r + start + residue;
      vec window[Q];
      for (int q = 0; q < Q; ++q)
        __builtin_memcpy(&window[q], base + V * q, sizeof(vec));
#pragma GCC unroll 8
      for (Index i = residue; i < taps; i += V) {
        // wi - 0 is wi (also -0): a broadcast, where 0 + wi would be an addition first.
        const vec weight = (step > 0 ? w[i] : w[taps - 1 - i]) - vec{};
        for (int q = 0; q < Q; ++q)
          sum[q] += weight * window[q];
        for (int q = 0; q + 1 < Q; ++q)
          window[q] = window[q + 1];
        base += V;
        __builtin_memcpy(&window[Q - 1], base + V * (Q - 1), sizeof(vec));
      }
    }
    const Index count = std::min<Index>(V * Q, out_rows - r);
    T values[V * Q];
    __builtin_memcpy(values, sum, sizeof(values));
    if (beta == T(0)) {
      for (Index j = 0; j < count; ++j)
        out[r + j] = alpha * values[j];
    } else {
      for (Index j = 0; j < count; ++j)
        out[r + j] = alpha * values[j] + beta * out[r + j];
    }
  }
}

// The row kernel of a level: windowed for real values at AVX-512 width.
template <bool Windowed, class T>
[[gnu::always_inline]] inline void correlate_row_of(Index out_rows, Index taps, const T* w,
                                                    const T* padded, Index first, Index step,
                                                    T alpha, T beta, T* out, bool symmetric) {
  if constexpr (Windowed && std::is_floating_point_v<T>) {
    correlate_row_windowed(out_rows, taps, w, padded, first, step, alpha, beta, out, symmetric);
  } else {
    (void)symmetric;
    correlate_row(out_rows, taps, w, padded, first, step, alpha, beta, out);
  }
}

// Whether w[i] == w[taps - 1 - i] for every tap.
template <class T>
bool symmetric_filter(Index taps, const T* w) {
  for (Index i = 0; i < taps / 2; ++i) {
    if (!(w[i] == w[taps - 1 - i])) return false;
  }
  return true;
}

// Zeros kept before the padding the filter needs (one AVX-512 vector of floats).
constexpr Index front_margin = 16;

// How far past out_rows + the filter's reach the windowed row reads (a whole block of V Q
// outputs and one window beyond the last tap).
constexpr Index window_reach = 2 * 128 + 16;

template <class T>
void correlate_row_portable(Index out_rows, Index taps, const T* w, const T* padded, Index first,
                            Index step, T alpha, T beta, T* out) {
  correlate_row(out_rows, taps, w, padded, first, step, alpha, beta, out);
}
#if DISTLOPS_HAVE_X86_TARGETS
template <class T>
DISTLOPS_TARGET_AVX2 void correlate_row_avx2(Index out_rows, Index taps, const T* w,
                                             const T* padded, Index first, Index step, T alpha,
                                             T beta, T* out) {
  correlate_row(out_rows, taps, w, padded, first, step, alpha, beta, out);
}
template <class T>
DISTLOPS_TARGET_AVX512 void correlate_row_avx512(Index out_rows, Index taps, const T* w,
                                                 const T* padded, Index first, Index step, T alpha,
                                                 T beta, T* out) {
  correlate_row_of<true>(out_rows, taps, w, padded, first, step, alpha, beta, out,
                         symmetric_filter(taps, w));
}
#endif

template <class T>
void correlate_row_at_level(InstructionSet level, Index out_rows, Index taps, const T* w,
                            const T* padded, Index first, Index step, T alpha, T beta, T* out) {
#if DISTLOPS_HAVE_X86_TARGETS
  switch (level) {
    case InstructionSet::avx512:
      return correlate_row_avx512(out_rows, taps, w, padded, first, step, alpha, beta, out);
    case InstructionSet::avx2:
      return correlate_row_avx2(out_rows, taps, w, padded, first, step, alpha, beta, out);
    case InstructionSet::portable:
      break;
  }
#else
  (void)level;
#endif
  correlate_row_portable(out_rows, taps, w, padded, first, step, alpha, beta, out);
}

// A zero-padded scratch row for one direction of the correlation, and `extra` more elements
// after it: tap k of output r reads input r + shift(k), shift(k) = shift0 + k step (forward:
// offset - k; adjoint: k - offset). The input goes to `input`, the middle of the padded row.
template <class T>
struct PaddedRow {
  PaddedRow(bool adjoint, Index in_rows, Index out_rows, Index taps, Index offset, Index extra) {
    const Index shift0 = adjoint ? -offset : offset;
    step = adjoint ? 1 : -1;
    const Index lowest = std::min(shift0, shift0 + (taps - 1) * step);
    // The mirrored window of a symmetric filter looks up to one vector before the first tap.
    const Index before = std::max<Index>(0, -lowest) + front_margin;
    // The last block may run past out_rows (short_block - 1 outputs, or a windowed block and
    // its window), each output reaching taps - 1 samples beyond its first.
    const Index reach = out_rows + window_reach + std::max(shift0, shift0 + (taps - 1) * step);
    const Index length = before + std::max(in_rows, reach);
    // The scratch of the calling thread, grown once: applies after the first allocate nothing.
    thread_local std::vector<T> scratch;
    if (scratch.size() < static_cast<std::size_t>(length + extra)) scratch.resize(length + extra);
    padded = scratch.data();
    input = padded + before;
    first = before + shift0;
    after = padded + length;
    std::fill(padded, input, T(0));
    std::fill(input + in_rows, after, T(0));
  }
  T* padded = nullptr;
  T* input = nullptr;
  T* after = nullptr;
  Index first = 0;
  Index step = 1;
};

}  // namespace

// Convolve1D along contiguous rows (inner == 1): each input row is copied into the middle of a
// zero-padded row so that every output sums every tap.
template <Scalar T>
void convolve1d_rows(Host, InstructionSet level, bool adjoint, Index outer, Index in_rows,
                     Index out_rows, Index taps, Index offset, const T* w, T alpha, const T* in,
                     T beta, T* out) {
  const PaddedRow<T> row(adjoint, in_rows, out_rows, taps, offset, 0);
  for (Index o = 0; o < outer; ++o) {
    std::copy(in + o * in_rows, in + (o + 1) * in_rows, row.input);
    correlate_row_at_level(level, out_rows, taps, w, row.padded, row.first, row.step, alpha, beta,
                           out + o * out_rows);
  }
}

template <Scalar T>
void convolve1d(Host, bool adjoint, Index outer, Index in_rows, Index out_rows, Index inner,
                Index taps, Index offset, const T* w, T alpha, const T* in, T beta, T* out) {
  if (inner == 1) {
    convolve1d_rows(Host{}, host_instruction_set(), adjoint, outer, in_rows, out_rows, taps, offset,
                    w, alpha, in, beta, out);
    return;
  }
  const Index slab = out_rows * inner;
  for (Index o = 0; o < outer; ++o) {
    const T* source = in + o * in_rows * inner;
    T* destination = out + o * slab;
    for (Index begin = 0; begin < slab; begin += block_elements) {
      const Index end = std::min(slab, begin + block_elements);
      ::distlops::detail::scale_or_zero(Host{}, end - begin, beta, destination + begin);
      // Taps in groups: the part of the block that every tap of a group reaches is one fused
      // pass; the few elements near the ends of the axis that only some reach are axpys.
      for (std::size_t group = 0; group < static_cast<std::size_t>(taps);
           group += ::distlops::detail::max_combined) {
        const int count = static_cast<int>(std::min<std::size_t>(
            ::distlops::detail::max_combined, static_cast<std::size_t>(taps) - group));
        Index first[::distlops::detail::max_combined], last[::distlops::detail::max_combined];
        Index displacement[::distlops::detail::max_combined];  // input element = output element +
                                                               // this
        T scaled[::distlops::detail::max_combined];
        Index common_first = begin, common_last = end;
        for (int t = 0; t < count; ++t) {
          const auto k = static_cast<Index>(group) + t;
          const Index shift = adjoint ? k - offset : offset - k;
          // Output rows whose input row r + shift exists, as elements of the block.
          first[t] = std::max(begin, std::max<Index>(0, -shift) * inner);
          last[t] = std::min(end, std::min(out_rows, in_rows - shift) * inner);
          displacement[t] = shift * inner;
          scaled[t] = alpha * w[k];
          common_first = std::max(common_first, first[t]);
          common_last = std::min(common_last, last[t]);
        }
        if (common_first >= common_last) common_first = common_last = end;
        if (common_first < common_last) {
          const T* shifted[::distlops::detail::max_combined];
          for (int t = 0; t < count; ++t)
            shifted[t] = source + (common_first + displacement[t]);
          combine(Host{}, common_last - common_first, count, scaled, shifted, T(1),
                  destination + common_first);
        }
        for (int t = 0; t < count; ++t) {
          // [first, last) minus [common_first, common_last): up to two pieces.
          const Index pieces[2][2] = {{first[t], std::min(last[t], common_first)},
                                      {std::max(first[t], common_last), last[t]}};
          for (const auto& piece : pieces) {
            if (piece[0] < piece[1]) {
              axpy(Host{}, piece[1] - piece[0], scaled[t], source + (piece[0] + displacement[t]),
                   destination + piece[0]);
            }
          }
        }
      }
    }
  }
}

namespace {

// The rows of derivative_convolve1d, inlined into each instruction-set level below so that the
// derivative loops are vectorised like the correlation.
template <bool Windowed, class T>
[[gnu::always_inline]] inline void modelling_rows(bool adjoint, bool centered, Index rows, Index n,
                                                  Index taps, const T* w, T alpha, const T* in,
                                                  T beta, T* out, const PaddedRow<T>& row) {
  // D's rows 0 (centered) and n - 1 are zero: they neither produce nor take a value.
  const Index lo = centered ? 1 : 0, hi = n - 1;
  const T half = centered ? T(0.5) : T(1);
  const Index back = centered ? 1 : 0;
  const bool symmetric = Windowed && symmetric_filter(taps, w);
  if (!adjoint) {
    // (D x)[t] = half (x[t + 1] - x[t - back]) for lo <= t < hi, written into the padded row.
    for (Index o = 0; o < rows; ++o) {
      const T* __restrict x = in + o * n;
      T* __restrict d = row.input;
      for (Index t = 0; t < std::min(lo, n); ++t)
        d[t] = T(0);
      for (Index t = lo; t < hi; ++t)
        d[t] = half * (x[t + 1] - x[t - back]);
      if (hi >= lo) d[hi] = T(0);
      correlate_row_of<Windowed>(n, taps, w, row.padded, row.first, row.step, alpha, beta,
                                 out + o * n, symmetric);
    }
    return;
  }
  // z = W^H y with a zero on either side, then (D^H z)[j] = half (z[j - 1] - z[j + back]) over
  // the z[t] with lo <= t < hi.
  T* z = row.after + 1;
  for (Index o = 0; o < rows; ++o) {
    std::copy(in + o * n, in + (o + 1) * n, row.input);
    correlate_row_of<Windowed>(n, taps, w, row.padded, row.first, row.step, T(1), T(0), z,
                               symmetric);
    z[-1] = T(0);
    for (Index t = 0; t < std::min(lo, n); ++t)
      z[t] = T(0);
    z[hi] = T(0);
    z[n] = T(0);
    const T* __restrict zr = z;
    T* __restrict x = out + o * n;
    if (beta == T(0)) {
      for (Index j = 0; j < n; ++j)
        x[j] = alpha * (half * (zr[j - 1] - zr[j + back]));
    } else {
      for (Index j = 0; j < n; ++j)
        x[j] = alpha * (half * (zr[j - 1] - zr[j + back])) + beta * x[j];
    }
  }
}

template <class T>
void modelling_rows_portable(bool adjoint, bool centered, Index rows, Index n, Index taps,
                             const T* w, T alpha, const T* in, T beta, T* out,
                             const PaddedRow<T>& row) {
  modelling_rows<false>(adjoint, centered, rows, n, taps, w, alpha, in, beta, out, row);
}
#if DISTLOPS_HAVE_X86_TARGETS
template <class T>
DISTLOPS_TARGET_AVX2 void modelling_rows_avx2(bool adjoint, bool centered, Index rows, Index n,
                                              Index taps, const T* w, T alpha, const T* in, T beta,
                                              T* out, const PaddedRow<T>& row) {
  modelling_rows<false>(adjoint, centered, rows, n, taps, w, alpha, in, beta, out, row);
}
template <class T>
DISTLOPS_TARGET_AVX512 void modelling_rows_avx512(bool adjoint, bool centered, Index rows, Index n,
                                                  Index taps, const T* w, T alpha, const T* in,
                                                  T beta, T* out, const PaddedRow<T>& row) {
  modelling_rows<true>(adjoint, centered, rows, n, taps, w, alpha, in, beta, out, row);
}
#endif

}  // namespace

template <Scalar T>
void derivative_convolve1d(Host, InstructionSet level, bool adjoint, bool centered, Index rows,
                           Index length, Index taps, Index offset, const T* w, T alpha, const T* in,
                           T beta, T* out) {
  const PaddedRow<T> row(adjoint, length, length, taps, offset, adjoint ? length + 2 : 0);
#if DISTLOPS_HAVE_X86_TARGETS
  switch (level) {
    case InstructionSet::avx512:
      return modelling_rows_avx512(adjoint, centered, rows, length, taps, w, alpha, in, beta, out,
                                   row);
    case InstructionSet::avx2:
      return modelling_rows_avx2(adjoint, centered, rows, length, taps, w, alpha, in, beta, out,
                                 row);
    case InstructionSet::portable:
      break;
  }
#else
  (void)level;
#endif
  modelling_rows_portable(adjoint, centered, rows, length, taps, w, alpha, in, beta, out, row);
}

DISTLOPS_FOR_EACH_SCALAR_IN_ARG(DISTLOPS_DETAIL_CONVOLVE1D_KERNELS, , ::distlops::Host)
#define DISTLOPS_INSTANTIATE_HOST_ROWS(T, Space)                                                   \
  template void convolve1d_rows<T>(Space, InstructionSet, bool, Index, Index, Index, Index, Index, \
                                   const T*, T, const T*, T, T*);                                  \
  template void derivative_convolve1d<T>(Space, InstructionSet, bool, bool, Index, Index, Index,   \
                                         Index, const T*, T, const T*, T, T*);
DISTLOPS_FOR_EACH_SCALAR_IN(DISTLOPS_INSTANTIATE_HOST_ROWS, ::distlops::Host)

}  // namespace distlops::kernels
