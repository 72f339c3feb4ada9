// The FFT operators and MDC in the Cuda space (cuFFT stages, batched cuBLAS products) against
// the same operators in the host space (which tests/operators/fft_dense checks against
// PyLops' definitions), on the same random data: local FFT, FFT2D and FFTND with every norm,
// nfft padding and truncation, shifts and real inputs; distributed FFT2D and FFTND on arrays
// split along each axis, unevenly with ranks that own nothing, and replicated, with both
// output layouts; MDC in float and double, replicated and split, with ranks that own no
// frequencies. Dot tests run on the device; a second apply allocates nothing; the distributed
// cases go through both collective paths. Every case skips without a device.
#include <array>
#include <sstream>

#include "../operators/fft_dense/fft_reference.hpp"
#include "distlops/distlops.hpp"
#include "gpu_support.hpp"

using namespace distlops;
using namespace distlops::testing;

namespace {

#define DISTLOPS_COMPLEX_TYPES std::complex<float>, std::complex<double>

template <class T>
std::complex<double> host_vdot(const std::vector<T>& a, const std::vector<T>& b) {
  std::complex<double> sum = 0;
  for (std::size_t i = 0; i < a.size(); ++i)
    sum += std::conj(std::complex<double>(a[i])) * std::complex<double>(b[i]);
  return sum;
}

// An operator with real = true is linear over the reals: Re <A u, v> = Re <u, A^H v> for real
// u (the device applies, the sums on the host).
template <class Op, class Domain, class Range>
bool real_dottest(const Op& op, Domain u, const Range& v, double rtol) {
  using T = typename Domain::value_type;
  // u real: the real parts of its random values.
  std::vector<T> real_values = values_of(u);
  for (T& value : real_values)
    value = T(value.real());
  if constexpr (std::same_as<Domain, DistributedArray<T, Cuda>>) {
    u = Domain::from_global(u.layout(), real_values);
  } else {
    memory::copy_bytes<Cuda, Host>(u.data(), real_values.data(), real_values.size() * sizeof(T));
  }
  const double left = host_vdot(values_of(op.apply(u)), values_of(v)).real();
  const double right = host_vdot(values_of(u), values_of(op.apply_adjoint(v))).real();
  return std::abs(left - right) <= rtol * std::max({1.0, std::abs(left), std::abs(right)});
}

// Forward, adjoint and the accumulating applies agree between the spaces; the device dot
// test passes; a second forward and adjoint allocate nothing.
template <class Vector, class HostOp, class DeviceOp, class HostVector, class Fill>
void check_pair(const HostOp& host, const DeviceOp& device, bool real, std::uint64_t seed,
                Fill&& make) {
  using T = typename Vector::value_type;
  HostVector hx = make.host_domain(), hy = make.host_range();
  Vector dx = make.device_domain(), dy = make.device_range();
  fill_random(hx, seed);
  fill_random(dx, seed);
  fill_random(hy, seed + 1);
  fill_random(dy, seed + 1);
  const double tol = device_operator_tolerance<T>();
  CHECK(all_close(values_of(device.apply(dx)), values_of(host.apply(hx)), tol));
  CHECK(all_close(values_of(device.apply_adjoint(dy)), values_of(host.apply_adjoint(hy)), tol));
  const T alpha = random_scalar<T>(seed + 2), beta = random_scalar<T>(seed + 3);
  HostVector hz = hy;
  Vector dz = dy;
  host.apply_add(alpha, hx, beta, hz);
  device.apply_add(alpha, dx, beta, dz);
  CHECK(all_close(values_of(dz), values_of(hz), tol));
  if constexpr (is_complex_v<T>) {
    if (real) CHECK(real_dottest(device, dx, dy, 100 * dottest_tolerance<T>()));
  }
  if (!real) {
    CHECK(dottest(device, seed + 4, 100 * dottest_tolerance<T>(), 0.0, false).passed);
  }
  Vector y = make.device_range(), x = make.device_domain();
  device.apply(dx, y);
  device.apply_adjoint(dy, x);
  const std::uint64_t before = memory::allocation_count();
  device.apply(dx, y);
  device.apply_adjoint(dy, x);
  CHECK(memory::allocation_count() == before);
}

template <class T, class HostOp, class DeviceOp>
void check_local(const HostOp& host, const DeviceOp& device, bool real, std::uint64_t seed) {
  struct Make {
    const HostOp& h;
    const DeviceOp& d;
    LocalArray<T, Host> host_domain() const { return LocalArray<T, Host>(h.domain()); }
    LocalArray<T, Host> host_range() const { return LocalArray<T, Host>(h.range()); }
    LocalArray<T, Cuda> device_domain() const { return LocalArray<T, Cuda>(d.domain()); }
    LocalArray<T, Cuda> device_range() const { return LocalArray<T, Cuda>(d.range()); }
  };
  CHECK(device.domain() == host.domain());
  CHECK(device.range() == host.range());
  check_pair<LocalArray<T, Cuda>, HostOp, DeviceOp, LocalArray<T, Host>>(host, device, real, seed,
                                                                         Make{host, device});
}

template <class T, class HostOp, class DeviceOp>
void check_distributed(const HostOp& host, const DeviceOp& device, bool real, std::uint64_t seed) {
  struct Make {
    const HostOp& h;
    const DeviceOp& d;
    DistributedArray<T, Host> host_domain() const { return DistributedArray<T, Host>(h.domain()); }
    DistributedArray<T, Host> host_range() const { return DistributedArray<T, Host>(h.range()); }
    DistributedArray<T, Cuda> device_domain() const {
      return DistributedArray<T, Cuda>(d.domain());
    }
    DistributedArray<T, Cuda> device_range() const { return DistributedArray<T, Cuda>(d.range()); }
  };
  CHECK(device.domain() == host.domain());
  CHECK(device.range() == host.range());
  check_pair<DistributedArray<T, Cuda>, HostOp, DeviceOp, DistributedArray<T, Host>>(
      host, device, real, seed, Make{host, device});
}

// The option variants of a transform over `axes` of `dims`: plain, zero-padded, truncated
// with shifts before, and a mix; every norm and both real and complex inputs.
template <class Options>
std::vector<Options> variants(const Shape& dims, const std::vector<int>& axes) {
  std::vector<Options> list;
  const int ndim = static_cast<int>(dims.size());
  int norm = 0;
  for (int variant = 0; variant < 4; ++variant) {
    for (bool real : {false, true}) {
      Options o;
      o.axes = axes;
      o.real = real;
      o.norm = std::array{FFTNorm::none, FFTNorm::ortho, FFTNorm::one_over_n}[norm++ % 3];
      for (std::size_t i = 0; i < axes.size(); ++i) {
        const Index length = dims[static_cast<std::size_t>(axes[i] < 0 ? axes[i] + ndim : axes[i])];
        Index nfft = length;
        if (variant == 1) nfft = length + 3 - Index(i);
        if (variant == 2) nfft = std::max<Index>(1, length - 2 + Index(i % 2));
        if (variant == 3) nfft = i % 2 == 0 ? std::max<Index>(1, length - 1) : length + 2;
        o.nfft.push_back(nfft);
        o.ifftshift_before.push_back(variant == 2 || (variant == 3 && i % 2 == 1));
        o.fftshift_after.push_back(variant == 1 || (variant == 3 && i % 2 == 0));
      }
      list.push_back(o);
    }
  }
  return list;
}

template <class Options>
std::string describe_options(const Options& o) {
  std::ostringstream text;
  text << "axes";
  for (int a : o.axes)
    text << " " << a;
  text << " nfft";
  for (Index n : o.nfft)
    text << " " << n;
  text << " real " << o.real << " norm " << int(o.norm) << " shifts";
  for (std::size_t i = 0; i < o.ifftshift_before.size(); ++i)
    text << " " << o.ifftshift_before[i] << o.fftshift_after[i];
  return text.str();
}

}  // namespace

