// SPDX-License-Identifier: BSD-3-Clause
// Copyright (c) 2026 The distlops authors
// Distributed FFT2D and FFTND against PyLops' definition (naive DFT of the gathered array) on
// arrays split along every axis, with uneven splits, ranks owning nothing, and replicated
// arrays; every norm, shift, nfft padding and truncation (the split axis included), complex
// models, real models with a half spectrum (real = true, the split axis real or not) and real
// models with a full spectrum, both precisions, both output layouts; exact adjoints and dot
// tests; in every memory space (device collectives over both of their paths); numbers computed
// by PyLops, errors raised on every rank.
#include "fft_checks.hpp"

using namespace distlops;
using namespace distlops::testing;

namespace {

constexpr std::array norms{FFTNorm::none, FFTNorm::ortho, FFTNorm::one_over_n};

// nfft and shift variants: plain, padded, truncated, shifted before and after, and a mix.
std::vector<FftCase> variants(const Shape& dims, const std::vector<int>& axes) {
  std::vector<FftCase> cases;
  for (int variant = 0; variant < 4; ++variant) {
    FftCase c;
    c.axes = axes;
    for (std::size_t i = 0; i < axes.size(); ++i) {
      const Index length = dims[axes[i]];
      Index nfft = length;
      if (variant == 1) nfft = length + 3 - Index(i);
      if (variant == 2) nfft = std::max<Index>(1, length - 2 + Index(i % 2));
      if (variant == 3) nfft = i % 2 == 0 ? std::max<Index>(1, length - 1) : length + 2;
      c.nfft.push_back(nfft);
      c.ifftshift_before.push_back(variant == 2 || (variant == 3 && i % 2 == 1));
      c.fftshift_after.push_back(variant == 1 || (variant == 3 && i % 2 == 0));
    }
    cases.push_back(c);
  }
  return cases;
}

// Checks the transforms of case c of every model kind on every layout and output choice.
template <class R, MemorySpace Space>
void check_layouts(const Shape& shape, const std::vector<Layout>& layouts, const FftCase& c,
                   const FftReference& reference, std::uint64_t& seed) {
  using C = std::complex<R>;
  for (const Layout& layout : layouts) {
    const bool moved = !layout.replicated() &&
                       std::find(c.axes.begin(), c.axes.end(), layout.axis()) != c.axes.end();
    for (FFTOutputLayout output : {FFTOutputLayout::transposed, FFTOutputLayout::same_as_input}) {
      // Without an all-to-all both output choices are the same operator.
      if (!moved && output == FFTOutputLayout::same_as_input) continue;
      INFO(layout.describe() << " output " << int(output) << " " << describe(c));
      const auto check = [&](const auto& op) {
        // The reference matrix is the costly part: every path checks against it.
        for_each_collective_path<Space>([&] { check_against_reference(op, reference, seed); });
        seed += 10;
        // Where the output lives.
        const Layout& range = op.range();
        CHECK(range.partition() == layout.partition());
        if (!moved || output == FFTOutputLayout::same_as_input || shape.size() == 1) {
          CHECK(range.axis() == layout.axis());
        }
      };
      // A half spectrum needs a real model; a full one is checked for both kinds.
      if (!c.real) check(FFTND<C, Space>(layout, options_of(c, output)));
      check(FFTND<R, Space>(layout, options_of(c, output)));
    }
  }
}

}  // namespace

// Templated on the precision: each case runs for a complex model, a real model with the full
// spectrum and a real model with the half spectrum (real = true).
DISTLOPS_SPACE_TEMPLATE_TEST_CASE("distributed FFTs equal PyLops' definition on every split",
                                  "[fft][distributed]", float, double) {
  using R = TestType;
  const Communicator comm = world();
  const std::vector<std::pair<Shape, std::vector<std::vector<int>>>> problems{
      {{9}, {{0}}},
      {{7, 6}, {{0, 1}, {1, 0}, {0}, {1}}},
      {{2, 5}, {{0, 1}, {1, 0}}},
      {{5, 4, 3}, {{0, 1, 2}, {2, 0}, {1}, {0, 2}}},
  };
  std::uint64_t seed = 1;
  int norm = 0;
  for (const auto& [shape, axis_sets] : problems) {
    const std::vector<Layout> layouts = layouts_of(comm, shape);
    for (const auto& axes : axis_sets) {
      for (FftCase c : variants(shape, axes)) {
        // The norms take turns: each is a scale, checked on every kind of case over the loop.
        for (bool real : {false, true}) {
          c.real = real;
          c.norm = norms[norm++ % 3];
          check_layouts<R, Space>(shape, layouts, c, FftReference(shape, c), seed);
        }
      }
    }
  }
}

