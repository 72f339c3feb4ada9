// SPDX-License-Identifier: BSD-3-Clause
// Copyright (c) 2026 The distlops authors
#pragma once
// The checked description of a ConvolveND, shared by the local and the distributed operator:
// the filter laid out on every axis of the array (extent 1 where nothing is convolved) and its
// offsets per array axis.
#include <span>
#include <string>
#include <vector>

#include "convolvend_kernels.hpp"
#include "distlops/core/types.hpp"

namespace distlops::local::detail {

template <class T>
struct ConvolveSpec {
  Shape taps;             // per array axis
  Shape offset;           // per array axis
  std::vector<T> filter;  // h in C order of `taps`, then conj(h)
};

/// Checks the arguments of ConvolveND on arrays of shape `dims` (InvalidArgument, named `op`)
/// and lays the filter out on the array's axes.
template <class T>
ConvolveSpec<T> convolve_spec(const std::string& op, const Shape& dims, std::span<const T> filter,
                              const Shape& filter_shape, const std::vector<Index>& offset,
                              const std::vector<int>& axes);

/// The kernel geometry of output block `out` read from input block `in` whose point `origin`
/// (per axis) is the output's first point, for the taps and offsets of a ConvolveSpec.
kernels::ConvolveGeometry convolve_geometry(const Shape& taps, const Shape& offset, bool adjoint,
                                            const Shape& out, const Shape& in, const Shape& origin);

}  // namespace distlops::local::detail
