// SPDX-License-Identifier: BSD-3-Clause
// Copyright (c) 2026 The distlops authors
#include <algorithm>
#include <cmath>
#include <memory>

#include "cases.hpp"
#include "distlops/core/random.hpp"
#include "distlops/operators/derivative/derivatives.hpp"
#include "distlops/solvers/proximal/l2.hpp"
#include "distlops/solvers/proximal/l21.hpp"
#include "distlops/solvers/proximal/primal_dual.hpp"

namespace distlops::bench {

// primaldual-tv: total-variation denoising of an (nx, ny) image split along its rows,
// min 1/2 ||x - b||^2 + weight TV(x), by niter Chambolle-Pock iterations with f = L2(b),
// g = L21 and K = Gradient (forward differences), from x0 = b. The image is a centred square
// plus uniform noise. Per iteration the state must at least be read and written once: the
// model x (nx ny words) and the dual variable y (2 nx ny) read and written, the data b read:
// 7 nx ny words, a lower bound that ignores the work vectors and the stencils' own traffic. The
// solver evaluates the objective only at x0 (nothing reads it later); the checks evaluate it at
// the result, outside the timed run.
Case primaldual_tv_case() {
  return {
      "primaldual-tv", "TV denoising: Chambolle-Pock with L2, L21 and Gradient",
      [](const Communicator& comm, const Parameters& p) {
        using V = DistributedArray<double>;
        using S = StackedDistributedArray<double>;
        const Index nx = p.integer("nx", 2048);
        const Index ny = p.integer("ny", 2048);
        const int niter = static_cast<int>(p.integer("niter", 10));
        const double weight = p.real("weight", 0.1);
        const Layout layout(comm, {nx, ny});
        auto data = std::make_shared<V>(layout);
        fill_random(*data, 2026);
        data->scale(0.1);
        // The square [nx/4, 3nx/4) x [ny/4, 3ny/4) of value 1 on top of the noise.
        {
          V square(layout, 0.0);
          std::vector<double> values(static_cast<std::size_t>(square.local_size()), 0.0);
          const Index row0 = layout.offset(layout.rank());
          const Index rows = square.local_shape()[0];
          for (Index i = 0; i < rows; ++i) {
            const Index gi = row0 + i;
            for (Index j = 0; j < ny; ++j) {
              const bool inside = gi >= nx / 4 && gi < 3 * nx / 4 && j >= ny / 4 && j < 3 * ny / 4;
              values[static_cast<std::size_t>(i * ny + j)] = inside ? 1.0 : 0.0;
            }
          }
          std::copy(values.begin(), values.end(), square.local().begin());
          *data += square;
        }
        GradientOptions gradient_options;
        gradient_options.kind = DerivativeKind::forward;
        auto gradient =
            std::make_shared<BasicLinearOperator<V, S>>(Gradient<double>(layout, gradient_options));
        auto f = std::make_shared<L2<V>>(*data);
        auto g = std::make_shared<L21<S>>(weight);
        PrimalDualOptions<V> options;
        options.niter = niter;
        // ||Gradient||^2 <= 8 for forward differences in 2-d: tau sigma 8 <= 1.
        options.tau = 0.25;
        options.sigma = 0.45;
        options.check_steps = false;
        auto result = std::make_shared<PrimalDualResult<V>>();
        Run run;
        run.body = [=] { *result = primal_dual(*f, *g, *gradient, *data, options); };
        run.units = niter;
        run.unit_name = "iteration";
        run.bytes_per_unit = 7.0 * sizeof(double) * double(nx * ny);
        run.checks = [=] {
          const double last = f->value(result->x) + g->value(gradient->apply(result->x));
          return std::vector<Check>{{"first_cost", result->costs.front()}, {"last_cost", last}};
        };
        // From x0 = b the misfit is 0 and J(x0) = weight TV(b); a TV-denoising run lowers the
        // objective below it.
        run.verify = [=](const std::vector<Check>& checks) {
          std::vector<std::string> failures;
          const double first = check_value(checks, "first_cost");
          const double last = check_value(checks, "last_cost");
          if (!(last < first) || !std::isfinite(last)) {
            failures.push_back("the objective did not decrease: " + std::to_string(first) + " -> " +
                               std::to_string(last));
          }
          return failures;
        };
        run.default_repeats = 3;
        return run;
      }};
}

}  // namespace distlops::bench
