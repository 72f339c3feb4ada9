// SPDX-License-Identifier: BSD-3-Clause
// Copyright (c) 2026 The distlops authors
// fft2d: one forward and one adjoint complex128 FFT2D over axes (0, 1), norm "none", of an
// (nx, ny) array x = V(41, i) + 1j V(42, i) split along axis 0. The forward's output stays in
// the transposed layout (split along axis 1) that the adjoint takes back, so each apply is
// one all-to-all. Least bytes per apply: read the input once and write the output once,
// 2 * 16 nx ny bytes (the all-to-all's messages not counted).
#include <cmath>
#include <complex>
#include <memory>

#include "cases.hpp"

namespace distlops::bench {

Case fft2d_case() {
  return {"fft2d", "forward + adjoint complex128 FFT2D over axes (0, 1), norm none",
          [](const Communicator& comm, const Parameters& p) {
            using C = std::complex<double>;
            const Index nx = p.integer("nx", 2048), ny = p.integer("ny", 2048);
            const Layout layout(comm, {nx, ny});
            const LinearOperator<C> op = FFT2D<C>(layout, {.axes = {0, 1}, .norm = FFTNorm::none});
            auto x = std::make_shared<DistributedArray<C>>(layout);
            auto y = std::make_shared<DistributedArray<C>>(op.range());
            auto z = std::make_shared<DistributedArray<C>>(layout);
            fill_random(*x, 41);  // V(41, i) + 1j V(42, i)
            Run run;
            run.body = [=] {
              op.apply(*x, *y);
              op.apply_adjoint(*y, *z);
            };
            run.units = 2;
            run.unit_name = "apply";
            run.bytes_per_unit = 2.0 * sizeof(C) * double(nx * ny);
            run.checks = [=] {
              return std::vector<Check>{{"norm_Fx", double(y->norm())},
                                        {"norm_FhFx", double(z->norm())}};
            };
            // Parseval for the unnormalised transform: ||F x|| = sqrt(N) ||x|| and
            // F^H F = N I, with ||x|| summed here from the formula of the input.
            run.verify = [=](const std::vector<Check>& checks) {
              const Index first = layout.offset(comm.rank()) * ny;
              const Index count = layout.local_shape()[0] * ny;
              double sum = 0;
              for (Index i = first; i < first + count; ++i) {
                const double re = signed_uniform_value(41, std::uint64_t(i));
                const double im = signed_uniform_value(42, std::uint64_t(i));
                sum += re * re + im * im;
              }
              const double norm_x = std::sqrt(comm.allreduce(sum, ReduceOp::sum));
              const double size = double(nx * ny);
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
            };
            run.default_repeats = 5;
            return run;
          }};
}

}  // namespace distlops::bench
