// SPDX-License-Identifier: BSD-3-Clause
// Copyright (c) 2026 The distlops authors
// Local FFT, FFT2D and FFTND against PyLops' definition computed with a naive DFT (every norm,
// shift, nfft padding and truncation, even and odd lengths, 1-d to 3-d), for complex models,
// real models with a half spectrum (real = true) and real models with a full spectrum, in both
// precisions; exact adjoints (complex-linear, and linear over the reals for real models) and dot
// tests, in every memory space; numbers computed by PyLops, the frequencies, and bad arguments.
#include <unistd.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>

#include "fft_checks.hpp"

using namespace distlops;
using namespace distlops::testing;

namespace {

constexpr std::array norms{FFTNorm::none, FFTNorm::ortho, FFTNorm::one_over_n};

// The library's options for a test case.
FFTOptions options_of(const FftCase& c) {
  FFTOptions options;
  options.axes = c.axes;
  options.nfft = c.nfft;
  options.norm = c.norm;
  options.real = c.real;
  options.ifftshift_before = c.ifftshift_before;
  options.fftshift_after = c.fftshift_after;
  return options;
}

// Variants of nfft and shifts for the given axes of dims: plain, padded, truncated, shifted
// before, shifted after, and a mix.
std::vector<FftCase> variants(const Shape& dims, const std::vector<int>& axes) {
  std::vector<FftCase> cases;
  const std::size_t n = axes.size();
  auto make = [&](int pad, int shifts) {
    FftCase c;
    c.axes = axes;
    for (std::size_t i = 0; i < n; ++i) {
      const Index length = dims[axes[i]];
      Index nfft = length;
      if (pad == 1) nfft = length + 2 + Index(i);
      if (pad == 2) nfft = std::max<Index>(1, length - 1 - Index(i % 2));
      if (pad == 3) nfft = i % 2 == 0 ? length + 3 : std::max<Index>(1, length - 2);
      c.nfft.push_back(nfft);
      c.ifftshift_before.push_back(shifts == 1 || (shifts == 3 && i % 2 == 0));
      c.fftshift_after.push_back(shifts == 2 || (shifts == 3 && i % 2 == 1));
    }
    return c;
  };
  cases.push_back(make(0, 0));
  cases.push_back(make(1, 0));
  cases.push_back(make(2, 0));
  cases.push_back(make(0, 1));
  cases.push_back(make(0, 2));
  cases.push_back(make(3, 3));
  return cases;
}

// Every non-empty ordered choice of axes up to three, of an array of ndim axes.
std::vector<std::vector<int>> axis_choices(int ndim) {
  std::vector<std::vector<int>> choices;
  for (int a = 0; a < ndim; ++a) {
    choices.push_back({a});
    for (int b = 0; b < ndim; ++b) {
      if (b != a) choices.push_back({a, b});
    }
  }
  if (ndim == 3) choices.push_back({2, 0, 1});
  return choices;
}

}  // namespace

// Templated on the precision: each case runs for a complex model, a real model with the full
// spectrum and a real model with the half spectrum (real = true).
DISTLOPS_SPACE_TEMPLATE_TEST_CASE("local FFTs equal PyLops' definition", "[fft][local]", float,
                                  double) {
  using R = TestType;
  using C = std::complex<R>;
  std::uint64_t seed = 1;
  int norm = 0;
  for (const Shape& dims : std::vector<Shape>{{7}, {8}, {4, 5}, {3, 6}, {3, 4, 2}}) {
    for (const std::vector<int>& axes : axis_choices(int(dims.size()))) {
      for (FftCase c : variants(dims, axes)) {
        // The norms take turns: each is a scale, checked on every kind of case over the loop.
        c.real = false;
        c.norm = norms[norm++ % 3];
        const FftReference full(dims, c);
        INFO("dims " << to_string(dims) << " " << describe(c));
        check_against_reference(local::FFTND<C, Space>(dims, options_of(c)), full, seed++);
        check_against_reference(local::FFTND<R, Space>(dims, options_of(c)), full, seed++);
        c.real = true;
        c.norm = norms[norm++ % 3];
        INFO("real: " << describe(c));
        check_against_reference(local::FFTND<R, Space>(dims, options_of(c)), FftReference(dims, c),
                                seed++);
      }
    }
  }
}

