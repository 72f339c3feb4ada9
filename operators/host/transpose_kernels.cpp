// SPDX-License-Identifier: BSD-3-Clause
// Copyright (c) 2026 The distlops authors
// Transpose on the host: tiles of the output that fit in cache while the input is read across
// its rows.
#include "../local/transpose_kernels.hpp"

#include <algorithm>

#include "distlops/core/error.hpp"
#include "distlops/core/instantiate.hpp"

namespace distlops::kernels {

namespace {

constexpr Index tile = 32;

// out[i * out_stride + k] = alpha in[i * in_row + k * in_column] + beta out[...] for i < rows,
// k < columns (out is not read when beta == 0).
template <class T>
void copy_tile(Index rows, Index columns, T alpha, const T* in, Index in_row, Index in_column,
               T beta, T* out, Index out_stride) {
  for (Index i = 0; i < rows; ++i, in += in_row, out += out_stride) {
    if (beta == T(0)) {
      for (Index k = 0; k < columns; ++k)
        out[k] = alpha * in[k * in_column];
    } else {
      for (Index k = 0; k < columns; ++k)
        out[k] = alpha * in[k * in_column] + beta * out[k];
    }
  }
}

}  // namespace

template <Scalar T>
void transpose_tiles(Host, const Shape& shape, const Shape& in_strides, std::size_t across, T alpha,
                     const T* in, T beta, T* out) {
  const std::size_t ndim = shape.size();
  if (ndim < 2 || across + 1 >= ndim || in_strides.size() != ndim) {
    throw InvalidArgument(
        "transpose_tiles: needs two or more axes and an `across` axis other than the last");
  }
  for (Index e : shape) {
    if (e == 0) return;
  }
  const std::size_t last = ndim - 1;
  const Index length = shape[last];
  Shape out_strides(ndim, 1);
  for (std::size_t k = last; k-- > 0;)
    out_strides[k] = out_strides[k + 1] * shape[k + 1];
  const Index out_row = out_strides[across];
  // Odometer over the axes the tiles do not span (extent 1 for `across` and the last).
  Shape others = shape;
  others[across] = 1;
  others[last] = 1;
  Shape index(ndim, 0);
  while (true) {
    Index in_base = 0, out_base = 0;
    for (std::size_t k = 0; k < ndim; ++k) {
      in_base += index[k] * in_strides[k];
      out_base += index[k] * out_strides[k];
    }
    for (Index i = 0; i < shape[across]; i += tile) {
      for (Index k = 0; k < length; k += tile) {
        copy_tile(std::min(tile, shape[across] - i), std::min(tile, length - k), alpha,
                  in + in_base + i * in_strides[across] + k * in_strides[last], in_strides[across],
                  in_strides[last], beta, out + out_base + i * out_row + k, out_row);
      }
    }
    std::size_t k = ndim;
    while (k > 0 && ++index[k - 1] == others[k - 1]) {
      index[k - 1] = 0;
      --k;
    }
    if (k == 0) return;
  }
}

DISTLOPS_FOR_EACH_SCALAR_IN_ARG(DISTLOPS_DETAIL_TRANSPOSE_KERNELS, , ::distlops::Host)

}  // namespace distlops::kernels
