// SPDX-License-Identifier: BSD-3-Clause
// Copyright (c) 2026 The distlops authors
#pragma once
// Whether an operator's applies allocate once they have run: the solvers' loops rely on it.
#include <cstdint>

#include "distlops/core/memory_space.hpp"
#include "distlops/operators/linear_operator.hpp"
#include "test_support.hpp"

namespace distlops::testing {

/// Applies `op` forward and adjoint twice (vectors of its domain and range, random input) and
/// returns whether the second time allocated nothing.
template <class Domain, class Range>
bool second_apply_allocates_nothing(const BasicLinearOperator<Domain, Range>& op) {
  Domain x(op.domain());
  Range y(op.range());
  fill_random(x, 1);
  op.apply(x, y);
  op.apply_adjoint(y, x);
  const std::uint64_t before = memory::allocation_count();
  op.apply(x, y);
  op.apply_adjoint(y, x);
  return memory::allocation_count() == before;
}

}  // namespace distlops::testing
