// SPDX-License-Identifier: BSD-3-Clause
// Copyright (c) 2026 The distlops authors
// The transports (transport.hpp) of every memory space: MPI on host memory; on device memory,
// staged through host memory and (in builds with NCCL) over NCCL. Every collective and the
// batched messages are checked against values computed from the rank numbers alone, with
// uneven and empty contributions, gaps that must stay untouched, and messages of a rank to
// itself. The choice of device collectives (ranks that share a device included), the keys of
// groups of ranks, and NCCL's symmetric memory.
#include <array>
#include <cmath>
#include <cstdint>
#include <cstdlib>
#include <memory>
#include <numeric>
#include <string>
#include <utility>
#include <vector>

#include "distlops/config.hpp"
#include "distlops/core/buffer.hpp"
#include "distlops/core/detail/device_sharing.hpp"
#include "distlops/core/detail/group_key.hpp"
#include "distlops/core/detail/uniform_gather.hpp"
#include "distlops/core/distributed_array.hpp"
#include "distlops/core/gpu_collectives.hpp"
#include "distlops/core/memory_space.hpp"
#include "distlops/core/random.hpp"
#include "distlops/core/symmetric_memory.hpp"
#include "distlops/core/transport.hpp"
#include "spaces.hpp"
#include "test_support.hpp"

using namespace distlops;
using namespace distlops::testing;

