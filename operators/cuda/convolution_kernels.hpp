#pragma once
// The CUDA kernels of the 1-d convolutions (builds with the CUDA backend only; not part of the
// installed API): one thread per output point, which sums its taps in a register. They enqueue
// on the library's stream and return without waiting. Pointers are device memory.

#include "distlops/core/memory_space.hpp"
#include "distlops/core/types.hpp"

namespace distlops::device_ops {

/// local::Convolve1D on (outer, rows, inner) arrays: input rows `in_rows`, output rows
/// `out_rows`, `taps` weights w; output row r reads input row r + shift(k) with weight w[k],
/// shift(k) = offset - k (forward, w = h) or k - offset (adjoint, w = conj(h)), rows outside
/// the input contributing nothing:
///   out[o, r, i] = alpha * sum_k w[k] in[o, r + shift(k), i] + beta * out[o, r, i]
/// (out not read when beta == 0). The host computes the same sums in tap-grouped passes.
template <Scalar T>
void convolve1d(Cuda, bool adjoint, Index outer, Index in_rows, Index out_rows, Index inner,
                Index taps, Index offset, const T* w, T alpha, const T* in, T beta, T* out);

/// NonStationaryConvolve1D's window: the input as (outer, length, inner), the output as
/// (outer, window, inner) with output j at input coordinate window_start + j, `filters` the
/// length interpolated filters of 2 half + 1 taps. Forward: out = the window's outputs;
/// adjoint: out = the gathered inputs (with conjugated weights). Both overwrite out; the
/// samples that meet and the weights' places are those of signal/nonstationary_taps.hpp.
template <Scalar T>
void nonstationary_convolve1d(Cuda, bool adjoint, Index outer, Index length, Index inner,
                              Index window_start, Index window, Index half, const T* filters,
                              const T* in, T* out);

}  // namespace distlops::device_ops
