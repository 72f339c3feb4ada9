// SPDX-License-Identifier: BSD-3-Clause
// Copyright (c) 2026 The distlops authors
#pragma once
/// \file restriction.hpp
/// `local::Restriction`: sampling of an N-d array (C order) at the indices `iava` along one
/// axis, PyLops' `Restriction(dims, iava, axis)`. The range has the shape of `dims` with
/// dims[axis] replaced by iava.size(); the forward takes y[..., i, ...] = x[..., iava[i], ...]
/// and the adjoint puts every y[..., i, ...] back at iava[i] in an otherwise zero array.
///
/// Indices may repeat and come in any order; the adjoint then adds the samples that share an
/// index, as PyLops 2.8 does, which makes it the exact adjoint. It gathers: each model sample
/// sums its own list of data samples (built once), so every output element is written once.
/// `inplace` of PyLops has no counterpart (results always go to the caller's array).
///
/// Difference from PyLops: negative indices (NumPy counts them from the end) are rejected.
/// Errors: InvalidArgument for an index outside [0, dims[axis]), an axis out of range or a bad
/// shape.

#include <span>
#include <vector>

#include "distlops/core/buffer.hpp"
#include "distlops/core/instantiate.hpp"
#include "distlops/operators/local/accumulating_operator.hpp"

namespace distlops::local {

/// Sampling of arrays of shape `dims` at `iava` along `axis` (negative axes count from the
/// end).
template <Scalar T, MemorySpace Space = Host>
LocalOperator<T, Space> Restriction(const Shape& dims, std::span<const Index> iava, int axis = -1);

/// \cond
#define DISTLOPS_DETAIL_RESTRICTION(PREFIX, T, S) \
  PREFIX template LocalOperator<T, S> Restriction<T, S>(const Shape&, std::span<const Index>, int);
DISTLOPS_FOR_EACH_SCALAR_AND_SPACE_ARG(DISTLOPS_DETAIL_RESTRICTION, extern)
/// \endcond

}  // namespace distlops::local
