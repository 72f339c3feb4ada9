// SPDX-License-Identifier: BSD-3-Clause
// Copyright (c) 2026 The distlops authors
#pragma once
// The kernel of local::Diagonal, one definition per memory space (operators/host/ and
// operators/cuda/diagonal_kernels.*). Pointers are memory of the space.
#include "distlops/core/instantiate.hpp"
#include "distlops/core/memory_space.hpp"
#include "distlops/core/types.hpp"

namespace distlops::kernels {

/// Arrays seen as (outer, length, inner) around an axis, weights w along that axis:
/// out[o, l, i] = alpha * (w[l] * in[o, l, i]) + beta * out[o, l, i] (out not read when
/// beta == 0).
template <Scalar T>
void diagonal(Host, Index outer, Index length, Index inner, T alpha, const T* w, const T* in,
              T beta, T* out);
template <Scalar T>
void diagonal(Cuda, Index outer, Index length, Index inner, T alpha, const T* w, const T* in,
              T beta, T* out);

// The instantiations of both definitions (instantiate.hpp).
#define DISTLOPS_DETAIL_DIAGONAL_KERNELS(PREFIX, T, S) \
  PREFIX template void diagonal<T>(S, Index, Index, Index, T, const T*, const T*, T, T*);

}  // namespace distlops::kernels
