// SPDX-License-Identifier: BSD-3-Clause
// Copyright (c) 2026 The distlops authors
#pragma once
// The --json file of the driver, written so that a run never loses what it measured: opened
// before any case runs (a folder that is missing or cannot be written ends the run at once,
// with exit_status::output on every rank), a line appended and flushed as each case ends a
// round (an interrupted run keeps its finished rounds, as "partial" lines), and replaced at the
// end by one merged line per case, with the reference bandwidth measured after the cases.
#include <fstream>
#include <string>
#include <vector>

#include "harness.hpp"

namespace distlops::bench {

class ReportFile {
 public:
  /// Rank 0 opens `path` (nothing when it is empty); every rank learns whether it could, and
  /// all throw examples::ExitError with exit_status::output when it could not. Collective.
  ReportFile(const std::string& path, const Communicator& comm);

  /// Appends the partial line of `result` (Result::round > 0) and flushes it (rank 0 writes).
  void append(const Result& result, const Reference& reference);

  /// Replaces the partial lines by the merged ones: written to a temporary file beside `path`
  /// and renamed over it, so that the file holds either the partial lines or all the merged
  /// ones. A path that is not a regular file (a pipe, /dev/stdout) gets no partial lines and
  /// the merged ones appended. Rank 0 writes; every rank throws IoError when it cannot.
  /// Collective.
  void finish(const std::vector<Result>& results, const Reference& reference,
              const Communicator& comm);

 private:
  /// finish() on rank 0: what went wrong, or an empty string.
  std::string write_merged(const std::vector<Result>& results, const Reference& reference);

  std::string path_;
  bool writing_ = false;  // rank 0 of a run with --json
  bool regular_ = true;   // a regular file: partial lines, replaced by rename
  std::ofstream out_;
};

}  // namespace distlops::bench
