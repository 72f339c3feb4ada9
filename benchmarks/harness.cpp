// SPDX-License-Identifier: BSD-3-Clause
// Copyright (c) 2026 The distlops authors
#include "harness.hpp"

#include <linux/perf_event.h>
#include <sys/ioctl.h>
#include <sys/resource.h>
#include <sys/syscall.h>
#include <unistd.h>

#if defined(__x86_64__)
#include <emmintrin.h>
#endif

#include <algorithm>
#include <cerrno>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <iomanip>
#include <sstream>
#include <stdexcept>

namespace distlops::bench {

const std::string* Parameters::given_value(const std::string& key) const {
  if (std::none_of(keys_.begin(), keys_.end(), [&](const Key& k) { return k.name == key; })) {
    throw std::logic_error(
        "distlops_bench: case " + case_name_ + " reads the --set key " + key +
        ", which case_keys() does not declare for it (benchmarks/case_keys.cpp)");
  }
  const auto found = values_.find(key);
  return found == values_.end() ? nullptr : &found->second;
}

Index Parameters::integer(const std::string& key, Index fallback) const {
  const std::string* given = given_value(key);
  const Index value = given ? integer_value(*given) : fallback;
  used_[key] = std::to_string(value);
  return value;
}

double Parameters::real(const std::string& key, double fallback) const {
  const std::string* given = given_value(key);
  const double value = given ? real_value(*given) : fallback;
  std::ostringstream text;
  text << value;
  used_[key] = text.str();
  return value;
}

std::string Parameters::text(const std::string& key, const std::string& fallback) const {
  const std::string* given = given_value(key);
  const std::string value = given ? *given : fallback;
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

// Wall time of f on the slowest rank, started together after a barrier. Never inlined, so
// that callgrind can count the timed repeats alone (--toggle-collect='*timed_repeat*'). MPI's
// clock, so that a simulated MPI (SimGrid's SMPI, docs/benchmarks.md) reports simulated time.
template <class F>
[[gnu::noinline]] double timed_repeat(const Communicator& comm, F&& f) {
  comm.barrier();
  const double start = MPI_Wtime();
  f();
  const double local = MPI_Wtime() - start;
  return comm.allreduce(local, ReduceOp::max);
}

// The user-space instructions this thread retires, from the kernel's hardware counter. The
// library runs each rank's work on the calling thread (one BLAS thread, no OpenMP), so the
// thread's count is the rank's. Virtual machines often expose no counter: then available()
// is false and note() says why, and the figures come from callgrind instead (docs).
class InstructionCounter {
 public:
  InstructionCounter() {
    perf_event_attr attr{};
    attr.size = sizeof(attr);
    attr.type = PERF_TYPE_HARDWARE;
    attr.config = PERF_COUNT_HW_INSTRUCTIONS;
    attr.disabled = 1;
    attr.exclude_kernel = 1;
    attr.exclude_hv = 1;
    fd_ = static_cast<int>(syscall(SYS_perf_event_open, &attr, 0, -1, -1, 0));
    if (fd_ < 0) note_ = std::string("perf_event_open: ") + std::strerror(errno);
  }
  ~InstructionCounter() {
    if (fd_ >= 0) close(fd_);
  }
  InstructionCounter(const InstructionCounter&) = delete;
  InstructionCounter& operator=(const InstructionCounter&) = delete;

  bool available() const { return fd_ >= 0; }
  const std::string& note() const { return note_; }
  void start() {
    if (fd_ < 0) return;
    ioctl(fd_, PERF_EVENT_IOC_RESET, 0);
    ioctl(fd_, PERF_EVENT_IOC_ENABLE, 0);
  }
  /// The count since start(), or -1 when it could not be read.
  double stop() {
    if (fd_ < 0) return -1;
    ioctl(fd_, PERF_EVENT_IOC_DISABLE, 0);
    std::uint64_t count = 0;
    if (read(fd_, &count, sizeof(count)) != static_cast<ssize_t>(sizeof(count))) {
      note_ = "perf_event read failed";
      return -1;
    }
    return static_cast<double>(count);
  }

 private:
  int fd_ = -1;
  std::string note_;
};

// The machine's 1-minute load average, the largest any rank sees.
double load_average(const Communicator& comm) {
  double load[1] = {0};
  if (getloadavg(load, 1) != 1) load[0] = -1;
  return comm.allreduce(load[0], ReduceOp::max);
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

// This rank's communication between two snapshots of its event log: `later` less `earlier`,
// the kinds that communicate only (collectives, messages, exchanges).
std::vector<log_view::Event> communication_since(const std::vector<log_view::Event>& earlier,
                                                 const std::vector<log_view::Event>& later) {
  std::vector<log_view::Event> difference;
  for (log_view::Event event : later) {
    if (event.kind == log_view::EventKind::apply || event.kind == log_view::EventKind::adjoint)
      continue;
    for (const log_view::Event& before : earlier) {
      if (before.kind == event.kind && before.name == event.name) {
        event.count -= before.count;
        event.seconds -= before.seconds;
        event.messages -= before.messages;
        event.bytes -= before.bytes;
        break;
      }
    }
    if (event.count > 0) difference.push_back(event);
  }
  return difference;
}

}  // namespace

Communication count_communication(const Communicator& comm, const Run& run) {
  const bool was_recording = log_view::enabled();
  comm.barrier();
  log_view::set_enabled(true);
  const std::vector<log_view::Event> before = log_view::local_events();
  run.body();
  const std::vector<log_view::Event> after = log_view::local_events();
  log_view::set_enabled(was_recording);
  const std::vector<log_view::Event> mine = communication_since(before, after);

  Communication communication;
  communication.counted = true;
  communication.units = run.units_done ? run.units_done() : run.units;
  const double per_unit = 1.0 / static_cast<double>(std::max<Index>(1, communication.units));
  // Totals per rank, then their maximum and mean: the busiest rank's messages need not be the
  // busiest rank's bytes.
  double totals[3] = {0, 0, 0};  // messages, bytes, collective calls
  for (const log_view::Event& event : mine) {
    if (event.kind == log_view::EventKind::message) {
      totals[0] += static_cast<double>(event.messages);
      totals[1] += static_cast<double>(event.bytes);
    } else if (event.kind == log_view::EventKind::collective) {
      totals[2] += static_cast<double>(event.count);
    }
  }
  double most[3], sum[3];
  comm.allreduce(totals, most, 3, ReduceOp::max);
  comm.allreduce(totals, sum, 3, ReduceOp::sum);
  const double ranks = comm.size();
  communication.messages_max = most[0] * per_unit;
  communication.messages_mean = sum[0] / ranks * per_unit;
  communication.bytes_max = most[1] * per_unit;
  communication.bytes_mean = sum[1] / ranks * per_unit;
  communication.collective_calls = most[2] * per_unit;
  for (const log_view::EventSummary& event : log_view::summarise(comm, mine)) {
    communication.events.push_back(
        {event.name, log_view::to_string(event.kind),
         static_cast<double>(event.count_max) * per_unit,
         static_cast<double>(event.count_min) * per_unit,
         static_cast<double>(event.messages_max) * per_unit, event.messages_mean * per_unit,
         static_cast<double>(event.bytes_max) * per_unit, event.bytes_mean * per_unit});
  }
  return communication;
}

double check_value(const std::vector<Check>& checks, const std::string& name) {
  for (const Check& check : checks) {
    if (check.name == name) return check.value;
  }
  throw InvalidArgument("distlops_bench: no check value called " + name);
}

Result measure(const Communicator& comm, const std::string& name, const Parameters& parameters,
               Run run, int warmup, int repeats, double triad, bool verify,
               bool with_communication) {
  Result result;
  result.name = name;
  result.ranks = comm.size();
  for (int i = 0; i < warmup; ++i)
    timed_repeat(comm, run.body);
  InstructionCounter counter;
  result.load_before = load_average(comm);
  double instructions = 0;
  for (int i = 0; i < repeats; ++i) {
    counter.start();
    result.seconds.push_back(timed_repeat(comm, run.body));
    const double count = counter.stop();
    instructions = count < 0 || instructions < 0 ? -1 : instructions + count;
  }
  result.load_after = load_average(comm);
  // After the timed repeats: the counting repeat's recording costs them nothing.
  if (with_communication) result.communication = count_communication(comm, run);
  result.median_seconds = median(result.seconds);
  result.min_seconds = result.median_seconds;
  result.round_medians = {result.median_seconds};
  result.units = run.units_done ? run.units_done() : run.units;
  result.unit_name = run.unit_name;
  const double units = static_cast<double>(std::max<Index>(1, result.units));
  result.seconds_per_unit = result.median_seconds / units;
  result.min_seconds_per_unit = result.seconds_per_unit;
  if (!result.seconds.empty()) {
    const auto [fastest, slowest] =
        std::minmax_element(result.seconds.begin(), result.seconds.end());
    result.spread = *fastest > 0 ? (*slowest - *fastest) / *fastest : 0;
  }
  // Every rank must agree on whether the count exists before summing it.
  const bool counted = comm.allreduce(instructions < 0 ? 0 : 1, ReduceOp::min) == 1;
  if (counted) {
    result.instructions_per_unit =
        comm.allreduce(instructions, ReduceOp::sum) / (units * std::max(1, repeats));
  } else {
    result.instructions_note = counter.note().empty() ? "no counter on some rank" : counter.note();
  }
  result.bytes_per_unit = run.bytes_per_unit;
  result.bandwidth = result.seconds_per_unit > 0 ? run.bytes_per_unit / result.seconds_per_unit : 0;
  result.fraction_of_triad = triad > 0 ? result.bandwidth / triad : 0;
  result.fraction_of_reference = result.fraction_of_triad;
  result.peak_rss_mib = comm.allgather(peak_rss_mib());
  if (run.checks) result.checks = run.checks();
  if (verify && run.verify) result.failures = run.verify(result.checks);
  result.parameters = parameters.used();
  result.settings = parameters.given();
  return result;
}

Result merge_rounds(std::vector<Result> rounds) {
  if (rounds.empty()) throw InvalidArgument("distlops_bench: merge_rounds of no rounds");
  Result merged = rounds.back();
  merged.seconds.clear();
  merged.round_medians.clear();
  for (const Result& round : rounds) {
    merged.seconds.insert(merged.seconds.end(), round.seconds.begin(), round.seconds.end());
    merged.round_medians.push_back(round.median_seconds);
  }
  merged.load_before = rounds.front().load_before;
  merged.median_seconds = median(merged.round_medians);
  merged.min_seconds = *std::min_element(merged.round_medians.begin(), merged.round_medians.end());
  const double units = static_cast<double>(std::max<Index>(1, merged.units));
  merged.seconds_per_unit = merged.median_seconds / units;
  merged.min_seconds_per_unit = merged.min_seconds / units;
  const auto [fastest, slowest] = std::minmax_element(merged.seconds.begin(), merged.seconds.end());
  merged.spread = *fastest > 0 ? (*slowest - *fastest) / *fastest : 0;
  merged.bandwidth =
      merged.seconds_per_unit > 0 ? merged.bytes_per_unit / merged.seconds_per_unit : 0;
  return merged;
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
    seconds.push_back(timed_repeat(comm, triad));
  // STREAM's count (read b and c, write a) and STREAM's choice of the best repeat: on a shared
  // machine the median drifts with the load; the best repeat is the closest to the bound.
  const double bytes = 3.0 * 8.0 * static_cast<double>(elements) * comm.size();
  return bytes / *std::min_element(seconds.begin(), seconds.end());
}

double copy_bandwidth(const Communicator& comm, Index elements, int repeats, bool streaming) {
#if defined(__x86_64__)
  // std::vector's storage is 16-byte aligned here, as _mm_store_pd and _mm_stream_pd need.
  std::vector<double> a(static_cast<std::size_t>(elements), 0.0), b(a.size(), 1.0);
  // Explicit 16-byte loads and stores, so that the compiler neither calls memcpy (which may
  // stream on its own) nor changes the store instruction.
  auto copy = [&] {
    double* pa = a.data();
    const double* pb = b.data();
    const Index pairs = elements / 2;
    if (streaming) {
      for (Index i = 0; i < pairs; ++i)
        _mm_stream_pd(pa + 2 * i, _mm_load_pd(pb + 2 * i));
      _mm_sfence();
    } else {
      for (Index i = 0; i < pairs; ++i)
        _mm_store_pd(pa + 2 * i, _mm_load_pd(pb + 2 * i));
    }
  };
  copy();
  std::vector<double> seconds;
  for (int i = 0; i < repeats; ++i)
    seconds.push_back(timed_repeat(comm, copy));
  const double bytes = 2.0 * 8.0 * static_cast<double>(elements / 2 * 2) * comm.size();
  return bytes / *std::min_element(seconds.begin(), seconds.end());
#else
  (void)comm, (void)elements, (void)repeats, (void)streaming;
  return 0;
#endif
}

void print_table(std::ostream& out, const std::vector<Result>& results,
                 const Reference& reference) {
  const std::string percent = reference.name == "triad" ? "%triad" : "%copy";
  out << "\n"
      << std::left << std::setw(16) << "case" << std::right << std::setw(6) << "ranks"
      << std::setw(13) << "median" << std::setw(13) << "per unit" << std::setw(13) << "min/unit"
      << std::setw(12) << "bytes/unit" << std::setw(12) << "bandwidth" << std::setw(9) << percent
      << std::setw(8) << "spread" << std::setw(11) << "load" << std::setw(11) << "instr/unit"
      << std::setw(10) << "peak MiB"
      << "  checks\n";
  for (const Result& r : results) {
    std::ostringstream checks;
    for (const Check& check : r.checks)
      checks << check.name << "=" << std::setprecision(6) << check.value << " ";
    std::ostringstream load, instructions;
    load << std::fixed << std::setprecision(1) << r.load_before << "-" << r.load_after;
    if (r.instructions_per_unit >= 0) {
      instructions << std::setprecision(4) << r.instructions_per_unit;
    } else {
      instructions << "-";
    }
    out << std::left << std::setw(16) << r.name << std::right << std::setw(6) << r.ranks
        << std::setw(13) << human_seconds(r.median_seconds) << std::setw(13)
        << human_seconds(r.seconds_per_unit) << std::setw(13)
        << human_seconds(r.min_seconds_per_unit) << std::setw(12) << human_bytes(r.bytes_per_unit)
        << std::setw(10) << human_bytes(r.bandwidth) << "/s" << std::setw(8) << std::fixed
        << std::setprecision(1) << 100.0 * r.fraction_of_reference << "%" << std::setw(7)
        << std::setprecision(0) << 100.0 * r.spread << "%" << std::setw(11) << load.str()
        << std::setw(11) << instructions.str() << std::setw(10) << std::setprecision(1)
        << *std::max_element(r.peak_rss_mib.begin(), r.peak_rss_mib.end()) << std::defaultfloat
        << "  " << checks.str() << "\n";
  }
  for (const Result& r : results) {
    if (r.spread > spread_warning) {
      out << "warning: " << r.name << " at " << r.ranks << " rank(s): the repeats spread by "
          << std::fixed << std::setprecision(0) << 100.0 * r.spread << "% (over "
          << 100.0 * spread_warning << "%), load average " << std::setprecision(1) << r.load_before
          << " to " << r.load_after << std::defaultfloat << ": take its times as indicative\n";
    }
  }
  if (!results.empty() && results.front().instructions_per_unit < 0) {
    out << "instructions: not counted (" << results.front().instructions_note
        << "); see docs/benchmarks.md for callgrind\n";
  }
  if (reference.bytes_per_second > 0) {
    out << reference.name << " bandwidth (all ranks): " << human_bytes(reference.bytes_per_second)
        << "/s";
    // What the ordinary stores also move: the destination line read before it is written.
    if (reference.name == "triad")
      out << " (" << human_bytes(reference.bytes_per_second * 4.0 / 3.0)
          << "/s counting the write-allocate read of a)";
    out << "\n";
  }
  if (reference.copy_bytes_per_second > 0) {
    out << "copy bandwidth (all ranks, 16 bytes per element): ordinary stores "
        << human_bytes(reference.copy_bytes_per_second) << "/s ("
        << human_bytes(reference.copy_bytes_per_second * 1.5)
        << "/s counting the write-allocate read), streaming stores "
        << human_bytes(reference.copy_streaming_bytes_per_second) << "/s\n";
  }
}

void print_communication_table(std::ostream& out, const std::vector<Result>& results) {
  if (std::none_of(results.begin(), results.end(),
                   [](const Result& r) { return r.communication.counted; }))
    return;
  out << "\ncommunication per unit and rank (the busiest rank; from the event log over one more "
         "repeat)\n"
      << std::left << std::setw(16) << "case" << std::right << std::setw(6) << "ranks"
      << "  " << std::left << std::setw(10) << "unit" << std::right << std::setw(10) << "messages"
      << std::setw(12) << "bytes"
      << "  collectives (calls x payload) and exchanges\n";
  for (const Result& r : results) {
    const Communication& c = r.communication;
    if (!c.counted) continue;
    std::ostringstream calls, messages;
    messages << std::setprecision(4) << c.messages_max;
    for (const CommunicationEvent& e : c.events) {
      if (e.kind == "collective") {
        const double payload = e.calls_max > 0 ? e.bytes_max / e.calls_max : 0;
        calls << e.name << " " << std::setprecision(4) << e.calls_max << " x "
              << human_bytes(payload) << "  ";
      } else if (e.kind == "exchange") {
        calls << e.name << " " << std::setprecision(4) << e.calls_max << "  ";
      }
    }
    out << std::left << std::setw(16) << r.name << std::right << std::setw(6) << r.ranks << "  "
        << std::left << std::setw(10) << r.unit_name << std::right << std::setw(10)
        << messages.str() << std::setw(12) << human_bytes(c.bytes_max) << "  " << calls.str()
        << "\n";
  }
}

void print_sweep_table(std::ostream& out, const std::vector<Result>& results,
                       const Reference& reference) {
  const std::string percent = reference.name == "triad" ? "%triad" : "%copy";
  out << "\nsweep\n"
      << std::left << std::setw(16) << "case" << std::right << std::setw(14) << "size"
      << std::setw(13) << "per unit" << std::setw(14) << "per unknown" << std::setw(12)
      << "bandwidth" << std::setw(9) << percent << std::setw(8) << "spread"
      << "\n";
  for (const Result& r : results) {
    if (r.unknowns <= 0) continue;
    std::ostringstream size;
    const auto nx = r.parameters.find("nx"), ny = r.parameters.find("ny"),
               n = r.parameters.find("n");
    if (nx != r.parameters.end() && ny != r.parameters.end()) {
      size << nx->second << " x " << ny->second;
    } else if (n != r.parameters.end()) {
      size << "n = " << n->second;
    }
    std::ostringstream per_unknown;
    per_unknown << std::setprecision(3) << r.seconds_per_unit / r.unknowns * 1e9 << " ns";
    out << std::left << std::setw(16) << r.name << std::right << std::setw(14) << size.str()
        << std::setw(13) << human_seconds(r.seconds_per_unit) << std::setw(14) << per_unknown.str()
        << std::setw(10) << human_bytes(r.bandwidth) << "/s" << std::setw(8) << std::fixed
        << std::setprecision(1) << 100.0 * r.fraction_of_reference << "%" << std::setw(7)
        << std::setprecision(0) << 100.0 * r.spread << "%" << std::defaultfloat << "\n";
  }
}

}  // namespace distlops::bench