DISTLOPS_SPACE_TEMPLATE_TEST_CASE("FFT and FFT2D default to PyLops' axes", "[fft][local]", float,
                                  double) {
  using R = TestType;
  using C = std::complex<R>;
  const Shape dims{3, 4, 5};
  FftCase last{{2}, {5}, FFTNorm::ortho, false, {false}, {false}};
  check_against_reference(local::FFT<C, Space>(dims), FftReference(dims, last), 7);
  FftCase two{{1, 2}, {4, 5}, FFTNorm::ortho, true, {false, false}, {false, false}};
  check_against_reference(local::FFT2D<R, Space>(dims, {.real = true}), FftReference(dims, two), 8);
  FftCase three{{0, 1, 2}, {3, 4, 5},          FFTNorm::ortho,
                false,     {true, true, true}, {false, false, false}};
  check_against_reference(local::FFTND<C, Space>(dims, {.ifftshift_before = {true}}),
                          FftReference(dims, three), 9);
  // The planning option is FFTW's; the device stage accepts and ignores it.
  FftCase planned{{1, 2}, {4, 5}, FFTNorm::ortho, false, {false, false}, {false, false}};
  check_against_reference(local::FFT2D<C, Space>(dims, {.planning = FFTPlanning::measure}),
                          FftReference(dims, planned), 10);
  CHECK(local::FFT<C, Space>(dims, {.axes = {0}, .nfft = {6}}).range() == Shape{6, 4, 5});
  CHECK(local::FFT2D<R, Space>(dims, {.nfft = {0, 8}, .real = true}).range() == Shape{3, 4, 5});
  CHECK(local::FFT<R, Space>(dims, {.nfft = {9}, .real = true}).range() == Shape{3, 4, 5});
  CHECK(local::FFT<R, Space>(dims, {.axes = {0}, .real = true}).range() == Shape{2, 4, 5});
  CHECK(local::FFT<R, Space>(dims).range() == Shape{3, 4, 5});
}

