// SPDX-License-Identifier: BSD-3-Clause
// Copyright (c) 2026 The distlops authors
#include <cmath>
#include <memory>
#include <numbers>
#include <type_traits>

#include "cases.hpp"
#include "distlops/core/random.hpp"
#include "distlops/operators/waveeq/kirchhoff.hpp"
#include "distlops/solvers/cgls.hpp"
#if DISTLOPS_WITH_CUDA
#include "distlops/core/cuda_context.hpp"
#endif

namespace distlops::bench {

// kirchhoff-lsm: Kirchhoff least-squares migration, PyLops-MPI's MPIVStack of PyLops'
// Kirchhoff: ns shots and nr receivers spread over the surface of an (nx, nz) grid of 10 m
// cells, analytic traveltimes at 2000 m/s, a 25-sample Ricker wavelet, the shots split over the
// ranks (model replicated); CGLS from zero on the data of the model U(81, i) (docs/benchmarks.md),
// niter iterations. Per iteration one spray and one stack: each visits every (shot, receiver,
// image point) triple once, reading two traveltimes (8-byte words) and updating two samples
// (16 bytes each way); `bytes_per_unit` counts the table reads only (2 x 2 x 8 bytes per triple
// and iteration), the traffic a kernel that streams its tables cannot avoid; the wavelet's
// convolution and the vector updates are small beside it. The compute bound is about 10 flops
// per triple and apply (sum, division, truncation, two weights, two multiply-adds). The Cuda
// form (the device cases of --space cuda) runs the same problem on the device's kernels.
template <MemorySpace Space>
Case kirchhoff_lsm_case() {
  constexpr bool device = std::is_same_v<Space, Cuda>;
  return {
      "kirchhoff-lsm",
      device ? "Kirchhoff LSM: CGLS on the VStack of each rank's shots, on the device"
             : "Kirchhoff LSM: CGLS on the VStack of each rank's shots",
      [](const Communicator& comm, const Parameters& p) {
        const Index nx = p.integer("nx", 101), nz = p.integer("nz", 61);
        const Index ns = p.integer("ns", 8), nr = p.integer("nr", 51);
        const int niter = static_cast<int>(p.integer("niter", 10));
        const double d = 10, velocity = 2000, dt = 0.004, f0 = 15;
        const Index wavelet_half = 12;
        const double width = double(nx - 1) * d, depth = double(nz - 1) * d;
        const auto nt = static_cast<Index>(std::ceil(2 * std::hypot(width, depth) / velocity / dt) +
                                           double(2 * wavelet_half + 2));
        auto surface = [&](Index n) {
          std::vector<double> points;
          for (Index i = 0; i < n; ++i) {
            points.push_back(double(i) * (n > 1 ? width / double(n - 1) : 0.0));
            points.push_back(0.0);
          }
          return points;
        };
        const std::vector<double> sources = surface(ns), receivers = surface(nr);
        std::vector<double> wavelet;
        for (Index k = 0; k <= 2 * wavelet_half; ++k) {
          const double a = std::numbers::pi * f0 * (double(k - wavelet_half) * dt);
          wavelet.push_back((1 - 2 * (a * a)) * std::exp(-(a * a)));
        }
        const Index share = ns / comm.size() + (comm.rank() < ns % comm.size() ? 1 : 0);
        Index first = 0;
        for (int r = 0; r < comm.rank(); ++r)
          first += ns / comm.size() + (r < ns % comm.size() ? 1 : 0);
        const KirchhoffGeometry geometry{{}, {nx, 0.0, d}, {nz, 0.0, d}, nt, dt};
        const auto op = Kirchhoff<double, Space>(
            geometry, std::span<const double>(sources.data() + 2 * first, std::size_t(2 * share)),
            receivers, wavelet, wavelet_half, {.velocity = velocity}, comm);
        using Array = DistributedArray<double, Space>;
        auto truth = std::make_shared<Array>(op.domain());
        fill_random(*truth, 81);
        auto data = std::make_shared<Array>(op.apply(*truth));
        auto result = std::make_shared<CglsResult<Array>>();
        Run run;
        run.body = [=] {
          CglsOptions<Array> options;
          options.niter = niter;
          *result = cgls(op, *data, options);
#if DISTLOPS_WITH_CUDA
          if constexpr (device) cuda::Context::get().synchronize();
#endif
        };
        run.units = niter;
        run.units_done = [=] { return Index(result->iterations); };
        const double triples = double(ns) * double(nr) * double(nx * nz);
        run.bytes_per_unit = 2.0 * 2.0 * 8.0 * triples;
        run.checks = [=] {
          return std::vector<Check>{{"first_cost", result->costs.front()},
                                    {"last_cost", result->costs.back()},
                                    {"nt", double(nt)}};
        };
        run.verify = [=](const std::vector<Check>&) {
          std::vector<std::string> failures;
          const std::vector<double>& costs = result->costs;
          for (std::size_t k = 1; k < costs.size(); ++k) {
            if (!(costs[k] <= costs[k - 1] * (1 + 1e-12))) {
              failures.push_back("cost increases at iteration " + std::to_string(k));
              break;
            }
          }
          return failures;
        };
        run.default_repeats = 3;
        return run;
      }};
}

template Case kirchhoff_lsm_case<Host>();
#if DISTLOPS_WITH_CUDA
template Case kirchhoff_lsm_case<Cuda>();
#endif

}  // namespace distlops::bench
