// SPDX-License-Identifier: BSD-3-Clause
// Copyright (c) 2026 The distlops authors
#pragma once
// The tiled kernel of local::Transpose, one definition per memory space (operators/host/ and
// operators/cuda/transpose_kernels.*). Pointers are memory of the space.
#include <cstddef>

#include "distlops/core/instantiate.hpp"
#include "distlops/core/memory_space.hpp"
#include "distlops/core/types.hpp"

namespace distlops::kernels {

/// out = alpha * permuted(in) + beta * out (out not read when beta == 0) for an output of
/// `shape` in C order whose axis k is read with input stride in_strides[k]: tiles spanning the
/// output's last axis and axis `across` (not the last; ideally the one read with input stride
/// 1), so that both arrays are read and written by whole cache lines (on the device: 32 x 32
/// tiles staged in shared memory, both reads and writes coalesced). Two or more axes.
template <Scalar T>
void transpose_tiles(Host, const Shape& shape, const Shape& in_strides, std::size_t across, T alpha,
                     const T* in, T beta, T* out);
template <Scalar T>
void transpose_tiles(Cuda, const Shape& shape, const Shape& in_strides, std::size_t across, T alpha,
                     const T* in, T beta, T* out);

// The instantiations of both definitions (instantiate.hpp).
#define DISTLOPS_DETAIL_TRANSPOSE_KERNELS(PREFIX, T, S)                                            \
  PREFIX template void transpose_tiles<T>(S, const Shape&, const Shape&, std::size_t, T, const T*, \
                                          T, T*);

}  // namespace distlops::kernels