TEST_CASE("local FFTs match numbers computed by PyLops", "[fft][local][pylops]") {
  using C = std::complex<double>;
  const double rtol = 1e-12;
  {
    // x = np.arange(8.0)**1.5 - 3*np.sin(np.arange(8.0))
    // F = pylops.signalprocessing.FFT(dims=8, nfft=10, real=True, ifftshift_before=True)
    // F @ x; F.H @ (np.cos(np.arange(6.0)) + 1j*np.arange(6.0)/3)
    LocalArray<double> x({8});
    LocalArray<C> y({6});
    for (Index i = 0; i < 8; ++i)
      x.data()[i] = std::pow(double(i), 1.5) - 3 * std::sin(double(i));
    for (Index i = 0; i < 6; ++i)
      y.data()[i] = C(std::cos(double(i)), double(i) / 3);
    const local::FFTOperator<double> f =
        local::FFT<double>({8}, {.nfft = {10}, .real = true, .ifftshift_before = {true}});
    const std::vector<C> forward{{18.898061853048734, 0},
                                 {9.52461051169802, -15.28506001234219},
                                 {-7.467221561808162, -7.009634143079926},
                                 {5.439774992351883, 1.2432159648863637},
                                 {3.882593025872407, -2.122896671108271},
                                 {-2.513588340302624, 0}};
    const std::vector<double> adjoint{
        0.3737036430126919,   -0.05079136302740383, 0.13152280034423824, 0.12467374109344422,
        -0.27360277871933636, -0.4091818127674283,  1.4119594869503986,  -0.41685908596139964};
    const auto fx = f.apply(x);
    const auto fy = f.apply_adjoint(y);
    CHECK(all_close(std::vector<C>(fx.span().begin(), fx.span().end()), forward, rtol));
    CHECK(all_close(std::vector<double>(fy.span().begin(), fy.span().end()), adjoint, rtol));
  }
  {
    // X = np.arange(20.0).reshape(4,5)/7 + 1j*np.cos(np.arange(20.0)).reshape(4,5)
    // F2 = pylops.signalprocessing.FFT2D(dims=(4,5), axes=(0,1), nffts=(6,4), norm="1/n",
    //                                    fftshift_after=(True, False))
    // F2 @ X.ravel(); F2.H @ (np.sin(np.arange(24.0)) + 1j*np.arange(24.0)/10)
    LocalArray<C> x({4, 5});
    LocalArray<C> y({6, 4});
    for (Index i = 0; i < 20; ++i)
      x.data()[i] = C(double(i) / 7, std::cos(double(i)));
    for (Index i = 0; i < 24; ++i)
      y.data()[i] = C(std::sin(double(i)), double(i) / 10);
    const auto f = local::FFT2D<C>({4, 5}, {.axes = {0, 1},
                                            .nfft = {6, 4},
                                            .norm = FFTNorm::one_over_n,
                                            .fftshift_after = {true, false}});
    const std::vector<C> forward{{-2.3809523809523805e-01, 0.02211571717317828},
                                 {4.7482482796455228e-02, 0.02866608301772919},
                                 {1.3877787807814457e-17, 0.02671114984455381},
                                 {-4.7482482796455228e-02, 0.02866608301772922},
                                 {1.8052588679300985e-01, -0.21070142281947593},
                                 {-6.3539027912623114e-02, 0.16806237958157658},
                                 {-5.2679555858881066e-02, 0.02658886694844852},
                                 {-4.7788527529515068e-02, -0.00071195957454083},
                                 {-5.1658036397431839e-01, 0.4517431981243481},
                                 {2.3010171268073232e-01, 0.09115174370042489},
                                 {2.4688791598504463e-02, 0.07671551217018233},
                                 {-7.4710373460202595e-02, 0.0765267947590256},
                                 {8.5714285714285698e-01, 0.06545243964472497},
                                 {-4.2828720498299513e-02, -0.00327858967049841},
                                 {-4.7619047619047651e-02, -0.0161733744776408},
                                 {-5.2409374739795712e-02, -0.09851668490859368},
                                 {-3.1675296935901487e-01, -0.2905642908337421},
                                 {1.1594967840231871e-01, 0.11776609970114173},
                                 {-2.4688791598504380e-02, 0.1179548171122985},
                                 {-2.7134101762284846e-01, 0.13239104864254103},
                                 {2.4804554177841881e-01, -0.00450489810889535},
                                 {2.3979003719991249e-02, 0.02309756423498302},
                                 {2.8870032049357196e-02, 0.02658886694844849},
                                 {3.9729504103099313e-02, 0.14425285577205277}};
    const std::vector<C> adjoint{{0.04082524206209433, 1.1499999999999999},
                                 {0.05018313125030852, -1.5082111125133186e-02},
                                 {0.01231262333355213, -4.9999999999999989e-02},
                                 {-0.04981686874969149, -8.4917888874866815e-02},
                                 {0, 0},
                                 {-0.3939959354222274, 2.1893739862009043e-01},
                                 {-0.02139063055862461, -2.2029662261530573e-02},
                                 {-0.00957903250386442, 1.3977645917018812e-02},
                                 {0.03456929851575319, 4.5765118539984370e-02},
                                 {0, 0},
                                 {0.30858104120510543, -3.4219275093244567e-01},
                                 {0.05771805280579493, -7.7179205878733337e-02},
                                 {-0.04926343699998884, -1.0495210901839686e-01},
                                 {-0.3624608966212268, -1.0104008868106065e-01},
                                 {0, 0},
                                 {0.04924665968999723, 2.0000000000000007e-01},
                                 {-0.0904140238158315, -4.8514191708298217e-02},
                                 {-0.0487327941481762, 2.0816681711721685e-17},
                                 {-0.09041402381583152, 4.8514191708298189e-02},
                                 {0, 0}};
    const auto fx = f.apply(x), fy = f.apply_adjoint(y);
    CHECK(all_close(std::vector<C>(fx.span().begin(), fx.span().end()), forward, rtol));
    CHECK(all_close(std::vector<C>(fy.span().begin(), fy.span().end()), adjoint, rtol));
  }
  {
    // x3 = np.arange(24.0).reshape(3,4,2)**0.5
    // F3 = pylops.signalprocessing.FFTND(dims=(3,4,2), axes=(0,1,2), real=True, norm="none",
    //                                    nffts=(3,5,2))
    // F3 @ x3.ravel(); F3.H @ (np.cos(np.arange(30)) - 1j*np.arange(30)/5)
    LocalArray<double> x({3, 4, 2});
    LocalArray<C> y({3, 5, 2});
    for (Index i = 0; i < 24; ++i)
      x.data()[i] = std::sqrt(double(i));
    for (Index i = 0; i < 30; ++i)
      y.data()[i] = C(std::cos(double(i)), -double(i) / 5);
    const auto f = local::FFTND<double>(
        {3, 4, 2}, {.axes = {0, 1, 2}, .nfft = {3, 5, 2}, .norm = FFTNorm::none, .real = true});
    const std::vector<C> forward{{75.73480078951178, 0},
                                 {-2.8040818016621243, 0},
                                 {-13.845086751628902, -16.25563258004616},
                                 {-0.7314444419527165, 0.591943401087061},
                                 {13.356518232782632, -12.459240417468735},
                                 {-1.103210909394897, 0.2936134586575171},
                                 {13.356518232782632, 12.459240417468735},
                                 {-1.103210909394897, -0.2936134586575171},
                                 {-13.845086751628902, 16.25563258004616},
                                 {-0.7314444419527165, -0.591943401087061},
                                 {-17.651040292821598, 7.165477728216487},
                                 {-1.2232092856344148, 0.12425406843347074},
                                 {0.3631740872192242, 4.2501274923308365},
                                 {-0.7229930857144943, 0.20483368822137502},
                                 {-3.6839744243886017, 3.76212095510847},
                                 {-0.7478983992402581, 0.10715657717266161},
                                 {-5.658088629279884, -0.6977696143064829},
                                 {-0.7782750233891109, -0.04611566560351685},
                                 {-3.248902616638769, -4.54370718498588},
                                 {-0.7909279538430459, -0.18025932104165435},
                                 {-17.651040292821598, -7.165477728216487},
                                 {-1.2232092856344148, -0.12425406843347074},
                                 {-3.248902616638769, 4.54370718498588},
                                 {-0.7909279538430459, 0.18025932104165435},
                                 {-5.658088629279884, 0.6977696143064829},
                                 {-0.7782750233891109, 0.04611566560351685},
                                 {-3.6839744243886017, -3.76212095510847},
                                 {-0.7478983992402581, -0.10715657717266161},
                                 {0.3631740872192242, -4.2501274923308365},
                                 {-0.7229930857144943, -0.20483368822137502}};
    const std::vector<double> adjoint{
        -0.4814156032265904, 0.6927563431993748, -9.422977665299115,  0.7715220840120951,
        0.8708989576100836,  0.3121292171507628, 4.769935312404961,   0.3121292171507637,
        -16.44736460014466,  1.2558255407624879, 0.41184801179725405, -0.18471087977215483,
        4.179139099687005,   0.8467056591896933, 4.844659112647762,   -3.708427352207706,
        18.19365155123289,   1.2558255407624888, -0.1715455965872399, 3.8083102652540872,
        4.844659112647762,   -3.708427352207704, 4.179139099686999,   0.8467056591896918};
    const auto fx = f.apply(x);
    const auto fy = f.apply_adjoint(y);
    CHECK(all_close(std::vector<C>(fx.span().begin(), fx.span().end()), forward, rtol));
    CHECK(all_close(std::vector<double>(fy.span().begin(), fy.span().end()), adjoint, rtol));
  }
}

