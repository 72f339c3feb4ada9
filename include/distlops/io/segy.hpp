// SPDX-License-Identifier: BSD-3-Clause
// Copyright (c) 2026 The distlops authors
#pragma once
/// \file segy.hpp
/// Reading post-stack SEG-Y files into a DistributedArray with the traces split over the
/// ranks, and writing distributed 2-D sections and 3-D cubes back, through segyio (Debian's
/// libsegyio-dev). Available when distlops was built with
/// segyio (`DISTLOPS_WITH_SEGYIO`, distlops/io/io_config.hpp).
///
/// \code
///   auto section = distlops::io::read_segy("stack.sgy", comm, {.sample_interval = 0.004});
///   // section.data: shape (traces, samples), split along axis 0; section.sample_interval in s
///   distlops::io::write_segy("image.sgy", image, {.sample_interval = 0.004});
///   distlops::io::write_segy("result.sgy", result, {.template_file = "stack.sgy"});
/// \endcode

#include <filesystem>
#include <optional>

#include "distlops/core/communicator.hpp"
#include "distlops/core/distributed_array.hpp"
#include "distlops/core/layout.hpp"
#include "distlops/io/io_config.hpp"

#if !DISTLOPS_WITH_SEGYIO
#error \
    "distlops was built without segyio (no libsegyio-dev at configure time): distlops/io/segy.hpp is not available"
#endif

namespace distlops::io {

/// What the file must hold; each given value is checked against the file's headers. It must be
/// the same on every rank (InvalidArgument naming the first rank that differs otherwise).
struct SegyExpectation {
  /// Sample interval in seconds (compared to the headers' microseconds to 1e-6 relative).
  std::optional<double> sample_interval = std::nullopt;
  /// Number of traces.
  std::optional<Index> traces = std::nullopt;
  /// Number of samples per trace.
  std::optional<Index> samples = std::nullopt;
};

/// A post-stack section: its traces and the sampling of the headers.
struct SegySection {
  /// Shape (traces, samples), split along axis 0 (the traces) with the default split.
  DistributedArray<float, Host> data;
  /// Sample interval in seconds (the binary header's, else the first trace header's).
  double sample_interval = 0;
};

/// The sampling of a SEG-Y file, from its headers.
struct SegyGeometry {
  /// Number of traces (nx).
  Index traces = 0;
  /// Samples per trace (nz).
  Index samples = 0;
  /// Sample interval in seconds (the binary header's, else the first trace header's).
  double sample_interval = 0;
};

/// Reads and checks the headers (rank 0 reads, every rank gets the result). Collective; the
/// errors are those of read_segy.
SegyGeometry read_segy_geometry(const std::filesystem::path& path, const Communicator& comm,
                                const SegyExpectation& expect = {});

/// Reads every trace of the SEG-Y file at `path` (IBM or IEEE 4-byte float samples, converted
/// to native floats), each rank its own traces. Collective over `comm`: every rank passes the
/// same path, and every failure raises the same IoError on every rank (a missing file, a
/// header that segyio cannot read, a sample format other than IBM or IEEE float, no traces or
/// samples, a sample interval that is not positive, a value that differs from `expect`).
SegySection read_segy(const std::filesystem::path& path, const Communicator& comm,
                      const SegyExpectation& expect = {});

/// Reads into `layout`, of global shape (traces, samples) and split along axis 0 with any
/// extents (or replicated); the file's trace and sample counts must be the layout's (IoError
/// otherwise, InvalidArgument for a layout split along the samples).
SegySection read_segy(const std::filesystem::path& path, const Layout& layout,
                      const SegyExpectation& expect = {});

/// How write_segy fills the headers: from a template file, or from the explicit numbering.
struct SegyWriteOptions {
  /// Sample interval in seconds (> 0); with a template, 0 keeps the template's.
  double sample_interval = 0;
  /// A SEG-Y file with as many traces whose textual header, binary header and trace headers
  /// (trace k's for trace k) are copied, with the sample count, interval and format set to
  /// those written.
  std::optional<std::filesystem::path> template_file = std::nullopt;
  /// Without a template: inline numbers first_inline + i inline_step along axis 0 of a cube (a
  /// section's traces all get first_inline), crossline numbers first_crossline + j
  /// crossline_step along the traces of a line; CDP and trace sequence numbers count the
  /// traces from 1.
  int first_inline = 1;
  int inline_step = 1;      ///< See first_inline.
  int first_crossline = 1;  ///< See first_inline.
  int crossline_step = 1;   ///< See first_inline.
};

/// Writes `data`, a section (traces, samples) or a cube (inlines, crosslines, samples) split
/// along axis 0 with any extents (or replicated: rank 0 writes), as SEG-Y with IEEE float
/// samples, traces in C order. Rank 0 writes the headers, then every rank its own traces.
/// Collective; every failure raises the same exception on every rank: InvalidArgument for a
/// layout of another rank or split, a missing or non-positive interval, options that differ
/// between ranks; IoError for a file that cannot be written, a template that cannot be read or
/// holds another number of traces.
template <class T>
void write_segy(const std::filesystem::path& path, const DistributedArray<T, Host>& data,
                const SegyWriteOptions& options = {});

}  // namespace distlops::io
