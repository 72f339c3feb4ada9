// SPDX-License-Identifier: BSD-3-Clause
// Copyright (c) 2026 The distlops authors
// Communicator: typed collectives and point-to-point for the scalar and index types, their
// chunked paths for transfers above the message limit, splits, and MPI errors as exceptions.
#include <numeric>

#include "test_support.hpp"

using namespace distlops;
using distlops::testing::ChunkLimit;
using distlops::testing::world;

namespace {

// A value that depends on the rank and the position only, so every rank can predict what
// any other rank sends.
template <class T>
T value_of(int rank, Index i) {
  if constexpr (is_complex_v<T>) {
    using R = real_type_t<T>;
    return T(R(rank * 100 + i), R(-(rank + 1) * 0.5 - i));
  } else {
    return static_cast<T>(rank * 100 + i);
  }
}

template <class T>
void run_collectives(const Communicator& comm) {
  const int size = comm.size();
  const int rank = comm.rank();

  // allreduce, out of place and in place
  {
    std::vector<T> send(7), received(7);
    for (Index i = 0; i < 7; ++i)
      send[i] = value_of<T>(rank, i);
    comm.allreduce(send.data(), received.data(), 7, ReduceOp::sum);
    for (Index i = 0; i < 7; ++i) {
      T expected{};
      for (int r = 0; r < size; ++r)
        expected += value_of<T>(r, i);
      CHECK(received[i] == expected);
    }
    comm.allreduce(send.data(), send.data(), 7, ReduceOp::sum);
    CHECK(send == received);
  }
  // broadcast from the last rank
  {
    std::vector<T> data(9);
    for (Index i = 0; i < 9; ++i)
      data[i] = value_of<T>(rank, i);
    comm.broadcast(data.data(), 9, size - 1);
    for (Index i = 0; i < 9; ++i)
      CHECK(data[i] == value_of<T>(size - 1, i));
  }
  // broadcast from a separate source into a target on every rank, the root's copy included
  {
    const int root = size / 2;
    std::vector<T> source(rank == root ? 9 : 0), target(9);
    for (Index i = 0; i < Index(source.size()); ++i)
      source[i] = value_of<T>(rank, i);
    comm.broadcast(source.data(), target.data(), 9, root);
    for (Index i = 0; i < 9; ++i)
      CHECK(target[i] == value_of<T>(root, i));
  }
  // allgather with equal counts
  {
    std::vector<T> send(3), received(3 * size);
    for (Index i = 0; i < 3; ++i)
      send[i] = value_of<T>(rank, i);
    comm.allgather(send.data(), 3, received.data());
    for (int r = 0; r < size; ++r) {
      for (Index i = 0; i < 3; ++i)
        CHECK(received[r * 3 + i] == value_of<T>(r, i));
    }
  }
  // allgatherv, gatherv and scatterv with uneven counts: rank r contributes 2r (0 for rank 0)
  std::vector<Index> counts(size), displacements(size);
  Index total = 0;
  for (int r = 0; r < size; ++r) {
    counts[r] = 2 * r;
    displacements[r] = total;
    total += counts[r];
  }
  std::vector<T> mine(counts[rank]);
  for (Index i = 0; i < counts[rank]; ++i)
    mine[i] = value_of<T>(rank, i);
  auto check_gathered = [&](const std::vector<T>& all) {
    for (int r = 0; r < size; ++r) {
      for (Index i = 0; i < counts[r]; ++i)
        CHECK(all[displacements[r] + i] == value_of<T>(r, i));
    }
  };
  {
    std::vector<T> all(total);
    comm.allgatherv(mine.data(), counts[rank], all.data(), counts, displacements);
    check_gathered(all);
  }
  {
    const int root = size / 2;
    std::vector<T> all(rank == root ? total : 0);
    comm.gatherv(mine.data(), counts[rank], all.data(), counts, displacements, root);
    if (rank == root) check_gathered(all);

    std::vector<T> source(total);
    for (int r = 0; r < size; ++r) {
      for (Index i = 0; i < counts[r]; ++i)
        source[displacements[r] + i] = value_of<T>(r, i);
    }
    std::vector<T> part(counts[rank]);
    comm.scatterv(source.data(), counts, displacements, part.data(), counts[rank], root);
    CHECK(part == mine);
  }
  // alltoall and alltoallv: rank r sends (r + q) % 3 + 1 elements to rank q
  {
    std::vector<T> send(2 * size), received(2 * size);
    for (int q = 0; q < size; ++q) {
      for (Index i = 0; i < 2; ++i)
        send[q * 2 + i] = value_of<T>(rank, q * 10 + i);
    }
    comm.alltoall(send.data(), 2, received.data());
    for (int q = 0; q < size; ++q) {
      for (Index i = 0; i < 2; ++i)
        CHECK(received[q * 2 + i] == value_of<T>(q, rank * 10 + i));
    }
  }
  {
    auto count = [](int from, int to) { return Index((from + to) % 3 + 1); };
    std::vector<Index> sc(size), sd(size), rc(size), rd(size);
    Index send_total = 0, recv_total = 0;
    for (int q = 0; q < size; ++q) {
      sc[q] = count(rank, q);
      sd[q] = send_total;
      send_total += sc[q];
      rc[q] = count(q, rank);
      rd[q] = recv_total;
      recv_total += rc[q];
    }
    std::vector<T> send(send_total), received(recv_total);
    for (int q = 0; q < size; ++q) {
      for (Index i = 0; i < sc[q]; ++i)
        send[sd[q] + i] = value_of<T>(rank, q * 10 + i);
    }
    comm.alltoallv(send.data(), sc, sd, received.data(), rc, rd);
    for (int q = 0; q < size; ++q) {
      for (Index i = 0; i < rc[q]; ++i)
        CHECK(received[rd[q] + i] == value_of<T>(q, rank * 10 + i));
    }
  }
  // point to point around a ring, blocking and non-blocking
  {
    const int next = (rank + 1) % size;
    const int previous = (rank + size - 1) % size;
    std::vector<T> send(11), received(11);
    for (Index i = 0; i < 11; ++i)
      send[i] = value_of<T>(rank, i);
    comm.sendrecv(send.data(), 11, next, received.data(), 11, previous, 5);
    for (Index i = 0; i < 11; ++i)
      CHECK(received[i] == value_of<T>(previous, i));

    std::fill(received.begin(), received.end(), T{});
    Request receiving = comm.irecv(received.data(), 11, previous, 6);
    Request sending = comm.isend(send.data(), 11, next, 6);
    receiving.wait();
    sending.wait();
    for (Index i = 0; i < 11; ++i)
      CHECK(received[i] == value_of<T>(previous, i));

    if (size > 1) {
      std::fill(received.begin(), received.end(), T{});
      if (rank % 2 == 0) {
        comm.send(send.data(), 11, next, 7);
        comm.recv(received.data(), 11, previous, 7);
      } else {
        comm.recv(received.data(), 11, previous, 7);
        comm.send(send.data(), 11, next, 7);
      }
      for (Index i = 0; i < 11; ++i)
        CHECK(received[i] == value_of<T>(previous, i));
    }
  }
}

}  // namespace