TEMPLATE_TEST_CASE("FFT2D output layouts", "[fft][distributed][layout]", float, double) {
  using R = TestType;
  using T = std::complex<R>;
  const Communicator comm = world();
  const Layout rows(comm, {7, 6});
  // Transposed: split along axis 1 after the all-to-all, whatever the number of ranks.
  const auto transposed = FFT2D<T>(rows);
  CHECK(transposed.range().axis() == 1);
  CHECK(transposed.range().global_shape() == Shape{7, 6});
  // Back in the input's layout: the same split when the shape did not change.
  const auto back = FFT2D<T>(rows, {.output = FFTOutputLayout::same_as_input});
  CHECK(back.range() == rows);
  const auto padded = FFT2D<T>(rows, {.nfft = {9, 4}, .output = FFTOutputLayout::same_as_input});
  CHECK(padded.range().axis() == 0);
  CHECK(padded.range().global_shape() == Shape{9, 4});
  // A split axis that is not transformed: no communication, the same split.
  const auto columns = FFTND<T>(rows, {.axes = {1}});
  CHECK(columns.range() == rows);
  // Both orders give the same transform.
  const auto reversed = FFT2D<T>(rows, {.axes = {1, 0}});
  DistributedArray<T> x(rows);
  fill_random(x, 5);
  CHECK(all_close(transposed.apply(x).gather(), reversed.apply(x).gather(), 10 * tolerance<T>()));
  // Replicated arrays stay replicated.
  const Layout everywhere(comm, {7, 6}, Partition::BROADCAST);
  CHECK(FFT2D<T>(everywhere).range().partition() == Partition::BROADCAST);
  // Real models: the half spectrum along the last axis of `axes`, the input's split kept when
  // that axis is not the split one.
  const FFTOperator<R> half = FFT2D<R>(rows, {.real = true});
  CHECK(half.range().global_shape() == Shape{7, 4});
  CHECK(half.range().axis() == 1);
  CHECK(FFT2D<R>(rows, {.axes = {1, 0}, .real = true}).range().global_shape() == Shape{4, 6});
  const auto half_back = FFT2D<R>(rows, {.real = true, .output = FFTOutputLayout::same_as_input});
  CHECK(half_back.range().axis() == 0);
  CHECK(half_back.range().global_shape() == Shape{7, 4});
  CHECK(FFTND<R>(rows, {.axes = {1}, .real = true}).range() ==
        Layout(comm, {7, 4}, Partition::SCATTER, 0));
  CHECK(FFT2D<R>(everywhere, {.real = true}).range() == Layout(comm, {7, 4}, Partition::BROADCAST));
}

TEST_CASE("distributed FFT2D matches numbers computed by PyLops", "[fft][distributed][pylops]") {
  using C = std::complex<double>;
  const Communicator comm = world();
  // PyLops-MPI's FFT2D has PyLops' semantics for norm "none"; the numbers come from PyLops:
  // X = np.cos(np.arange(15.0)).reshape(5,3) * np.arange(1.0, 16.0).reshape(5,3)
  // F = pylops.signalprocessing.FFT2D(dims=(5,3), axes=(1,0), norm="none", real=True,
  //                                   ifftshift_before=(False, True))
  // F @ X.ravel(); F.H @ (np.sin(np.arange(9.0)) + 1j*np.arange(9.0)/4)
  std::vector<double> x(15);
  std::vector<C> y(9);
  for (Index i = 0; i < 15; ++i)
    x[i] = std::cos(double(i)) * double(i + 1);
  for (Index i = 0; i < 9; ++i)
    y[i] = C(std::sin(double(i)), double(i) / 4);
  const std::vector<C> forward{{14.186292475287356, 0},
                               {1.3368850595959314, -5.256664834773211},
                               {1.3368850595959314, 5.256664834773211},
                               {-24.609598679630665, -3.5280736112595203},
                               {-3.5178356179698884, 8.992431447798408},
                               {-1.5798280053119944, -9.541833100521036},
                               {55.03517042822657, 44.08961545605266},
                               {29.820261358279634, -23.5334514786835},
                               {4.218972606972451, 32.51930205769883}};
  const std::vector<double> adjoint{-0.4177908021220247, -1.7114736952152327,  -2.9036038995748856,
                                    7.8977789031610675,  0.06616443582343967,  -0.05298554926001404,
                                    1.4570681950701545,  -0.19302434754770953, -1.8507819208315182,
                                    -8.900368933732942,  1.706029109396424,    1.571526126391234,
                                    8.717154695791635,   -3.1620847768103197,  -2.2236075405393096};
  for (const Layout& layout : layouts_of(comm, {5, 3})) {
    for (FFTOutputLayout output : {FFTOutputLayout::transposed, FFTOutputLayout::same_as_input}) {
      INFO(layout.describe());
      const FFTOperator<double> f = FFT2D<double>(layout, {.axes = {1, 0},
                                                           .norm = FFTNorm::none,
                                                           .real = true,
                                                           .ifftshift_before = {false, true},
                                                           .output = output});
      const auto xd = DistributedArray<double>::from_global(layout, x);
      const auto yd = DistributedArray<C>::from_global(f.range(), y);
      CHECK(all_close(f.apply(xd).gather(), forward, 1e-12));
      CHECK(all_close(f.apply_adjoint(yd).gather(), adjoint, 1e-12));
    }
  }
}

