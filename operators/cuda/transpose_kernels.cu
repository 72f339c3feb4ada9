// SPDX-License-Identifier: BSD-3-Clause
// Copyright (c) 2026 The distlops authors
// Transpose on the device (transpose_kernels.hpp): 32 x 32 tiles staged in shared memory so
// that both the reads and the writes are coalesced. Axes beyond what one launch handles are
// looped over on the host, one launch per index of the leading axes.
#include <algorithm>
#include <vector>

#include "../local/transpose_kernels.hpp"
#include "distlops/core/detail/cuda_launch.cuh"
#include "distlops/core/instantiate.hpp"

namespace distlops::kernels {

namespace {

using namespace device;
namespace pw = pointwise;

/// The most axes one launch handles.
constexpr int max_tile_axes = 8;

constexpr int tile = 32;
constexpr int tile_rows = 8;  // threads along y; each copies tile / tile_rows rows
constexpr int max_other_axes = max_tile_axes - 2;
constexpr Index max_grid = 65535;

struct TileParameters {
  int others = 0;  // axes other than `across` and the last, C order
  Index other_extent[max_other_axes] = {};
  Index other_in_strides[max_other_axes] = {};
  Index other_out_strides[max_other_axes] = {};
  Index other_count = 1;
  Index rows = 0;    // extent of `across`
  Index length = 0;  // extent of the last axis
  Index in_across = 0;
  Index in_last = 0;
  Index out_across = 0;
  Index in_offset = 0;
  Index out_offset = 0;
};

// Blocks of tile x tile_rows threads; block (x, y) takes tiles along the last axis (x) and
// `across` (y), z the other axes, all in grid-stride loops. Loads run along `across` (threadIdx.x
// walks it), stores along the last axis; the padding column avoids shared-memory bank conflicts.
// Every thread of a block runs the same loop trip counts, so the barriers are uniform.
template <class D>
__global__ void transpose_tiles_kernel(TileParameters p, D alpha, const D* in, D beta, D* out) {
  __shared__ D staged[tile][tile + 1];
  const Index row_tiles = (p.rows + tile - 1) / tile;
  const Index column_tiles = (p.length + tile - 1) / tile;
  const int tx = static_cast<int>(threadIdx.x);
  const int ty = static_cast<int>(threadIdx.y);
  for (Index other = blockIdx.z; other < p.other_count; other += gridDim.z) {
    Index rest = other;
    Index in_base = p.in_offset, out_base = p.out_offset;
#pragma unroll
    for (int k = max_other_axes - 1; k >= 0; --k) {
      if (k < p.others) {
        const Index i = rest % p.other_extent[k];
        rest /= p.other_extent[k];
        in_base += i * p.other_in_strides[k];
        out_base += i * p.other_out_strides[k];
      }
    }
    for (Index row_tile = blockIdx.y; row_tile < row_tiles; row_tile += gridDim.y) {
      for (Index column_tile = blockIdx.x; column_tile < column_tiles; column_tile += gridDim.x) {
        const Index row0 = row_tile * tile, column0 = column_tile * tile;
        for (int j = ty; j < tile; j += tile_rows) {
          const Index row = row0 + tx, column = column0 + j;
          if (row < p.rows && column < p.length)
            staged[j][tx] = in[in_base + row * p.in_across + column * p.in_last];
        }
        __syncthreads();
        for (int j = ty; j < tile; j += tile_rows) {
          const Index row = row0 + j, column = column0 + tx;
          if (row < p.rows && column < p.length) {
            const Index o = out_base + row * p.out_across + column;
            out[o] = accumulate(pw::multiply(alpha, staged[tx][j]), beta, out + o);
          }
        }
        __syncthreads();
      }
    }
  }
}

}  // namespace

template <Scalar T>
void transpose_tiles(Cuda, const Shape& shape, const Shape& in_strides, std::size_t across, T alpha,
                     const T* in, T beta, T* out) {
  const std::size_t ndim = shape.size();
  const std::size_t last = ndim - 1;
  if (ndim < 2 || across >= last || in_strides.size() != ndim) {
    throw InvalidArgument(
        "transpose_tiles: needs two or more axes and an `across` axis other "
        "than the last");
  }
  for (Index e : shape) {
    if (e == 0) return;
  }
  Shape out_strides(ndim, 1);
  for (std::size_t k = last; k-- > 0;)
    out_strides[k] = out_strides[k + 1] * shape[k + 1];
  // The other axes in C order; the innermost max_other_axes go to the kernel.
  std::vector<std::size_t> others;
  for (std::size_t k = 0; k < last; ++k) {
    if (k != across) others.push_back(k);
  }
  const std::size_t looped =
      others.size() > max_other_axes ? others.size() - std::size_t(max_other_axes) : 0;
  TileParameters parameters;
  parameters.others = static_cast<int>(others.size() - looped);
  for (std::size_t j = looped; j < others.size(); ++j) {
    const std::size_t k = others[j];
    parameters.other_extent[j - looped] = shape[k];
    parameters.other_in_strides[j - looped] = in_strides[k];
    parameters.other_out_strides[j - looped] = out_strides[k];
    parameters.other_count *= shape[k];
  }
  parameters.rows = shape[across];
  parameters.length = shape[last];
  parameters.in_across = in_strides[across];
  parameters.in_last = in_strides[last];
  parameters.out_across = out_strides[across];
  const dim3 block(tile, tile_rows);
  const dim3 grid(
      static_cast<unsigned>(std::min<Index>((parameters.length + tile - 1) / tile, max_grid)),
      static_cast<unsigned>(std::min<Index>((parameters.rows + tile - 1) / tile, max_grid)),
      static_cast<unsigned>(std::min<Index>(parameters.other_count, max_grid)));
  Shape looped_extent(looped), index(looped, 0);
  for (std::size_t j = 0; j < looped; ++j)
    looped_extent[j] = shape[others[j]];
  do {
    TileParameters launch = parameters;
    for (std::size_t j = 0; j < looped; ++j) {
      launch.in_offset += index[j] * in_strides[others[j]];
      launch.out_offset += index[j] * out_strides[others[j]];
    }
    transpose_tiles_kernel<<<grid, block, 0, device::stream()>>>(launch, value(alpha), pointer(in),
                                                                 value(beta), pointer(out));
    cuda::check_launch("Transpose kernel launch");
  } while (next_index(looped_extent, looped, index));
}

DISTLOPS_FOR_EACH_SCALAR_IN_ARG(DISTLOPS_DETAIL_TRANSPOSE_KERNELS, , ::distlops::Cuda)

}  // namespace distlops::kernels
