// SPDX-License-Identifier: BSD-3-Clause
// Copyright (c) 2026 The distlops authors
// Distributed FFT2D and FFTND on box layouts (process grids that cut several axes, uneven grids
// whose last parts are empty, explicit boxes that form no grid) against PyLops' definition (the
// naive DFT of the gathered array, fft_reference.hpp): complex models, real models with the full
// and the half spectrum, padding, truncation and shifts along cut axes, both output layouts,
// exact adjoints and dot tests, in every memory space; the range layouts, no allocation after
// the first apply, and errors raised on every rank.
#include "box_layouts.hpp"
#include "fft_checks.hpp"

using namespace distlops;
using namespace distlops::testing;

namespace {

// The plain transform of `axes`, and one that truncates the first axis by one, pads the others
// by two, shifts the input of every second axis and the output of the others.
std::vector<FftCase> pencil_variants(const Shape& dims, const std::vector<int>& axes) {
  std::vector<FftCase> cases(2);
  for (std::size_t i = 0; i < axes.size(); ++i) {
    const Index length = dims[static_cast<std::size_t>(axes[i])];
    cases[0].nfft.push_back(length);
    cases[0].ifftshift_before.push_back(false);
    cases[0].fftshift_after.push_back(false);
    cases[1].nfft.push_back(i == 0 ? length - 1 : length + 2);
    cases[1].ifftshift_before.push_back(i % 2 == 1);
    cases[1].fftshift_after.push_back(i % 2 == 0);
  }
  for (FftCase& c : cases)
    c.axes = axes;
  return cases;
}

bool explicit_boxes(const Layout& layout) {
  return !layout.replicated() && !layout.has_grid();
}

// The global shape of the data of case c for models of shape `dims`.
Shape data_shape(Shape dims, const FftCase& c) {
  for (std::size_t i = 0; i < c.axes.size(); ++i) {
    const Index nfft = c.nfft[i];
    dims[static_cast<std::size_t>(c.axes[i])] =
        c.real && i + 1 == c.axes.size() ? nfft / 2 + 1 : nfft;
  }
  return dims;
}

// Whether the data of case c keep the extent of every axis that `layout` cuts.
bool keeps_cut_extents(const Layout& layout, const Shape& dims, const FftCase& c) {
  const Shape data = data_shape(dims, c);
  for (int k : layout.cut_axes()) {
    if (data[static_cast<std::size_t>(k)] != dims[static_cast<std::size_t>(k)]) return false;
  }
  return true;
}

}  // namespace

// Every case runs for a complex model and a real model with the full spectrum, and the
// half-spectrum case (real = true) for the real model.
DISTLOPS_SPACE_TEMPLATE_TEST_CASE("distributed FFTs on box layouts equal PyLops' definition",
                                  "[fft][distributed][box]", float, double) {
  using R = TestType;
  using C = std::complex<R>;
  const Communicator comm = world();
  const std::vector<std::pair<Shape, std::vector<std::vector<int>>>> problems{
      {{7, 6}, {{0, 1}, {1, 0}}},
      {{5, 4, 3}, {{0, 1, 2}, {2, 0}, {1}, {2, 1, 0}}},
  };
  constexpr std::array norms{FFTNorm::none, FFTNorm::ortho, FFTNorm::one_over_n};
  std::uint64_t seed = 1;
  int turn = 0;
  for (const auto& [shape, axis_sets] : problems) {
    std::vector<NamedLayout> layouts = box_test_layouts(comm, shape, false);
    if (comm.size() == 4) {
      // Pencils whose second parts are empty along both cut axes: rank 0 owns everything.
      std::vector<std::vector<Index>> extents{{shape[0], 0}, {shape[1], 0}};
      for (std::size_t k = 2; k < shape.size(); ++k)
        extents.push_back({shape[k]});
      layouts.push_back({"grid (2, 2, ...), every rank but 0 empty",
                         Layout(comm, shape, LayoutOptions{.grid_extents = extents})});
    }
    for (const auto& axes : axis_sets) {
      for (FftCase c : pencil_variants(shape, axes)) {
        for (bool real : {false, true}) {
          c.real = real;
          c.norm = norms[turn++ % 3];
          const FftReference reference(shape, c);
          const bool resized = data_shape(shape, c) != shape;
          for (const NamedLayout& named : layouts) {
            // Slabs made from an axis are test_fft_distributed's; grids with one cut axis are
            // slabs too and stay here.
            if (named.name.starts_with("slab")) continue;
            const Layout& layout = named.layout;
            for (FFTOutputLayout output :
                 {FFTOutputLayout::transposed, FFTOutputLayout::same_as_input}) {
              // Explicit boxes cannot be kept along a cut axis whose extent changes (the
              // errors test below).
              if (explicit_boxes(layout) && output == FFTOutputLayout::same_as_input &&
                  !keeps_cut_extents(layout, shape, c)) {
                continue;
              }
              INFO(named.name << " (" << layout.describe() << ") output " << int(output) << " "
                              << describe(c));
              const auto check = [&](const auto& op) {
                for_each_collective_path<Space>(
                    [&] { check_against_reference(op, reference, seed); });
                seed += 10;
                CHECK(op.range().partition() == Partition::SCATTER);
                // Back in the input's cut: the same layout when no extent changed.
                if (output == FFTOutputLayout::same_as_input && !resized) {
                  CHECK(op.range() == layout);
                }
              };
              if (!c.real) check(FFTND<C, Space>(layout, options_of(c, output)));
              check(FFTND<R, Space>(layout, options_of(c, output)));
            }
          }
        }
      }
    }
  }
}