namespace {

template <class T, MemorySpace Space>
Buffer<T, Space> upload(const std::vector<T>& values) {
  return buffer_of<Space>(values);
}

template <class T, MemorySpace Space>
std::vector<T> download(const Buffer<T, Space>& buffer) {
  return values_of(buffer);
}

template <class T>
const std::byte* bytes_of(const T* data) {
  return reinterpret_cast<const std::byte*>(data);
}
template <class T>
std::byte* bytes_of(T* data) {
  return reinterpret_cast<std::byte*>(data);
}

// A value that names its sender, its receiver and its position.
double tag_value(int from, int to, Index i) {
  return 1000.0 * from + 10.0 * to + double(i) + 0.5;
}

template <MemorySpace Space>
void check_transport(Transport& transport, TransportKind expected_kind) {
  const Communicator& comm = transport.communicator();
  const int rank = comm.rank(), size = comm.size();
  CHECK(transport.kind() == expected_kind);
  CHECK(transport.communicator().congruent(world()));

  {
    INFO("allreduce of reals, and of complex values as pairs of reals");
    auto sums = upload<double, Space>({double(rank), 1.0, -double(rank)});
    transport.allreduce(sums.data(), 3, ReduceOp::sum);
    const double total = size * (size - 1) / 2.0;
    CHECK(download(sums) == std::vector<double>{total, double(size), -total});

    auto maxima = upload<float, Space>({float(rank), -float(rank)});
    transport.allreduce(maxima.data(), 2, ReduceOp::max);
    CHECK(download(maxima) == std::vector<float>{float(size - 1), 0.0f});

    using C = std::complex<double>;
    auto complex = upload<C, Space>({C(rank, 1), C(2, -rank)});
    allreduce_in_place(transport, complex.data(), 2, ReduceOp::sum);
    CHECK(download(complex) == std::vector<C>{C(total, size), C(2.0 * size, -total)});
    CHECK_THROWS_AS(allreduce_in_place(transport, complex.data(), 2, ReduceOp::max),
                    InvalidArgument);
  }

  {
    INFO("allgather: equal contributions in rank order");
    constexpr Index count = 3;
    std::vector<double> mine(count);
    for (Index i = 0; i < count; ++i)
      mine[std::size_t(i)] = tag_value(rank, 0, i);
    auto send = upload<double, Space>(mine);
    Buffer<double, Space> receive(count * size);
    transport.allgather(bytes_of(send.data()), count * Index(sizeof(double)),
                        bytes_of(receive.data()));
    std::vector<double> expected;
    for (int r = 0; r < size; ++r) {
      for (Index i = 0; i < count; ++i)
        expected.push_back(tag_value(r, 0, i));
    }
    CHECK(download(receive) == expected);
  }

  {
    INFO("allgatherv with equal contributions in rank order (one all-gather on NCCL)");
    constexpr Index count = 5;
    std::vector<Index> counts, displacements;
    for (int r = 0; r < size; ++r) {
      counts.push_back(count * Index(sizeof(double)));
      displacements.push_back(r * count * Index(sizeof(double)));
    }
    REQUIRE(detail::uniform_gather_count(counts, displacements) == counts[0]);
    std::vector<double> mine, expected;
    for (Index i = 0; i < count; ++i)
      mine.push_back(tag_value(rank, 1, i));
    for (int r = 0; r < size; ++r) {
      for (Index i = 0; i < count; ++i)
        expected.push_back(tag_value(r, 1, i));
    }
    auto send = upload<double, Space>(mine);
    Buffer<double, Space> receive(count * size);
    transport.allgatherv(bytes_of(send.data()), counts[std::size_t(rank)], bytes_of(receive.data()),
                         counts, displacements);
    CHECK(download(receive) == expected);
  }

  {
    INFO("allgatherv: uneven and empty contributions, gaps left untouched");
    // Rank r contributes r % 3 values, placed after a gap of one value.
    const auto count_of = [](int r) { return Index(r % 3); };
    std::vector<Index> counts, displacements;
    Index position = 0;
    for (int r = 0; r < size; ++r) {
      position += 1;
      counts.push_back(count_of(r) * Index(sizeof(double)));
      displacements.push_back(position * Index(sizeof(double)));
      position += count_of(r);
    }
    std::vector<double> mine;
    for (Index i = 0; i < count_of(rank); ++i)
      mine.push_back(tag_value(rank, 0, i));
    const double sentinel = -7.0;
    std::vector<double> expected(std::size_t(position), sentinel);
    for (int r = 0; r < size; ++r) {
      for (Index i = 0; i < count_of(r); ++i) {
        expected[std::size_t(displacements[r] / Index(sizeof(double)) + i)] = tag_value(r, 0, i);
      }
    }
    auto send = upload<double, Space>(mine.empty() ? std::vector<double>{0.0} : mine);
    auto receive = upload<double, Space>(std::vector<double>(std::size_t(position), sentinel));
    transport.allgatherv(bytes_of(send.data()), counts[std::size_t(rank)], bytes_of(receive.data()),
                         counts, displacements);
    CHECK(download(receive) == expected);
  }

  {
    INFO("alltoallv: a different amount for every pair of ranks, some empty");
    const auto count_of = [](int from, int to) { return Index((from + 2 * to) % 3); };
    std::vector<Index> send_counts, send_displacements, receive_counts, receive_displacements;
    std::vector<double> mine, expected;
    for (int q = 0; q < size; ++q) {
      send_displacements.push_back(Index(mine.size() * sizeof(double)));
      send_counts.push_back(count_of(rank, q) * Index(sizeof(double)));
      for (Index i = 0; i < count_of(rank, q); ++i)
        mine.push_back(tag_value(rank, q, i));
      receive_displacements.push_back(Index(expected.size() * sizeof(double)));
      receive_counts.push_back(count_of(q, rank) * Index(sizeof(double)));
      for (Index i = 0; i < count_of(q, rank); ++i)
        expected.push_back(tag_value(q, rank, i));
    }
    auto send = upload<double, Space>(mine.empty() ? std::vector<double>{0.0} : mine);
    // Filled, so that the unused slot of an empty receive is not read uninitialised.
    auto receive =
        upload<double, Space>(std::vector<double>(std::max<std::size_t>(1, expected.size()), -7.0));
    transport.alltoallv(bytes_of(send.data()), send_counts, send_displacements,
                        bytes_of(receive.data()), receive_counts, receive_displacements);
    std::vector<double> arrived = download(receive);
    arrived.resize(expected.size());
    CHECK(arrived == expected);
  }

  {
    INFO("a batch of messages: both ring neighbours, and a rank to itself");
    const int next = (rank + 1) % size, previous = (rank + size - 1) % size;
    constexpr Index count = 4;
    auto values_to = [&](int to, int tag) {
      std::vector<double> values;
      for (Index i = 0; i < count; ++i)
        values.push_back(tag_value(rank, to, i) + 0.25 * tag);
      return values;
    };
    auto to_next = upload<double, Space>(values_to(next, 1));
    auto to_previous = upload<double, Space>(values_to(previous, 2));
    Buffer<double, Space> from_previous(count), from_next(count);
    const Index bytes = count * Index(sizeof(double));
    const std::array<ReceiveMessage, 2> receives{
        ReceiveMessage{bytes_of(from_previous.data()), bytes, previous, 1},
        ReceiveMessage{bytes_of(from_next.data()), bytes, next, 2}};
    const std::array<SendMessage, 2> sends{
        SendMessage{bytes_of(to_next.data()), bytes, next, 1},
        SendMessage{bytes_of(to_previous.data()), bytes, previous, 2}};
    transport.start(receives, sends).wait();
    std::vector<double> expected_from_previous, expected_from_next;
    for (Index i = 0; i < count; ++i) {
      expected_from_previous.push_back(tag_value(previous, rank, i) + 0.25);
      expected_from_next.push_back(tag_value(next, rank, i) + 0.5);
    }
    CHECK(download(from_previous) == expected_from_previous);
    CHECK(download(from_next) == expected_from_next);
  }

  {
    INFO("workspaces keep their memory and content for requests that fit");
    std::byte* first = transport.workspace(0, 64);
    memory::copy_bytes<Space, Host>(first, std::vector<std::byte>(64, std::byte{42}).data(), 64);
    CHECK(transport.workspace(0, 32) == first);
    std::vector<std::byte> content(64);
    memory::copy_bytes<Host, Space>(content.data(), transport.workspace(0, 64), 64);
    CHECK(content == std::vector<std::byte>(64, std::byte{42}));
    CHECK(transport.workspace(1, 8) != first);
    CHECK_THROWS_AS(transport.workspace(-1, 8), InvalidArgument);
  }
}

}  // namespace