TEMPLATE_TEST_CASE("device local FFT, FFT2D and FFTND match the host's", "[gpu][fft]",
                   DISTLOPS_COMPLEX_TYPES) {
  DISTLOPS_SKIP_WITHOUT_DEVICE();
  using T = TestType;
  std::uint64_t seed = 1000;
  // FFT along the last axis (contiguous lines), the first and a middle one (strided).
  for (const auto& [dims, axis] :
       std::vector<std::pair<Shape, int>>{{{12}, -1}, {{5, 8}, 0}, {{5, 8}, -1}, {{4, 7, 3}, 1}}) {
    for (const FFTOptions& o : variants<FFTOptions>(dims, {axis})) {
      INFO("FFT dims " << to_string(dims) << " " << describe_options(o));
      check_local<T>(local::FFT<T, Host>(dims, o), local::FFT<T, Cuda>(dims, o), o.real,
                     seed += 10);
    }
  }
  for (const auto& [dims, axes] : std::vector<std::pair<Shape, std::vector<int>>>{
           {{5, 8}, {0, 1}}, {{4, 7, 3}, {2, 0}}, {{4, 7, 3}, {-2, -1}}}) {
    for (const FFTOptions& o : variants<FFTOptions>(dims, axes)) {
      INFO("FFT2D dims " << to_string(dims) << " " << describe_options(o));
      check_local<T>(local::FFT2D<T, Host>(dims, o), local::FFT2D<T, Cuda>(dims, o), o.real,
                     seed += 10);
    }
  }
  for (const auto& [dims, axes] : std::vector<std::pair<Shape, std::vector<int>>>{
           {{4, 5, 6}, {0, 1, 2}}, {{3, 4, 5, 2}, {0, 3, 1}}, {{6, 3}, {1}}}) {
    for (const FFTOptions& o : variants<FFTOptions>(dims, axes)) {
      INFO("FFTND dims " << to_string(dims) << " " << describe_options(o));
      check_local<T>(local::FFTND<T, Host>(dims, o), local::FFTND<T, Cuda>(dims, o), o.real,
                     seed += 10);
    }
  }
  // The planning option is FFTW's; the device stage accepts and ignores it.
  FFTOptions measured;
  measured.planning = FFTPlanning::measure;
  check_local<T>(local::FFT2D<T, Host>({6, 5}, measured), local::FFT2D<T, Cuda>({6, 5}, measured),
                 false, 7);
}