DISTLOPS_SPACE_TEMPLATE_TEST_CASE("a 1-d array in explicit boxes is transformed whole",
                                  "[fft][distributed][box]", float, double) {
  using R = TestType;
  using C = std::complex<R>;
  const Communicator comm = world();
  const int size = comm.size();
  // Rank r holds the r-th part from the end: no grid in rank order from 2 ranks on.
  const Shape shape{9};
  std::vector<ArrayBox> boxes;
  const std::vector<Index> parts = default_split(shape[0], size);
  Index upper = shape[0];
  for (int r = 0; r < size; ++r) {
    boxes.push_back({{upper - parts[static_cast<std::size_t>(r)]}, {upper}});
    upper -= parts[static_cast<std::size_t>(r)];
  }
  const Layout reversed(comm, shape, LayoutOptions{.boxes = boxes});
  std::uint64_t seed = 300;
  for (Index nfft : {Index(9), Index(12)}) {
    for (bool real : {false, true}) {
      const FftCase c{.axes = {0},
                      .nfft = {nfft},
                      .norm = FFTNorm::ortho,
                      .real = real,
                      .ifftshift_before = {true},
                      .fftshift_after = {false}};
      const FftReference reference(shape, c);
      for (FFTOutputLayout output : {FFTOutputLayout::transposed, FFTOutputLayout::same_as_input}) {
        INFO(describe(c) << " output " << int(output));
        const bool keeps = data_shape(shape, c) == shape;
        if (size > 1 && !keeps && output == FFTOutputLayout::same_as_input) {
          CHECK_THROWS_AS((FFTND<R, Space>(reversed, options_of(c, output))), InvalidArgument);
          continue;
        }
        const auto check = [&](const auto& op) {
          for_each_collective_path<Space>([&] { check_against_reference(op, reference, seed); });
          seed += 10;
          if (output == FFTOutputLayout::same_as_input && keeps) CHECK(op.range() == reversed);
        };
        if (!real) check(FFTND<C, Space>(reversed, options_of(c, output)));
        check(FFTND<R, Space>(reversed, options_of(c, output)));
      }
    }
  }
}