DISTLOPS_SPACE_TEST_CASE("the transports of a space move its memory", "[transport]") {
  // Host memory always over MPI; device memory as the collective setting says.
  for_each_collective_path<Space>([] {
    const TransportKind expected = !on_device<Space> ? TransportKind::mpi
                                   : gpu_collectives_for(world()) == GpuCollectives::nccl
                                       ? TransportKind::nccl
                                       : TransportKind::staged;
    CHECK(transport_kind<Space>(world()) == expected);
    check_transport<Space>(*make_transport<Space>(world()), expected);
    // One transport per group of ranks is kept for device memory: repeated calls allocate
    // nothing.
    std::shared_ptr<Transport> shared = transport_for<Space>(world());
    if constexpr (on_device<Space>) CHECK(transport_for<Space>(world()) == shared);
    check_transport<Space>(*shared, expected);
    KeptTransport<Space> kept;
    Transport& first = kept(world());
    CHECK(&kept(world()) == &first);
    check_transport<Space>(first, expected);
    // An array's one-shot collectives reuse the kept transport: after a first call, a
    // redistribution allocates its result only, ghost cells theirs only.
    const Layout rows(world(), {23, 4}), columns = rows.with_axis(1);
    DistributedArray<double, Space> x(rows);
    fill_random(x, 3);
    (void)x.redistribute(columns);
    (void)x.add_ghost_cells(1, 1);
    const std::uint64_t before = memory::allocation_count();
    const DistributedArray<double, Space> moved = x.redistribute(columns);
    const std::uint64_t after_redistribute = memory::allocation_count();
    const LocalArray<double, Space> ghosted = x.add_ghost_cells(1, 1);
    const std::uint64_t after_ghosts = memory::allocation_count();
    CHECK(moved.gather() == x.gather());
    CHECK(ghosted.size() >= x.local_size());
    if constexpr (on_device<Space>) {
      CHECK(after_redistribute - before == 1);
      CHECK(after_ghosts - after_redistribute == 1);
    }
  });
}

