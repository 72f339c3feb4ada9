// SPDX-License-Identifier: BSD-3-Clause
// Copyright (c) 2026 The distlops authors
// Post-stack SEG-Y input and output with segyio. Reading: rank 0 reads and checks the headers
// and broadcasts the geometry; every rank then opens the file itself and reads its own traces
// (plain reads of a contiguous run of traces, no collective I/O needed). Writing: rank 0
// writes the textual and binary headers (and sizes the file), then every rank writes its own
// run of traces with their headers.
#include "distlops/io/segy.hpp"

#include <segyio/segy.h>

#include <algorithm>
#include <cmath>
#include <limits>
#include <memory>
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
  SegyFile(const std::string& path, const std::string& where, const char* mode = "rb")
      : file_(segy_open(path.c_str(), mode)) {
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

// (A named namespace: the write's lambdas capture these types.)
namespace segy_output {

// What rank 0 learns from a template before the others write: its headers, and its trace
// layout for reading the trace headers.
struct SegyTemplate {
  std::vector<char> text = std::vector<char>(SEGY_TEXT_HEADER_SIZE + 1, ' ');
  std::vector<char> binary = std::vector<char>(SEGY_BINARY_HEADER_SIZE, 0);
  long long trace0 = 0, trace_bytes = 0, traces = 0;
  double sample_interval = 0;
};

SegyTemplate read_template(const std::string& path, const std::string& where) {
  const Geometry g = read_geometry(path, where, {});
  SegyFile file(path, where);
  SegyTemplate t;
  check_segy(segy_read_textheader(file.get(), t.text.data()), where,
             "cannot read the template's textual header");
  check_segy(segy_binheader(file.get(), t.binary.data()), where,
             "cannot read the template's binary header");
  t.trace0 = g.trace0;
  t.trace_bytes = g.trace_bytes;
  t.traces = g.traces;
  t.sample_interval = g.sample_interval;
  return t;
}

}  // namespace segy_output

template <class T>
void write_segy(const std::filesystem::path& path, const DistributedArray<T, Host>& data,
                const SegyWriteOptions& options) {
  const std::string name = path.string();
  const std::string where = detail::describe_call("write_segy", name);
  const Layout& layout = data.layout();
  if (!layout.valid()) throw InvalidArgument(where + ": the array has no layout");
  const Communicator& comm = layout.communicator();
  detail::check_same_text(comm, name, "write_segy");
  const std::string template_name = options.template_file ? options.template_file->string() : "";
  Fingerprint same;
  same.add(std::string_view(template_name)).add(options.sample_interval).add(options.first_inline);
  same.add(options.inline_step).add(options.first_crossline).add(options.crossline_step);
  const Shape& shape = layout.global_shape();
  const Index samples = shape.empty() ? 0 : shape.back();
  const Index traces = samples > 0 ? element_count(shape) / samples : 0;
  const Index crosslines = shape.size() == 3 ? shape[1] : traces;
  segy_output::SegyTemplate header;
  collective_check(comm, same, where + ": the options", [&] {
    if ((shape.size() != 2 && shape.size() != 3) || (!layout.replicated() && layout.axis() != 0)) {
      throw InvalidArgument(where +
                            ": the array must be a section (traces, samples) or a cube "
                            "(inlines, crosslines, samples) split along axis 0, got " +
                            layout.describe());
    }
    if (traces == 0 || samples == 0 || traces > std::numeric_limits<int>::max()) {
      throw InvalidArgument(where + ": cannot write " + to_string(shape) + " as SEG-Y traces");
    }
    if (options.sample_interval < 0 || (options.sample_interval == 0 && !options.template_file)) {
      throw InvalidArgument(where + ": the sample interval must be positive, got " +
                            std::to_string(options.sample_interval));
    }
    if (comm.rank() != 0) return;
    if (options.template_file) {
      header = segy_output::read_template(template_name, detail::describe_call("write_segy", template_name));
      if (header.traces != traces) {
        throw IoError(where + ": the template " + template_name + " holds " +
                      std::to_string(header.traces) + " traces, the array " +
                      std::to_string(traces));
      }
    } else {
      const std::string text = "C 1 distlops write_segy: " + to_string(shape) + " samples";
      std::copy(text.begin(), text.end(), header.text.begin());
      segy_set_bfield(header.binary.data(), SEGY_BIN_SORTING_CODE, 4);  // post-stack
      segy_set_bfield(header.binary.data(), SEGY_BIN_SEGY_REVISION, 0x0100);
      segy_set_bfield(header.binary.data(), SEGY_BIN_TRACE_FLAG, 1);  // fixed length traces
    }
    const double interval =
        options.sample_interval > 0 ? options.sample_interval : header.sample_interval;
    header.sample_interval = interval;
    segy_set_bfield(header.binary.data(), SEGY_BIN_SAMPLES, static_cast<int>(samples));
    segy_set_bfield(header.binary.data(), SEGY_BIN_INTERVAL,
                    static_cast<int>(std::lround(interval * 1e6)));
    segy_set_bfield(header.binary.data(), SEGY_BIN_FORMAT, SEGY_IEEE_FLOAT_4_BYTE);
    segy_set_bfield(header.binary.data(), SEGY_BIN_EXT_HEADERS, 0);  // traces right after it
    header.text[SEGY_TEXT_HEADER_SIZE] = '\0';
    SegyFile file(name, where, "w+b");
    check_segy(segy_write_textheader(file.get(), 0, header.text.data()), where,
               "cannot write the textual header");
    check_segy(segy_write_binheader(file.get(), header.binary.data()), where,
               "cannot write the binary header");
  });
  comm.broadcast(&header.trace0, 1, 0);
  comm.broadcast(&header.trace_bytes, 1, 0);
  comm.broadcast(&header.sample_interval, 1, 0);
  // Every rank writes its traces after rank 0 has created the file.
  collective_check(comm, [&] {
    const Index lines_before = layout.replicated() ? 0 : layout.offset(comm.rank());
    const Index lines =
        layout.replicated() ? (comm.rank() == 0 ? shape[0] : 0) : layout.local_extent(comm.rank());
    const Index per_line = traces / shape[0];
    const Index first = lines_before * per_line, count = lines * per_line;
    if (count == 0) return;
    SegyFile file(name, where, "r+b");
    std::unique_ptr<SegyFile> model;
    if (options.template_file) model = std::make_unique<SegyFile>(template_name, where);
    const long trace0 = SEGY_TEXT_HEADER_SIZE + SEGY_BINARY_HEADER_SIZE;
    const int trace_bytes = segy_trsize(SEGY_IEEE_FLOAT_4_BYTE, static_cast<int>(samples));
    std::vector<char> trace_header(SEGY_TRACE_HEADER_SIZE, 0);
    std::vector<float> samples_out(static_cast<std::size_t>(samples));
    for (Index t = 0; t < count; ++t) {
      const Index global = first + t;
      const int traceno = static_cast<int>(global);
      if (model) {
        check_segy(segy_traceheader(model->get(), traceno, trace_header.data(), header.trace0,
                                    static_cast<int>(header.trace_bytes)),
                   where, "cannot read a trace header of the template");
      } else {
        std::fill(trace_header.begin(), trace_header.end(), char(0));
        const Index line = shape.size() == 3 ? global / crosslines : 0;
        const Index cross = shape.size() == 3 ? global % crosslines : global;
        segy_set_field(trace_header.data(), SEGY_TR_SEQ_LINE, static_cast<int>(global + 1));
        segy_set_field(trace_header.data(), SEGY_TR_SEQ_FILE, static_cast<int>(global + 1));
        segy_set_field(trace_header.data(), SEGY_TR_ENSEMBLE, static_cast<int>(global + 1));
        segy_set_field(trace_header.data(), SEGY_TR_TRACE_ID, 1);
        segy_set_field(trace_header.data(), SEGY_TR_INLINE,
                       options.first_inline + static_cast<int>(line) * options.inline_step);
        segy_set_field(trace_header.data(), SEGY_TR_CROSSLINE,
                       options.first_crossline + static_cast<int>(cross) * options.crossline_step);
      }
      segy_set_field(trace_header.data(), SEGY_TR_SAMPLE_COUNT, static_cast<int>(samples));
      segy_set_field(trace_header.data(), SEGY_TR_SAMPLE_INTER,
                     static_cast<int>(std::lround(header.sample_interval * 1e6)));
      check_segy(
          segy_write_traceheader(file.get(), traceno, trace_header.data(), trace0, trace_bytes),
          where, "cannot write a trace header");
      const T* in = data.data() + t * samples;
      for (Index k = 0; k < samples; ++k)
        samples_out[static_cast<std::size_t>(k)] = static_cast<float>(in[k]);
      check_segy(segy_from_native(SEGY_IEEE_FLOAT_4_BYTE, samples, samples_out.data()), where,
                 "cannot convert the samples");
      check_segy(segy_writetrace(file.get(), traceno, samples_out.data(), trace0, trace_bytes),
                 where, "cannot write a trace");
    }
  });
}

template void write_segy<float>(const std::filesystem::path&, const DistributedArray<float, Host>&,
                                const SegyWriteOptions&);
template void write_segy<double>(const std::filesystem::path&,
                                 const DistributedArray<double, Host>&, const SegyWriteOptions&);

}  // namespace distlops::io
