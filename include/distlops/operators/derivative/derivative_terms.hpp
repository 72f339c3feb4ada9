// SPDX-License-Identifier: BSD-3-Clause
// Copyright (c) 2026 The distlops authors
#pragma once
/// \file derivative_terms.hpp
/// PyLops' derivative arguments turned into the terms of a StencilOperator, for the local and
/// the distributed FirstDerivative, SecondDerivative and Laplacian alike: one reading of the
/// arguments, so that both accept exactly the same inputs (StencilOperator checks the rest).

#include <string>
#include <vector>

#include "distlops/operators/derivative/stencil_operator.hpp"

namespace distlops::detail {

/// d/dx along `axis` (negative: from the end) with PyLops' `kind`, `edge` and `order`.
/// InvalidArgument naming `op` for a zero or non-finite sampling.
StencilTerm first_derivative_term(const std::string& op, int axis, double sampling,
                                  DerivativeKind kind, bool edge, int order);

/// weight * d^2x/dx^2 along `axis`. InvalidArgument naming `op` for a zero or non-finite
/// sampling.
StencilTerm second_derivative_term(const std::string& op, int axis, double sampling, double weight,
                                   DerivativeKind kind, bool edge);

/// The terms of sum_k weights[k] * d^2x/d(axes[k])^2. InvalidArgument naming `op` when the
/// three lists are empty or of different lengths, or for a bad sampling.
std::vector<StencilTerm> laplacian_terms(const std::string& op, const std::vector<int>& axes,
                                         const std::vector<double>& weights,
                                         const std::vector<double>& sampling, DerivativeKind kind,
                                         bool edge);

}  // namespace distlops::detail
