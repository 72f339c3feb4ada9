// SPDX-License-Identifier: BSD-3-Clause
// Copyright (c) 2026 The distlops authors
#pragma once
/// \file log_view.hpp
/// The event log, in the manner of PETSc's -log_view: how many times, and for how long, each
/// operator was applied (by its name, forward and adjoint apart), each exchange ran (ghost
/// cells, halos, redistributions, which include the FFTs' transposes) and each collective was
/// called (MPI_Allreduce, MPI_Bcast, ..., and NCCL's on device data), with the bytes each
/// collective carried and the point-to-point messages each rank sent. The Environment turns it
/// on when DISTLOPS_LOG_VIEW=1 is set, when `-log_view` is on the command line or when
/// EnvironmentOptions::log_view asks, and prints the table on rank 0 of the world when it
/// finalises MPI (docs/log_view.md describes the table).
///
/// Events are recorded at the central entry points only (the operator handles' apply
/// functions, the Communicator's collectives, the exchange routines), never in kernels. Off,
/// an entry point costs one test of a flag. Times are inclusive: a composite operator's time
/// contains its parts', an exchange's the collectives it calls. Recording is not thread-safe:
/// events are recorded by the thread that calls MPI, as the rest of the library assumes.
///
/// \code
///   distlops::log_view::set_enabled(true);     // on this rank; every rank must do the same
///   ... apply operators, solve ...
///   distlops::log_view::print(Communicator::world());   // collective; rank 0 prints
/// \endcode

#include <cstdint>
#include <cstdio>
#include <string>
#include <string_view>
#include <vector>

namespace distlops {

class Communicator;

/// The event log (PETSc's -log_view): counts and times of operator applies, exchanges and
/// collectives, per rank, summarised over the ranks.
namespace log_view {

/// What an event measures.
enum class EventKind {
  apply,       ///< An operator's forward apply (apply, apply_add).
  adjoint,     ///< An operator's adjoint apply (apply_adjoint, apply_adjoint_add).
  exchange,    ///< Data moved between neighbouring or all ranks (ghost cells, redistribute).
  collective,  ///< One collective call (MPI or NCCL).
  message,     ///< Point-to-point messages this rank sent to another rank (MPI or NCCL).
};
/// "apply", "adjoint", "exchange", "collective" or "message": the table's names of the kinds.
const char* to_string(EventKind kind);

/// What an occurrence of an event sent from this rank: the model of its communication.
/// - A point-to-point send (kind message): one message of `bytes` to another rank (messages to
///   the rank itself are not recorded).
/// - A collective: `bytes` is its payload as this rank hands it to the call: the buffer of a
///   reduction or a broadcast, the block this rank contributes to a gather or an allgather, the
///   blocks it addresses to the other ranks in a scatter (on the root) or an all-to-all.
///   `messages` counts the non-empty blocks for other ranks of an all-to-all (how many peers it
///   talks to); for the other collectives the MPI library chooses the messages (a tree, a
///   ring) and `messages` stays 0: their calls and bytes describe them.
struct Traffic {
  std::int64_t messages = 0;  ///< Messages to other ranks.
  std::int64_t bytes = 0;     ///< Payload bytes, as above.
};

namespace detail {
/// The switch the entry points test; set through set_enabled.
extern bool enabled_flag;
/// Monotonic clock in nanoseconds.
std::int64_t now_ns() noexcept;
/// Adds `count` occurrences taking `nanoseconds` in all and sending `traffic` in all to the
/// event (kind, name).
void record(EventKind kind, std::string_view name, std::int64_t nanoseconds, std::int64_t count = 1,
            Traffic traffic = {}) noexcept;
}  // namespace detail

/// Whether events are being recorded on this rank.
inline bool enabled() noexcept {
  return detail::enabled_flag;
}
/// Starts (or stops) recording on this rank. Not collective: print needs every rank of its
/// communicator to have recorded alike, so every rank should call it with the same value.
void set_enabled(bool on) noexcept;
/// Forgets every event recorded so far on this rank and restarts the wall clock of the table.
void reset() noexcept;

/// One rank's record of one event.
struct Event {
  EventKind kind;             ///< What the event measures.
  std::string name;           ///< The operator's name, the exchange's or the MPI/NCCL call's.
  std::int64_t count = 0;     ///< How many times it occurred.
  double seconds = 0;         ///< Total (inclusive) time of its occurrences.
  std::int64_t messages = 0;  ///< Messages to other ranks of its occurrences (Traffic).
  std::int64_t bytes = 0;     ///< Payload bytes of its occurrences (Traffic).
};
/// This rank's events, in the order they were first recorded.
std::vector<Event> local_events();

/// One event over the ranks of a communicator; ranks that never recorded it count as zero.
struct EventSummary {
  EventKind kind;                 ///< What the event measures.
  std::string name;               ///< As Event::name.
  std::int64_t count_min = 0;     ///< The smallest count of a rank.
  std::int64_t count_max = 0;     ///< The largest count of a rank.
  double seconds_max = 0;         ///< The largest time of a rank.
  double seconds_mean = 0;        ///< The mean time over the ranks.
  std::int64_t messages_max = 0;  ///< The most messages a rank sent (Traffic).
  double messages_mean = 0;       ///< The mean over the ranks of the messages sent.
  std::int64_t bytes_max = 0;     ///< The most payload bytes of a rank (Traffic).
  double bytes_mean = 0;          ///< The mean over the ranks of the payload bytes.
};
/// The events of every rank of `comm`, merged by (kind, name) and ordered by kind, then by
/// decreasing maximum time. Collective; the result is the same on every rank. Its own
/// communication is not recorded.
std::vector<EventSummary> summarise(const Communicator& comm);
/// As summarise(comm), of the given events of each rank (a part of the log, such as the
/// difference of two local_events() taken around a piece of work).
std::vector<EventSummary> summarise(const Communicator& comm, const std::vector<Event>& events);
/// The table print writes, from summaries of `ranks` ranks and the wall time they cover.
std::string format_table(const std::vector<EventSummary>& events, int ranks, double wall_seconds);
/// Summarises the events of `comm` and writes the table to `out` on its rank 0. Collective.
void print(const Communicator& comm, std::FILE* out = stdout);

/// Records one occurrence of an event, timed from construction to destruction, when recording
/// is on; does nothing else otherwise. `name` must outlive the object.
class ScopedEvent {
 public:
  /// Starts timing the event (kind, name), which sends `traffic`, when recording is on.
  ScopedEvent(EventKind kind, std::string_view name, Traffic traffic = {}) noexcept {
    if (enabled()) {
      kind_ = kind;
      name_ = name;
      traffic_ = traffic;
      start_ = detail::now_ns();
      active_ = true;
    }
  }
  /// Records the occurrence when timing started.
  ~ScopedEvent() {
    if (active_) detail::record(kind_, name_, detail::now_ns() - start_, 1, traffic_);
  }
  ScopedEvent(const ScopedEvent&) = delete;             ///< One scope, one record.
  ScopedEvent& operator=(const ScopedEvent&) = delete;  ///< One scope, one record.

 private:
  bool active_ = false;
  EventKind kind_ = EventKind::apply;
  std::string_view name_;
  Traffic traffic_;
  std::int64_t start_ = 0;
};

}  // namespace log_view
}  // namespace distlops
