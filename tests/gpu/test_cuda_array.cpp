// DistributedArray in the Cuda space against the same operations in the host space (which
// tests/core checks against independent references): construction and gathers, algebra,
// reductions, norms, redistribution, ghost cells and masks, over MPI with host staging and
// over NCCL. Also the device kernels on their own. Every case skips without a device.
#include <limits>
#include <random>

#include "gpu_support.hpp"

using namespace distlops;
using namespace distlops::testing;

namespace {

constexpr double infinity = std::numeric_limits<double>::infinity();

// Device results differ from the host's by contractions into fused multiply-adds and by the
// order of reductions.
template <class T>
constexpr double device_tolerance() {
  return 20 * tolerance<T>();
}

const std::vector<Partition> all_partitions = {Partition::SCATTER, Partition::BROADCAST,
                                               Partition::UNSAFE_BROADCAST};

}  // namespace

TEMPLATE_TEST_CASE("device arrays are built from and gathered to host data", "[gpu][array]",
                   DISTLOPS_SCALAR_TYPES) {
  DISTLOPS_SKIP_WITHOUT_DEVICE();
  using T = TestType;
  const Communicator comm = world();
  for (GpuCollectives path : collective_paths()) {
    const CollectivesPath selected(path);
    for (const ShapeCase& c : shape_cases()) {
      for (Partition partition : all_partitions) {
        INFO(to_string(path) << " " << describe(c) << " " << to_string(partition));
        const Layout layout(comm, c.shape, partition, c.axis);
        const std::vector<T> global = random_values<T>(element_count(c.shape), 17);
        const auto x = both_spaces(layout, global);
        CHECK(local_of(x.device) == local_of(x.host));
        CHECK(x.device.gather() == global);
        const int root = comm.size() - 1;
        const auto y = DistributedArray<T, Cuda>::from_root(
            layout, comm.rank() == root ? std::span<const T>(global) : std::span<const T>(), root);
        CHECK(y.gather() == global);
        const std::vector<T> on_root = y.gather_to(0);
        CHECK(on_root == (comm.rank() == 0 ? global : std::vector<T>()));
        const DistributedArray<T, Cuda> filled(layout, T(3));
        CHECK(filled.gather() == std::vector<T>(global.size(), T(3)));
        if (partition != Partition::UNSAFE_BROADCAST) x.device.check_replicas();
      }
    }
  }
}

