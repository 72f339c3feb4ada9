// SPDX-License-Identifier: BSD-3-Clause
// Copyright (c) 2026 The distlops authors
// Post-stack SEG-Y input: the hidden "[.segy]" half of segy_interop.py, which writes small
// files with segyio (IBM and IEEE floats) and runs this: the traces land on the ranks of any
// split along the traces (uneven, ranks without traces, replicated), the headers' sampling is
// reported and checked, and bad files and expectations fail on every rank.
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

#include "distlops/io/segy.hpp"
#include "expect_everywhere.hpp"
#include "test_support.hpp"

using namespace distlops;
using namespace distlops::io;
using namespace distlops::testing;
namespace fs = std::filesystem;

namespace {

// The value segy_interop.py writes at trace t, sample s (exact in IBM and IEEE floats).
float expected_value(Index t, Index s) {
  return static_cast<float>(t) * 0.5f - static_cast<float>(s) * 0.25f;
}

void check_section(const SegySection& section, const Layout& layout) {
  CHECK(section.data.layout() == layout);
  CHECK(section.sample_interval == Approx(0.004).epsilon(1e-9));
  const Index samples = layout.global_shape()[1];
  const Index first = layout.replicated() ? 0 : layout.offset(layout.rank());
  const std::span<const float> local = section.data.local();
  std::vector<float> expected(local.size());
  for (std::size_t i = 0; i < expected.size(); ++i) {
    const Index k = static_cast<Index>(i);
    expected[i] = expected_value(first + k / samples, k % samples);
  }
  CHECK(std::vector<float>(local.begin(), local.end()) == expected);
}

}  // namespace

TEST_CASE("post-stack SEG-Y files written by segyio", "[.segy]") {
  const Communicator comm = world();
  const char* directory = std::getenv("DISTLOPS_SEGY_DIR");
  REQUIRE(directory != nullptr);
  const Shape shape{13, 17};  // traces, samples: uneven over 2, 3 and 4 ranks
  for (const char* name : {"ibm.sgy", "ieee.sgy"}) {
    INFO(name);
    const fs::path path = fs::path(directory) / name;
    const SegyGeometry geometry = read_segy_geometry(path, comm);
    CHECK(geometry.traces == 13);
    CHECK(geometry.samples == 17);
    check_section(read_segy(path, comm, {.sample_interval = 0.004, .traces = 13, .samples = 17}),
                  Layout(comm, shape));
    // Everything on the last rank, and replicated.
    std::vector<Shape> local(static_cast<std::size_t>(comm.size()), Shape{0, 17});
    local.back()[0] = 13;
    const Layout last(comm, shape, LayoutOptions{.local_shapes = local});
    check_section(read_segy(path, last), last);
    const Layout replicated(comm, shape, Partition::BROADCAST);
    check_section(read_segy(path, replicated), replicated);
  }
  const fs::path good = fs::path(directory) / "ieee.sgy";
  expect_everywhere<IoError>(
      comm, [&] { (void)read_segy(good, comm, {.traces = 12}); },
      "the file holds 13 traces, 12 were expected");
  expect_everywhere<IoError>(
      comm, [&] { (void)read_segy(good, comm, {.sample_interval = 0.002}); },
      "the sample interval is 0.004");
  expect_everywhere<IoError>(
      comm,
      [&] {
        (void)read_segy(good, Layout(comm, {13, 16}));
      },
      "the file holds (traces, samples) (13, 17)");
  expect_everywhere<InvalidArgument>(
      comm, [&] { (void)read_segy(good, Layout(comm, shape, Partition::SCATTER, 1)); },
      "split along the traces");
  expect_everywhere<IoError>(
      comm, [&] { (void)read_segy(fs::path(directory) / "missing.sgy", comm); },
      "cannot open the file");
  // Cut in the middle of a trace: not a whole number of traces.
  expect_everywhere<IoError>(
      comm, [&] { (void)read_segy(fs::path(directory) / "truncated.sgy", comm); },
      "not a whole number of traces");
  expect_in_step(comm);
}
