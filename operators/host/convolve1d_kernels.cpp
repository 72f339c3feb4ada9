// SPDX-License-Identifier: BSD-3-Clause
// Copyright (c) 2026 The distlops authors
// Convolve1D on the host by the direct method: for each block of the output, one fused pass
// per group of filter taps over the rows they all reach.
#include "../local/convolve1d_kernels.hpp"

#include <algorithm>

#include "../local/support.hpp"
#include "distlops/core/instantiate.hpp"
#include "distlops/core/kernels.hpp"

namespace distlops::kernels {

namespace {

// Output elements handled per block (the block stays in cache while every tap adds to it).
constexpr Index block_elements = 4096;

}  // namespace

template <Scalar T>
void convolve1d(Host, bool adjoint, Index outer, Index in_rows, Index out_rows, Index inner,
                Index taps, Index offset, const T* w, T alpha, const T* in, T beta, T* out) {
  const Index slab = out_rows * inner;
  for (Index o = 0; o < outer; ++o) {
    const T* source = in + o * in_rows * inner;
    T* destination = out + o * slab;
    for (Index begin = 0; begin < slab; begin += block_elements) {
      const Index end = std::min(slab, begin + block_elements);
      local::detail::scale_or_zero(Host{}, end - begin, beta, destination + begin);
      // Taps in groups: the part of the block that every tap of a group reaches is one fused
      // pass; the few elements near the ends of the axis that only some reach are axpys.
      for (std::size_t group = 0; group < static_cast<std::size_t>(taps);
           group += local::detail::max_combined) {
        const int count = static_cast<int>(std::min<std::size_t>(
            local::detail::max_combined, static_cast<std::size_t>(taps) - group));
        Index first[local::detail::max_combined], last[local::detail::max_combined];
        Index displacement[local::detail::max_combined];  // input element = output element + this
        T scaled[local::detail::max_combined];
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
          const T* shifted[local::detail::max_combined];
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

#define DISTLOPS_INSTANTIATE_CONVOLVE1D_KERNELS(T, Space)                                         \
  template void convolve1d<T>(Space, bool, Index, Index, Index, Index, Index, Index, const T*, T, \
                              const T*, T, T*);
DISTLOPS_FOR_EACH_SCALAR_IN(DISTLOPS_INSTANTIATE_CONVOLVE1D_KERNELS, ::distlops::Host)

}  // namespace distlops::kernels
