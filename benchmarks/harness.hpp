// SPDX-License-Identifier: BSD-3-Clause
// Copyright (c) 2026 The distlops authors
#pragma once
// The benchmark harness: timing between barriers, the median over repeats of the slowest
// rank, the least bytes a case must move, the machine's triad bandwidth, peak memory, and the
// report as a table for people and JSON lines for tools.
#include <functional>
#include <map>
#include <ostream>
#include <string>
#include <vector>

#include "distlops/distlops.hpp"
#include "keys.hpp"

namespace distlops::bench {

/// Case parameters: every size and count can be overridden with --set key=value. A case reads
/// only the keys case_keys() declares for it (keys.hpp): reading another raises, so that the
/// declarations, which the driver checks --set against before any work, stay those of the code.
class Parameters {
 public:
  Parameters() = default;
  Parameters(std::map<std::string, std::string> values, std::string case_name,
             std::vector<Key> keys)
      : values_(std::move(values)), case_name_(std::move(case_name)), keys_(std::move(keys)) {}
  Index integer(const std::string& key, Index fallback) const;
  double real(const std::string& key, double fallback) const;
  std::string text(const std::string& key, const std::string& fallback) const;
  /// The parameters that were read, with the values used (for the report).
  const std::map<std::string, std::string>& used() const { return used_; }
  /// Every value given with --set, read by the case or not.
  const std::map<std::string, std::string>& given() const { return values_; }

 private:
  /// The value given for `key`, or nullptr; raises when the case does not declare `key`.
  const std::string* given_value(const std::string& key) const;