TEST_CASE("FFT frequencies are numpy's", "[fft][local]") {
  // np.fft.fftshift(np.fft.fftfreq(7, 0.5)); np.fft.rfftfreq(6, 2.0)
  CHECK(all_close(fft_frequencies(7, 0.5, false, true),
                  {-0.8571428571428571, -0.5714285714285714, -0.2857142857142857, 0.,
                   0.2857142857142857, 0.5714285714285714, 0.8571428571428571},
                  1e-15));
  CHECK(all_close(fft_frequencies(6, 2.0, true),
                  {0., 0.08333333333333333, 0.16666666666666666, 0.25}, 1e-15));
  CHECK(all_close(fft_frequencies(4), {0., 0.25, -0.5, -0.25}, 1e-15));
  CHECK_THROWS_AS(fft_frequencies(0), InvalidArgument);
}

TEMPLATE_TEST_CASE("local FFTs on misaligned views, planned with measurement",
                   "[fft][local][alignment]", float, double) {
  using C = std::complex<TestType>;
  const Shape dims{6, 5};
  const FftCase c{{0, 1}, {6, 5}, FFTNorm::ortho, false, {false, false}, {false, false}};
  const FftReference reference(dims, c);
  for (FFTPlanning planning : {FFTPlanning::estimate, FFTPlanning::measure}) {
    const auto op = local::FFT2D<C>(dims, {.planning = planning});
    // Arrays that start one element after an aligned allocation.
    Buffer<C> storage(2 * 30 + 2);
    auto x = LocalArray<C>::wrap(dims, storage.data() + 1);
    auto y = LocalArray<C>::wrap(dims, storage.data() + 32);
    const std::vector<C> values = random_values<C>(30, 3);
    std::copy(values.begin(), values.end(), x.data());
    op.apply(x, y);
    CHECK(fft_close(wide_values(y), reference.forward(wide_values(x)), 10 * tolerance<C>()));
    op.apply_adjoint(y, x);
    CHECK(fft_close(wide_values(x), reference.adjoint(wide_values(y), false), 10 * tolerance<C>()));
  }
}

