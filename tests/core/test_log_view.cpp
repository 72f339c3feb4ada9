// SPDX-License-Identifier: BSD-3-Clause
// Copyright (c) 2026 The distlops authors
// The event log: exact counts of operator applies, exchanges and collectives for a known
// sequence of calls, on layouts with uneven splits and a rank that owns nothing; nothing
// recorded while it is off; the merge over ranks and the table.
#include <algorithm>
#include <string>

#include "distlops/core/collective_check.hpp"
#include "distlops/core/log_view.hpp"
#include "distlops/operators/linear_operator.hpp"
#include "test_support.hpp"

using namespace distlops;
using distlops::testing::world;
namespace lv = distlops::log_view;

namespace {

/// y = 2 x, an operator the test owns, so that what its applies do is known exactly.
template <class T>
class Twice final : public LinearOperatorBase<DistributedArray<T>> {
 public:
  explicit Twice(const Layout& layout)
      : LinearOperatorBase<DistributedArray<T>>(layout, layout, "Twice") {}
  void forward(const DistributedArray<T>& x, DistributedArray<T>& y) const override {
    y.copy_from(x).scale(T(2));
  }
  void adjoint(const DistributedArray<T>& y, DistributedArray<T>& x) const override {
    x.copy_from(y).scale(T(2));
  }
};

/// This rank's record of (kind, name); a zero count when it was never recorded.
lv::Event find_local(lv::EventKind kind, const std::string& name) {
  for (const lv::Event& e : lv::local_events()) {
    if (e.kind == kind && e.name == name) return e;
  }
  return {kind, name, 0, 0.0, 0, 0};
}

/// The summary of (kind, name) over the ranks; fails the test when it is missing.
lv::EventSummary find_summary(const std::vector<lv::EventSummary>& events, lv::EventKind kind,
                              const std::string& name) {
  const auto it = std::find_if(events.begin(), events.end(), [&](const lv::EventSummary& e) {
    return e.kind == kind && e.name == name;
  });
  REQUIRE(it != events.end());
  return *it;
}

/// Uneven split along axis 0 of (rows, 3): 3 rows on rank 0, none on rank 1 (when there is one),
/// 2 on the others.
Layout uneven_layout(const Communicator& comm) {
  std::vector<Shape> shapes;
  Index rows = 0;
  for (int r = 0; r < comm.size(); ++r) {
    const Index extent = r == 0 ? 3 : r == 1 ? 0 : 2;
    shapes.push_back(Shape{extent, 3});
    rows += extent;
  }
  return Layout(comm, {rows, 3}, LayoutOptions{.local_shapes = shapes});
}

/// Recording on for the scope, from an empty log; off and empty afterwards.
struct Recording {
  Recording() {
    lv::reset();
    lv::set_enabled(true);
  }
  ~Recording() {
    lv::set_enabled(false);
    lv::reset();
  }
};

}  // namespace

TEMPLATE_TEST_CASE("log_view counts every operator apply by name and direction", "[log_view]",
                   float, double, std::complex<float>, std::complex<double>) {
  const Communicator comm = world();
  const Layout layout = uneven_layout(comm);
  const auto A = LinearOperator<TestType>::template make<Twice<TestType>>(layout);
  DistributedArray<TestType> x(layout, TestType(1)), y(layout, TestType(0));
  const Recording recording;
  for (int i = 0; i < 3; ++i)
    A.apply(x, y);
  y = A.apply(x);  // allocating form: one more apply
  A.apply_add(TestType(1), x, TestType(1), y);
  for (int i = 0; i < 2; ++i)
    A.apply_adjoint(y, x);
  A.apply_adjoint_add(TestType(1), y, TestType(0), x);

  CHECK(find_local(lv::EventKind::apply, "Twice").count == 5);
  CHECK(find_local(lv::EventKind::adjoint, "Twice").count == 3);
  CHECK(find_local(lv::EventKind::apply, "Twice").seconds >= 0.0);
  // The applies computed what they should (y = 2 + 2, x = 2 y): recording changes nothing.
  const std::vector<TestType> values = x.gather();
  CHECK(std::all_of(values.begin(), values.end(), [](TestType v) { return v == TestType(8); }));

  const auto events = lv::summarise(comm);
  const lv::EventSummary apply = find_summary(events, lv::EventKind::apply, "Twice");
  CHECK(apply.count_min == 5);
  CHECK(apply.count_max == 5);
  CHECK(apply.seconds_max >= apply.seconds_mean);
  CHECK(find_summary(events, lv::EventKind::adjoint, "Twice").count_max == 3);
}