TEST_CASE("the path of device collectives can be chosen", "[transport][collectives]") {
  const GpuCollectives initial = gpu_collectives();
  CHECK(initial == (nccl_built() ? GpuCollectives::nccl : GpuCollectives::mpi));
  set_gpu_collectives(GpuCollectives::mpi);
  CHECK(gpu_collectives() == GpuCollectives::mpi);
  if (nccl_built()) {
    set_gpu_collectives(GpuCollectives::nccl);
    CHECK(gpu_collectives() == GpuCollectives::nccl);
  } else {
    CHECK_THROWS_AS(set_gpu_collectives(GpuCollectives::nccl), InvalidArgument);
  }
  CHECK(std::string(to_string(GpuCollectives::nccl)) == "nccl");

  // The path of one communicator: mpi costs nothing to decide; NCCL is decided from every
  // rank's device, which a single rank need not gather.
  set_gpu_collectives(GpuCollectives::mpi);
  CHECK(gpu_collectives_for(world()) == GpuCollectives::mpi);
  if (nccl_built()) {
    set_gpu_collectives(GpuCollectives::nccl);
    CHECK(gpu_collectives_for(Communicator::self()) == GpuCollectives::nccl);
    if (cuda_device_count() == 0 && world().size() > 1) {
      // No device to report: every rank raises, none waits for the others.
      CHECK_THROWS_AS(gpu_collectives_for(world()), DeviceError);
    }
  }
  set_gpu_collectives(initial);
}

TEST_CASE("small device sums use the symmetric window unless told not to",
          "[transport][collectives]") {
  const bool initially = symmetric_reductions();
  set_symmetric_reductions(false);
  CHECK_FALSE(symmetric_reductions());
  set_symmetric_reductions(true);
  CHECK(symmetric_reductions());
  set_symmetric_reductions(initially);
}

