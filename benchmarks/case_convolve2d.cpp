// SPDX-License-Identifier: BSD-3-Clause
// Copyright (c) 2026 The distlops authors
// convolve2d: one forward and one adjoint float64 Convolve2D (direct method) of an (nx, ny)
// array x = V(51, i) split along axis 0 with a kx x ky filter h = V(52, k) centred at
// (kx / 2, ky / 2). Each apply fetches kx - 1 ghost rows from the neighbours. Least bytes per
// apply: read the input once and write the output once, 2 * 8 nx ny bytes (the ghost rows and
// the copy of the block joined with them not counted).
#include <cmath>
#include <memory>
#include <vector>

#include "cases.hpp"
#include "distlops/core/random.hpp"
#include "distlops/operators/signal/convolvend.hpp"

namespace distlops::bench {

Case convolve2d_case() {
  return {
      "convolve2d", "forward + adjoint float64 Convolve2D (direct), filter kx x ky",
      [](const Communicator& comm, const Parameters& p) {
        const Index nx = p.integer("nx", 2048), ny = p.integer("ny", 2048);
        const Index kx = p.integer("kx", 5), ky = p.integer("ky", 5);
        const Layout layout(comm, {nx, ny});
        std::vector<double> h(static_cast<std::size_t>(kx * ky));
        for (std::size_t k = 0; k < h.size(); ++k)
          h[k] = signed_uniform_value(52, k);
        const LinearOperator<double> op = Convolve2D<double>(layout, h, {kx, ky}, {kx / 2, ky / 2});
        auto [x, y, z, run] = forward_adjoint_run(op, 51, 2.0 * sizeof(double) * double(nx * ny));
        run.checks = [=] {
          return std::vector<Check>{{"norm_Cx", double(y->norm())},
                                    {"dot_x_CtCx", double(x->dot(*z))}};
        };
        // The adjoint's defining identity: <C x, C x> = <x, C^T C x>.
        run.verify = [=](const std::vector<Check>& checks) {
          const double norm = check_value(checks, "norm_Cx");
          const double dot = check_value(checks, "dot_x_CtCx");
          std::vector<std::string> failures;
          if (!(std::abs(norm * norm - dot) <= 1e-10 * norm * norm)) {
            failures.push_back("||C x||^2 = " + std::to_string(norm * norm) +
                               " != <x, C^T C x> = " + std::to_string(dot));
          }
          return failures;
        };
        run.default_repeats = 5;
        return run;
      }};
}

}  // namespace distlops::bench
