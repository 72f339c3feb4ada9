// The transports (transport.hpp) of every memory space: MPI on host memory; on device memory,
// staged through host memory and (in builds with NCCL) over NCCL. Every collective and the
// batched messages are checked against values computed from the rank numbers alone, with
// uneven and empty contributions, gaps that must stay untouched, and messages of a rank to
// itself. The choice of device collectives, and NCCL's symmetric memory.
#include <array>
#include <cmath>
#include <memory>
#include <numeric>

#include "distlops/config.hpp"
#include "distlops/core/buffer.hpp"
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
    Buffer<double, Space> receive(std::max<Index>(1, Index(expected.size())));
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
                                   : gpu_collectives() == GpuCollectives::nccl
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
  set_gpu_collectives(initial);
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
  CHECK(buffer.registered() == (symmetric_memory_available() && world().size() > 1));
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
#endif
