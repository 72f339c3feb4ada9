// SPDX-License-Identifier: BSD-3-Clause
// Copyright (c) 2026 The distlops authors
#pragma once
/// \file pad.hpp
/// `local::Pad`: zero padding of an N-d array (C order), PyLops' `Pad(dims, pad)`. `pad` has
/// one (before, after) pair per axis of `dims`; the range has the shape
/// dims[k] + before[k] + after[k], the forward places the model at offset `before` in an
/// otherwise zero array, and the adjoint extracts that block.
///
/// Errors: InvalidArgument for a negative pad or a bad shape; ShapeMismatch when the number of
/// pairs differs from the number of axes.

#include <vector>

#include "distlops/core/instantiate.hpp"
#include "distlops/operators/local/accumulating_operator.hpp"

namespace distlops::local {

/// Padding of one axis: samples added before and after.
struct PadWidth {
  /// Zeros added before the first sample (>= 0).
  Index before = 0;
  /// Zeros added after the last sample (>= 0).
  Index after = 0;
};

/// Zero padding of arrays of shape `dims` by `pad[k]` along axis k.
template <Scalar T, MemorySpace Space = Host>
LocalOperator<T, Space> Pad(const Shape& dims, const std::vector<PadWidth>& pad);

/// \cond
#define DISTLOPS_DETAIL_PAD(PREFIX, T, S) \
  PREFIX template LocalOperator<T, S> Pad<T, S>(const Shape&, const std::vector<PadWidth>&);
DISTLOPS_FOR_EACH_SCALAR_AND_SPACE_ARG(DISTLOPS_DETAIL_PAD, extern)
/// \endcond

}  // namespace distlops::local
