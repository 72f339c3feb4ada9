// StackedDistributedArray in the Cuda space against the same operations in the host space:
// algebra, reductions (shared and per-block), nesting and masks, on both paths of device
// collectives. Every case skips without a device.
#include <limits>

#include "gpu_support.hpp"

using namespace distlops;
using namespace distlops::testing;

namespace {

template <class T>
constexpr double device_tolerance() {
  return 20 * tolerance<T>();
}

// Three blocks: a SCATTER 2-d array along axis 1, a BROADCAST vector, and a nested stack of a
// SCATTER vector with fewer items than ranks; with `masked`, the first block is masked.
template <class T, class Space>
StackedDistributedArray<T, Space> make_stack(const Communicator& comm, std::uint64_t seed,
                                             bool masked) {
  std::vector<int> mask(comm.size());
  for (int r = 0; r < comm.size(); ++r)
    mask[r] = comm.size() >= 2 ? r * 2 / comm.size() : 0;
  const Layout a(comm, {3, 5},
                 LayoutOptions{.axis = 1, .mask = masked ? mask : std::vector<int>{}});
  const Layout b(comm, {4}, Partition::BROADCAST);
  const Layout c(comm, {2});
  StackedDistributedArray<T, Space> stack;
  stack.push_back(DistributedArray<T, Space>::from_global(a, random_values<T>(15, seed)));
  stack.push_back(DistributedArray<T, Space>::from_global(b, random_values<T>(4, seed + 1)));
  StackedDistributedArray<T, Space> nested;
  nested.push_back(DistributedArray<T, Space>::from_global(c, random_values<T>(2, seed + 2)));
  stack.push_back(std::move(nested));
  return stack;
}

}  // namespace

TEMPLATE_TEST_CASE("device stacks match host stacks", "[gpu][stacked]", DISTLOPS_SCALAR_TYPES) {
  DISTLOPS_SKIP_WITHOUT_DEVICE();
  using T = TestType;
  const Communicator comm = world();
  for (GpuCollectives path : collective_paths()) {
    const CollectivesPath selected(path);
    for (bool masked : {false, true}) {
      INFO(to_string(path) << (masked ? " masked" : " unmasked"));
      const auto xh = make_stack<T, Host>(comm, 1, masked);
      const auto yh = make_stack<T, Host>(comm, 10, masked);
      const auto zh = make_stack<T, Host>(comm, 20, masked);
      const auto xd = make_stack<T, Cuda>(comm, 1, masked);
      const auto yd = make_stack<T, Cuda>(comm, 10, masked);
      const auto zd = make_stack<T, Cuda>(comm, 20, masked);
      const T a = random_scalar<T>(2), b = random_scalar<T>(3), c = random_scalar<T>(4);
      auto same = [](const StackedDistributedArray<T, Cuda>& device,
                     const StackedDistributedArray<T, Host>& host) {
        return all_close(device.gather(), host.gather(), device_tolerance<T>());
      };
      CHECK(xd.gather() == xh.gather());
      CHECK(xd.global_size() == xh.global_size());
      CHECK(same(xd + yd, xh + yh));
      CHECK(same(xd - yd, xh - yh));
      CHECK(same(xd * yd, xh * yh));
      CHECK(same(a * xd, a * xh));
      CHECK(same(a - xd, a - xh));
      CHECK(same(-xd, -xh));
      CHECK(same(xd.conj(), xh.conj()));
      auto td = xd.copy();
      auto th = xh.copy();
      td.axpy(a, yd);
      th.axpy(a, yh);
      CHECK(same(td, th));
      td.copy_from(zd).axpbypcz(a, xd, b, yd, c);
      th.copy_from(zh).axpbypcz(a, xh, b, yh, c);
      CHECK(same(td, th));
      td /= T(2);
      th /= T(2);
      td -= zd;
      th -= zh;
      CHECK(same(td, th));
      CHECK(same(td.zeros_like(), th.zeros_like()));
      CHECK(close(xd.vdot(yd), xh.vdot(yh), device_tolerance<T>()));
      CHECK(close(xd.dot(yd), xh.dot(yh), device_tolerance<T>()));
      for (double ord : {2.0, 1.0, 3.0, 0.0, std::numeric_limits<double>::infinity(),
                         -std::numeric_limits<double>::infinity()}) {
        INFO("ord " << ord);
        CHECK(close(static_cast<double>(xd.norm(ord)), static_cast<double>(xh.norm(ord)),
                    device_tolerance<T>()));
      }
    }
  }
}