TEMPLATE_TEST_CASE("device algebra matches the host's", "[gpu][array]", DISTLOPS_SCALAR_TYPES) {
  DISTLOPS_SKIP_WITHOUT_DEVICE();
  using T = TestType;
  const Communicator comm = world();
  for (const ShapeCase& c : shape_cases()) {
    for (Partition partition : all_partitions) {
      INFO(describe(c) << " " << to_string(partition));
      const Layout layout(comm, c.shape, partition, c.axis);
      const Index n = element_count(c.shape);
      std::vector<T> gw = random_values<T>(n, 2);
      for (T& v : gw)
        v += T(real_type_t<T>(3));
      const auto x = both_spaces(layout, random_values<T>(n, 1));
      const auto w = both_spaces(layout, gw);
      const auto z = both_spaces(layout, random_values<T>(n, 3));
      const T a = random_scalar<T>(4), b = random_scalar<T>(5), s = random_scalar<T>(6);
      auto same = [&](const DistributedArray<T, Cuda>& device,
                      const DistributedArray<T, Host>& host) {
        return all_close(local_of(device), local_of(host), device_tolerance<T>());
      };
      CHECK(same(x.device + w.device, x.host + w.host));
      CHECK(same(x.device - w.device, x.host - w.host));
      CHECK(same(x.device * w.device, x.host * w.host));
      CHECK(same(x.device / w.device, x.host / w.host));
      CHECK(same(x.device + s, x.host + s));
      CHECK(same(s - x.device, s - x.host));
      CHECK(same(x.device * s, x.host * s));
      CHECK(same(x.device / s, x.host / s));
      CHECK(same(s / w.device, s / w.host));
      CHECK(same(-x.device, -x.host));
      CHECK(same(x.device.conj(), x.host.conj()));

      auto td = x.device.copy();
      auto th = x.host.copy();
      td += w.device, th += w.host;
      td -= z.device, th -= z.host;
      td *= w.device, th *= w.host;
      td /= w.device, th /= w.host;
      td /= s, th /= s;
      td += s, th += s;
      td -= b, th -= b;
      td *= a, th *= a;
      CHECK(same(td, th));
      td.copy_from(x.device).axpy(a, w.device);
      th.copy_from(x.host).axpy(a, w.host);
      CHECK(same(td, th));
      td.copy_from(x.device).axpby(a, w.device, b);
      th.copy_from(x.host).axpby(a, w.host, b);
      CHECK(same(td, th));
      td.copy_from(z.device).axpbypcz(a, x.device, b, w.device, s);
      th.copy_from(z.host).axpbypcz(a, x.host, b, w.host, s);
      CHECK(same(td, th));
      // c = 0 must not read the (NaN) destination.
      td.fill(T(std::numeric_limits<real_type_t<T>>::quiet_NaN()));
      th.fill(T(std::numeric_limits<real_type_t<T>>::quiet_NaN()));
      td.axpbypcz(a, x.device, b, w.device, T(0));
      th.axpbypcz(a, x.host, b, w.host, T(0));
      CHECK(same(td, th));
      td.copy_from(x.device).scale(a).conj_in_place();
      th.copy_from(x.host).scale(a).conj_in_place();
      CHECK(same(td, th));
      CHECK(local_of(x.device.zeros_like()) == local_of(x.host.zeros_like()));
      // Copies are deep; assignment between equal layouts reuses the storage.
      DistributedArray<T, Cuda> copy = x.device;
      copy *= T(2);
      CHECK(local_of(x.device) == local_of(x.host));
      const T* storage = copy.data();
      copy = z.device;
      CHECK(copy.data() == storage);
      CHECK(local_of(copy) == local_of(z.host));
    }
  }
}

TEMPLATE_TEST_CASE("device dot, vdot and norms match the host's", "[gpu][reductions]",
                   DISTLOPS_SCALAR_TYPES) {
  DISTLOPS_SKIP_WITHOUT_DEVICE();
  using T = TestType;
  const Communicator comm = world();
  for (GpuCollectives path : collective_paths()) {
    const CollectivesPath selected(path);
    for (const ShapeCase& c : shape_cases()) {
      for (Partition partition : all_partitions) {
        INFO(to_string(path) << " " << describe(c) << " " << to_string(partition));
        const Layout layout(comm, c.shape, partition, c.axis);
        const Index n = element_count(c.shape);
        std::vector<T> gx = random_values<T>(n, 7);
        if (n > 2) gx[1] = T(0);
        const auto x = both_spaces(layout, gx);
        const auto y = both_spaces(layout, random_values<T>(n, 8));
        CHECK(close(x.device.dot(y.device), x.host.dot(y.host), device_tolerance<T>()));
        CHECK(close(x.device.vdot(y.device), x.host.vdot(y.host), device_tolerance<T>()));
        for (double ord : {2.0, 1.0, 0.0, 3.0, 0.5, -1.5, infinity, -infinity}) {
          INFO("ord " << ord);
          const double expected = static_cast<double>(x.host.norm(ord));
          const double actual = static_cast<double>(x.device.norm(ord));
          if (std::isinf(expected)) {
            CHECK(actual == expected);
          } else {
            CHECK(close(actual, expected, device_tolerance<T>()));
          }
        }
        if (c.shape.size() < 2 || n == 0) continue;
        for (int norm_axis = 0; norm_axis < static_cast<int>(c.shape.size()); ++norm_axis) {
          for (double ord : {2.0, 1.0, 3.0, infinity, -infinity, 0.0}) {
            INFO("norm axis " << norm_axis << " ord " << ord);
            const auto expected = x.host.norm(ord, norm_axis);
            const auto actual = x.device.norm(ord, norm_axis);
            REQUIRE(actual.size() == expected.size());
            CHECK(all_close(actual, expected, device_tolerance<T>()));
          }
        }
      }
    }
  }
}