TEST_CASE("ranks that share a device are found, and NCCL only where it can serve them",
          "[transport][collectives]") {
  using detail::assess_device_sharing;
  using detail::DeviceReport;
  auto report = [](std::uint8_t device, std::int32_t version, bool enabled) {
    DeviceReport made;
    made.uuid.fill(0xab);
    made.uuid[15] = device;
    made.nccl_version = version;
    made.multi_rank_gpu_enabled = enabled ? 1 : 0;
    return made;
  };
  constexpr std::int32_t v2_28 = 22809, v2_30 = 23000;
  SECTION("every rank on its own device: NCCL, whatever the version") {
    const std::vector<DeviceReport> reports{report(0, v2_28, false), report(1, v2_28, false),
                                            report(2, v2_28, false)};
    const auto verdict = assess_device_sharing(reports);
    CHECK_FALSE(verdict.shared());
    CHECK(verdict.nccl_possible);
    CHECK(assess_device_sharing(std::span<const DeviceReport>(reports.data(), 1)).nccl_possible);
    CHECK(assess_device_sharing({}).nccl_possible);
  }
  SECTION("two ranks on one device: named, and no NCCL before 2.30") {
    const std::vector<DeviceReport> reports{report(0, v2_28, true), report(1, v2_28, true),
                                            report(2, v2_28, true), report(1, v2_28, true)};
    const auto verdict = assess_device_sharing(reports);
    CHECK(verdict.shared());
    CHECK(verdict.first_rank == 1);
    CHECK(verdict.second_rank == 3);
    CHECK(verdict.most_ranks_on_one_device == 2);
    CHECK_FALSE(verdict.nccl_possible);
  }
  SECTION("NCCL 2.30 serves a shared device only with the variable set on every rank") {
    std::vector<DeviceReport> reports(4, report(0, v2_30, true));
    auto verdict = assess_device_sharing(reports);
    CHECK(verdict.shared());
    CHECK(verdict.first_rank == 0);
    CHECK(verdict.second_rank == 1);
    CHECK(verdict.most_ranks_on_one_device == 4);
    CHECK(verdict.nccl_possible);
    reports[2].multi_rank_gpu_enabled = 0;
    CHECK_FALSE(assess_device_sharing(reports).nccl_possible);
    reports[2] = report(0, v2_30 - 1, true);  // one rank loaded an older NCCL
    CHECK_FALSE(assess_device_sharing(reports).nccl_possible);
    reports[2] = report(0, 23101, true);
    CHECK(assess_device_sharing(reports).nccl_possible);
  }
  SECTION("the most ranks on one device, counted over devices shared unevenly") {
    const std::vector<DeviceReport> reports{report(3, v2_30, true), report(5, v2_30, true),
                                            report(5, v2_30, true), report(3, v2_30, true),
                                            report(5, v2_30, true), report(7, v2_30, true)};
    const auto verdict = assess_device_sharing(reports);
    CHECK(verdict.first_rank == 0);
    CHECK(verdict.second_rank == 3);
    CHECK(verdict.most_ranks_on_one_device == 3);
    CHECK(assess_device_sharing(std::span<const DeviceReport>(reports.data(), 2))
              .most_ranks_on_one_device == 1);
  }
  SECTION("ranks that share a device split half of its multiprocessors for NCCL's channels") {
    CHECK(detail::nccl_channel_limit(132, 1) == 0);  // no sharing: NCCL's own choice
    CHECK(detail::nccl_channel_limit(132, 2) == 33);
    CHECK(detail::nccl_channel_limit(132, 4) == 16);
    CHECK(detail::nccl_channel_limit(132, 3) == 22);
    CHECK(detail::nccl_channel_limit(4, 4) == 1);  // at least one channel each
    CHECK(detail::nccl_channel_limit(8, 64) == 1);
  }
  SECTION("NCCL_MULTI_RANK_GPU_ENABLE is on for a positive integer only") {
    const char* saved = std::getenv("NCCL_MULTI_RANK_GPU_ENABLE");
    const std::string kept = saved ? saved : "";
    for (const auto& [value, expected] : std::vector<std::pair<const char*, bool>>{
             {"1", true}, {"2", true}, {"0", false}, {"", false}, {"yes", false}, {"1x", false}}) {
      INFO("NCCL_MULTI_RANK_GPU_ENABLE=" << value);
      setenv("NCCL_MULTI_RANK_GPU_ENABLE", value, 1);
      CHECK(detail::multi_rank_gpu_enabled_in_environment() == expected);
    }
    unsetenv("NCCL_MULTI_RANK_GPU_ENABLE");
    CHECK_FALSE(detail::multi_rank_gpu_enabled_in_environment());
    if (saved) setenv("NCCL_MULTI_RANK_GPU_ENABLE", kept.c_str(), 1);
  }
}

TEST_CASE("a group of ranks has one key, whatever communicator and handle name it",
          "[transport][collectives]") {
  const Communicator comm = world();
  const int size = comm.size(), rank = comm.rank();
  const int key = detail::group_key(comm);
  CHECK(detail::group_key(comm) == key);
  CHECK(detail::group_key(Communicator(MPI_COMM_WORLD)) == key);
  CHECK(detail::group_key(comm.duplicate()) == key);
  CHECK(detail::group_key(comm.split(0, rank)) == key);
  // The same on every rank (a key names the same group everywhere).
  CHECK(comm.allreduce(key, ReduceOp::max) == comm.allreduce(key, ReduceOp::min));
  const int alone = detail::group_key(Communicator::self());
  CHECK((alone == key) == (size == 1));
  if (size > 1) {
    CHECK(detail::group_key(comm.split(0, size - rank)) != key);  // the ranks reversed
    {
      const Communicator half = comm.split(rank % 2, rank);
      CHECK(detail::group_key(half) != key);
    }
    // MPI may give a new communicator the handle of the freed one: its key is its own group's.
    for (int repeat = 0; repeat < 4; ++repeat) {
      const Communicator again = comm.split(0, rank);
      CHECK(detail::group_key(again) == key);
    }
  }
}

