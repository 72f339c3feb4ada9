// SPDX-License-Identifier: BSD-3-Clause
// Copyright (c) 2026 The distlops authors
#pragma once
/// \file scaling.hpp
/// `local::Scaling`: multiplication of every element by one scalar s on arrays of a shape;
/// the adjoint multiplies by conj(s). PyLops spells it `s * Identity(N)` (its scaled
/// operator); as an operator of its own it costs one axpby per apply and accumulates
/// y = alpha s x + beta y directly.

#include "distlops/core/instantiate.hpp"
#include "distlops/operators/local/accumulating_operator.hpp"

namespace distlops::local {

/// s x on arrays of shape `shape`.
template <Scalar T, MemorySpace Space = Host>
LocalOperator<T, Space> Scaling(const Shape& shape, T scale);

/// \cond
#define DISTLOPS_DETAIL_SCALING(PREFIX, T, S) \
  PREFIX template LocalOperator<T, S> Scaling<T, S>(const Shape&, T);
DISTLOPS_FOR_EACH_SCALAR_AND_SPACE_ARG(DISTLOPS_DETAIL_SCALING, extern)
/// \endcond

}  // namespace distlops::local
