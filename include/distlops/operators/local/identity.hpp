// SPDX-License-Identifier: BSD-3-Clause
// Copyright (c) 2026 The distlops authors
#pragma once
/// \file identity.hpp
/// `local::Identity`: PyLops' `Identity(N, M)`, the N x M identity with data (range) shape `N`
/// and model (domain) shape `M`. When N == M it copies; when the model is larger
/// (M >= N on every axis) the forward keeps the first N[k] samples of each axis and the adjoint
/// pads with zeros at the ends; when the data is larger (N >= M on every axis) the forward pads
/// with zeros and the adjoint truncates. 1-d sizes are shapes of one axis.
///
/// `inplace` of PyLops (returning the input itself) has no counterpart: results always go to
/// the caller's output array. Errors: InvalidArgument when N and M have different numbers of
/// axes, a negative extent, or some axes larger in N and others in M (as PyLops).

#include "distlops/core/instantiate.hpp"
#include "distlops/operators/local/accumulating_operator.hpp"

namespace distlops::local {

/// The identity from arrays of shape `model` to arrays of shape `data` (square when equal).
template <Scalar T, MemorySpace Space = Host>
LocalOperator<T, Space> Identity(const Shape& data, const Shape& model);

/// The square identity on arrays of shape `shape`.
template <Scalar T, MemorySpace Space = Host>
LocalOperator<T, Space> Identity(const Shape& shape) {
  return Identity<T, Space>(shape, shape);
}

/// \cond
#define DISTLOPS_DETAIL_IDENTITY(PREFIX, T, S) \
  PREFIX template LocalOperator<T, S> Identity<T, S>(const Shape&, const Shape&);
DISTLOPS_FOR_EACH_SCALAR_AND_SPACE_ARG(DISTLOPS_DETAIL_IDENTITY, extern)
/// \endcond

}  // namespace distlops::local