TEMPLATE_TEST_CASE("FFTs on pencils end on a documented layout", "[fft][distributed][box]", float,
                   double) {
  using R = TestType;
  using C = std::complex<R>;
  const Communicator comm = world();
  const int size = comm.size();
  if (size != 4) {
    SUCCEED("the pencil grid (2, 2, 1) needs 4 ranks");
    return;
  }
  const Shape shape{8, 6, 5};
  const Layout pencils(comm, shape, LayoutOptions{.grid = {2, 2, 1}});
  // Axis 2 is transformed where it lies; axes 1 and 0 give their parts to axis 2 (5 planes
  // for 4 parts): one all-to-all to a slab across axis 2.
  const auto all = FFTND<C>(pencils);
  CHECK(all.range() == Layout(comm, shape, LayoutOptions{.grid = {1, 1, 4}}));
  CHECK(FFTND<C>(pencils, {.output = FFTOutputLayout::same_as_input}).range() == pencils);
  // Axis 2 too short for 4 parts: pencil to pencil, one axis at a time.
  const Shape thin{8, 6, 3};
  const Layout thin_pencils(comm, thin, LayoutOptions{.grid = {2, 2, 1}});
  const auto thin_all = FFTND<C>(thin_pencils);
  CHECK(thin_all.range() == Layout(comm, thin, LayoutOptions{.grid = {1, 2, 2}}));
  // Axes that are not cut: nothing moves.
  CHECK(FFTND<C>(pencils, {.axes = {2}}).range() == pencils);
  // A real model whose real axis (0, the last of `axes`) is cut moves first (real values): its
  // parts go to axis 1, the one axis not transformed, and both axes are transformed there.
  const FFTOperator<R> half = FFTND<R>(pencils, {.axes = {2, 0}, .real = true});
  CHECK(half.range() == Layout(comm, {5, 6, 5}, LayoutOptions{.grid = {1, 4, 1}}));
  // Every axis transformed and cut: through a slab, the 2-d pencils (2, 2) -> (4, 1) -> (1, 4).
  const Layout square(comm, {6, 6}, LayoutOptions{.grid = {2, 2}});
  CHECK(FFT2D<C>(square).range() == Layout(comm, {6, 6}, Partition::SCATTER, 1));
}

DISTLOPS_SPACE_TEMPLATE_TEST_CASE("a second apply of an FFT on pencils allocates nothing",
                                  "[fft][distributed][box][allocation]", float, double) {
  using R = TestType;
  using C = std::complex<R>;
  const Communicator comm = world();
  const Shape shape{6, 5, 4};
  const Layout grid(
      comm, shape, LayoutOptions{.grid = default_grid(shape, comm.size(), std::vector<int>{0, 1})});
  for_each_collective_path<Space>([&] {
    for (FFTOutputLayout output : {FFTOutputLayout::transposed, FFTOutputLayout::same_as_input}) {
      const DistributedFFTOptions options{.nfft = {7}, .output = output};
      CHECK(second_apply_allocates_nothing(FFTND<C, Space>(grid, options)));
      DistributedFFTOptions real_options = options;
      real_options.real = true;
      real_options.axes = {2, 0};  // the real axis cut
      CHECK(second_apply_allocates_nothing(FFTND<R, Space>(grid, real_options)));
    }
  });
}

TEMPLATE_TEST_CASE("FFTs on box layouts that cannot keep their boxes fail on every rank",
                   "[fft][distributed][box][errors]", float, double) {
  using C = std::complex<TestType>;
  const Communicator comm = world();
  const int size = comm.size();
  const Shape shape{6, 5};
  // Boxes in reverse rank order along axis 0: no grid.
  std::vector<ArrayBox> boxes;
  const std::vector<Index> parts = default_split(shape[0], size);
  Index upper = shape[0];
  for (int r = 0; r < size; ++r) {
    boxes.push_back({{upper - parts[static_cast<std::size_t>(r)], 0}, {upper, shape[1]}});
    upper -= parts[static_cast<std::size_t>(r)];
  }
  const Layout reversed(comm, shape, LayoutOptions{.boxes = boxes});
  const DistributedFFTOptions padded{.nfft = {8, 5}, .output = FFTOutputLayout::same_as_input};
  if (size > 1) {
    try {
      (void)FFT2D<C>(reversed, padded);
      FAIL("no exception");
    } catch (const InvalidArgument& error) {
      const std::string message = error.what();
      INFO(message);
      CHECK(message.find("same_as_input") != std::string::npos);
      CHECK(message.find("axis 0") != std::string::npos);
      CHECK(message.find("transposed") != std::string::npos);
    }
  }
  // The transposed output, and boxes along an axis whose extent stays, work.
  CHECK(FFT2D<C>(reversed, {.nfft = {8, 5}}).range().global_shape() == Shape{8, 5});
  CHECK(FFT2D<C>(reversed, {.nfft = {6, 7}, .output = FFTOutputLayout::same_as_input})
            .range()
            .global_shape() == Shape{6, 7});
  CHECK(comm.allreduce(1, ReduceOp::sum) == size);
}
