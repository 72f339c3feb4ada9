// SPDX-License-Identifier: BSD-3-Clause
// Copyright (c) 2026 The distlops authors
#pragma once
// Checks for errors that must be raised on every rank alike: the expected exception and text
// here, and afterwards a collective that every rank reaches (no rank left waiting).
#include <string>

#include <catch2/catch.hpp>

#include "distlops/core/communicator.hpp"

namespace distlops::testing {

// Every rank must still be in step after an error: a collective that all ranks reach.
inline void expect_in_step(const Communicator& comm) {
  CHECK(comm.allreduce(1, ReduceOp::sum) == comm.size());
}

template <class Exception, class F>
void expect_everywhere(const Communicator& comm, F&& f, const std::string& expected_text) {
  try {
    f();
    FAIL("no exception");
  } catch (const Exception& error) {
    INFO("message: " << error.what());
    CHECK(std::string(error.what()).find(expected_text) != std::string::npos);
  }
  expect_in_step(comm);
}

}  // namespace distlops::testing