TEMPLATE_TEST_CASE("device redistribution moves the same data as the host's", "[gpu][redistribute]",
                   DISTLOPS_SCALAR_TYPES) {
  DISTLOPS_SKIP_WITHOUT_DEVICE();
  using T = TestType;
  const Communicator comm = world();
  const int size = comm.size();
  for (GpuCollectives path : collective_paths()) {
    const CollectivesPath selected(path);
    for (const ShapeCase& c : shape_cases()) {
      const int ndim = static_cast<int>(c.shape.size());
      const std::vector<T> global = random_values<T>(element_count(c.shape), 12);
      const Layout source(comm, c.shape, Partition::SCATTER, c.axis);
      const auto x = both_spaces(source, global);
      std::vector<Layout> targets;
      for (int axis = 0; axis < ndim; ++axis)
        targets.emplace_back(comm, c.shape, Partition::SCATTER, axis);
      targets.emplace_back(comm, c.shape, Partition::BROADCAST, c.axis);
      std::vector<Shape> skewed(size, c.shape);
      for (int r = 0; r < size; ++r)
        skewed[r][source.axis()] = r == size - 1 ? c.shape[source.axis()] : 0;
      targets.emplace_back(comm, c.shape,
                           LayoutOptions{.axis = source.axis(), .local_shapes = skewed});
      for (const Layout& target : targets) {
        INFO(to_string(path) << " " << describe(c) << " to " << target.describe());
        const auto moved = x.device.redistribute(target);
        CHECK(moved.layout() == target);
        CHECK(local_of(moved) == local_of(x.host.redistribute(target)));
        const auto back = moved.redistribute(source);
        CHECK(local_of(back) == local_of(x.host));
        // Replicated to distributed: a local copy on every rank.
        if (target.replicated()) CHECK(local_of(moved.redistribute(source)) == local_of(x.host));
      }
    }
  }
}

TEMPLATE_TEST_CASE("device ghost cells hold the host's planes", "[gpu][ghost]",
                   DISTLOPS_SCALAR_TYPES) {
  DISTLOPS_SKIP_WITHOUT_DEVICE();
  using T = TestType;
  const Communicator comm = world();
  const int size = comm.size();
  for (GpuCollectives path : collective_paths()) {
    const CollectivesPath selected(path);
    for (const auto& [shape, axis] : std::vector<std::pair<Shape, int>>{
             {{4 * 4}, 0}, {{9, 3}, 0}, {{3, 12}, 1}, {{2, 9, 2}, 1}, {{2, 2, 10}, 2}}) {
      const Layout layout(comm, shape, Partition::SCATTER, axis);
      const auto x = both_spaces(layout, random_values<T>(element_count(shape), 14));
      for (const auto& [front, back] :
           std::vector<std::pair<Index, Index>>{{1, 1}, {2, 0}, {0, 2}, {0, 0}}) {
        bool possible = true;
        for (int r = 1; r < size; ++r)
          possible = possible && layout.local_extent(r - 1) >= front;
        for (int r = 0; r + 1 < size; ++r)
          possible = possible && layout.local_extent(r + 1) >= back;
        if (!possible) continue;
        INFO(to_string(path) << " shape " << to_string(shape) << " axis " << axis << " front "
                             << front << " back " << back);
        const LocalArray<T, Cuda> device = x.device.add_ghost_cells(front, back);
        const LocalArray<T> host = x.host.add_ghost_cells(front, back);
        CHECK(device.shape() == host.shape());
        CHECK(to_host(device.data(), device.size()) ==
              std::vector<T>(host.span().begin(), host.span().end()));
      }
    }
#if DISTLOPS_WITH_NCCL
    // Planes from several ranks, through a transport of the caller's.
    if (path == GpuCollectives::nccl) {
      for (int axis : {0, 1}) {
        std::vector<Shape> shapes;
        Index n = 0;
        for (int r = 0; r < size; ++r) {
          shapes.push_back(axis == 0 ? Shape{r % 2, 3} : Shape{3, r % 2});
          n += r % 2;
        }
        const Shape shape = axis == 0 ? Shape{n, 3} : Shape{3, n};
        const Layout layout(comm, shape, LayoutOptions{.axis = axis, .local_shapes = shapes});
        const auto x = both_spaces(layout, random_values<T>(element_count(shape), 15));
        const GhostExchange exchange(layout, 2, 2, GhostReach::any);
        std::vector<T> front(static_cast<std::size_t>(element_count(exchange.front_shape())));
        std::vector<T> back(static_cast<std::size_t>(element_count(exchange.back_shape())));
        exchange.exchange(Host{}, x.host.data(), front.data(), back.data());
        Buffer<T, Cuda> device_front(static_cast<Index>(front.size()));
        Buffer<T, Cuda> device_back(static_cast<Index>(back.size()));
        NcclTransport transport{NcclCommunicator(comm)};
        for (int repeat = 0; repeat < 2; ++repeat) {
          exchange.exchange(transport, x.device.data(), device_front.data(), device_back.data());
          CHECK(to_host(device_front.data(), device_front.size()) == front);
          CHECK(to_host(device_back.data(), device_back.size()) == back);
        }
      }
    }
#endif
  }
}

