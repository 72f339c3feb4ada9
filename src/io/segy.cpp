// SPDX-License-Identifier: BSD-3-Clause
// Copyright (c) 2026 The distlops authors
// Post-stack SEG-Y input with segyio: rank 0 reads and checks the headers and broadcasts the
// geometry; every rank then opens the file itself and reads its own traces (plain reads of a
// contiguous run of traces, no collective I/O needed).
#include "distlops/io/segy.hpp"

#include <segyio/segy.h>

#include <cmath>
#include <string>
#include <vector>

#include "distlops/core/collective_check.hpp"
#include "distlops/core/error.hpp"
#include "distlops/core/layout.hpp"
#include "npy_internal.hpp"

namespace distlops::io {

namespace {

/// Owns a segyio file handle.
class SegyFile {
 public:
  SegyFile(const std::string& path, const std::string& where)
      : file_(segy_open(path.c_str(), "rb")) {
    if (file_ == nullptr) throw IoError(where + ": cannot open the file");
  }
  ~SegyFile() { segy_close(file_); }
  SegyFile(const SegyFile&) = delete;
  SegyFile& operator=(const SegyFile&) = delete;
  segy_file* get() const { return file_; }

 private:
  segy_file* file_;
};

void check_segy(int code, const std::string& where, const char* what) {
  if (code != SEGY_OK) {
    throw IoError(where + ": " + what + " (segyio error " + std::to_string(code) + ")");
  }
}

/// What rank 0 learns from the headers, broadcast to every rank.
struct Geometry {
  long long trace0 = 0;
  long long trace_bytes = 0;
  long long traces = 0;
  long long samples = 0;
  long long format = 0;
  double sample_interval = 0;  // seconds
};

Geometry read_geometry(const std::string& path, const std::string& where,
                       const SegyExpectation& expect) {
  SegyFile file(path, where);
  std::vector<char> binary(static_cast<std::size_t>(segy_binheader_size()));
  check_segy(segy_binheader(file.get(), binary.data()), where, "cannot read the binary header");
  Geometry g;
  g.format = segy_format(binary.data());
  if (g.format != SEGY_IBM_FLOAT_4_BYTE && g.format != SEGY_IEEE_FLOAT_4_BYTE) {
    throw IoError(where + ": sample format " + std::to_string(g.format) +
                  " is not read (IBM float, 1, and IEEE float, 5, are)");
  }
  g.samples = segy_samples(binary.data());
  if (g.samples <= 0) throw IoError(where + ": the binary header gives no samples per trace");
  g.trace0 = segy_trace0(binary.data());
  g.trace_bytes = segy_trsize(static_cast<int>(g.format), static_cast<int>(g.samples));
  int traces = 0;
  check_segy(segy_traces(file.get(), &traces, g.trace0, static_cast<int>(g.trace_bytes)), where,
             "the file size is not a whole number of traces after the headers");
  g.traces = traces;
  if (g.traces <= 0) throw IoError(where + ": the file holds no traces");
  float interval = 0;  // microseconds
  check_segy(segy_sample_interval(file.get(), 0.0f, &interval), where,
             "cannot read the sample interval");
  if (!(interval > 0)) {
    throw IoError(where + ": the headers give no positive sample interval");
  }
  g.sample_interval = static_cast<double>(interval) * 1e-6;
  if (expect.traces && *expect.traces != g.traces) {
    throw IoError(where + ": the file holds " + std::to_string(g.traces) + " traces, " +
                  std::to_string(*expect.traces) + " were expected");
  }
  if (expect.samples && *expect.samples != g.samples) {
    throw IoError(where + ": the traces have " + std::to_string(g.samples) + " samples, " +
                  std::to_string(*expect.samples) + " were expected");
  }
  if (expect.sample_interval &&
      std::abs(*expect.sample_interval - g.sample_interval) > 1e-6 * *expect.sample_interval) {
    throw IoError(where + ": the sample interval is " + std::to_string(g.sample_interval) + " s, " +
                  std::to_string(*expect.sample_interval) + " s was expected");
  }
  return g;
}

Geometry broadcast_geometry(const std::string& name, const Communicator& comm,
                            const SegyExpectation& expect, const std::string& where) {
  detail::check_same_text(comm, name, "read_segy");
  // Rank 0 checks the headers against its expectation; the others' must be the same.
  Fingerprint expectation;
  expectation.add(expect.traces.has_value()).add(expect.traces.value_or(0));
  expectation.add(expect.samples.has_value()).add(expect.samples.value_or(0));
  expectation.add(expect.sample_interval.has_value()).add(expect.sample_interval.value_or(0.0));
  Geometry g;
  collective_check(comm, expectation, where + ": the expectation (traces, samples, interval)", [&] {
    if (comm.rank() == 0) g = read_geometry(name, where, expect);
  });
  comm.broadcast(&g.trace0, 1, 0);
  comm.broadcast(&g.trace_bytes, 1, 0);
  comm.broadcast(&g.traces, 1, 0);
  comm.broadcast(&g.samples, 1, 0);
  comm.broadcast(&g.format, 1, 0);
  comm.broadcast(&g.sample_interval, 1, 0);
  return g;
}

}  // namespace

SegyGeometry read_segy_geometry(const std::filesystem::path& path, const Communicator& comm,
                                const SegyExpectation& expect) {
  const std::string name = path.string();
  const Geometry g =
      broadcast_geometry(name, comm, expect, detail::describe_call("read_segy", name));
  return {static_cast<Index>(g.traces), static_cast<Index>(g.samples), g.sample_interval};
}

SegySection read_segy(const std::filesystem::path& path, const Communicator& comm,
                      const SegyExpectation& expect) {
  const SegyGeometry g = read_segy_geometry(path, comm, expect);
  return read_segy(path, Layout(comm, {g.traces, g.samples}), expect);
}

SegySection read_segy(const std::filesystem::path& path, const Layout& layout,
                      const SegyExpectation& expect) {
  const std::string name = path.string();
  const std::string where = detail::describe_call("read_segy", name);
  if (!layout.valid()) throw InvalidArgument(where + ": the layout is empty");
  if (layout.ndim() != 2 || (!layout.replicated() && layout.axis() != 0)) {
    throw InvalidArgument(where +
                          ": the layout must be 2-d (traces, samples) and split along "
                          "the traces (axis 0), got " +
                          layout.describe());
  }
  const Communicator& comm = layout.communicator();
  const Geometry g = broadcast_geometry(name, comm, expect, where);
  const Shape file_shape{static_cast<Index>(g.traces), static_cast<Index>(g.samples)};
  if (file_shape != layout.global_shape()) {
    throw IoError(where + ": the file holds (traces, samples) " + to_string(file_shape) +
                  ", the layout's global shape is " + to_string(layout.global_shape()));
  }
  SegySection section{DistributedArray<float, Host>(layout), g.sample_interval};
  collective_check(comm, [&] {
    const Index first = layout.replicated() ? 0 : layout.offset(comm.rank());
    const Index count = layout.replicated() ? g.traces : layout.local_extent(comm.rank());
    if (count == 0) return;
    SegyFile file(name, where);
    float* out = section.data.data();
    for (Index t = 0; t < count; ++t, out += g.samples) {
      const std::string trace = "cannot read trace " + std::to_string(first + t);
      check_segy(segy_readtrace(file.get(), static_cast<int>(first + t), out, g.trace0,
                                static_cast<int>(g.trace_bytes)),
                 where, trace.c_str());
      check_segy(segy_to_native(static_cast<int>(g.format), g.samples, out), where,
                 "cannot convert the samples");
    }
  });
  return section;
}

}  // namespace distlops::io
