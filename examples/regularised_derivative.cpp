// SPDX-License-Identifier: BSD-3-Clause
// Copyright (c) 2026 The distlops authors
// The README's operator example, compiled so that it stays correct: a regularised
// least-squares problem, min ||y - D x||^2 + eps^2 ||L x||^2, with D a first derivative along
// axis 1 and L the 2-d Laplacian of an array split over the ranks along axis 0.
//
//     mpiexec -n 2 ./regularised_derivative
#include <cstdio>

#include "distlops/distlops.hpp"

using namespace distlops;

int main(int argc, char** argv) {
  Environment environment(argc, argv);
  const Layout layout(Communicator::world(), {512, 256});  // rows split over the ranks

  const auto D = FirstDerivative<double>(layout, {.axis = 1});  // ghost cells exchanged as needed
  const auto L = Laplacian<double>(layout, {.axes = {0, 1}});
  const auto A = StackedVStack<double, Host>({D, 0.5 * L});  // [D; eps L]

  DistributedArray<double> x_true(layout);
  fill_random(x_true, 7);
  StackedDistributedArray<double> y = A.apply(x_true);
  y[1].fill(0.0);  // no data for the regularisation term

  CglsOptions<DistributedArray<double>> options;
  options.niter = 100;
  options.progress.show = true;  // PyLops-style table on rank 0
  const auto result = cgls(A, y, options);

  if (Communicator::world().rank() == 0) {
    std::printf("%d iterations, cost %.6e -> %.6e\n", result.iterations, result.costs.front(),
                result.costs.back());
  }
  return 0;
}