TEMPLATE_TEST_CASE("masked device arrays reduce inside their group", "[gpu][mask]",
                   DISTLOPS_SCALAR_TYPES) {
  DISTLOPS_SKIP_WITHOUT_DEVICE();
  using T = TestType;
  const Communicator comm = world();
  const int size = comm.size();
  const int groups = size >= 2 ? 2 : 1;
  std::vector<int> mask(size);
  for (int r = 0; r < size; ++r)
    mask[r] = r * groups / size;
  for (GpuCollectives path : collective_paths()) {
    const CollectivesPath selected(path);
    INFO(to_string(path));
    const Layout layout(comm, {11, 2}, LayoutOptions{.mask = mask});
    const auto x = both_spaces(layout, random_values<T>(22, 20));
    const auto y = both_spaces(layout, random_values<T>(22, 21));
    CHECK(close(x.device.vdot(y.device), x.host.vdot(y.host), device_tolerance<T>()));
    CHECK(close(x.device.dot(y.device), x.host.dot(y.host), device_tolerance<T>()));
    for (double ord : {2.0, 1.0, infinity, -infinity}) {
      CHECK(close(static_cast<double>(x.device.norm(ord)), static_cast<double>(x.host.norm(ord)),
                  device_tolerance<T>()));
    }
    CHECK(all_close(x.device.norm(2, 0), x.host.norm(2, 0), device_tolerance<T>()));
    CHECK(x.device.gather(true) == x.host.gather(true));
    CHECK(x.device.gather() == x.host.gather());
  }
}

