// SPDX-License-Identifier: BSD-3-Clause
// Copyright (c) 2026 The distlops authors
#pragma once
/// \file progress.hpp
/// The progress table of the solvers (PyLops' show=True): header, rows, footer. Every rank
/// holds one and takes the same decisions (which rows exist), only the printing rank writes.

#include <iosfwd>
#include <span>
#include <string>
#include <utility>
#include <vector>

#include "distlops/core/types.hpp"
#include "distlops/solvers/common.hpp"

namespace distlops::detail {

/// A named value of the header or the footer ("damp = 1.000000e-01").
struct NamedValue {
  std::string name;
  std::string value;
};

/// Formats a double as the tables do ("1.000000e-01").
std::string format_parameter(double value);
/// "1.2346e+00", or "1.23e+00+4.56e-01j" for a complex value.
std::string format_element(double real, double imag, bool complex);

class ProgressTable {
 public:
  /// `printing`: whether this rank writes (rank 0 of the solver's communicator).
  ProgressTable(const ProgressOptions& options, bool printing, int niter);

  /// Whether the table is on (the same on every rank).
  bool active() const { return options_.show; }
  /// Whether iteration k gets a row (the same on every rank).
  bool shows(int iteration) const;
  /// Whether iteration k already got a row.
  bool printed(int iteration) const { return iteration == last_row_; }

  void header(const std::string& solver, Index rows, Index cols, int ranks,
              const std::vector<NamedValue>& parameters, const std::vector<std::string>& columns);
  void row(int iteration, const std::string& first_element, std::span<const double> values,
           double seconds);
  void footer(StopReason reason, int iterations, double seconds,
              const std::vector<NamedValue>& results);

 private:
  std::ostream& out() const;
  ProgressOptions options_;
  bool printing_;
  int niter_;
  int last_row_ = -1;
  std::size_t width_ = 0;
};

}  // namespace distlops::detail
