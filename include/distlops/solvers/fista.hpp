// SPDX-License-Identifier: BSD-3-Clause
// Copyright (c) 2026 The distlops authors
#pragma once
/// \file fista.hpp
/// FISTA, the fast iterative shrinkage-thresholding algorithm (Beck and Teboulle, 2009;
/// PyLops' fista): ISTA (ista.hpp, same problem, options, stopping rules and histories) with
/// Nesterov's momentum. With z_0 = x_0 and t_0 = 1:
///
///     x_{k+1} = T_{t_k}(z_k + alpha A^H (y - A z_k))      (SOp as in ISTA)
///     t_{k+1} = (1 + sqrt(1 + 4 t_k^2)) / 2
///     z_{k+1} = x_{k+1} + (t_k - 1) / t_{k+1} (x_{k+1} - x_k)

#include "distlops/solvers/ista.hpp"

namespace distlops {

/// Solves the sparsity-promoting problem of ista.hpp by FISTA from x0 = 0. Collective.
template <class Domain, class Range, class Coefficients = Domain>
IstaResult<Domain> fista(const BasicLinearOperator<Domain, Range>& op, const Range& y,
                         const IstaOptions<Domain, Coefficients>& options = {}) {
  return Ista<Domain, Range, Coefficients>(op, options, true).solve(y);
}
/// As above, starting from x0.
template <class Domain, class Range, class Coefficients = Domain>
IstaResult<Domain> fista(const BasicLinearOperator<Domain, Range>& op, const Range& y,
                         const Domain& x0, const IstaOptions<Domain, Coefficients>& options = {}) {
  return Ista<Domain, Range, Coefficients>(op, options, true).solve(y, &x0);
}

}  // namespace distlops