TEMPLATE_TEST_CASE("device kernels match the host kernels", "[gpu][kernels]",
                   DISTLOPS_SCALAR_TYPES) {
  DISTLOPS_SKIP_WITHOUT_DEVICE();
  using T = TestType;
  using R = real_type_t<T>;
  // Sizes around the block and grid sizes of the kernels.
  for (Index n : {Index(1), Index(255), Index(257), Index(4097), Index(300001)}) {
    INFO("n " << n);
    const std::vector<T> x = random_values<T>(n, 70), y = random_values<T>(n, 71);
    const Buffer<T> hx = [&] {
      Buffer<T> b(n);
      std::copy(x.begin(), x.end(), b.data());
      return b;
    }();
    const auto dx = to_space<Cuda>(hx);
    Buffer<T> hy(n);
    std::copy(y.begin(), y.end(), hy.data());
    const auto dy = to_space<Cuda>(hy);
    CHECK(close(kernels::dot(Cuda{}, n, dx.data(), dy.data()),
                kernels::dot(Host{}, n, x.data(), y.data()), device_tolerance<T>() * 100));
    CHECK(close(kernels::vdot(Cuda{}, n, dx.data(), dy.data()),
                kernels::vdot(Host{}, n, x.data(), y.data()), device_tolerance<T>() * 100));
    // The same reduction twice gives the same bits.
    CHECK(kernels::dot(Cuda{}, n, dx.data(), dy.data()) ==
          kernels::dot(Cuda{}, n, dx.data(), dy.data()));
    for (auto kind : {kernels::NormKind::power_sum, kernels::NormKind::count_nonzero,
                      kernels::NormKind::max_abs, kernels::NormKind::min_abs}) {
      const R p = kind == kernels::NormKind::power_sum ? R(3) : R(0);
      CHECK(close(kernels::norm_reduce(Cuda{}, kind, p, n, dx.data()),
                  kernels::norm_reduce(Host{}, kind, p, n, x.data()), device_tolerance<T>() * 100));
    }
    // Along the middle axis of (outer, length, inner) views of the same data.
    for (Index inner : {Index(1), Index(3)}) {
      if (n % inner != 0) continue;
      const Index length = n / inner;
      Buffer<R, Cuda> out(inner);
      std::vector<R> expected(static_cast<std::size_t>(inner));
      kernels::norm_reduce_axis(Cuda{}, kernels::NormKind::power_sum, R(2), 1, length, inner,
                                dx.data(), out.data());
      kernels::norm_reduce_axis(Host{}, kernels::NormKind::power_sum, R(2), 1, length, inner,
                                x.data(), expected.data());
      CHECK(all_close(to_host(out.data(), inner), expected, device_tolerance<T>() * 100));
    }
  }
}

TEST_CASE("device copy_box copies random boxes like the host", "[gpu][kernels]") {
  DISTLOPS_SKIP_WITHOUT_DEVICE();
  std::mt19937_64 engine(61);
  auto uniform = [&](Index lo, Index hi) {
    return std::uniform_int_distribution<Index>(lo, hi)(engine);
  };
  for (int trial = 0; trial < 300; ++trial) {
    // Up to 9 dimensions: more outer axes than one kernel launch takes.
    const int ndim = static_cast<int>(uniform(1, trial % 10 == 0 ? 9 : 5));
    Shape source_shape(ndim), destination_shape(ndim), extent(ndim), source_corner(ndim),
        destination_corner(ndim);
    for (int k = 0; k < ndim; ++k) {
      extent[k] = uniform(0, 9) < 2 ? 1 : uniform(1, ndim > 5 ? 2 : 200 / (ndim * ndim));
      source_shape[k] = extent[k] + (uniform(0, 2) == 0 ? 0 : uniform(1, 3));
      destination_shape[k] = extent[k] + (uniform(0, 2) == 0 ? 0 : uniform(1, 3));
      source_corner[k] = uniform(0, source_shape[k] - extent[k]);
      destination_corner[k] = uniform(0, destination_shape[k] - extent[k]);
    }
    // Element sizes of the scalar types, and an odd one.
    const std::size_t element_size = std::vector<std::size_t>{4, 8, 16, 12, 3}[trial % 5];
    INFO("trial " << trial << " element size " << element_size << " source "
                  << to_string(source_shape) << " extent " << to_string(extent));
    const Index source_bytes = element_count(source_shape) * static_cast<Index>(element_size);
    const Index destination_bytes =
        element_count(destination_shape) * static_cast<Index>(element_size);
    Buffer<std::byte> source(source_bytes), destination(destination_bytes);
    for (Index i = 0; i < source_bytes; ++i)
      source.data()[i] = static_cast<std::byte>(i * 7 + 3);
    std::fill(destination.data(), destination.data() + destination_bytes, std::byte{0});
    const auto device_source = to_space<Cuda>(source);
    auto device_destination = to_space<Cuda>(destination);
    kernels::copy_box(Host{}, element_size, source.data(), {source_shape, source_corner},
                      destination.data(), {destination_shape, destination_corner}, extent);
    kernels::copy_box(Cuda{}, element_size, device_source.data(), {source_shape, source_corner},
                      device_destination.data(), {destination_shape, destination_corner}, extent);
    CHECK(to_host(device_destination.data(), destination_bytes) ==
          std::vector<std::byte>(destination.data(), destination.data() + destination_bytes));
  }
}
