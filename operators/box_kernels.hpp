// SPDX-License-Identifier: BSD-3-Clause
// Copyright (c) 2026 The distlops authors
#pragma once
// The box kernel with alpha/beta accumulation that Identity/Pad (shifted windows), Transpose
// (rows of a permutation) and Halo (slabs) write through, one definition per memory space
// (operators/host/ and operators/cuda/box_kernels.*). Pointers are memory of the space.
#include "distlops/core/instantiate.hpp"
#include "distlops/core/memory_space.hpp"
#include "distlops/core/types.hpp"

namespace distlops::kernels {

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
void box_axpby(Host, const BoxAxpby& box, T alpha, const T* in, T beta, T* out);
template <Scalar T>
void box_axpby(Cuda, const BoxAxpby& box, T alpha, const T* in, T beta, T* out);

// The instantiations of both definitions (instantiate.hpp).
#define DISTLOPS_DETAIL_BOX_KERNELS(PREFIX, T, S) \
  PREFIX template void box_axpby<T>(S, const BoxAxpby&, T, const T*, T, T*);

}  // namespace distlops::kernels
