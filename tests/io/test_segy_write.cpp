// SPDX-License-Identifier: BSD-3-Clause
// Copyright (c) 2026 The distlops authors
// write_segy: sections and cubes split unevenly over 1-4 ranks (ranks without traces
// included) or replicated, read back with read_segy and their headers with segyio itself;
// headers copied from a template; bad input raised on every rank.
#include <segyio/segy.h>

#include "distlops/io/segy.hpp"
#include "expect_everywhere.hpp"
#include "io_test_support.hpp"
#include "test_support.hpp"

using namespace distlops;
using namespace distlops::testing;

namespace {

// A trace header field of trace `k` of a file written by write_segy (no extended headers).
int trace_field(const fs::path& path, int k, int field, Index samples) {
  segy_file* file = segy_open(path.string().c_str(), "rb");
  REQUIRE(file != nullptr);
  std::vector<char> header(SEGY_TRACE_HEADER_SIZE);
  const int bytes = segy_trsize(SEGY_IEEE_FLOAT_4_BYTE, static_cast<int>(samples));
  REQUIRE(segy_traceheader(file, k, header.data(), 3600, bytes) == SEGY_OK);
  segy_close(file);
  int value = 0;
  REQUIRE(segy_get_field(header.data(), field, &value) == SEGY_OK);
  return value;
}

// 7 traces of 11 samples: the last rank holds none (with 2 or more), the middle ones one each
// while traces last (none after), rank 0 the rest.
Layout uneven_section(const Communicator& comm) {
  std::vector<Shape> shapes(static_cast<std::size_t>(comm.size()), Shape{0, 11});
  Index rest = 7;
  for (int r = 1; r < comm.size() - 1 && rest > 1; ++r) {
    shapes[static_cast<std::size_t>(r)][0] = 1;
    rest -= 1;
  }
  shapes[0][0] = rest;
  return Layout(comm, {7, 11}, LayoutOptions{.local_shapes = shapes});
}

template <class T>
void check_read_back(const fs::path& path, const DistributedArray<T, Host>& written,
                     double interval) {
  const Shape& shape = written.layout().global_shape();
  const Index samples = shape.back(), traces = element_count(shape) / samples;
  const Communicator& comm = written.layout().communicator();
  const io::SegySection read =
      io::read_segy(path, comm, {.sample_interval = interval, .traces = traces});
  const std::vector<float> back = read.data.gather();
  const std::vector<T> expected = written.gather();
  REQUIRE(back.size() == expected.size());
  for (std::size_t i = 0; i < back.size(); ++i)
    CHECK(back[i] == static_cast<float>(expected[i]));
}

}  // namespace

TEMPLATE_TEST_CASE("write_segy writes sections and cubes that read back", "[segy][write]", float,
                   double) {
  using T = TestType;
  const Communicator comm = world();
  const ScratchDir scratch(comm);
  const fs::path section_path = scratch / "section.sgy", cube_path = scratch / "cube.sgy";
  // A section of 7 traces split unevenly (ranks without traces where there are more than 2).
  DistributedArray<T, Host> section(uneven_section(comm));
  fill_random(section, 1);
  io::write_segy(
      section_path, section,
      {.sample_interval = 0.002, .first_inline = 5, .first_crossline = 100, .crossline_step = 2});
  check_read_back(section_path, section, 0.002);
  // A cube (inlines, crosslines, samples) with the default split.
  DistributedArray<T, Host> cube(Layout(comm, {3, 4, 9}));
  fill_random(cube, 2);
  io::write_segy(cube_path, cube, {.sample_interval = 0.004, .first_inline = 10, .inline_step = 3});
  check_read_back(cube_path, cube, 0.004);
  if (comm.rank() == 0) {
    CHECK(trace_field(section_path, 3, SEGY_TR_INLINE, 11) == 5);
    CHECK(trace_field(section_path, 3, SEGY_TR_CROSSLINE, 11) == 106);
    CHECK(trace_field(cube_path, 6, SEGY_TR_INLINE, 9) == 13);  // inline 1 of 3, step 3
    CHECK(trace_field(cube_path, 6, SEGY_TR_CROSSLINE, 9) == 3);
    CHECK(trace_field(cube_path, 6, SEGY_TR_SEQ_LINE, 9) == 7);
  }
  // The cube's headers as the template of a section of as many traces, replicated, with other
  // samples: rank 0 writes; the interval is the template's.
  const fs::path copy_path = scratch / "copy.sgy";
  DistributedArray<T, Host> replicated(Layout(comm, {12, 6}, Partition::BROADCAST));
  replicated.fill(T(0.5));
  io::write_segy(copy_path, replicated, {.template_file = cube_path});
  check_read_back(copy_path, replicated, 0.004);
  if (comm.rank() == 0) {
    for (int k : {0, 5, 11}) {
      CHECK(trace_field(copy_path, k, SEGY_TR_INLINE, 6) ==
            trace_field(cube_path, k, SEGY_TR_INLINE, 9));
      CHECK(trace_field(copy_path, k, SEGY_TR_CROSSLINE, 6) ==
            trace_field(cube_path, k, SEGY_TR_CROSSLINE, 9));
      CHECK(trace_field(copy_path, k, SEGY_TR_SAMPLE_COUNT, 6) == 6);
    }
  }
  comm.barrier();
}

TEST_CASE("write_segy rejects bad input on every rank", "[segy][write][errors]") {
  const Communicator comm = world();
  const ScratchDir scratch(comm);
  DistributedArray<float, Host> section(Layout(comm, {4, 5}));
  section.fill(1.0f);
  expect_everywhere<InvalidArgument>(
      comm, [&] { io::write_segy(scratch / "a.sgy", section); },
      "the sample interval must be positive");
  DistributedArray<float, Host> by_samples(Layout(comm, {4, 5}, Partition::SCATTER, 1));
  expect_everywhere<InvalidArgument>(
      comm, [&] { io::write_segy(scratch / "b.sgy", by_samples, {.sample_interval = 0.004}); },
      "split along axis 0");
  io::write_segy(scratch / "c.sgy", section, {.sample_interval = 0.004});
  DistributedArray<float, Host> longer(Layout(comm, {6, 5}));
  expect_everywhere<IoError>(
      comm,
      [&] { io::write_segy(scratch / "d.sgy", longer, {.template_file = scratch / "c.sgy"}); },
      "holds 4 traces, the array 6");
  expect_everywhere<IoError>(
      comm,
      [&] { io::write_segy(scratch / "no/such/dir.sgy", section, {.sample_interval = 0.004}); },
      "cannot open the file");
  if (comm.size() > 1) {
    const double interval = comm.rank() == 1 ? 0.002 : 0.004;
    expect_everywhere<InvalidArgument>(
        comm, [&] { io::write_segy(scratch / "e.sgy", section, {.sample_interval = interval}); },
        "differs between ranks");
  }
}