TEMPLATE_TEST_CASE("device distributed FFT2D and FFTND match the host's on every split",
                   "[gpu][fft][distributed]", DISTLOPS_COMPLEX_TYPES) {
  DISTLOPS_SKIP_WITHOUT_DEVICE();
  using T = TestType;
  const Communicator comm = world();
  const std::vector<std::pair<Shape, std::vector<std::vector<int>>>> problems{
      {{9}, {{0}}},
      {{7, 6}, {{0, 1}, {1, 0}, {1}}},
      {{2, 5}, {{0, 1}}},
      {{5, 4, 3}, {{0, 1, 2}, {2, 0}}},
  };
  for (GpuCollectives path : collective_paths()) {
    const CollectivesPath selected(path);
    std::uint64_t seed = 2000;
    for (const auto& [shape, axis_sets] : problems) {
      for (const Layout& layout : layouts_of(comm, shape)) {
        for (const auto& axes : axis_sets) {
          for (DistributedFFTOptions o : variants<DistributedFFTOptions>(shape, axes)) {
            for (FFTOutputLayout output :
                 {FFTOutputLayout::transposed, FFTOutputLayout::same_as_input}) {
              o.output = output;
              INFO(to_string(path) << " " << layout.describe() << " output " << int(output) << " "
                                   << describe_options(o));
              if (axes.size() == 2) {
                check_distributed<T>(FFT2D<T, Host>(layout, o), FFT2D<T, Cuda>(layout, o), o.real,
                                     seed += 10);
              } else {
                check_distributed<T>(FFTND<T, Host>(layout, o), FFTND<T, Cuda>(layout, o), o.real,
                                     seed += 10);
              }
            }
          }
        }
      }
    }
  }
}

namespace {

struct MdcCase {
  Index nt, nr, ns, nv, nf;
  double dt, dr;
  bool twosided, conj, prescaled, transpose;
};

// This rank's frequencies [begin, end) of a random kernel (nf, ns, nr), laid out as (f, s, r),
// or (s, r, f) with `transpose`.
template <class R>
LocalArray<std::complex<R>, Host> mdc_kernel(const MdcCase& c, Index begin, Index end) {
  using C = std::complex<R>;
  const std::vector<C> g = random_values<C>(c.nf * c.ns * c.nr, 77);
  const Index nf = end - begin;
  LocalArray<C, Host> local(c.transpose ? Shape{c.ns, c.nr, nf} : Shape{nf, c.ns, c.nr});
  for (Index f = 0; f < nf; ++f) {
    for (Index s = 0; s < c.ns; ++s) {
      for (Index r = 0; r < c.nr; ++r) {
        const C value = g[static_cast<std::size_t>(((begin + f) * c.ns + s) * c.nr + r)];
        local.data()[c.transpose ? (s * c.nr + r) * nf + f : (f * c.ns + s) * c.nr + r] = value;
      }
    }
  }
  return local;
}

}  // namespace

