// SPDX-License-Identifier: BSD-3-Clause
// Copyright (c) 2026 The distlops authors
#pragma once
// The checks of the FFT tests, for local and distributed transforms of any memory space and
// of real or complex models: forward, adjoint and their accumulating forms against the serial
// reference (fft_reference.hpp), and the dot test.
#include <complex>
#include <vector>

#include "distlops/operators/signal/fft.hpp"
#include "fft_reference.hpp"
#include "operator_checks.hpp"
#include "spaces.hpp"

namespace distlops::testing {

using Wide = std::complex<double>;

template <class T>
std::vector<Wide> widen(const std::vector<T>& values) {
  return std::vector<Wide>(values.begin(), values.end());
}
/// The global values of a vector of any space, on every rank, as complex<double>.
template <Scalar T, MemorySpace Space>
std::vector<Wide> wide_values(const DistributedArray<T, Space>& v) {
  return widen(v.gather());
}
template <Scalar T, MemorySpace Space>
std::vector<Wide> wide_values(const LocalArray<T, Space>& v) {
  return widen(values_of(v));
}

/// Checks y = A x, x = A^H y, y = alpha A x + beta y, x = alpha A^H y + beta x and the dot test
/// of `op` (local or distributed, of any memory space, real or complex model) against the
/// reference of its case.
template <class Model, class Data>
void check_against_reference(const BasicLinearOperator<Model, Data>& op,
                             const FftReference& reference, std::uint64_t seed) {
  using S = typename BasicLinearOperator<Model, Data>::value_type;  // real for a real model
  using C = typename Data::value_type;
  using Space = typename Model::space_type;
  constexpr bool real_model = !is_complex_v<typename Model::value_type>;
  const double rtol = space_tolerance<C, Space>();
  REQUIRE(op.cols() == reference.cols());
  REQUIRE(op.rows() == reference.rows());
  Model x(op.domain());
  Data y(op.range());
  fill_random(x, seed);
  fill_random(y, seed + 2);
  const std::vector<Wide> xv = wide_values(x), yv = wide_values(y);
  const std::vector<Wide> ax = reference.forward(xv), ahy = reference.adjoint(yv, real_model);
  CHECK(fft_close(wide_values(op.apply(x)), ax, rtol));
  CHECK(fft_close(wide_values(op.apply_adjoint(y)), ahy, rtol));
  const S alpha = random_scalar<S>(seed + 8), beta = random_scalar<S>(seed + 9);
  const Wide a(alpha), b(beta);
  Data z = y;
  op.apply_add(alpha, x, beta, z);
  std::vector<Wide> expected(ax.size());
  for (std::size_t i = 0; i < ax.size(); ++i)
    expected[i] = a * ax[i] + b * yv[i];
  CHECK(fft_close(wide_values(z), expected, rtol));
  Model w = x;
  op.apply_adjoint_add(alpha, y, beta, w);
  expected.resize(ahy.size());
  for (std::size_t i = 0; i < ahy.size(); ++i)
    expected[i] = a * ahy[i] + b * xv[i];
  CHECK(fft_close(wide_values(w), expected, rtol));
  // Complex-linear for a complex model, linear over the reals (the real inner product of the
  // data) for a real one. The rounding of both sides is relative to ||A u|| ||v||, not to the
  // inner product itself, which cancellation can make small (the real part of a real model's
  // inner product, in single precision): that bound is the absolute tolerance.
  Model u(op.domain());
  Data v(op.range());
  fill_random(u, seed + 4);
  fill_random(v, seed + 104);
  const double dot_rtol = space_dottest_tolerance<C, Space>();
  const double dot_atol = dot_rtol * double(op.apply(u).norm()) * double(v.norm());
  CHECK(dottest(op, u, v, dot_rtol, dot_atol).passed);
}

/// The options of the distributed transform of case c with output layout `output`.
inline DistributedFFTOptions options_of(const FftCase& c, FFTOutputLayout output) {
  return {.axes = c.axes,
          .nfft = c.nfft,
          .norm = c.norm,
          .real = c.real,
          .ifftshift_before = c.ifftshift_before,
          .fftshift_after = c.fftshift_after,
          .output = output};
}

/// Layouts of a shape for the distributed transforms: the default split along each axis, a
/// split along axis 0 in which rank 0 owns all planes but one, the last rank that plane and
/// the others nothing, and a replicated one.
inline std::vector<Layout> layouts_of(const Communicator& comm, const Shape& shape) {
  std::vector<Layout> layouts;
  for (int axis = 0; axis < int(shape.size()); ++axis)
    layouts.emplace_back(comm, shape, Partition::SCATTER, axis);
  if (comm.size() > 1) {
    std::vector<Shape> local(comm.size(), shape);
    for (int r = 0; r < comm.size(); ++r)
      local[r][0] = 0;
    local[comm.size() - 1][0] = 1;
    local[0][0] = shape[0] - 1;
    layouts.emplace_back(comm, shape, LayoutOptions{.local_shapes = local});
  }
  layouts.emplace_back(comm, shape, Partition::BROADCAST);
  return layouts;
}

}  // namespace distlops::testing