// Measured plans transform the axes whose maps are identities where the block lies (strided
// FFTW batches, no panels): alone (in place after the first pass), next to a padded axis that
// keeps its panels (intermediate buffers, out of place), with and without a scale.
TEMPLATE_TEST_CASE("measured local FFTs transform strided axes in place of panels",
                   "[fft][local][strided]", float, double) {
  using C = std::complex<TestType>;
  const Shape dims{6, 5, 4};
  const std::vector<Index> padded{8, 5, 4}, plain{6, 5, 4};
  for (FFTNorm norm : {FFTNorm::none, FFTNorm::ortho, FFTNorm::one_over_n}) {
    for (const auto& nfft : {plain, padded}) {
      INFO("nfft " << nfft[0] << ", norm " << static_cast<int>(norm));
      const FftCase c{{0, 1, 2}, nfft, norm, false, {false, false, false}, {false, false, false}};
      check_against_reference(
          local::FFTND<C>(dims, {.nfft = nfft, .norm = norm, .planning = FFTPlanning::measure}),
          FftReference(dims, c), 11);
    }
  }
}

// DISTLOPS_FFTW_WISDOM=<prefix>: a measured stage leaves FFTW's wisdom in <prefix>.fftw3
// (double) or <prefix>.fftw3f (single), a file FFTW reads back; an unwritable place changes
// nothing but the planning time.
TEST_CASE("measured local FFTs keep FFTW's wisdom in DISTLOPS_FFTW_WISDOM",
          "[fft][local][wisdom]") {
  const std::string prefix =
      std::filesystem::temp_directory_path() / ("distlops_wisdom_" + std::to_string(getpid()));
  for (const char* suffix : {".fftw3", ".fftw3f"})
    std::filesystem::remove(prefix + suffix);
  setenv("DISTLOPS_FFTW_WISDOM", prefix.c_str(), 1);
  (void)local::FFT2D<std::complex<double>>({12, 10}, {.planning = FFTPlanning::measure});
  (void)local::FFT2D<std::complex<float>>({12, 10}, {.planning = FFTPlanning::measure});
  for (const char* suffix : {".fftw3", ".fftw3f"}) {
    INFO(prefix + suffix);
    std::ifstream file(prefix + suffix);
    std::string header;
    std::getline(file, header);
    CHECK(header.rfind("(fftw-3.", 0) == 0);
    std::filesystem::remove(prefix + suffix);
  }
  setenv("DISTLOPS_FFTW_WISDOM", "/nonexistent-directory/wisdom", 1);
  const FftCase c{{0, 1}, {12, 10}, FFTNorm::ortho, false, {false, false}, {false, false}};
  check_against_reference(
      local::FFT2D<std::complex<double>>({12, 10}, {.planning = FFTPlanning::measure}),
      FftReference({12, 10}, c), 12);
  unsetenv("DISTLOPS_FFTW_WISDOM");
}