TEMPLATE_TEST_CASE("device MDC matches the host's", "[gpu][mdc]", float, double) {
  DISTLOPS_SKIP_WITHOUT_DEVICE();
  using R = TestType;
  const Communicator comm = world();
  const std::vector<MdcCase> cases{
      {7, 3, 2, 2, 3, 0.5, 2.0, true, false, false, false},
      {7, 3, 2, 2, 4, 1.0, 1.0, true, true, false, true},
      {6, 2, 3, 1, 2, 0.3, 1.5, false, false, true, false},
      {8, 5, 1, 3, 5, 1.0, 0.5, false, true, false, true},
      {5, 1, 2, 2, 1, 2.0, 1.0, true, false, false, false},
  };
  for (GpuCollectives path : collective_paths()) {
    const CollectivesPath selected(path);
    std::uint64_t seed = 3000;
    for (const MdcCase& c : cases) {
      // The default split of the frequencies, or all of them on the last rank.
      for (bool last_only : {false, true}) {
        Index begin = 0, end = 0;
        if (last_only) {
          begin = comm.rank() + 1 == comm.size() ? 0 : c.nf;
          end = c.nf;
        } else {
          const std::vector<Index> counts = default_split(c.nf, comm.size());
          for (int r = 0; r < comm.rank(); ++r)
            begin += counts[static_cast<std::size_t>(r)];
          end = begin + counts[static_cast<std::size_t>(comm.rank())];
        }
        const auto g = mdc_kernel<R>(c, begin, end);
        for (Partition partition : {Partition::BROADCAST, Partition::SCATTER}) {
          INFO(to_string(path) << " nt " << c.nt << " nr " << c.nr << " ns " << c.ns << " nv "
                               << c.nv << " nf " << c.nf << " twosided " << c.twosided
                               << " transpose " << c.transpose << " last only " << last_only << " "
                               << to_string(partition));
          const MDCOptions options{.dt = c.dt,
                                   .dr = c.dr,
                                   .twosided = c.twosided,
                                   .conj = c.conj,
                                   .transpose = c.transpose,
                                   .prescaled = c.prescaled,
                                   .partition = partition};
          check_distributed<R>(MDC<R, Host>(g, c.nt, c.nv, options),
                               MDC<R, Cuda>(g, c.nt, c.nv, options), false, seed += 10);
        }
      }
    }
  }
}

// Options are validated before anything touches the device, so this case runs without one.
TEMPLATE_TEST_CASE("device FFTs and MDC reject bad options as the host's do", "[gpu][fft][errors]",
                   float, double) {
  using R = TestType;
  using C = std::complex<R>;
  const Communicator comm = world();
  CHECK_THROWS_AS((local::FFT2D<C, Cuda>({4, 5}, {.axes = {1, 1}})), InvalidArgument);
  CHECK_THROWS_AS((local::FFT<C, Cuda>({4, 5}, {.nfft = {-1}})), InvalidArgument);
  CHECK_THROWS_AS((local::FFTND<C, Cuda>({4, 5}, {.axes = {0, 2}})), InvalidArgument);
  const Layout layout(comm, {6, 5});
  CHECK_THROWS_AS((FFT2D<C, Cuda>(layout, {.axes = {0}})), InvalidArgument);
  CHECK_THROWS_AS((FFTND<C, Cuda>(layout, {.fftshift_after = {true, false, true}})),
                  InvalidArgument);
  // Every rank raises, whatever its share of the kernel.
  const Index mine = comm.rank() == 0 ? 2 : 0;
  CHECK_THROWS_AS((MDC<R, Cuda>(LocalArray<C>({mine, 2, 3}), 6, 1)), InvalidArgument);
  CHECK_THROWS_AS((MDC<R, Cuda>(LocalArray<C>({mine, 2}), 7, 1)), InvalidArgument);
}
