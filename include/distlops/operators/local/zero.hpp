// SPDX-License-Identifier: BSD-3-Clause
// Copyright (c) 2026 The distlops authors
#pragma once
/// \file zero.hpp
/// `local::Zero`: PyLops' `Zero(N, M)`, the operator that maps arrays of the model shape `M`
/// to zeros of the data shape `N` (and back in the adjoint). The input is never read.

#include "distlops/core/instantiate.hpp"
#include "distlops/operators/local/accumulating_operator.hpp"

namespace distlops::local {

/// The zero operator from arrays of shape `model` to arrays of shape `data`.
template <Scalar T, MemorySpace Space = Host>
LocalOperator<T, Space> Zero(const Shape& data, const Shape& model);

/// The square zero operator on arrays of shape `shape`.
template <Scalar T, MemorySpace Space = Host>
LocalOperator<T, Space> Zero(const Shape& shape) {
  return Zero<T, Space>(shape, shape);
}

/// \cond
#define DISTLOPS_DETAIL_ZERO(PREFIX, T, S) \
  PREFIX template LocalOperator<T, S> Zero<T, S>(const Shape&, const Shape&);
DISTLOPS_FOR_EACH_SCALAR_AND_SPACE_ARG(DISTLOPS_DETAIL_ZERO, extern)
/// \endcond

}  // namespace distlops::local
