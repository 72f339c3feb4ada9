// SPDX-License-Identifier: BSD-3-Clause
// Copyright (c) 2026 The distlops authors
#pragma once
// The kernels of local::Restriction, one definition per memory space (operators/host/ and
// operators/cuda/restriction_kernels.*). Arrays are seen as (outer, length, inner) around the
// restricted axis; pointers (index lists included) are memory of the space.
#include "distlops/core/instantiate.hpp"
#include "distlops/core/memory_space.hpp"
#include "distlops/core/types.hpp"

namespace distlops::kernels {

/// out[o, i, k] = alpha * in[o, index[i], k] + beta * out[o, i, k] for i < count (out not read
/// when beta == 0).
template <Scalar T>
void gather_rows(Host, Index outer, Index length, Index inner, Index count, const Index* index,
                 T alpha, const T* in, T beta, T* out);
template <Scalar T>
void gather_rows(Cuda, Index outer, Index length, Index inner, Index count, const Index* index,
                 T alpha, const T* in, T beta, T* out);

/// The adjoint: out[o, j, k] = alpha * sum_{s in [first[j], first[j+1])} in[o, sources[s], k]
/// + beta * out[o, j, k] for j < length, `in` having `count` rows.
template <Scalar T>
void scatter_rows(Host, Index outer, Index length, Index inner, Index count, const Index* first,
                  const Index* sources, T alpha, const T* in, T beta, T* out);
template <Scalar T>
void scatter_rows(Cuda, Index outer, Index length, Index inner, Index count, const Index* first,
                  const Index* sources, T alpha, const T* in, T beta, T* out);

// The instantiations of both definitions (instantiate.hpp).
#define DISTLOPS_DETAIL_RESTRICTION_KERNELS(PREFIX, T, S)                                          \
  PREFIX template void gather_rows<T>(S, Index, Index, Index, Index, const Index*, T, const T*, T, \
                                      T*);                                                         \
  PREFIX template void scatter_rows<T>(S, Index, Index, Index, Index, const Index*, const Index*,  \
                                       T, const T*, T, T*);

}  // namespace distlops::kernels
