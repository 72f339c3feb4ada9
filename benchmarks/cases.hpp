#pragma once
// The benchmark cases of BENCHMARKS.md (and a few more), each defined by its problem, its
// deterministic inputs and the bytes it must move.
#include <vector>

#include "harness.hpp"

namespace distlops::bench {

std::vector<Case> all_cases();

/// The post-stack inversion of the main example (case_poststack.cpp).
Case poststack_case();

}  // namespace distlops::bench
