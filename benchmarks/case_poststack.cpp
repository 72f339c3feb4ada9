// SPDX-License-Identifier: BSD-3-Clause
// Copyright (c) 2026 The distlops authors
#include "cases.hpp"
#include "poststack/problem.hpp"

namespace distlops::bench {

// poststack: the main job as a benchmark: the regularised post-stack inversion of the
// built-in (nx, nz) section (examples/poststack/problem.hpp), niter CGLS iterations from the
// smooth background. Per iteration: W D and eps L forward and adjoint, plus the vector updates
// of CGLS; at the least each of the 5 model-sized and 4 data-sized work vectors is read and
// written once per iteration (2 x 9 nx nz words), a lower bound that ignores the operators'
// own traffic. The timed run includes the model error computed after every iteration (one
// subtraction and two norms), as in the example.
Case poststack_case() {
  return {"poststack", "post-stack inversion: CGLS on [W D; eps Laplacian] of the built-in section",
          [](const Communicator& comm, const Parameters& p) {
            examples::PoststackSettings settings;
            settings.nx = p.integer("nx", settings.nx);
            settings.nz = p.integer("nz", settings.nz);
            settings.noise = p.real("noise", settings.noise);
            settings.eps = p.real("eps", settings.eps);
            const int niter = static_cast<int>(p.integer("niter", 100));
            auto problem = std::make_shared<examples::PoststackProblem<>>(
                examples::make_poststack_problem(comm, settings));
            auto solution = std::make_shared<examples::PoststackSolution<>>();
            Run run;
            run.body = [=] { *solution = examples::solve_poststack(*problem, niter); };
            run.units = niter;
            run.unit_name = "iteration";
            run.bytes_per_unit = 2.0 * 9.0 * sizeof(double) * double(settings.nx * settings.nz);
            run.checks = [=] {
              return std::vector<Check>{{"first_cost", solution->cgls.costs.front()},
                                        {"last_cost", solution->cgls.costs.back()},
                                        {"start_model_error", solution->model_errors.front()},
                                        {"model_error", solution->model_errors.back()}};
            };
            // CGLS never increases the cost, and the inversion must improve on the smooth
            // starting model (by at least the factor `min_gain`, 1.5 by default).
            const double min_gain = p.real("min_gain", 1.5);
            run.verify = [=](const std::vector<Check>& checks) {
              std::vector<std::string> failures;
              const std::vector<double>& costs = solution->cgls.costs;
              for (std::size_t k = 1; k < costs.size(); ++k) {
                if (costs[k] > costs[k - 1] * (1 + 1e-12)) {
                  failures.push_back("cost increases at iteration " + std::to_string(k));
                  break;
                }
              }
              const double start = check_value(checks, "start_model_error");
              const double end = check_value(checks, "model_error");
              if (!(end * min_gain <= start)) {
                failures.push_back("model error " + std::to_string(end) + " is not " +
                                   std::to_string(min_gain) + " times below the starting " +
                                   std::to_string(start));
              }
              return failures;
            };
            run.default_repeats = 5;
            return run;
          }};
}

}  // namespace distlops::bench