  std::map<std::string, std::string> values_;
  std::string case_name_;
  std::vector<Key> keys_;
  mutable std::map<std::string, std::string> used_;
};

/// A named check value (e.g. the final cost or the norm of an output), the same on every rank.
struct Check {
  std::string name;
  double value;
};

/// What a case sets up once and then runs repeatedly.
struct Run {
  /// One timed repeat (collective).
  std::function<void()> body;
  /// Work units per repeat (solver iterations, or applies) for the per-unit time.
  Index units = 1;
  /// When set, the units the last repeat actually did (a solver with tol = 0 still stops when
  /// its residual is exactly zero, as tiny-cgls's does after ~100 to 200 iterations).
  std::function<Index()> units_done;
  std::string unit_name = "iteration";
  /// Bytes one unit must move at the least over all ranks (each operand read once, each
  /// output written once).
  double bytes_per_unit = 0;
  /// Evaluated after the repeats.
  std::function<std::vector<Check>()> checks;
  /// With --check: compares the check values with expectations computed independently of the
  /// code under test (a serial formula, a property of the method) and returns one message per
  /// failure. Collective: called on every rank with the same check values.
  std::function<std::vector<std::string>(const std::vector<Check>&)> verify;
  /// Repeats when the command line does not say (docs/benchmarks.md's per-case counts).
  int default_repeats = 5;
};

struct Case {
  std::string name;
  std::string description;
  std::function<Run(const Communicator&, const Parameters&)> setup;
  /// Runs only when --cases names it: a case that needs what a default run of every case must
  /// not assume (big-transfer: 2 or more ranks and about 10 GiB of memory).
  bool on_request = false;
  /// The fewest ranks at which the case measures what it is named for (small-allreduce: a sum
  /// across ranks); a default run on fewer leaves it out, and naming it raises.
  int min_ranks = 1;
};

/// One kind of communication of a case, per unit (iteration or apply) and per rank, from the
/// event log (core/log_view.hpp) over one untimed repeat: a collective (its calls and payload
/// bytes), the point-to-point messages a rank sent (MPI_Isend, MPI_Send), or an exchange
/// (ghost cells, redistribute: calls only, its messages are in the message rows).
struct CommunicationEvent {
  std::string name;
  std::string kind;         // "collective", "message" or "exchange"
  double calls_max = 0;     // calls (messages, for kind "message") of the busiest rank
  double calls_min = 0;     // of the least busy rank
  double messages_max = 0;  // messages to other ranks (log_view::Traffic)
  double messages_mean = 0;
  double bytes_max = 0;  // payload bytes (log_view::Traffic)
  double bytes_mean = 0;
};

/// What one unit of a case communicates, counted by the library itself (the event log's
/// counters), so that a performance model or a simulation reads the code's own counts.
struct Communication {
  bool counted = false;  // false with --no-communication
  Index units = 0;       // units of the counted repeat
  /// Point-to-point messages a rank sent to other ranks per unit, and their bytes: the most of
  /// any rank and the mean over the ranks.
  double messages_max = 0, messages_mean = 0;
  double bytes_max = 0, bytes_mean = 0;
  /// Collective calls per unit of the busiest rank (every kind together).
  double collective_calls = 0;
  std::vector<CommunicationEvent> events;
};

/// Runs `run`'s body once more, untimed, with the event log recording, and returns what it
/// communicated per unit. The log's own state (on or off, its records) is kept: a run with
/// -log_view still reports every call. Collective.
Communication count_communication(const Communicator& comm, const Run& run);

struct Result {
  std::string name;
  int ranks = 1;
  /// The round (from 1) of a record written as that round ended, before the reference was
  /// measured ("partial" in the JSON line); 0 for the record merged over every round.
  int round = 0;
  std::map<std::string, std::string> parameters;  // those the case read, with the values used
  std::map<std::string, std::string> settings;    // every --set of the command line
  std::vector<double> seconds;  // per repeat (of every round), the slowest rank's time
  /// Per round: the median over that round's repeats (one entry without --rounds).
  std::vector<double> round_medians;
  double median_seconds = 0;        // median of round_medians
  double min_seconds = 0;           // least of round_medians
  double seconds_per_unit = 0;      // median_seconds per unit
  double min_seconds_per_unit = 0;  // min_seconds per unit
  /// (slowest - fastest) / fastest over every repeat of every round; above 20 % the figures
  /// are not to be trusted (the report warns).
  double spread = 0;
  /// The 1-minute load average of the machine before and after the case's repeats (rank 0's
  /// view; every rank of a run shares the machine or sees its own node).
  double load_before = 0, load_after = 0;
  /// User-space instructions per unit summed over ranks, counted by perf_event_open over the
  /// timed repeats; negative when the kernel or the machine offers no counter
  /// (instructions_note says why).
  double instructions_per_unit = -1;
  std::string instructions_note;
  /// Model unknowns over all ranks (--sweep; 0 when not reported).
  double unknowns = 0;
  Index units = 1;
  std::string unit_name;
  double bytes_per_unit = 0;
  double bandwidth = 0;              // bytes per second implied by the median
  double fraction_of_triad = 0;      // bandwidth / triad bandwidth (0 when not measured)
  double fraction_of_reference = 0;  // bandwidth / the reference of the run (triad or copy)
  std::vector<double> peak_rss_mib;  // per rank
  Communication communication;
  std::vector<Check> checks;
  std::vector<std::string> failures;  // of verify, when --check asked for it
};

/// The spread above which the report warns that a case's repeats disagree.
inline constexpr double spread_warning = 0.2;

/// Merges the results of the same case from several rounds (each a full measure()): the
/// median and the least of the per-round medians, every repeat's time, the loads of the
/// first and the last round, the instructions of the last. Throws on an empty list.
Result merge_rounds(std::vector<Result> rounds);

/// The value of the check called `name` (InvalidArgument when there is none).
double check_value(const std::vector<Check>& checks, const std::string& name);

/// Runs `run` warmup + repeats times, each between barriers, and fills the timing fields.
/// With `with_communication`, one more repeat, untimed, counts the communication
/// (count_communication).
Result measure(const Communicator& comm, const std::string& name, const Parameters& parameters,
               Run run, int warmup, int repeats, double triad_bandwidth, bool verify = false,
               bool with_communication = true);

/// Aggregate bandwidth of a STREAM-like triad a = b + s c run by every rank at once on its own
/// arrays of `elements` doubles: bytes per second over all ranks (best of `repeats`, as STREAM).
double triad_bandwidth(const Communicator& comm, Index elements, int repeats);

/// Aggregate bandwidth of a copy a = b run by every rank at once on its own arrays of `elements`
/// doubles, 16 bytes counted per element (STREAM's count: read b, write a), best of `repeats`.
/// With ordinary stores each line of a is also read first (write-allocate: 24 bytes move); with
/// `streaming` the stores go around the cache and 16 bytes move. The two measure, in the same
/// process as the cases, what the store instruction costs a kernel that reads one array and
/// writes another. 0 where there are no streaming stores (not x86-64).
double copy_bandwidth(const Communicator& comm, Index elements, int repeats, bool streaming);

/// Peak resident memory of this process in MiB: its high-water mark so far, so with several
/// cases in one run a case reports the largest of itself and the cases before it.
double peak_rss_mib();

/// The bandwidth the cases are compared with: the host triad, or with --space cuda the
/// device's copy bandwidth. `name` labels it in the table and the JSON lines ("triad",
/// "device-copy"); bytes_per_second is 0 when it was not measured.
struct Reference {
  std::string name = "triad";
  double bytes_per_second = 0;
  /// With the host triad: copy_bandwidth() with ordinary and with streaming stores (0 when
  /// not measured).
  double copy_bytes_per_second = 0;
  double copy_streaming_bytes_per_second = 0;
};

void print_table(std::ostream& out, const std::vector<Result>& results, const Reference& reference);
/// Per case and rank count: the messages and bytes a rank sends per unit and the collectives it
/// calls (Result::communication).
void print_communication_table(std::ostream& out, const std::vector<Result>& results);
void print_json(std::ostream& out, const Result& result, const Reference& reference);
/// --sweep: per case and size, the time per unit and per unknown and the fraction of the
/// reference bandwidth, where the caches end shows as the fraction falling.
void print_sweep_table(std::ostream& out, const std::vector<Result>& results,
                       const Reference& reference);

}  // namespace distlops::bench