TEST_CASE("log_view counts collectives and exchanges exactly", "[log_view]") {
  const Communicator comm = world();
  const int p = comm.size();
  // PyLops-MPI's split of 2 P + 1 rows: 3 on rank 0, 2 on the others (ghost cells need a
  // plane on every rank).
  const Layout layout(comm, {2 * p + 1, 3});
  DistributedArray<double> x(layout, 1.0), y(layout, 2.0);
  const Layout by_columns(comm, {2 * p + 1, 3}, Partition::SCATTER, 1);
  const Recording recording;

  for (int i = 0; i < 4; ++i)
    CHECK(x.dot(y) == Approx(2.0 * double(layout.global_size())));  // one allreduce each
  for (int i = 0; i < 2; ++i)
    CHECK(comm.broadcast(i + 10, p - 1) == i + 10);
  comm.barrier();
  (void)comm.allgather(comm.rank());
  for (int i = 0; i < 3; ++i)
    (void)x.add_ghost_cells(1, 1);
  const DistributedArray<double> moved = x.redistribute(by_columns);
  CHECK(moved.gather() == x.gather());

  CHECK(find_local(lv::EventKind::collective, "MPI_Bcast").count == 2);
  CHECK(find_local(lv::EventKind::collective, "MPI_Barrier").count == 1);
  CHECK(find_local(lv::EventKind::exchange, "ghost cells").count == 3);
  CHECK(find_local(lv::EventKind::exchange, "redistribute").count == 1);
  // The dots' allreduces and any the redistribution's planning makes; the dots alone while no
  // other call was made.
  lv::reset();
  for (int i = 0; i < 4; ++i)
    (void)x.dot(y);
  // Outside a solver each dot first agrees on its operands across the ranks (one allreduce;
  // none at one rank), then sums.
  CHECK(find_local(lv::EventKind::collective, "MPI_Allreduce").count == (p > 1 ? 8 : 4));
  CHECK(lv::local_events().size() == 1);
  lv::reset();
  {
    const AgreedOperands agreed;  // as in a solver's iterations: the sums alone
    for (int i = 0; i < 4; ++i)
      (void)x.dot(y);
  }
  CHECK(find_local(lv::EventKind::collective, "MPI_Allreduce").count == 4);
  CHECK(lv::local_events().size() == 1);

  // The summary's own gathering is not recorded.
  const auto events = lv::summarise(comm);
  CHECK(find_summary(events, lv::EventKind::collective, "MPI_Allreduce").count_max == 4);
  CHECK(find_local(lv::EventKind::collective, "MPI_Allgather").count == 0);
  CHECK(find_local(lv::EventKind::collective, "MPI_Allgatherv").count == 0);
}

TEST_CASE("log_view counts the payload of collectives and the messages each rank sends",
          "[log_view]") {
  const Communicator comm = world();
  const int p = comm.size(), me = comm.rank();
  const Layout layout(comm, {2 * p + 1, 3});
  DistributedArray<double> x(layout, 1.0), y(layout, 2.0);
  const Layout by_columns(comm, {2 * p + 1, 3}, Partition::SCATTER, 1);
  const Recording recording;

  {
    const AgreedOperands agreed;  // the sums alone: one allreduce of one double each
    for (int i = 0; i < 4; ++i)
      (void)x.dot(y);
  }
  const lv::Event sums = find_local(lv::EventKind::collective, "MPI_Allreduce");
  CHECK(sums.count == 4);
  CHECK(sums.bytes == 4 * Index(sizeof(double)));
  CHECK(sums.messages == 0);
  (void)comm.broadcast(std::int64_t(7), 0);
  CHECK(find_local(lv::EventKind::collective, "MPI_Bcast").bytes == 8);
  (void)comm.allgather(std::int32_t(me));
  CHECK(find_local(lv::EventKind::collective, "MPI_Allgather").bytes == 4);

  // An all-to-all of (me + r) % 3 doubles from rank me to rank r: one message per non-empty
  // block for another rank, never one to itself.
  std::vector<Index> counts(static_cast<std::size_t>(p)), displacements(counts.size());
  Index total = 0, expected_messages = 0, expected_bytes = 0;
  for (int r = 0; r < p; ++r) {
    counts[r] = (me + r) % 3;
    displacements[r] = total;
    total += counts[r];
    if (r != me && counts[r] > 0) {
      ++expected_messages;
      expected_bytes += counts[r] * Index(sizeof(double));
    }
  }
  std::vector<double> send(static_cast<std::size_t>(total), 1.0), receive(send.size());
  comm.alltoallv(send.data(), counts, displacements, receive.data(), counts, displacements);
  const lv::Event all_to_all = find_local(lv::EventKind::collective, "MPI_Alltoallv");
  CHECK(all_to_all.messages == expected_messages);
  CHECK(all_to_all.bytes == expected_bytes);

  // Ghost cells: one plane of 3 doubles to each neighbour (none before rank 0 or after the
  // last), in point-to-point messages; a message to this rank itself is not counted.
  lv::reset();
  (void)x.add_ghost_cells(1, 1);
  const Index neighbours = (me > 0 ? 1 : 0) + (me < p - 1 ? 1 : 0);
  const lv::Event ghosts = find_local(lv::EventKind::message, "MPI_Isend");
  CHECK(ghosts.count == neighbours);
  CHECK(ghosts.messages == neighbours);
  CHECK(ghosts.bytes == neighbours * 3 * Index(sizeof(double)));
  double mine = me, echoed = -1;
  comm.sendrecv(&mine, 1, me, &echoed, 1, me, 5);
  CHECK(echoed == mine);
  CHECK(find_local(lv::EventKind::message, "MPI_Isend").count == neighbours);

  // Rows to columns: rank me sends rank r the part of its rows in r's columns.
  lv::reset();
  const DistributedArray<double> moved = x.redistribute(by_columns);
  Index blocks = 0, bytes = 0;
  for (int r = 0; r < p; ++r) {
    const Index elements = layout.local_shape(me)[0] * by_columns.local_shape(r)[1];
    if (r != me && elements > 0) {
      ++blocks;
      bytes += elements * Index(sizeof(double));
    }
  }
  const lv::Event moves = find_local(lv::EventKind::message, "MPI_Isend");
  CHECK(moves.messages == blocks);
  CHECK(moves.bytes == bytes);
  CHECK(moved.gather() == x.gather());

  // The merge: rank r records r messages of 10 r bytes.
  lv::reset();
  lv::detail::record(lv::EventKind::message, "MPI_Send", 0, me, {me, 10 * me});
  const auto events = lv::summarise(comm);
  const lv::EventSummary sent = find_summary(events, lv::EventKind::message, "MPI_Send");
  CHECK(sent.messages_max == p - 1);
  CHECK(sent.messages_mean == Approx((p - 1) / 2.0));
  CHECK(sent.bytes_max == 10 * (p - 1));
  CHECK(sent.bytes_mean == Approx(5.0 * (p - 1)));
  const std::string table = lv::format_table(events, p, 0.01);
  CHECK(table.find("messages") != std::string::npos);
  if (p > 1) {
    const std::size_t row = table.find("MPI_Send");
    REQUIRE(row != std::string::npos);
    const std::string line = table.substr(row, table.find('\n', row) - row);
    CHECK(line.find(" message ") != std::string::npos);
    CHECK(line.find(" " + std::to_string(10 * (p - 1))) != std::string::npos);
  }
}

