// SPDX-License-Identifier: BSD-3-Clause
// Copyright (c) 2026 The distlops authors
// fft2d: one forward and one adjoint complex128 FFT2D over axes (0, 1), norm "none", of an
// (nx, ny) array x = V(41, i) + 1j V(42, i) split along axis 0. The forward's output stays in
// the transposed layout (split along axis 1) that the adjoint takes back, so each apply is
// one all-to-all. Least bytes per apply: read the input once and write the output once,
// 2 * 16 nx ny bytes (the all-to-all's messages not counted).
//
// --set planning=estimate|measure|patient chooses the operator's FFTW planning (default
// estimate, as the operator's own default). fftw2d is the reference: FFTW's own 2-d plan of
// the same global array (fftw_plan_dft_2d, out of place, planned with --set
// fftw_planning=measure by default), forward + backward on rank 0 while the other ranks wait,
// with the same check values, so that fft2d's figure can be set beside FFTW's best in the
// same run. DISTLOPS_FFTW_WISDOM (docs/fft.md) keeps the measured plans of both.
//
// fft3d: the same for a complex128 FFTND over axes (0, 1, 2) of an (nx, ny, nz) array (default
// 256^3, `--set n=` for a cube) cut as `--set grid=slab` (axis 0) or `pencil` (axes 0 and 1 over
// default_grid(shape, P, {0, 1}); the default). Least bytes per apply: each axis is one pass that
// reads and writes the array, and on more than one rank at least one all-to-all reads and writes
// it once more: (3 + [P > 1]) * 2 * 16 nx ny nz bytes.
#include <fftw3.h>

#include <cmath>
#include <complex>
#include <cstdlib>
#include <memory>

#include "cases.hpp"