TEST_CASE("an all-gather is recognised among the variable ones", "[transport][collectives]") {
  using detail::uniform_gather_count;
  const std::vector<Index> three{4, 4, 4}, in_order{0, 4, 8};
  CHECK(uniform_gather_count(three, in_order) == 4);
  CHECK(uniform_gather_count(std::vector<Index>{7}, std::vector<Index>{0}) == 7);
  CHECK(uniform_gather_count(three, std::vector<Index>{0, 4, 9}) == -1);  // a gap
  CHECK(uniform_gather_count(three, std::vector<Index>{4, 0, 8}) == -1);  // out of order
  CHECK(uniform_gather_count(std::vector<Index>{4, 3, 4}, in_order) == -1);
  CHECK(uniform_gather_count(std::vector<Index>{0, 0}, std::vector<Index>{0, 0}) == -1);
  CHECK(uniform_gather_count({}, {}) == -1);
  CHECK(uniform_gather_count(three, std::vector<Index>{0, 4}) == -1);
}

#if DISTLOPS_WITH_CUDA
DISTLOPS_CUDA_TEST_CASE("symmetric memory holds a device array until its collective release",
                        "[transport][symmetric]") {
  const Layout layout(world(), {37, 3});
  if (!nccl_built()) {
    CHECK_THROWS_AS(SymmetricArray<double>(layout), InvalidArgument);
    return;
  }
  SymmetricArray<double> buffer(layout);
  // Symmetric only with windows, several ranks and NCCL's support for them on this machine.
  if (buffer.registered()) CHECK((symmetric_memory_available() && world().size() > 1));
  const int registered = buffer.registered() ? 1 : 0;
  CHECK(world().allreduce(registered, ReduceOp::max) ==
        world().allreduce(registered, ReduceOp::min));
  DistributedArray<double, Cuda>& x = buffer.array();
  fill_random(x, 7);
  std::vector<double> expected(static_cast<std::size_t>(layout.global_size()));
  for (std::size_t i = 0; i < expected.size(); ++i)
    expected[i] = random_value<double>(7, i);
  CHECK(x.gather() == expected);
  const double norm =
      std::sqrt(std::inner_product(expected.begin(), expected.end(), expected.begin(), 0.0));
  for_each_collective_path<Cuda>(
      [&] { CHECK(close(double(x.norm()), norm, space_tolerance<double, Cuda>())); });
  buffer.release();
  CHECK(buffer.released());
  CHECK_THROWS_AS(buffer.array(), InvalidArgument);
}

DISTLOPS_CUDA_TEST_CASE("small sums through the symmetric window equal the plain ones",
                        "[transport][symmetric]") {
  const Communicator comm = world();
  const auto ranks = static_cast<double>(comm.size());
  const bool initially = symmetric_reductions();
  // 512 doubles fill the window exactly; 513 take the plain path whatever the setting.
  for (const Index count : {Index(1), Index(8), Index(512), Index(513)}) {
    for (const bool symmetric : {true, false}) {
      INFO(count << " values, symmetric reductions " << (symmetric ? "on" : "off"));
      set_symmetric_reductions(symmetric);
      std::vector<double> values(static_cast<std::size_t>(count));
      for (std::size_t i = 0; i < values.size(); ++i)
        values[i] = double(comm.rank() + 1) + double(i);
      Buffer<double, Cuda> data(count);
      memory::copy_bytes<Cuda, Host>(data.data(), values.data(), data.bytes());
      for_each_collective_path<Cuda>([&] {
        Buffer<double, Cuda> summed(count);
        memory::copy_bytes<Cuda, Cuda>(summed.data(), data.data(), data.bytes());
        allreduce_sum_in_place<double, Cuda>(comm, summed.data(), count);
        std::vector<double> result(values.size());
        memory::copy_bytes<Host, Cuda>(result.data(), summed.data(), summed.bytes());
        bool exact = true;  // integers: every path sums them exactly
        for (std::size_t i = 0; i < result.size(); ++i)
          exact = exact && result[i] == ranks * (ranks + 1) / 2 + ranks * double(i);
        CHECK(exact);
      });
    }
  }
  set_symmetric_reductions(initially);
}
#endif