TEMPLATE_TEST_CASE("collectives deliver what every rank sent", "[communicator]", float, double,
                   std::complex<float>, std::complex<double>, int, long, Index, unsigned long) {
  const Communicator comm = world();
  SECTION("single messages") {
    run_collectives<TestType>(comm);
  }
  SECTION("messages above the transfer limit, as derived datatypes") {
    // Limits of 2 and 3 elements: blocks above them are nested types with remainders.
    const ChunkLimit limit(2 * sizeof(TestType));
    run_collectives<TestType>(comm);
    const ChunkLimit three(3 * sizeof(TestType));
    run_collectives<TestType>(comm);
  }
  SECTION("one byte per message: the chunked path") {
    const ChunkLimit limit(1);
    run_collectives<TestType>(comm);
  }
}

TEST_CASE("vector collectives above the limit, and the overlapped broadcast of a large block",
          "[communicator]") {
  const Communicator comm = world();
  const int size = comm.size();
  const int rank = comm.rank();
  // Rank r holds 3r + 5 values (uneven); the last rank of several holds none.
  std::vector<Index> counts(size), displacements(size);
  Index total = 0;
  for (int r = 0; r < size; ++r) {
    counts[r] = (size > 1 && r == size - 1) ? 0 : 3 * r + 5;
    displacements[r] = total;
    total += counts[r];
  }
  std::vector<double> mine(counts[rank]), expected(total);
  for (int r = 0; r < size; ++r) {
    for (Index i = 0; i < counts[r]; ++i)
      expected[displacements[r] + i] = value_of<double>(r, i);
  }
  for (Index i = 0; i < counts[rank]; ++i)
    mine[i] = value_of<double>(rank, i);
  auto run = [&] {
    for (int root = 0; root < size; ++root) {
      std::vector<double> all(total), gathered(rank == root ? total : 0), part(counts[rank]);
      comm.allgatherv(mine.data(), counts[rank], all.data(), counts, displacements);
      CHECK(all == expected);
      comm.gatherv(mine.data(), counts[rank], gathered.data(), counts, displacements, root);
      if (rank == root) CHECK(gathered == expected);
      comm.scatterv(expected.data(), counts, displacements, part.data(), counts[rank], root);
      CHECK(part == mine);
      // In place: this rank's block already in its slot.
      std::vector<double> in_place(total);
      std::copy(mine.begin(), mine.end(), in_place.begin() + displacements[rank]);
      comm.allgatherv(in_place.data() + displacements[rank], counts[rank], in_place.data(), counts,
                      displacements);
      CHECK(in_place == expected);
    }
  };
  SECTION("derived datatypes") {
    const ChunkLimit limit(2 * sizeof(double));
    run();
  }
  SECTION("below two elements per call: chunks") {
    const ChunkLimit limit(sizeof(double));
    run();
  }
  SECTION("within the limit: the plain calls") {
    run();
  }
  SECTION("a broadcast above the size at which the root's copy overlaps the message") {
    // 8 MiB and one element: the overlapped path, within the per-call limit.
    const Index count = (Index(1) << 20) + 1;
    const int root = size - 1;
    std::vector<double> source(rank == root ? count : 0), target(count);
    for (Index i = 0; i < Index(source.size()); ++i)
      source[i] = 0.25 * double(i) + 1.0;
    comm.broadcast(source.data(), target.data(), count, root);
    Index wrong = 0;
    for (Index i = 0; i < count; ++i)
      wrong += target[i] != 0.25 * double(i) + 1.0;
    CHECK(wrong == 0);
  }
}

