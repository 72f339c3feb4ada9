// SPDX-License-Identifier: BSD-3-Clause
// Copyright (c) 2026 The distlops authors
#include "harness.hpp"

#include <sys/resource.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <iomanip>
#include <sstream>

namespace distlops::bench {

Index Parameters::integer(const std::string& key, Index fallback) const {
  const auto found = values_.find(key);
  const Index value = found == values_.end() ? fallback : std::stoll(found->second);
  used_[key] = std::to_string(value);
  return value;
}

double Parameters::real(const std::string& key, double fallback) const {
  const auto found = values_.find(key);
  const double value = found == values_.end() ? fallback : std::stod(found->second);
  std::ostringstream text;
  text << value;
  used_[key] = text.str();
  return value;
}

std::string Parameters::text(const std::string& key, const std::string& fallback) const {
  const auto found = values_.find(key);
  const std::string value = found == values_.end() ? fallback : found->second;
  used_[key] = value;
  return value;
}

double peak_rss_mib() {
  rusage usage{};
  getrusage(RUSAGE_SELF, &usage);
  return static_cast<double>(usage.ru_maxrss) / 1024.0;  // Linux reports KiB
}

namespace {

double median(std::vector<double> values) {
  if (values.empty()) return 0;
  std::sort(values.begin(), values.end());
  const std::size_t middle = values.size() / 2;
  return values.size() % 2 ? values[middle] : 0.5 * (values[middle - 1] + values[middle]);
}

// Wall time of f on the slowest rank, started together after a barrier.
template <class F>
double timed(const Communicator& comm, F&& f) {
  comm.barrier();
  const auto start = std::chrono::steady_clock::now();
  f();
  const double local =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  return comm.allreduce(local, ReduceOp::max);
}

std::string human_bytes(double bytes) {
  const char* units[] = {"B", "KB", "MB", "GB", "TB"};
  int unit = 0;
  while (bytes >= 1000 && unit < 4) {
    bytes /= 1000;
    ++unit;
  }
  std::ostringstream text;
  text << std::setprecision(3) << bytes << " " << units[unit];
  return text.str();
}

std::string human_seconds(double seconds) {
  std::ostringstream text;
  text << std::setprecision(4);
  if (seconds < 1e-3) {
    text << seconds * 1e6 << " us";
  } else if (seconds < 1) {
    text << seconds * 1e3 << " ms";
  } else {
    text << seconds << " s";
  }
  return text.str();
}

std::string json_string(const std::string& text) {
  std::string result = "\"";
  for (char c : text) {
    if (c == '"' || c == '\\') result += '\\';
    result += c;
  }
  return result + "\"";
}

}  // namespace

double check_value(const std::vector<Check>& checks, const std::string& name) {
  for (const Check& check : checks) {
    if (check.name == name) return check.value;
  }
  throw InvalidArgument("distlops_bench: no check value called " + name);
}

Result measure(const Communicator& comm, const std::string& name, const Parameters& parameters,
               Run run, int warmup, int repeats, double triad, bool verify) {
  Result result;
  result.name = name;
  result.ranks = comm.size();
  for (int i = 0; i < warmup; ++i)
    timed(comm, run.body);
  for (int i = 0; i < repeats; ++i)
    result.seconds.push_back(timed(comm, run.body));
  result.median_seconds = median(result.seconds);
  result.units = run.units_done ? run.units_done() : run.units;
  result.unit_name = run.unit_name;
  result.seconds_per_unit =
      result.median_seconds / static_cast<double>(std::max<Index>(1, result.units));
  result.bytes_per_unit = run.bytes_per_unit;
  result.bandwidth = result.seconds_per_unit > 0 ? run.bytes_per_unit / result.seconds_per_unit : 0;
  result.fraction_of_triad = triad > 0 ? result.bandwidth / triad : 0;
  result.fraction_of_reference = result.fraction_of_triad;
  result.peak_rss_mib = comm.allgather(peak_rss_mib());
  if (run.checks) result.checks = run.checks();
  if (verify && run.verify) result.failures = run.verify(result.checks);
  result.parameters = parameters.used();
  return result;
}

double triad_bandwidth(const Communicator& comm, Index elements, int repeats) {
  std::vector<double> a(static_cast<std::size_t>(elements), 0.0), b(a.size(), 1.0),
      c(a.size(), 2.0);
  const double s = 3.0;
  auto triad = [&] {
    double* __restrict pa = a.data();
    const double* __restrict pb = b.data();
    const double* __restrict pc = c.data();
    for (Index i = 0; i < elements; ++i)
      pa[i] = pb[i] + s * pc[i];
  };
  triad();
  std::vector<double> seconds;
  for (int i = 0; i < repeats; ++i)
    seconds.push_back(timed(comm, triad));
  // STREAM's count (read b and c, write a) and STREAM's choice of the best repeat: on a shared
  // machine the median drifts with the load; the best repeat is the closest to the bound.
  const double bytes = 3.0 * 8.0 * static_cast<double>(elements) * comm.size();
  return bytes / *std::min_element(seconds.begin(), seconds.end());
}

void print_table(std::ostream& out, const std::vector<Result>& results,
                 const Reference& reference) {
  const std::string percent = reference.name == "triad" ? "%triad" : "%copy";
  out << "\n"
      << std::left << std::setw(16) << "case" << std::right << std::setw(6) << "ranks"
      << std::setw(13) << "median" << std::setw(13) << "per unit" << std::setw(12) << "bytes/unit"
      << std::setw(12) << "bandwidth" << std::setw(9) << percent << std::setw(10) << "peak MiB"
      << "  checks\n";
  for (const Result& r : results) {
    std::ostringstream checks;
    for (const Check& check : r.checks)
      checks << check.name << "=" << std::setprecision(6) << check.value << " ";
    out << std::left << std::setw(16) << r.name << std::right << std::setw(6) << r.ranks
        << std::setw(13) << human_seconds(r.median_seconds) << std::setw(13)
        << human_seconds(r.seconds_per_unit) << std::setw(12) << human_bytes(r.bytes_per_unit)
        << std::setw(10) << human_bytes(r.bandwidth) << "/s" << std::setw(8) << std::fixed
        << std::setprecision(1) << 100.0 * r.fraction_of_reference << "%" << std::setw(10)
        << *std::max_element(r.peak_rss_mib.begin(), r.peak_rss_mib.end()) << std::defaultfloat
        << "  " << checks.str() << "\n";
  }
  if (reference.bytes_per_second > 0) {
    out << reference.name << " bandwidth (all ranks): " << human_bytes(reference.bytes_per_second)
        << "/s\n";
  }
}

void print_json(std::ostream& out, const Result& r, const Reference& reference) {
  const double triad = reference.name == "triad" ? reference.bytes_per_second : 0.0;
  out << "{\"case\":" << json_string(r.name) << ",\"ranks\":" << r.ranks << ",\"parameters\":{";
  bool first = true;
  for (const auto& [key, value] : r.parameters) {
    out << (first ? "" : ",") << json_string(key) << ":" << json_string(value);
    first = false;
  }
  out << "},\"seconds\":[";
  for (std::size_t i = 0; i < r.seconds.size(); ++i)
    out << (i ? "," : "") << r.seconds[i];
  out << "],\"median_seconds\":" << r.median_seconds << ",\"units\":" << r.units
      << ",\"unit\":" << json_string(r.unit_name) << ",\"seconds_per_unit\":" << r.seconds_per_unit
      << ",\"bytes_per_unit\":" << r.bytes_per_unit
      << ",\"bandwidth_bytes_per_second\":" << r.bandwidth
      << ",\"triad_bytes_per_second\":" << triad << ",\"fraction_of_triad\":" << r.fraction_of_triad
      << ",\"reference\":" << json_string(reference.name)
      << ",\"reference_bytes_per_second\":" << reference.bytes_per_second
      << ",\"fraction_of_reference\":" << r.fraction_of_reference << ",\"peak_rss_mib\":[";
  for (std::size_t i = 0; i < r.peak_rss_mib.size(); ++i)
    out << (i ? "," : "") << r.peak_rss_mib[i];
  out << "],\"checks\":{";
  for (std::size_t i = 0; i < r.checks.size(); ++i) {
    out << (i ? "," : "") << json_string(r.checks[i].name) << ":" << std::setprecision(17)
        << r.checks[i].value;
  }
  out << "}}\n";
}

}  // namespace distlops::bench
