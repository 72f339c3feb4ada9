// SPDX-License-Identifier: BSD-3-Clause
// Copyright (c) 2026 The distlops authors
#pragma once
/// \file transpose.hpp
/// `local::Transpose`: permutation of the axes of an N-d array (C order), PyLops'
/// `Transpose(dims, axes)` and NumPy's `x.transpose(axes)`: the range has the shape
/// (dims[axes[0]], ..., dims[axes[N-1]]) and y[i_0, ..., i_{N-1}] = x[j] with
/// j[axes[k]] = i_k. The adjoint applies the inverse permutation.
///
/// The output is written row by row (axpby kernels) when its last axis is also the input's,
/// and otherwise in tiles spanning its last axis and the axis that is contiguous in the input.
/// On the device (Cuda) the first case is one gather kernel over the output, the second one
/// kernel of 32 x 32 tiles staged in shared memory.
/// Errors: InvalidArgument when `axes` is not a permutation of the axes (negative entries count
/// from the end) or for a bad shape.

#include <vector>

#include "distlops/core/instantiate.hpp"
#include "distlops/operators/local/accumulating_operator.hpp"

namespace distlops::local {

/// x.transpose(axes) for arrays of shape `dims`.
template <Scalar T, MemorySpace Space = Host>
LocalOperator<T, Space> Transpose(const Shape& dims, const std::vector<int>& axes);

/// \cond
#define DISTLOPS_DETAIL_TRANSPOSE(PREFIX, T, S) \
  PREFIX template LocalOperator<T, S> Transpose<T, S>(const Shape&, const std::vector<int>&);
DISTLOPS_FOR_EACH_SCALAR_AND_SPACE_ARG(DISTLOPS_DETAIL_TRANSPOSE, extern)
/// \endcond

}  // namespace distlops::local
