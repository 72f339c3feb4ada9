#pragma once
// The CUDA kernels that move data between layouts with alpha/beta accumulation (builds with
// the CUDA backend only; not part of the installed API): shifted boxes (Identity, Pad, Halo)
// and axis permutations (Transpose). They enqueue on the library's stream and return without
// waiting. Pointers are device memory.

#include "distlops/core/memory_space.hpp"
#include "distlops/core/types.hpp"

namespace distlops::device_ops {

/// The most axes one launch of box_axpby handles; the launcher loops over leading axes beyond.
inline constexpr int max_layout_axes = 8;

/// A box of `extent` points written at out[out_offset + sum_k i_k out_strides[k]] from
/// in[in_offset + sum_k i_k in_strides[k]], where the input exists only for indices with
/// in_first[k] <= i_k < in_last[k] on every axis (zero elsewhere). Any number of axes.
struct BoxAxpby {
  Shape extent;
  Shape out_strides;
  Shape in_strides;
  Shape in_first;
  Shape in_last;
  Index out_offset = 0;
  Index in_offset = 0;  // may be negative: only points inside the input are read
};

/// out[p] = alpha * in(p) + beta * out[p] for every point p of the box, in(p) zero outside
/// the input's range or when `in` is null; out is not read when beta == 0.
template <Scalar T>
void box_axpby(Cuda, const BoxAxpby& box, T alpha, const T* in, T beta, T* out);

/// out = alpha * permuted(in) + beta * out (out not read when beta == 0) for an output of
/// `shape` in C order whose axis k is read with input stride in_strides[k]: 32 x 32 tiles
/// spanning the output's last axis and axis `across` (not the last; ideally the one read with
/// input stride 1), staged in shared memory so that both the reads (along `across`) and the
/// writes (along the last axis) are coalesced. Any number of axes.
template <Scalar T>
void transpose_tiles(Cuda, const Shape& shape, const Shape& in_strides, std::size_t across, T alpha,
                     const T* in, T beta, T* out);

}  // namespace distlops::device_ops
