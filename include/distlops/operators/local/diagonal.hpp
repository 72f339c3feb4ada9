// SPDX-License-Identifier: BSD-3-Clause
// Copyright (c) 2026 The distlops authors
#pragma once
/// \file diagonal.hpp
/// `local::Diagonal`: element-wise multiplication by a vector of weights d, PyLops'
/// `Diagonal(diag, dims, axis)`. The adjoint multiplies by conj(d).
///
/// Shapes: without `dims` the operator acts on vectors of d's length. With `dims` and `axis`,
/// arrays of shape `dims` are multiplied by d broadcast along `axis` (d has dims[axis]
/// values: y[..., i, ...] = d[i] x[..., i, ...]); a d with as many values as the whole array
/// multiplies element by element (PyLops' N-d `diag`, whose shape gives `dims`). Domain and
/// range have the shape `dims`.
///
/// Errors: ShapeMismatch when d fits neither dims[axis] nor the whole array; InvalidArgument
/// for an axis out of range or a bad shape.

#include <span>
#include <vector>

#include "distlops/core/instantiate.hpp"
#include "distlops/operators/local/accumulating_operator.hpp"

namespace distlops::local {

/// Multiplication by `diag`, broadcast along `axis` of arrays of shape `dims` (see above).
template <Scalar T, MemorySpace Space = Host>
LocalOperator<T, Space> Diagonal(std::span<const T> diag, const Shape& dims = {}, int axis = -1);

/// \cond
#define DISTLOPS_DETAIL_DIAGONAL(PREFIX, T, S) \
  PREFIX template LocalOperator<T, S> Diagonal<T, S>(std::span<const T>, const Shape&, int);
DISTLOPS_FOR_EACH_SCALAR_AND_SPACE_ARG(DISTLOPS_DETAIL_DIAGONAL, extern)
/// \endcond

}  // namespace distlops::local