TEST_CASE("log_view records nothing while off", "[log_view]") {
  const Communicator comm = world();
  const Layout layout(comm, {2 * comm.size() + 1, 3});
  const auto A = LinearOperator<double>::make<Twice<double>>(layout);
  DistributedArray<double> x(layout, 1.0), y(layout, 0.0);
  lv::reset();
  lv::set_enabled(false);
  A.apply(x, y);
  (void)x.dot(y);
  (void)x.add_ghost_cells(1, 0);
  comm.barrier();
  CHECK(lv::local_events().empty());
  CHECK_FALSE(lv::enabled());
}

TEST_CASE("log_view merges ranks' events: counts min and max, time max and mean", "[log_view]") {
  const Communicator comm = world();
  const int p = comm.size(), rank = comm.rank();
  const Recording recording;
  // Rank r records "per rank" r + 1 times with 1 ms each; only rank 0 records "rank 0 only".
  lv::detail::record(lv::EventKind::exchange, "per rank", (rank + 1) * 1000000LL, rank + 1);
  if (rank == 0) lv::detail::record(lv::EventKind::apply, "rank 0 only", 3000000LL);
  const auto events = lv::summarise(comm);
  const lv::EventSummary per_rank = find_summary(events, lv::EventKind::exchange, "per rank");
  CHECK(per_rank.count_min == 1);
  CHECK(per_rank.count_max == p);
  CHECK(per_rank.seconds_max == Approx(p * 1e-3));
  CHECK(per_rank.seconds_mean == Approx((p + 1) / 2.0 * 1e-3));
  const lv::EventSummary only = find_summary(events, lv::EventKind::apply, "rank 0 only");
  CHECK(only.count_min == (p > 1 ? 0 : 1));
  CHECK(only.count_max == 1);
  CHECK(only.seconds_mean == Approx(3e-3 / p));
  // Operators first, then exchanges; the same list on every rank.
  REQUIRE(events.size() == 2);
  CHECK(events[0].name == "rank 0 only");
  CHECK(events[1].name == "per rank");

  const std::string table = lv::format_table(events, p, 0.01);
  CHECK(table.find("distlops event log: " + std::to_string(p) + " rank(s)") == 0);
  CHECK(table.find("event") != std::string::npos);
  CHECK(table.find("max time (s)") != std::string::npos);
  const std::string count = p > 1 ? "1-" + std::to_string(p) : "1";
  const std::size_t row = table.find("per rank");
  REQUIRE(row != std::string::npos);
  const std::string line = table.substr(row, table.find('\n', row) - row);
  CHECK(line.find("exchange") != std::string::npos);
  CHECK(line.find(" " + count + " ") != std::string::npos);
  CHECK(line.find(std::to_string(10 * p) + ".0") != std::string::npos);  // 100 * p ms / 10 ms
}
