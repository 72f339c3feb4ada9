// SPDX-License-Identifier: BSD-3-Clause
// Copyright (c) 2026 The distlops authors
#include "distlops/core/log_view.hpp"

#include <algorithm>
#include <chrono>
#include <cstring>
#include <map>
#include <tuple>

#include "distlops/core/communicator.hpp"
#include "distlops/core/detail/enum_names.hpp"

namespace distlops::log_view {

namespace detail {
bool enabled_flag = false;

std::int64_t now_ns() noexcept {
  return std::chrono::duration_cast<std::chrono::nanoseconds>(
             std::chrono::steady_clock::now().time_since_epoch())
      .count();
}
}  // namespace detail

namespace {

struct Record {
  EventKind kind;
  std::string name;
  std::int64_t count = 0;
  std::int64_t nanoseconds = 0;
  Traffic traffic;
};

/// This rank's events. A handful of distinct events is usual, so a linear search by name is
/// as fast as a hash and keeps the order of first occurrence. Never destroyed: the table may be
/// printed from a static object's destructor, and where ranks are contexts of one process
/// whose globals are privatised by remapping them (SimGrid's SMPI, smpi/privatization:mmap)
/// every rank would register a destruction of the one address.
std::vector<Record>& records() {
  static auto* const all = new std::vector<Record>();
  return *all;
}

std::int64_t& wall_start() {
  static std::int64_t start = detail::now_ns();
  return start;
}

/// Suspends recording for its lifetime: the log's own communication is not an event.
class Suspended {
 public:
  Suspended() : was_(detail::enabled_flag) { detail::enabled_flag = false; }
  ~Suspended() { detail::enabled_flag = was_; }

