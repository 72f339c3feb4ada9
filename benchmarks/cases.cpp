// SPDX-License-Identifier: BSD-3-Clause
// Copyright (c) 2026 The distlops authors
#include <cmath>
#include <functional>
#include <string>

#include "cases.hpp"
#include "distlops/io/io_config.hpp"

namespace distlops::bench {

namespace {

constexpr double word = sizeof(double);

/// Whether sample i of an axis of length n is interior (edge off: the end rows are zero).
bool interior(Index i, Index n) {
  return i > 0 && i < n - 1;
}

/// ||f|| over the rows of axis 0 this rank owns of an (nx, ny) array whose element (i, j) is
/// f(i, j), summed over ranks: the serial references of the apply cases, built from the
/// formulas of the inputs and of the stencils, not from the operators.
template <class F>
double reference_norm(const Communicator& comm, const Layout& layout, Index ny, const F& f) {
  const Index first = layout.offset(comm.rank());
  double sum = 0;
  for (Index i = first; i < first + layout.local_shape()[0]; ++i) {
    for (Index j = 0; j < ny; ++j) {
      const double v = f(i, j);
      sum += v * v;
    }
  }
  return std::sqrt(comm.allreduce(sum, ReduceOp::sum));
}

/// A failure message when `value` differs from `reference` by more than 1e-10 relative.
void compare(std::vector<std::string>& failures, const std::string& name, double value,
             double reference) {
  if (std::abs(value - reference) > 1e-10 * std::abs(reference)) {
    failures.push_back(name + " " + std::to_string(value) + " != reference " +
                       std::to_string(reference));
  }
}

/// A function of the global index (i, j) of an (nx, ny) array.
using Field = std::function<double(Index, Index)>;

/// The serial references of an apply case: A x and A^T A x as functions of (i, j).
struct StencilReference {
  Field forward;
  Field adjoint_of_forward;
};

/// One forward and one adjoint apply of `op` on an (nx, ny) array split along axis 0, filled
/// with V(key, i). Each apply reads its input once and writes its output once: 2 nx ny words.
/// The checks are ||A x|| and ||A^T A x||, verified against `reference` of the input formula.
Run stencil_apply_run(const Communicator& comm, const Layout& layout, LinearOperator<double> op,
                      std::uint64_t key, const std::string& forward_name,
                      const std::string& adjoint_name,
                      std::function<StencilReference(Field)> reference, int repeats) {
  const Index ny = layout.global_shape()[1];
  auto [x, y, z, run] = forward_adjoint_run(op, key, 2.0 * word * double(layout.global_size()));
  run.checks = [=] {
    return std::vector<Check>{{forward_name, y->norm()}, {adjoint_name, z->norm()}};
  };
  run.verify = [=](const std::vector<Check>& checks) {
    const Field model = [ny, key](Index i, Index j) {
      return signed_uniform_value(key, std::uint64_t(i * ny + j));
    };
    const StencilReference expected = reference(model);
    std::vector<std::string> failures;
    compare(failures, forward_name, check_value(checks, forward_name),
            reference_norm(comm, layout, ny, expected.forward));
    compare(failures, adjoint_name, check_value(checks, adjoint_name),
            reference_norm(comm, layout, ny, expected.adjoint_of_forward));
    return failures;
  };
  run.default_repeats = repeats;
  return run;
}

// firstderivative: one forward and one adjoint centered (order 3) first derivative along
// axis 0 of an (nx, ny) array split along axis 0.
Case first_derivative_case() {
  return {"firstderivative", "forward + adjoint FirstDerivative (centered, order 3) along axis 0",
          [](const Communicator& comm, const Parameters& p) {
            const Index nx = p.integer("nx", 4096), ny = p.integer("ny", 4096);
            const Layout layout(comm, {nx, ny});
            // Centered, order 3, edge off: y_i = (x_{i+1} - x_{i-1}) / 2 on interior rows.
            const auto reference = [nx](Field model) {
              const Field dx = [=](Index i, Index j) {
                return interior(i, nx) ? 0.5 * (model(i + 1, j) - model(i - 1, j)) : 0.0;
              };
              const Field dtdx = [=](Index i, Index j) {
                return (interior(i - 1, nx) ? 0.5 * dx(i - 1, j) : 0.0) -
                       (interior(i + 1, nx) ? 0.5 * dx(i + 1, j) : 0.0);
              };
              return StencilReference{dx, dtdx};
            };
            return stencil_apply_run(comm, layout,
                                     FirstDerivative<double>(layout, {.axis = 0, .order = 3}), 31,
                                     "norm_Dx", "norm_DtDx", reference, 20);
          }};
}

// laplacian-apply: one forward and one adjoint 2-d Laplacian (axes (0, 1), centered, edge
// off, weights 1) of an (nx, ny) array split along axis 0.
Case laplacian_apply_case() {
  return {"laplacian-apply", "forward + adjoint 2-d Laplacian of an array split along axis 0",
          [](const Communicator& comm, const Parameters& p) {
            const Index nx = p.integer("nx", 4096), ny = p.integer("ny", 4096);
            const Layout layout(comm, {nx, ny});
            // Second differences x_{i-1} - 2 x_i + x_{i+1} on interior samples of each axis.
            const auto reference = [nx, ny](Field model) {
              const Field lx = [=](Index i, Index j) {
                double sum = 0;
                if (interior(i, nx)) sum += model(i - 1, j) - 2 * model(i, j) + model(i + 1, j);
                if (interior(j, ny)) sum += model(i, j - 1) - 2 * model(i, j) + model(i, j + 1);
                return sum;
              };
              // The transpose: column (i, j) gathers the rows that reach it.
              const Field ltlx = [=](Index i, Index j) {
                double sum = 0;
                if (interior(i - 1, nx)) sum += lx(i - 1, j);
                if (interior(i, nx)) sum -= 2 * lx(i, j);
                if (interior(i + 1, nx)) sum += lx(i + 1, j);
                if (interior(j - 1, ny)) sum += lx(i, j - 1);
                if (interior(j, ny)) sum -= 2 * lx(i, j);
                if (interior(j + 1, ny)) sum += lx(i, j + 1);
                return sum;
              };
              return StencilReference{lx, ltlx};
            };
            return stencil_apply_run(comm, layout, Laplacian<double>(layout, {.axes = {0, 1}}), 21,
                                     "norm_Lx", "norm_LtLx", reference, 10);
          }};
}

}  // namespace

std::vector<Case> all_cases() {
  std::vector<Case> cases{first_derivative_case(), laplacian_apply_case()};
  for (Case& c : solver_cases())
    cases.push_back(std::move(c));
  cases.push_back(fft2d_case());
  cases.push_back(fftw2d_case());
  cases.push_back(fft3d_case());
  cases.push_back(convolve2d_case());
  cases.push_back(poststack_case());
  cases.push_back(kirchhoff_lsm_case<Host>());
  cases.push_back(primaldual_tv_case());
  cases.push_back(reshape_case());
  cases.push_back(big_transfer_case());
  cases.push_back(pingpong_case());
#if DISTLOPS_WITH_HDF5
  cases.push_back(io_hdf5_case());
#endif
  return cases;
}

}  // namespace distlops::bench