DISTLOPS_SPACE_TEMPLATE_TEST_CASE("a second apply of a distributed FFT allocates nothing",
                                  "[fft][distributed][allocation]", float, double) {
  using R = TestType;
  using C = std::complex<R>;
  const Communicator comm = world();
  const Layout layout(comm, {9, 6});
  for_each_collective_path<Space>([&] {
    const DistributedFFTOptions options{.nfft = {10}, .output = FFTOutputLayout::same_as_input};
    CHECK(second_apply_allocates_nothing(FFT2D<C, Space>(layout, options)));
    for (bool real : {false, true}) {
      DistributedFFTOptions real_options = options;
      real_options.real = real;
      CHECK(second_apply_allocates_nothing(FFT2D<R, Space>(layout, real_options)));
      // The other order of the axes: with real = true the real axis is the split one, and the
      // model moves before its transform.
      real_options.axes = {1, 0};
      CHECK(second_apply_allocates_nothing(FFT2D<R, Space>(layout, real_options)));
    }
  });
}

TEMPLATE_TEST_CASE("bad distributed FFT arguments fail on every rank", "[fft][distributed][errors]",
                   float, double) {
  using R = TestType;
  using T = std::complex<R>;
  const Communicator comm = world();
  const int size = comm.size();
  const Layout layout(comm, {6, 5});
  CHECK_THROWS_AS(FFT2D<T>(layout, {.axes = {0}}), InvalidArgument);
  CHECK_THROWS_AS(FFT2D<T>(layout, {.axes = {0, 2}}), InvalidArgument);
  CHECK_THROWS_AS(FFT2D<T>(layout, {.axes = {0, -2}}), InvalidArgument);
  CHECK_THROWS_AS(FFTND<T>(layout), InvalidArgument);  // default axes need 3 dims
  CHECK_THROWS_AS(FFT2D<T>(layout, {.nfft = {-2}}), InvalidArgument);
  CHECK_THROWS_AS(FFT2D<T>(layout, {.fftshift_after = {true, true, true}}), InvalidArgument);
  CHECK_THROWS_AS(FFT2D<R>(layout, {.nfft = {-2}, .real = true}), InvalidArgument);
  std::vector<int> mask(static_cast<std::size_t>(size), 0);
  CHECK_THROWS_AS(FFT2D<T>(Layout(comm, {6, 5}, LayoutOptions{.mask = mask})), InvalidArgument);
  CHECK_THROWS_AS(FFT2D<R>(Layout(comm, {6, 5}, LayoutOptions{.mask = mask}), {.real = true}),
                  InvalidArgument);
  // A real transform takes a real model.
  for (bool nd : {false, true}) {
    try {
      (void)(nd ? FFTND<T>(layout, {.axes = {0, 1}, .real = true})
                : FFT2D<T>(layout, {.real = true}));
      FAIL("no exception");
    } catch (const InvalidArgument& error) {
      INFO(error.what());
      CHECK(std::string(error.what()).find("real = true") != std::string::npos);
    }
  }
  // Arrays of other shapes or splits than the operator's.
  const FFTOperator<R> real = FFT2D<R>(layout, {.real = true});
  CHECK_THROWS_AS(real.apply(DistributedArray<R>(Layout(comm, {6, 4}))), ShapeMismatch);
  CHECK_THROWS_AS(real.apply_adjoint(DistributedArray<T>(Layout(comm, {6, 5}))), ShapeMismatch);
  if (size > 1) {
    // Options that differ on one rank.
    const Index nfft = comm.rank() == size - 1 ? 8 : 6;
    try {
      (void)FFT2D<T>(layout, {.nfft = {nfft}});
      FAIL("no exception");
    } catch (const InvalidArgument& error) {
      CHECK(std::string(error.what()).find("differ") != std::string::npos);
    }
    CHECK_THROWS_AS(FFT2D<R>(layout, {.real = comm.rank() == 0}), InvalidArgument);
    // The same split along the other axis is not the operator's layout.
    CHECK_THROWS_AS(real.apply(DistributedArray<R>(Layout(comm, {6, 5}, Partition::SCATTER, 1))),
                    ShapeMismatch);
  }
  CHECK(comm.allreduce(1, ReduceOp::sum) == size);
}