 private:
  bool was_;
};

int kind_order(EventKind kind) {
  return static_cast<int>(kind);
}

}  // namespace

const char* to_string(EventKind kind) {
  return distlops::detail::enum_name(
      kind, std::array{"apply", "adjoint", "exchange", "collective", "message"}, "?");
}

void detail::record(EventKind kind, std::string_view name, std::int64_t nanoseconds,
                    std::int64_t count, Traffic traffic) noexcept {
  try {
    for (Record& r : records()) {
      if (r.kind == kind && r.name == name) {
        r.count += count;
        r.nanoseconds += nanoseconds;
        r.traffic.messages += traffic.messages;
        r.traffic.bytes += traffic.bytes;
        return;
      }
    }
    records().push_back({kind, std::string(name), count, nanoseconds, traffic});
  } catch (...) {
    // Out of memory while logging: the event is lost, the computation goes on.
  }
}

void set_enabled(bool on) noexcept {
  if (on && !detail::enabled_flag) wall_start() = detail::now_ns();
  detail::enabled_flag = on;
}

void reset() noexcept {
  records().clear();
  wall_start() = detail::now_ns();
}

std::vector<Event> local_events() {
  std::vector<Event> events;
  events.reserve(records().size());
  for (const Record& r : records())
    events.push_back({r.kind, r.name, r.count, double(r.nanoseconds) * 1e-9, r.traffic.messages,
                      r.traffic.bytes});
  return events;
}

namespace {

// Events cross ranks as bytes: kind, name length, name, count, seconds, messages, bytes.
template <class T>
void append(std::vector<char>& bytes, const T& value) {
  const char* p = reinterpret_cast<const char*>(&value);
  bytes.insert(bytes.end(), p, p + sizeof(T));
}

template <class T>
T take(const char*& p) {
  T value;
  std::memcpy(&value, p, sizeof(T));
  p += sizeof(T);
  return value;
}

}  // namespace

std::vector<EventSummary> summarise(const Communicator& comm) {
  return summarise(comm, local_events());
}

std::vector<EventSummary> summarise(const Communicator& comm, const std::vector<Event>& recorded) {
  const Suspended suspended;
  std::vector<char> mine;
  for (const Event& e : recorded) {
    append(mine, static_cast<std::int32_t>(e.kind));
    append(mine, static_cast<std::int64_t>(e.name.size()));
    mine.insert(mine.end(), e.name.begin(), e.name.end());
    append(mine, e.count);
    append(mine, e.seconds);
    append(mine, e.messages);
    append(mine, e.bytes);
  }
  const std::vector<Index> counts = comm.allgather(static_cast<Index>(mine.size()));
  std::vector<Index> displacements(counts.size(), 0);
  for (std::size_t r = 1; r < counts.size(); ++r)
    displacements[r] = displacements[r - 1] + counts[r - 1];
  std::vector<char> all(static_cast<std::size_t>(displacements.back() + counts.back()));
  comm.allgatherv(mine.data(), static_cast<Index>(mine.size()), all.data(), counts, displacements);

  std::map<std::pair<int, std::string>, EventSummary> merged;
  std::map<std::pair<int, std::string>, int> ranks_with;
  for (std::size_t r = 0; r < counts.size(); ++r) {
    const char* p = all.data() + displacements[r];
    const char* end = p + counts[r];
    while (p < end) {
      const auto kind = static_cast<EventKind>(take<std::int32_t>(p));
      const auto length = static_cast<std::size_t>(take<std::int64_t>(p));
      std::string name(p, length);
      p += length;
      const auto count = take<std::int64_t>(p);
      const auto seconds = take<double>(p);
      const auto messages = take<std::int64_t>(p);
      const auto bytes = take<std::int64_t>(p);
      const auto key = std::make_pair(kind_order(kind), name);
      auto [it, fresh] = merged.try_emplace(key, EventSummary{kind, name, count, count, 0, 0});
      EventSummary& s = it->second;
      const double share = 1.0 / double(comm.size());
      s.count_min = std::min(s.count_min, count);
      s.count_max = std::max(s.count_max, count);
      s.seconds_max = std::max(s.seconds_max, seconds);
      s.seconds_mean += seconds * share;
      s.messages_max = std::max(s.messages_max, messages);
      s.messages_mean += double(messages) * share;
      s.bytes_max = std::max(s.bytes_max, bytes);
      s.bytes_mean += double(bytes) * share;
      ++ranks_with[key];
    }
  }
  std::vector<EventSummary> events;
  for (auto& [key, s] : merged) {
    if (ranks_with[key] < comm.size()) s.count_min = 0;  // some rank never recorded it
    events.push_back(std::move(s));
  }
  std::stable_sort(events.begin(), events.end(), [](const EventSummary& a, const EventSummary& b) {
    return std::make_tuple(kind_order(a.kind), -a.seconds_max, a.name) <
           std::make_tuple(kind_order(b.kind), -b.seconds_max, b.name);
  });
  return events;
}

std::string format_table(const std::vector<EventSummary>& events, int ranks, double wall_seconds) {
  std::size_t width = 5;
  for (const EventSummary& e : events)
    width = std::max(width, e.name.size());
  std::string text;
  char line[512];
  std::snprintf(line, sizeof line,
                "distlops event log: %d rank(s), %.4g s of wall time (max over ranks)\n", ranks,
                wall_seconds);
  text += line;
  std::snprintf(line, sizeof line, "%-*s  %-10s  %15s  %12s  %13s  %6s  %10s  %14s\n", int(width),
                "event", "kind", "count", "max time (s)", "mean time (s)", "% wall", "messages",
                "bytes");
  text += line;
  text +=
      std::string(width + 2 + 10 + 2 + 15 + 2 + 12 + 2 + 13 + 2 + 6 + 2 + 10 + 2 + 14, '-') + "\n";
  for (const EventSummary& e : events) {
    char count[48];
    if (e.count_min == e.count_max)
      std::snprintf(count, sizeof count, "%lld", static_cast<long long>(e.count_max));
    else
      std::snprintf(count, sizeof count, "%lld-%lld", static_cast<long long>(e.count_min),
                    static_cast<long long>(e.count_max));
    const double share = wall_seconds > 0 ? 100.0 * e.seconds_max / wall_seconds : 0.0;
    // What a rank sent, the most of any rank; operators and exchanges send through the
    // collectives and messages of their own rows.
    char messages[24] = "-", bytes[24] = "-";
    if (e.kind == EventKind::collective || e.kind == EventKind::message) {
      std::snprintf(messages, sizeof messages, "%lld", static_cast<long long>(e.messages_max));
      std::snprintf(bytes, sizeof bytes, "%lld", static_cast<long long>(e.bytes_max));
    }
    std::snprintf(line, sizeof line, "%-*s  %-10s  %15s  %12.4e  %13.4e  %6.1f  %10s  %14s\n",
                  int(width), e.name.c_str(), to_string(e.kind), count, e.seconds_max,
                  e.seconds_mean, share, messages, bytes);
    text += line;
  }
  if (events.empty()) text += "(no events recorded)\n";
  return text;
}

void print(const Communicator& comm, std::FILE* out) {
  const std::vector<EventSummary> events = summarise(comm);
  const Suspended suspended;
  const double wall = comm.allreduce(double(detail::now_ns() - wall_start()) * 1e-9, ReduceOp::max);
  if (comm.rank() != 0) return;
  const std::string table = format_table(events, comm.size(), wall);
  std::fputs(table.c_str(), out);
  std::fflush(out);
}

}  // namespace distlops::log_view