TEST_CASE("scalar reductions and maxima", "[communicator]") {
  const Communicator comm = world();
  const int size = comm.size();
  CHECK(comm.allreduce(comm.rank() + 1, ReduceOp::sum) == size * (size + 1) / 2);
  CHECK(comm.allreduce(comm.rank(), ReduceOp::max) == size - 1);
  CHECK(comm.allreduce(comm.rank(), ReduceOp::min) == 0);
  CHECK(comm.allreduce(2.0, ReduceOp::prod) == Approx(std::pow(2.0, size)));
  CHECK(comm.allreduce(int(comm.rank() == 0), ReduceOp::logical_or) == 1);
  CHECK(comm.allreduce(int(comm.rank() == 0), ReduceOp::logical_and) == int(size == 1));
  const std::vector<int> ranks = comm.allgather(comm.rank());
  std::vector<int> expected(size);
  std::iota(expected.begin(), expected.end(), 0);
  CHECK(ranks == expected);
  CHECK(comm.broadcast(comm.rank() + 42, 0) == 42);
}

TEST_CASE("split, duplicate and congruence", "[communicator]") {
  const Communicator comm = world();
  const Communicator halves = comm.split(comm.rank() % 2, comm.rank());
  CHECK(halves.size() == (comm.size() + 1 - comm.rank() % 2) / 2);
  CHECK(halves.rank() == comm.rank() / 2);
  // Each half sums its own ranks only.
  int expected = 0;
  for (int r = comm.rank() % 2; r < comm.size(); r += 2)
    expected += r;
  CHECK(halves.allreduce(comm.rank(), ReduceOp::sum) == expected);

  const Communicator copy = comm.duplicate();
  CHECK(copy.size() == comm.size());
  CHECK(copy.congruent(comm));
  CHECK(comm.congruent(comm));
  CHECK(halves.congruent(comm) == (comm.size() == 1));
  CHECK(Communicator::self().size() == 1);
}

TEST_CASE("failed MPI calls raise CommunicationError naming the call", "[communicator]") {
  const Communicator comm = world();
  double value = 1.0;
  try {
    comm.send(&value, 1, comm.size() + 3, 0);
    FAIL("sending to a rank that does not exist did not throw");
  } catch (const CommunicationError& error) {
    CHECK(std::string(error.what()).find("MPI_Send") != std::string::npos);
  }
  CHECK_THROWS_AS(comm.broadcast(&value, 1, -2), CommunicationError);
  CHECK_THROWS_AS(set_message_chunk_bytes(0), InvalidArgument);
}
