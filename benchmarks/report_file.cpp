// SPDX-License-Identifier: BSD-3-Clause
// Copyright (c) 2026 The distlops authors
#include "report_file.hpp"

#include <cstdio>
#include <filesystem>

#include "support/exit_status.hpp"
#include "support/outputs.hpp"

namespace distlops::bench {

namespace fs = std::filesystem;

ReportFile::ReportFile(const std::string& path, const Communicator& comm) : path_(path) {
  if (path.empty()) return;
  std::string problem;
  if (comm.rank() == 0) {
    problem = examples::output_file_problem(path);
    if (problem.empty()) {
      std::error_code error;
      const fs::file_status status = fs::status(path, error);
      regular_ = !fs::exists(status) || fs::is_regular_file(status);
      out_.open(path, regular_ ? std::ios::out | std::ios::trunc : std::ios::out);
      if (!out_) problem = "cannot open it for writing";
      writing_ = static_cast<bool>(out_);
    }
  }
  // Rank 0's verdict on every rank: nobody starts the work alone.
  problem = examples::rank0_text(comm, problem);
  if (!problem.empty())
    throw examples::ExitError(examples::exit_status::output, "--json " + path + ": " + problem);
}

void ReportFile::append(const Result& result, const Reference& reference) {
  if (!writing_ || !regular_) return;
  print_json(out_, result, reference);
  out_.flush();
}

std::string ReportFile::write_merged(const std::vector<Result>& results,
                                     const Reference& reference) {
  if (!regular_) {
    for (const Result& result : results)
      print_json(out_, result, reference);
    out_.flush();
    return out_ ? std::string() : "writing failed";
  }
  const std::string temporary = path_ + ".tmp";
  std::ofstream merged(temporary, std::ios::out | std::ios::trunc);
  for (const Result& result : results)
    print_json(merged, result, reference);
  merged.close();
  if (!merged) return "cannot write " + temporary;
  out_.close();
  std::error_code error;
  fs::rename(temporary, path_, error);
  return error ? "cannot rename " + temporary + " over it: " + error.message() : std::string();
}

void ReportFile::finish(const std::vector<Result>& results, const Reference& reference,
                        const Communicator& comm) {
  if (path_.empty()) return;
  const std::string problem =
      examples::rank0_text(comm, writing_ ? write_merged(results, reference) : std::string());
  if (!problem.empty()) throw IoError("--json " + path_ + ": " + problem);
}

}  // namespace distlops::bench