namespace distlops::bench {

namespace {

FFTPlanning parse_planning(const std::string& text) {
  if (text == "estimate") return FFTPlanning::estimate;
  if (text == "measure") return FFTPlanning::measure;
  if (text == "patient") return FFTPlanning::patient;
  throw InvalidArgument("planning must be estimate, measure or patient, got " + text);
}

unsigned fftw_flags(FFTPlanning planning) {
  switch (planning) {
    case FFTPlanning::measure:
      return FFTW_MEASURE;
    case FFTPlanning::patient:
      return FFTW_PATIENT;
    case FFTPlanning::estimate:
      break;
  }
  return FFTW_ESTIMATE;
}

/// Parseval for the unnormalised transform: ||F x|| = sqrt(N) ||x|| and F^H F = N I, with
/// ||x|| summed from the formula of the input over the box this rank owns (C-order indices of
/// the global array).
std::vector<std::string> verify_parseval(const Communicator& comm, const Layout& layout,
                                         const std::vector<Check>& checks) {
  const Shape& shape = layout.global_shape();
  const ArrayBox box = layout.box();
  double sum = 0;
  Shape index = box.lower;
  for (Index count = box.size(); count > 0; --count) {
    Index i = 0;
    for (std::size_t k = 0; k < shape.size(); ++k)
      i = i * shape[k] + index[k];
    const double re = signed_uniform_value(41, std::uint64_t(i));
    const double im = signed_uniform_value(42, std::uint64_t(i));
    sum += re * re + im * im;
    for (std::size_t k = shape.size(); k-- > 0;) {
      if (++index[k] < box.upper[k]) break;
      index[k] = box.lower[k];
    }
  }
  const double norm_x = std::sqrt(comm.allreduce(sum, ReduceOp::sum));
  const double size = double(layout.global_size());
  std::vector<std::string> failures;
  auto compare = [&](const std::string& name, double reference) {
    const double value = check_value(checks, name);
    if (std::abs(value - reference) > 1e-10 * reference) {
      failures.push_back(name + " " + std::to_string(value) + " != reference " +
                         std::to_string(reference));
    }
  };
  compare("norm_Fx", std::sqrt(size) * norm_x);
  compare("norm_FhFx", size * norm_x);
  return failures;
}

/// FFTW's arrays and plans, freed with the case.
struct FftwPair {
  fftw_complex* x = nullptr;
  fftw_complex* y = nullptr;
  fftw_complex* z = nullptr;
  fftw_plan forward = nullptr, backward = nullptr;
  ~FftwPair() {
    if (forward) fftw_destroy_plan(forward);
    if (backward) fftw_destroy_plan(backward);
    fftw_free(x);
    fftw_free(y);
    fftw_free(z);
  }
};

double norm(const fftw_complex* v, Index count) {
  double sum = 0;
  for (Index i = 0; i < count; ++i)
    sum += v[i][0] * v[i][0] + v[i][1] * v[i][1];
  return std::sqrt(sum);
}

}  // namespace

Case fftw2d_case() {
  return {
      "fftw2d", "FFTW's own 2-d plan of fft2d's array on rank 0: fft2d's reference",
      [](const Communicator& comm, const Parameters& p) {
        const Index nx = p.integer("nx", 2048), ny = p.integer("ny", 2048);
        const FFTPlanning planning = parse_planning(p.text("fftw_planning", "measure"));
        const bool root = comm.rank() == 0;
        auto pair = std::make_shared<FftwPair>();
        if (root) {
          const Index count = nx * ny;
          pair->x = fftw_alloc_complex(std::size_t(count));
          pair->y = fftw_alloc_complex(std::size_t(count));
          pair->z = fftw_alloc_complex(std::size_t(count));
          if (!pair->x || !pair->y || !pair->z) throw Error("fftw2d: out of memory");
          // Planning may overwrite the arrays: plan first, fill afterwards.
          const unsigned flags = fftw_flags(planning);
          pair->forward = fftw_plan_dft_2d(int(nx), int(ny), pair->x, pair->y, FFTW_FORWARD,
                                           flags | FFTW_PRESERVE_INPUT);
          pair->backward = fftw_plan_dft_2d(int(nx), int(ny), pair->y, pair->z, FFTW_BACKWARD,
                                            flags | FFTW_PRESERVE_INPUT);
          for (Index i = 0; i < count; ++i) {
            pair->x[i][0] = signed_uniform_value(41, std::uint64_t(i));
            pair->x[i][1] = signed_uniform_value(42, std::uint64_t(i));
          }
        }
        // Every rank learns whether rank 0 could plan (no rank throws alone).
        const bool planned =
            comm.allreduce(root && (!pair->forward || !pair->backward) ? 1 : 0, ReduceOp::max) == 0;
        if (!planned) throw Error("fftw2d: FFTW could not plan the 2-d transform");
        Run run;
        run.body = [pair] {
          if (!pair->forward) return;
          fftw_execute(pair->forward);
          fftw_execute(pair->backward);
        };
        run.units = 2;
        run.unit_name = "apply";
        run.bytes_per_unit = 2.0 * sizeof(std::complex<double>) * double(nx * ny);
        run.checks = [=] {
          double values[2] = {0, 0};
          if (root) values[0] = norm(pair->y, nx * ny), values[1] = norm(pair->z, nx * ny);
          comm.allreduce(values, values, 2, ReduceOp::sum);
          return std::vector<Check>{{"norm_Fx", values[0]}, {"norm_FhFx", values[1]}};
        };
        // The whole array sits on rank 0: Parseval over the global input.
        const Layout whole = Layout::from_local_shape(comm, root ? Shape{nx, ny} : Shape{0, ny});
        run.verify = [=](const std::vector<Check>& checks) {
          return verify_parseval(comm, whole, checks);
        };
        run.default_repeats = 5;
        return run;
      }};
}

/// One forward and one adjoint apply of `op` on `layout`, x = V(41, i) + 1j V(42, i), checked
/// by Parseval; `bytes` per apply.
Run fft_run(const Communicator& comm, const Layout& layout,
            const LinearOperator<std::complex<double>>& op, double bytes) {
  auto [x, y, z, run] = forward_adjoint_run(op, 41, bytes);  // V(41, i) + 1j V(42, i)
  run.checks = [y, z] {
    return std::vector<Check>{{"norm_Fx", double(y->norm())}, {"norm_FhFx", double(z->norm())}};
  };
  run.verify = [=](const std::vector<Check>& checks) {
    return verify_parseval(comm, layout, checks);
  };
  run.default_repeats = 5;
  return run;
}

Case fft2d_case() {
  return {"fft2d", "forward + adjoint complex128 FFT2D over axes (0, 1), norm none",
          [](const Communicator& comm, const Parameters& p) {
            using C = std::complex<double>;
            const Index nx = p.integer("nx", 2048), ny = p.integer("ny", 2048);
            const FFTPlanning planning = parse_planning(p.text("planning", "estimate"));
            const Layout layout(comm, {nx, ny});
            const LinearOperator<C> op =
                FFT2D<C>(layout, {.axes = {0, 1}, .norm = FFTNorm::none, .planning = planning});
            return fft_run(comm, layout, op, 2.0 * sizeof(C) * double(nx * ny));
          }};
}

Case fft3d_case() {
  return {
      "fft3d", "forward + adjoint complex128 FFTND over axes (0, 1, 2) on slabs or pencils",
      [](const Communicator& comm, const Parameters& p) {
        using C = std::complex<double>;
        const Index n = p.integer("n", 256);
        const Index nx = p.integer("nx", n), ny = p.integer("ny", n), nz = p.integer("nz", n);
        const FFTPlanning planning = parse_planning(p.text("planning", "estimate"));
        const std::string cut = p.text("grid", "pencil");
        const Shape shape{nx, ny, nz};
        const std::vector<int> axes = cut == "slab" ? std::vector<int>{0} : std::vector<int>{0, 1};
        const Layout layout(comm, shape,
                            LayoutOptions{.grid = default_grid(shape, comm.size(), axes)});
        const LinearOperator<C> op =
            FFTND<C>(layout, {.axes = {0, 1, 2}, .norm = FFTNorm::none, .planning = planning});
        // Each axis is one pass over the array (read and write); past one rank at least one
        // all-to-all (read and write) makes the cut axes whole.
        const double passes = 3 + (comm.size() > 1 ? 1 : 0);
        return fft_run(comm, layout, op, passes * 2.0 * sizeof(C) * double(nx * ny * nz));
      }};
}

}  // namespace distlops::bench