DISTLOPS_SPACE_TEMPLATE_TEST_CASE("a second apply of a local FFT allocates nothing",
                                  "[fft][local][allocation]", float, double) {
  using R = TestType;
  using C = std::complex<R>;
  CHECK(second_apply_allocates_nothing(local::FFT2D<C, Space>({6, 7}, {.nfft = {8}})));
  for (bool real : {false, true}) {
    CHECK(second_apply_allocates_nothing(
        local::FFT2D<R, Space>({6, 7}, {.nfft = {8}, .real = real})));
  }
}

TEMPLATE_TEST_CASE("bad local FFT arguments", "[fft][local][errors]", float, double) {
  using R = TestType;
  using T = std::complex<R>;
  CHECK_THROWS_AS(local::FFT<T>({4, 5}, {.axes = {2}}), InvalidArgument);
  CHECK_THROWS_AS(local::FFT<T>({4, 5}, {.axes = {0, 1}}), InvalidArgument);
  CHECK_THROWS_AS(local::FFT2D<T>({4, 5}, {.axes = {0}}), InvalidArgument);
  CHECK_THROWS_AS(local::FFT2D<T>({4, 5}, {.axes = {1, -1}}), InvalidArgument);
  CHECK_THROWS_AS(local::FFTND<T>({4, 5}), InvalidArgument);  // default axes need 3 dims
  CHECK_THROWS_AS(local::FFT<T>({4, 5}, {.nfft = {-1}}), InvalidArgument);
  CHECK_THROWS_AS(local::FFT2D<T>({4, 5}, {.nfft = {4, 5, 6}}), InvalidArgument);
  CHECK_THROWS_AS(local::FFT2D<T>({4, 5}, {.ifftshift_before = {true, false, true}}),
                  InvalidArgument);
  CHECK_THROWS_AS(local::FFT<T>({4, 0}), InvalidArgument);
  CHECK_THROWS_AS(local::FFT<T>({}), InvalidArgument);
  CHECK_THROWS_AS(local::FFT<R>({4, 5}, {.nfft = {-1}, .real = true}), InvalidArgument);
  // A real transform takes a real model.
  for (int which = 0; which < 3; ++which) {
    try {
      const FFTOptions options{.real = true};
      (void)(which == 0   ? local::FFT<T>({4, 5, 6}, options)
             : which == 1 ? local::FFT2D<T>({4, 5, 6}, options)
                          : local::FFTND<T>({4, 5, 6}, options));
      FAIL("no exception");
    } catch (const InvalidArgument& error) {
      INFO(error.what());
      CHECK(std::string(error.what()).find("real = true") != std::string::npos);
      CHECK(std::string(error.what()).find(scalar_name<T>()) != std::string::npos);
    }
  }
  // Arrays of other shapes than the operator's.
  const auto real = local::FFT2D<R>({4, 6}, {.real = true});
  CHECK_THROWS_AS(real.apply(LocalArray<R>({4, 5})), ShapeMismatch);
  CHECK_THROWS_AS(real.apply_adjoint(LocalArray<T>({4, 6})), ShapeMismatch);
  LocalArray<T> wrong({4, 5});
  CHECK_THROWS_AS(real.apply(LocalArray<R>({4, 6}), wrong), ShapeMismatch);
  // An empty axis that is not transformed is fine.
  const auto op = local::FFT<T>({0, 4});
  CHECK(op.range() == Shape{0, 4});
  LocalArray<T> x(op.domain());
  CHECK(op.apply(x).size() == 0);
  const auto real_op = local::FFT<R>({0, 4}, {.real = true});
  CHECK(real_op.range() == Shape{0, 3});
  CHECK(real_op.apply_adjoint(LocalArray<T>({0, 3})).size() == 0);
}
