// SPDX-License-Identifier: BSD-3-Clause
// Copyright (c) 2026 The distlops authors
#pragma once
// Checks shared by the FFT, MatrixMult, Fredholm1 and MDC tests, for operators of any memory
// space.
#include "allocation_checks.hpp"
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

}  // namespace distlops::testing
