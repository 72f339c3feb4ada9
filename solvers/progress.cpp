// SPDX-License-Identifier: BSD-3-Clause
// Copyright (c) 2026 The distlops authors
// The progress table and the descriptions of the stop reasons.
#include "distlops/solvers/detail/progress.hpp"

#include <algorithm>
#include <cctype>
#include <cstdio>
#include <iostream>

namespace distlops {

const char* to_string(StopReason reason) {
  switch (reason) {
    case StopReason::max_iterations:
      return "maximum number of iterations reached";
    case StopReason::tolerance:
      return "tolerance reached";
    case StopReason::cost_to_initial:
      return "cost below rtol times the initial cost";
    case StopReason::cost_to_data:
      return "cost below rtol1 times half the squared norm of the data";
    case StopReason::residual_small:
      return "y - A x is small enough for atol and btol";
    case StopReason::normal_residual_small:
      return "the least-squares solution is good enough for atol";
    case StopReason::condition_limit:
      return "the estimated condition number exceeded conlim";
    case StopReason::zero_curvature:
      return "breakdown: zero curvature (singular operator?)";
    case StopReason::negative_curvature:
      return "breakdown: negative curvature (the operator is not positive definite)";
    case StopReason::indefinite_preconditioner:
      return "breakdown: the preconditioner is not positive definite";
    case StopReason::non_finite:
      return "breakdown: NaN or infinity in the recurrence";
    case StopReason::callback:
      return "stopped by the callback";
  }
  return "unknown stop reason";
}

bool is_breakdown(StopReason reason) {
  return reason == StopReason::zero_curvature || reason == StopReason::negative_curvature ||
         reason == StopReason::indefinite_preconditioner || reason == StopReason::non_finite;
}

}  // namespace distlops

namespace distlops::detail {

namespace {

std::string printf_string(const char* format, double a, double b = 0.0) {
  char buffer[64];
  std::snprintf(buffer, sizeof(buffer), format, a, b);
  return buffer;
}

constexpr int column_width = 13;

std::string right_aligned(const std::string& text, int width = column_width) {
  const auto size = static_cast<int>(text.size());
  return size >= width ? " " + text
                       : std::string(static_cast<std::size_t>(width - size), ' ') + text;
}

}  // namespace

std::string format_parameter(double value) {
  return printf_string("%e", value);
}

std::string format_element(double real, double imag, bool complex) {
  return complex ? printf_string("%.2e%+.2ej", real, imag) : printf_string("%.4e", real);
}

ProgressTable::ProgressTable(const ProgressOptions& options, bool printing, int niter)
    : options_(options), printing_(printing && options.show), niter_(niter) {}

std::ostream& ProgressTable::out() const {
  return options_.stream ? *options_.stream : std::cout;
}

bool ProgressTable::shows(int iteration) const {
  if (!options_.show) return false;
  return iteration == 0 || iteration <= options_.first || niter_ - iteration < options_.last ||
         iteration % options_.every == 0;
}

void ProgressTable::header(const std::string& solver, Index rows, Index cols, int ranks,
                           const std::vector<NamedValue>& parameters,
                           const std::vector<std::string>& columns) {
  std::string title = "   Itn" + right_aligned("x[0]", column_width + 4);
  for (const std::string& column : columns)
    title += right_aligned(column);
  title += right_aligned("time (s)", 11);
  width_ = std::max<std::size_t>(title.size(), 64);
  if (!printing_) return;
  std::string name = solver;
  for (char& c : name)
    c = static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
  std::ostream& os = out();
  os << name << '\n' << std::string(width_, '-') << '\n';
  os << "The operator has " << rows << " rows and " << cols << " cols (" << ranks
     << (ranks == 1 ? " rank)" : " ranks)") << '\n';
  std::string line;
  for (const NamedValue& parameter : parameters) {
    const std::string item = parameter.name + " = " + parameter.value;
    if (!line.empty() && line.size() + item.size() + 4 > width_) {
      os << line << '\n';
      line.clear();
    }
    line += (line.empty() ? "" : "    ") + item;
  }
  if (!line.empty()) os << line << '\n';
  os << std::string(width_, '-') << '\n' << title << '\n';
  os.flush();
}

void ProgressTable::row(int iteration, const std::string& first_element,
                        std::span<const double> values, double seconds) {
  last_row_ = iteration;
  if (!printing_) return;
  char number[16];
  std::snprintf(number, sizeof(number), "%6d", iteration);
  std::string line = number + right_aligned(first_element, column_width + 4);
  for (double value : values)
    line += right_aligned(printf_string("%.4e", value));
  line += right_aligned(printf_string("%.3f", seconds), 11);
  out() << line << '\n';
  out().flush();
}

void ProgressTable::footer(StopReason reason, int iterations, double seconds,
                           const std::vector<NamedValue>& results) {
  if (!printing_) return;
  std::ostream& os = out();
  os << std::string(width_, '-') << '\n';
  os << "Stopped after " << iterations << " iteration(s): " << to_string(reason) << '\n';
  for (const NamedValue& result : results)
    os << result.name << " = " << result.value << '\n';
  os << "Total time (s) = " << printf_string("%.3f", seconds) << '\n';
  os << std::string(width_, '-') << '\n';
  os.flush();
}

}  // namespace distlops::detail
