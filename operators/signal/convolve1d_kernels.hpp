// SPDX-License-Identifier: BSD-3-Clause
// Copyright (c) 2026 The distlops authors
#pragma once
// The kernel of local::Convolve1D, one definition per memory space (operators/host/ and
// operators/cuda/convolve1d_kernels.*). Pointers are memory of the space.
#include "distlops/core/detail/instruction_set.hpp"
#include "distlops/core/instantiate.hpp"
#include "distlops/core/memory_space.hpp"
#include "distlops/core/types.hpp"

namespace distlops::kernels {

/// Convolve1D on (outer, rows, inner) arrays: input rows `in_rows`, output rows `out_rows`,
/// `taps` weights w; output row r reads input row r + shift(k) with weight w[k], shift(k) =
/// offset - k (forward, w = h) or k - offset (adjoint, w = conj(h)), rows outside the input
/// contributing nothing:
///   out[o, r, i] = alpha * sum_k w[k] in[o, r + shift(k), i] + beta * out[o, r, i]
/// (out not read when beta == 0). The host sums in tap-grouped passes over cache-sized blocks,
/// the device with one thread per output point.
template <Scalar T>
void convolve1d(Host, bool adjoint, Index outer, Index in_rows, Index out_rows, Index inner,
                Index taps, Index offset, const T* w, T alpha, const T* in, T beta, T* out);
template <Scalar T>
void convolve1d(Cuda, bool adjoint, Index outer, Index in_rows, Index out_rows, Index inner,
                Index taps, Index offset, const T* w, T alpha, const T* in, T beta, T* out);

/// W D along contiguous rows of `length` samples on the host (post-stack modelling): D the
/// first derivative without edge, centered ((in[t + 1] - in[t - 1]) / 2) or forward
/// (in[t + 1] - in[t]), zero on the samples it cannot reach; W the convolution with the `taps`
/// weights w centred at `offset` (Convolve1D's forward, taps <= length):
///   forward: out = alpha W D in + beta out, with w = h
///   adjoint: out = alpha D^H W^H in + beta out, with w = conj(h)
/// (out not read when beta == 0). Each row's derivative or correlation stays in a scratch row:
/// one pass over in and out, at instruction set `level`.
template <Scalar T>
void derivative_convolve1d(Host, InstructionSet level, bool adjoint, bool centered, Index rows,
                           Index length, Index taps, Index offset, const T* w, T alpha, const T* in,
                           T beta, T* out);

/// convolve1d on the host for inner == 1 (contiguous rows), with the kernels of `level`, which
/// the processor must have (convolve1d and the operators use host_instruction_set(); the tests
/// run every level). derivative_convolve1d takes its level the same way.
template <Scalar T>
void convolve1d_rows(Host, InstructionSet level, bool adjoint, Index outer, Index in_rows,
                     Index out_rows, Index taps, Index offset, const T* w, T alpha, const T* in,
                     T beta, T* out);

// The instantiations of both definitions of convolve1d (instantiate.hpp).
#define DISTLOPS_DETAIL_CONVOLVE1D_KERNELS(PREFIX, T, S)                                          \
  PREFIX template void convolve1d<T>(S, bool, Index, Index, Index, Index, Index, Index, const T*, \
                                     T, const T*, T, T*);

}  // namespace distlops::kernels
