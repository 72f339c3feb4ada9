// SPDX-License-Identifier: BSD-3-Clause
// Copyright (c) 2026 The distlops authors
// ConvolveND on the host by the direct method: each output row (the last axis) stays in cache
// while the taps that reach it add shifted input rows to it, up to five in one pass.
#include "../signal/convolvend_kernels.hpp"

#include <algorithm>

#include "../support.hpp"
#include "distlops/core/instantiate.hpp"
#include "distlops/core/kernels.hpp"

namespace distlops::kernels {

template <Scalar T>
void convolvend(Host, const ConvolveGeometry& g, const T* w, T alpha, const T* in, T beta, T* out) {
  const int last = g.ndim - 1;
  Index rows = 1, prefix_taps = 1;
  for (int a = 0; a < last; ++a) {
    rows *= g.out_extent[a];
    prefix_taps *= g.taps[a];
  }
  const Index row_length = g.out_extent[last];
  if (rows == 0 || row_length == 0) return;
  Index in_strides[max_convolve_dimensions];
  in_strides[last] = 1;
  for (int a = last; a-- > 0;)
    in_strides[a] = in_strides[a + 1] * g.in_extent[a + 1];
  const Index last_taps = g.taps[last];
  const Index in_length = g.in_extent[last];
  // The taps along the last axis added to output row y from input row x, in groups fused into
  // one pass (kernels::combine) over the outputs every tap of the group reaches; the few
  // outputs near the row's ends that only some reach get one pass per tap.
  const auto add_row_taps = [&](const T* weights, const T* x, T* y) {
    constexpr int group = ::distlops::detail::max_combined;
    for (Index first_tap = 0; first_tap < last_taps; first_tap += group) {
      T coefficients[group];
      const T* sources[group];
      Index first[group], end[group];
      Index common_first = 0, common_end = row_length;
      int used = 0;
      for (Index kl = first_tap; kl < std::min(last_taps, first_tap + group); ++kl) {
        const T c = alpha * weights[kl];
        const Index shift = g.base[last] + g.sign * kl;
        const Index lo = std::max<Index>(0, -shift);
        const Index hi = std::min(row_length, in_length - shift);
        if (c == T(0) || lo >= hi) continue;
        coefficients[used] = c;
        sources[used] = x + shift;  // sources[u][j] is the input of output j
        first[used] = lo;
        end[used] = hi;
        common_first = std::max(common_first, lo);
        common_end = std::min(common_end, hi);
        ++used;
      }
      if (used == 0) continue;
      if (common_first >= common_end) common_first = common_end = row_length;
      if (common_first < common_end) {
        const T* shifted[group];
        for (int u = 0; u < used; ++u)
          shifted[u] = sources[u] + common_first;
        combine(Host{}, common_end - common_first, used, coefficients, shifted, T(1),
                y + common_first);
      }
      for (int u = 0; u < used; ++u) {
        const Index pieces[2][2] = {{first[u], std::min(end[u], common_first)},
                                    {std::max(first[u], common_end), end[u]}};
        for (const auto& piece : pieces) {
          for (Index j = piece[0]; j < piece[1]; ++j)
            y[j] += coefficients[u] * sources[u][j];
        }
      }
    }
  };
  Index p[max_convolve_dimensions] = {};  // the output row's index on the leading axes
  Index k[max_convolve_dimensions] = {};  // the tap's index on the leading axes
  for (Index row = 0; row < rows; ++row) {
    T* y = out + row * row_length;
    ::distlops::detail::scale_or_zero(Host{}, row_length, beta, y);
    for (Index t = 0; t < prefix_taps; ++t) {
      bool inside = true;
      Index start = 0;
      for (int a = 0; a < last; ++a) {
        const Index q = p[a] + g.base[a] + g.sign * k[a];
        inside = inside && q >= 0 && q < g.in_extent[a];
        start += q * in_strides[a];
      }
      if (inside) add_row_taps(w + t * last_taps, in + start, y);
      for (int a = last; a-- > 0;) {
        if (++k[a] < g.taps[a]) break;
        k[a] = 0;
      }
    }
    for (int a = last; a-- > 0;) {
      if (++p[a] < g.out_extent[a]) break;
      p[a] = 0;
    }
  }
}

DISTLOPS_FOR_EACH_SCALAR_IN_ARG(DISTLOPS_DETAIL_CONVOLVEND_KERNELS, , ::distlops::Host)

}  // namespace distlops::kernels
