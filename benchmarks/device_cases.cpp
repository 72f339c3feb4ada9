// SPDX-License-Identifier: BSD-3-Clause
// Copyright (c) 2026 The distlops authors
#include "device_cases.hpp"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <memory>
#include <string>
#include <vector>

#if DISTLOPS_WITH_CUDA
#include "cases.hpp"
#include "distlops/core/buffer.hpp"
#include "distlops/core/cuda_context.hpp"
#include "distlops/solvers/cg.hpp"
#include "distlops/solvers/cgls.hpp"
#endif

namespace distlops::bench {

#if DISTLOPS_WITH_CUDA
namespace {

constexpr double word = sizeof(double);

// A forward and an adjoint apply of `op` on device arrays of `layout`; the repeat ends when
// the device is idle. Each apply reads its input and writes its output once.
Run stencil_run(const LinearOperator<double, Cuda>& op, const Layout& layout, const char* forward,
                const char* adjoint, int repeats) {
  auto x = std::make_shared<DistributedArray<double, Cuda>>(layout);
  auto y = std::make_shared<DistributedArray<double, Cuda>>(layout);
  auto z = std::make_shared<DistributedArray<double, Cuda>>(layout);
  fill_random(*x, 31);
  Run run;
  run.body = [=] {
    op.apply(*x, *y);
    op.apply_adjoint(*y, *z);
    cuda::Context::get().synchronize();
  };
  run.units = 2;
  run.unit_name = "apply";
  run.bytes_per_unit = 2.0 * word * double(layout.global_size());
  run.checks = [=] { return std::vector<Check>{{forward, y->norm()}, {adjoint, z->norm()}}; };
  run.default_repeats = repeats;
  return run;
}

// `calls` sums of `values` doubles over the ranks (the size of a solver's batch of scalars),
// through the communicator's symmetric window or the plain NCCL path; the repeat ends when the
// device is idle. Every rank starts from ones, so the values after the repeat are
// ranks^calls. At one rank no sum crosses ranks: the case needs two (min_ranks).
Case small_allreduce_case(const char* name, bool symmetric) {
  return {name,
          symmetric ? "sums of a solver's batch of scalars over the ranks, in the symmetric window"
                    : "sums of a solver's batch of scalars over the ranks, plain NCCL path",
          [symmetric](const Communicator& comm, const Parameters& p) {
            const Index values = p.integer("values", 8), calls = p.integer("calls", 100);
            set_symmetric_reductions(symmetric);
            auto data = std::make_shared<Buffer<double, Cuda>>(values);
            auto ones =
                std::make_shared<std::vector<double>>(static_cast<std::size_t>(values), 1.0);
            Run run;
            run.body = [=] {
              memory::copy_bytes<Cuda, Host>(data->data(), ones->data(), data->bytes());
              for (Index call = 0; call < calls; ++call)
                allreduce_sum_in_place<double, Cuda>(comm, data->data(), values);
              cuda::Context::get().synchronize();
            };
            run.units = calls;
            run.unit_name = "sum";
            run.bytes_per_unit = 2.0 * word * double(values) * double(comm.size());
            run.checks = [=] {
              double first = 0;
              memory::copy_bytes<Host, Cuda>(&first, data->data(), sizeof(double));
              return std::vector<Check>{{"log_ranks", std::log(first) / double(calls)}};
            };
            run.verify = [comm](const std::vector<Check>& checks) {
              std::vector<std::string> failures;
              const double expected = std::log(double(comm.size()));
              const double got = check_value(checks, "log_ranks");
              if (!(std::abs(got - expected) <= 1e-12 * std::max(1.0, expected))) {
                failures.push_back("log(sum)/calls = " + std::to_string(got) + ", expected log(" +
                                   std::to_string(comm.size()) + ")");
              }
              return failures;
            };
            run.default_repeats = 20;
            return run;
          },
          /*on_request=*/false, /*min_ranks=*/2};
}

// A solver case's timed solve on device arrays, from x0 = 0, with the relative model error
// ||x_k - x_true|| / ||x_true|| as its check: CG and CGLS decrease it monotonically from 1
// (Hestenes and Stiefel), so it must end below 1. `solve` returns x_k; the repeat ends when the
// device is idle.
template <class Solve>
Run device_solver_run(std::shared_ptr<DistributedArray<double, Cuda>> x_true, Index niter,
                      double bytes_per_iteration, int default_repeats, Solve solve) {
  auto model_error = std::make_shared<double>(1.0);
  Run run;
  run.body = [=] {
    DistributedArray<double, Cuda> x = solve();
    cuda::Context::get().synchronize();
    x.axpy(-1.0, *x_true);
    *model_error = x.norm() / x_true->norm();
  };
  run.units = niter;
  run.unit_name = "iteration";
  run.bytes_per_unit = bytes_per_iteration;
  run.checks = [=] { return std::vector<Check>{{"model_error", *model_error}}; };
  run.verify = [](const std::vector<Check>& checks) {
    std::vector<std::string> failures;
    const double error = check_value(checks, "model_error");
    if (!(error < 1.0)) {
      failures.push_back("model error " + std::to_string(error) +
                         ", expected below 1 (the error decreases from x0 = 0)");
    }
    return failures;
  };
  run.default_repeats = default_repeats;
  return run;
}

// CG with tol = 0 on the 2-d Laplacian with weights (-1, -1) (positive semi-definite, as the
// host case laplacian-cg) of an (nx, ny) model. Bytes per iteration as the host case's: 11
// words per point (the apply reads x and writes Ax, the two dots and the three vector updates
// read and write their operands).
Case laplacian_cg_case(const char* name, const char* description, Index default_size,
                       int default_repeats) {
  return {name, description,
          [default_size, default_repeats](const Communicator& comm, const Parameters& p) {
            const Index nx = p.integer("nx", default_size), ny = p.integer("ny", default_size);
            const int niter = static_cast<int>(p.integer("niter", 100));
            const Layout layout(comm, {nx, ny});
            const LinearOperator<double, Cuda> op =
                Laplacian<double, Cuda>(layout, {.axes = {0, 1}, .weights = {-1.0, -1.0}});
            auto x_true = std::make_shared<DistributedArray<double, Cuda>>(layout);
            fill_random(*x_true, 21);
            auto y = std::make_shared<DistributedArray<double, Cuda>>(op.apply(*x_true));
            return device_solver_run(x_true, niter, 11.0 * word * double(nx * ny), default_repeats,
                                     [=] {
                                       CgOptions<DistributedArray<double, Cuda>> options;
                                       options.niter = niter;
                                       options.tol = 0;
                                       return cg(op, *y, options).x;
                                     });
          }};
}

// blockdiag-cgls on the device: the host case's problem (docs/benchmarks.md: CGLS with tol = 0
// on BlockDiag of one dense n x n block per rank, key 1000 + rank, x_true key 11), the blocks in
// device memory. Bytes per iteration as the host case's: 2 P n^2 + 13 P n words.
Case blockdiag_cgls_device_case() {
  return {"blockdiag-cgls",
          "CGLS, 50 iterations, on BlockDiag of one dense n x n block per rank, on the device",
          [](const Communicator& comm, const Parameters& p) {
            const Index n = p.integer("n", 2000);
            const int niter = static_cast<int>(p.integer("niter", 50));
            const std::vector<double> block =
                benchmark_block(n, n, 1000 + std::uint64_t(comm.rank()));
            const LinearOperator<double, Cuda> op = BlockDiag(
                {local::MatrixMult<double, Cuda>(n, n, std::span<const double>(block))}, comm);
            auto x_true = std::make_shared<DistributedArray<double, Cuda>>(op.domain());
            fill_random(*x_true, 11);
            auto y = std::make_shared<DistributedArray<double, Cuda>>(op.apply(*x_true));
            const double ranks = comm.size();
            return device_solver_run(
                x_true, niter, word * ranks * (2.0 * double(n * n) + 13.0 * double(n)), 3, [=] {
                  CglsOptions<DistributedArray<double, Cuda>> options;
                  options.niter = niter;
                  options.tol = 0;
                  return cgls(op, *y, options).x;
                });
          }};
}

}  // namespace

std::vector<Case> device_cases() {
  return {
      small_allreduce_case("small-allreduce", true),
      small_allreduce_case("small-allreduce-plain", false),
      {"firstderivative",
       "forward + adjoint FirstDerivative (centered, order 3) along axis 0, on the device",
       [](const Communicator& comm, const Parameters& p) {
         const Index nx = p.integer("nx", 4096), ny = p.integer("ny", 4096);
         const Layout layout(comm, {nx, ny});
         return stencil_run(FirstDerivative<double, Cuda>(layout, {.axis = 0, .order = 3}), layout,
                            "norm_Dx", "norm_DtDx", 20);
       }},
      {"laplacian-apply", "forward + adjoint 2-d Laplacian split along axis 0, on the device",
       [](const Communicator& comm, const Parameters& p) {
         const Index nx = p.integer("nx", 4096), ny = p.integer("ny", 4096);
         const Layout layout(comm, {nx, ny});
         return stencil_run(Laplacian<double, Cuda>(layout, {.axes = {0, 1}}), layout, "norm_Lx",
                            "norm_LtLx", 10);
       }},
      laplacian_cg_case("laplacian-cg",
                        "CG, 100 iterations, on the 2-d Laplacian of an (nx, ny) model, on the "
                        "device",
                        2048, 5),
      // Launch- and synchronisation-bound: what an iteration costs beyond its bytes.
      laplacian_cg_case("tiny-laplacian-cg",
                        "CG, 100 iterations, on the 2-d Laplacian of a 64 x 64 model, on the "
                        "device (latency per iteration)",
                        64, 20),
      blockdiag_cgls_device_case(),
      kirchhoff_lsm_case<Cuda>(),
  };
}
double device_copy_bandwidth(const Communicator& comm, Index elements, int repeats) {
  if (elements <= 0 || repeats <= 0) {
    throw InvalidArgument("device copy bandwidth: elements and repeats must be positive, got " +
                          std::to_string(elements) + " and " + std::to_string(repeats));
  }
  Buffer<double, Cuda> source(elements), destination(elements);
  const std::vector<double> values(static_cast<std::size_t>(elements), 1.0);
  memory::copy_bytes<Cuda, Host>(source.data(), values.data(), source.bytes());
  const cuda::Context& context = cuda::Context::get();
  // Several copies per timed repeat: one copy of arrays that just exceed the last-level cache
  // lasts a fraction of a millisecond, comparable with a barrier and a synchronisation.
  constexpr int copies_per_repeat = 10;
  auto copies = [&] {
    for (int i = 0; i < copies_per_repeat; ++i)
      memory::copy_bytes<Cuda, Cuda>(destination.data(), source.data(), source.bytes());
    context.synchronize();
  };
  copies();
  double best = 0;
  for (int repeat = 0; repeat < repeats; ++repeat) {
    comm.barrier();
    const auto start = std::chrono::steady_clock::now();
    copies();
    const double local =
        std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    const double slowest = comm.allreduce(local, ReduceOp::max);
    best = repeat == 0 ? slowest : std::min(best, slowest);
  }
  const double bytes =
      2.0 * sizeof(double) * double(elements) * copies_per_repeat * double(comm.size());
  return bytes / best;
}
#else
std::vector<Case> device_cases() {
  return {};
}

double device_copy_bandwidth(const Communicator&, Index, int) {
  throw InvalidArgument("device copy bandwidth: distlops was built without the CUDA backend");
}
#endif

}  // namespace distlops::bench
