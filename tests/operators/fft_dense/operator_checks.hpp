// SPDX-License-Identifier: BSD-3-Clause
// Copyright (c) 2026 The distlops authors
#pragma once
// Checks shared by the FFT, MatrixMult, Fredholm1 and MDC tests, for operators of any memory
// space.
#include "dense_reference.hpp"
#include "distlops/operators/dottest.hpp"
#include "spaces.hpp"
#include "test_support.hpp"

namespace distlops::testing {

/// max |a - b| <= rtol * max(1, max |b|)
template <class T>
bool vectors_close(const DenseVector<T>& a, const DenseVector<T>& b, double rtol) {
  if (a.size() != b.size()) return false;
  if (a.size() == 0) return true;
  const double scale = std::max(1.0, double(b.cwiseAbs().maxCoeff()));
  return double((a - b).cwiseAbs().maxCoeff()) <= rtol * scale;
}

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
