// SPDX-License-Identifier: BSD-3-Clause
// Copyright (c) 2026 The distlops authors
// The JSON lines of the report, written by nlohmann-json so that every value is valid JSON:
// a NaN or infinite figure (a case that did no work, a failed solve) becomes null, and any
// string (a parameter given with --set, a check name) is escaped, invalid UTF-8 replaced.
#include <nlohmann/json.hpp>

#include "harness.hpp"

namespace distlops::bench {

namespace {

// A figure that may be meaningless (a negative count means "not measured").
nlohmann::json optional_count(double value) {
  return value < 0 ? nlohmann::json(nullptr) : nlohmann::json(value);
}

}  // namespace

void print_json(std::ostream& out, const Result& r, const Reference& reference) {
  const double triad = reference.name == "triad" ? reference.bytes_per_second : 0.0;
  nlohmann::json line;
  line["case"] = r.name;
  line["ranks"] = r.ranks;
  // A partial line is written as its round ends (the reference is measured after every case);
  // the merged line of each case replaces it at the end of the run.
  line["partial"] = r.round > 0;
  if (r.round > 0) line["round"] = r.round;
  line["parameters"] = r.parameters;
  line["settings"] = r.settings;
  line["seconds"] = r.seconds;
  line["round_medians"] = r.round_medians;
  line["median_seconds"] = r.median_seconds;
  line["min_seconds"] = r.min_seconds;
  line["units"] = r.units;
  line["unit"] = r.unit_name;
  line["seconds_per_unit"] = r.seconds_per_unit;
  line["min_seconds_per_unit"] = r.min_seconds_per_unit;
  line["spread"] = r.spread;
  line["spread_warning"] = r.spread > spread_warning;
  line["load_average_before"] = r.load_before;
  line["load_average_after"] = r.load_after;
  line["instructions_per_unit"] = optional_count(r.instructions_per_unit);
  if (!r.instructions_note.empty()) line["instructions_note"] = r.instructions_note;
  if (r.unknowns > 0) {
    line["unknowns"] = r.unknowns;
    line["seconds_per_unknown"] = r.seconds_per_unit / r.unknowns;
  }
  line["bytes_per_unit"] = r.bytes_per_unit;
  line["bandwidth_bytes_per_second"] = r.bandwidth;
  line["triad_bytes_per_second"] = triad;
  line["fraction_of_triad"] = r.fraction_of_triad;
  line["reference"] = reference.name;
  line["reference_bytes_per_second"] = reference.bytes_per_second;
  line["fraction_of_reference"] = r.fraction_of_reference;
  line["copy_bytes_per_second"] = reference.copy_bytes_per_second;
  line["copy_streaming_bytes_per_second"] = reference.copy_streaming_bytes_per_second;
  line["peak_rss_mib"] = r.peak_rss_mib;
  if (r.communication.counted) {
    // Per unit and rank, from the library's event log (harness.hpp, Communication).
    const Communication& c = r.communication;
    nlohmann::json events = nlohmann::json::array();
    for (const CommunicationEvent& e : c.events) {
      events.push_back({{"name", e.name},
                        {"kind", e.kind},
                        {"calls_max", e.calls_max},
                        {"calls_min", e.calls_min},
                        {"messages_max", e.messages_max},
                        {"messages_mean", e.messages_mean},
                        {"bytes_max", e.bytes_max},
                        {"bytes_mean", e.bytes_mean}});
    }
    line["communication"] = {{"per", r.unit_name},
                             {"units_counted", c.units},
                             {"messages_max", c.messages_max},
                             {"messages_mean", c.messages_mean},
                             {"bytes_max", c.bytes_max},
                             {"bytes_mean", c.bytes_mean},
                             {"collective_calls", c.collective_calls},
                             {"events", events}};
  }
  nlohmann::json checks = nlohmann::json::object();
  for (const Check& check : r.checks)
    checks[check.name] = check.value;
  line["checks"] = checks;
  if (!r.failures.empty()) line["failures"] = r.failures;
  // NaN and infinities are written as null by dump(); replace keeps a stray byte of a
  // parameter from aborting the report.
  out << line.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace) << "\n";
}

}  // namespace distlops::bench
