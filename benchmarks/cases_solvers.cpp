// SPDX-License-Identifier: BSD-3-Clause
// Copyright (c) 2026 The distlops authors
// The solver cases of docs/benchmarks.md: blockdiag-cgls, laplacian-cg, vstack-cgls, hstack-cgls,
// tiny-cgls and user-cgls. Each solves y = Op x_true from x0 = 0 with tol = 0 and reports the first
// and last cost, the relative model error ||x - x_true|| / ||x_true|| and the number of buffer
// allocations that depend on the iteration count (zero when the loop allocates nothing).
//
// Least bytes per iteration (8-byte words; summed over ranks; messages not counted). The
// recurrences are counted per operation, each operand read once and each output written once,
// with the reductions fused into the operation that writes the reduced vector:
//   CGLS on an m x n operator:  q = A c (A, c, q), x += a c (3n), s -= a q (3m),
//                               r = A^H s (A, s, r), c = r + b c (3n)
//                               -> 2 |A| + 8 n + 5 m words, |A| the stored matrix elements;
//   CG on an N x N stencil:     q = A c (2N), x += a c (3N), r -= a q (3N), c = r + b c (3N)
//                               -> 11 N words.
// A replicated (BROADCAST) vector counts once per rank: every rank updates its own copy.
#include <cmath>
#include <memory>

#include "cases.hpp"

namespace distlops::bench {

std::vector<double> benchmark_block(Index rows, Index cols, std::uint64_t key) {
  std::vector<double> a(static_cast<std::size_t>(rows * cols));
  const double scale = 1.0 / std::sqrt(static_cast<double>(cols));
  for (Index i = 0; i < rows; ++i) {
    for (Index j = 0; j < cols; ++j) {
      a[std::size_t(i * cols + j)] =
          signed_uniform_value(key, std::uint64_t(i * cols + j)) * scale + (i == j ? 1.0 : 0.0);
    }
  }
  return a;
}

namespace {

constexpr double word = sizeof(double);

/// y += A x for a row-major block, by plain loops (the serial reference of the checks).
void reference_product(const std::vector<double>& a, Index rows, Index cols,
                       const std::vector<double>& x, std::vector<double>& y) {
  for (Index i = 0; i < rows; ++i) {
    double sum = 0;
    for (Index j = 0; j < cols; ++j)
      sum += a[std::size_t(i * cols + j)] * x[std::size_t(j)];
    y[std::size_t(i)] += sum;
  }
}

/// V(key, first + j) for j < count.
std::vector<double> reference_vector(std::uint64_t key, Index first, Index count) {
  std::vector<double> v(static_cast<std::size_t>(count));
  for (Index j = 0; j < count; ++j)
    v[std::size_t(j)] = signed_uniform_value(key, std::uint64_t(first + j));
  return v;
}

/// The state a solver case keeps between its repeats.
template <class Result>
struct SolverState {
  std::function<Result(int niter)> solve;
  int niter = 0;
  Result result;
  std::uint64_t allocations = 0;  // buffer allocations of the last timed solve
};

/// The timed body, the check values and the verification shared by the solver cases.
/// `reference_norm_y` computes ||y|| from the global problem by plain loops (collective);
/// `max_model_error` bounds the final model error (parameter of the case).
template <class Result>
Run solver_run(std::shared_ptr<SolverState<Result>> state,
               std::shared_ptr<DistributedArray<double>> x_true, double bytes_per_iteration,
               std::function<double()> reference_norm_y, double max_model_error,
               bool monotone_cost) {
  Run run;
  run.body = [state] {
    const std::uint64_t before = memory::allocation_count();
    state->result = state->solve(state->niter);
    state->allocations = memory::allocation_count() - before;
  };
  run.units = state->niter;
  run.units_done = [state] { return Index(state->result.iterations); };
  run.bytes_per_unit = bytes_per_iteration;
  run.checks = [state, x_true] {
    const Result& result = state->result;
    DistributedArray<double> error = result.x - *x_true;
    // Allocations that grow with the iterations: those of this run minus those of a
    // one-iteration run (both allocate the same work vectors before their loop).
    const std::uint64_t allocations = state->allocations;
    const std::uint64_t before = memory::allocation_count();
    state->solve(std::min(1, state->niter));
    const std::uint64_t one = memory::allocation_count() - before;
    const double loop_allocations = static_cast<double>(allocations) - static_cast<double>(one);
    return std::vector<Check>{{"iterations", double(result.iterations)},
                              {"cost_first", result.costs.front()},
                              {"cost_last", result.costs.back()},
                              {"model_error", double(error.norm() / x_true->norm())},
                              {"loop_allocations", loop_allocations}};
  };
  run.verify = [state, reference_norm_y, max_model_error,
                monotone_cost](const std::vector<Check>& checks) {
    std::vector<std::string> failures;
    auto fail_unless = [&](bool ok, const std::string& what) {
      if (!ok) failures.push_back(what);
    };
    // x0 = 0: the first cost is ||y||, computed here from the formulas of the inputs.
    const double norm_y = reference_norm_y();
    const double cost_first = check_value(checks, "cost_first");
    fail_unless(std::abs(cost_first - norm_y) <= 1e-10 * norm_y,
                "cost_first " + std::to_string(cost_first) + " != reference ||y|| " +
                    std::to_string(norm_y));
    fail_unless(check_value(checks, "iterations") == state->niter,
                "the solver stopped before niter (a breakdown?)");
    const double model_error = check_value(checks, "model_error");
    fail_unless(model_error < max_model_error, "model_error " + std::to_string(model_error) +
                                                   " not below " + std::to_string(max_model_error));
    fail_unless(check_value(checks, "loop_allocations") == 0, "the solver loop allocates buffers");
    if (monotone_cost) {
      // CGLS minimises ||y - A x|| over growing Krylov spaces: the cost never increases.
      const std::vector<double>& costs = state->result.costs;
      for (std::size_t k = 1; k < costs.size(); ++k) {
        if (costs[k] > costs[k - 1] * (1 + 1e-12)) {
          failures.push_back("cost increases at iteration " + std::to_string(k));
          break;
        }
      }
    }
    return failures;
  };
  run.default_repeats = 3;
  return run;
}

using Cgls = CglsResult<DistributedArray<double>>;

std::function<Cgls(int)> cgls_solver(const LinearOperator<double>& op,
                                     std::shared_ptr<DistributedArray<double>> y) {
  return [op, y](int niter) {
    CglsOptions<DistributedArray<double>> options;
    options.niter = niter;
    options.tol = 0;
    return cgls(op, *y, options);
  };
}

/// An operator the library does not know, as a user's subclass of LinearOperatorBase is: it
/// forwards to a library operator. user-cgls times what agreeing on its failures costs.
class UserOperator final : public LinearOperatorBase<DistributedArray<double>> {
 public:
  explicit UserOperator(LinearOperator<double> inner)
      : LinearOperatorBase(inner.domain(), inner.range(), "UserOperator"),
        inner_(std::move(inner)) {}
  void forward(const DistributedArray<double>& x, DistributedArray<double>& y) const override {
    inner_.implementation().forward(x, y);
  }
  void adjoint(const DistributedArray<double>& y, DistributedArray<double>& x) const override {
    inner_.implementation().adjoint(y, x);
  }

 private:
  LinearOperator<double> inner_;
};

// blockdiag-cgls: CGLS on BlockDiag of one dense n x n block per rank (key 1000 + rank),
// x_true key 11 (weak scaling). Per iteration: 2 P n^2 + 13 P n words. With `user_operator`
// the BlockDiag is seen through UserOperator.
Case blockdiag_cgls_case(const std::string& name, const std::string& description, Index default_n,
                         int default_niter, std::uint64_t block_key, std::uint64_t model_key,
                         int default_repeats, bool user_operator = false) {
  return {name, description, [=](const Communicator& comm, const Parameters& p) {
            const Index n = p.integer("n", default_n);
            const int niter = static_cast<int>(p.integer("niter", default_niter));
            const double max_error = p.real("max_model_error", 1.0);
            const std::uint64_t key = block_key + std::uint64_t(comm.rank());
            const std::vector<double> block = benchmark_block(n, n, key);
            const LinearOperator<double> blocks =
                BlockDiag({local::MatrixMult<double>(n, n, std::span<const double>(block))}, comm);
            const LinearOperator<double> op =
                user_operator ? LinearOperator<double>::make<UserOperator>(blocks) : blocks;
            auto x_true = std::make_shared<DistributedArray<double>>(op.domain());
            fill_random(*x_true, model_key);
            auto y = std::make_shared<DistributedArray<double>>(op.apply(*x_true));
            auto state = std::make_shared<SolverState<Cgls>>();
            state->solve = cgls_solver(op, y);
            state->niter = niter;
            const double ranks = comm.size();
            auto reference = [=] {
              const std::vector<double> a = benchmark_block(n, n, key);
              const std::vector<double> x = reference_vector(model_key, comm.rank() * n, n);
              std::vector<double> yr(std::size_t(n), 0.0);
              reference_product(a, n, n, x, yr);
              double sum = 0;
              for (double v : yr)
                sum += v * v;
              return std::sqrt(comm.allreduce(sum, ReduceOp::sum));
            };
            Run run =
                solver_run(state, x_true, word * ranks * (2.0 * double(n * n) + 13.0 * double(n)),
                           reference, max_error, true);
            run.default_repeats = default_repeats;
            return run;
          }};
}

// vstack-cgls: CGLS on VStack of one n x m block per rank (key 5000 + rank); model (m)
// replicated, data (P n) split; x_true key 51. Per iteration: 2 P n m + 8 P m + 5 P n words.
// hstack-cgls: CGLS on HStack of one m x n block per rank (key 6000 + rank); model (P n)
// split, data (m) replicated; x_true key 61. Per iteration: 2 P m n + 8 P n + 5 P m words.
Case stack_cgls_case(bool vertical) {
  const std::string name = vertical ? "vstack-cgls" : "hstack-cgls";
  const std::string description =
      vertical ? "CGLS, 20 iterations, on VStack of one n x m dense block per rank"
               : "CGLS, 20 iterations, on HStack of one m x n dense block per rank";
  return {
      name, description, [=](const Communicator& comm, const Parameters& p) {
        const Index n = p.integer("n", 2000), m = p.integer("m", 2000);
        const int niter = static_cast<int>(p.integer("niter", 20));
        const double max_error = p.real("max_model_error", 1.0);
        const std::uint64_t model_key = vertical ? 51 : 61;
        const std::uint64_t key = (vertical ? 5000 : 6000) + std::uint64_t(comm.rank());
        const Index rows = vertical ? n : m, cols = vertical ? m : n;
        const std::vector<double> block = benchmark_block(rows, cols, key);
        const auto local = local::MatrixMult<double>(rows, cols, std::span<const double>(block));
        const LinearOperator<double> op = vertical ? VStack({local}, comm) : HStack({local}, comm);
        auto x_true = std::make_shared<DistributedArray<double>>(op.domain());
        fill_random(*x_true, model_key);
        auto y = std::make_shared<DistributedArray<double>>(op.apply(*x_true));
        auto state = std::make_shared<SolverState<Cgls>>();
        state->solve = cgls_solver(op, y);
        state->niter = niter;
        const double ranks = comm.size();
        auto reference = [=] {
          const std::vector<double> a = benchmark_block(rows, cols, key);
          // VStack: the whole model; HStack: this rank's part of it.
          const std::vector<double> x =
              reference_vector(model_key, vertical ? 0 : comm.rank() * n, cols);
          std::vector<double> yr(std::size_t(rows), 0.0);
          reference_product(a, rows, cols, x, yr);
          double sum = 0;
          if (vertical) {
            for (double v : yr)
              sum += v * v;
            return std::sqrt(comm.allreduce(sum, ReduceOp::sum));
          }
          comm.allreduce(yr.data(), yr.data(), rows, ReduceOp::sum);
          for (double v : yr)
            sum += v * v;
          return std::sqrt(sum);
        };
        const double model_words = vertical ? ranks * double(m) : ranks * double(n);
        const double data_words = vertical ? ranks * double(n) : ranks * double(m);
        return solver_run(
            state, x_true,
            word * (2.0 * ranks * double(n * m) + 8.0 * model_words + 5.0 * data_words), reference,
            max_error, true);
      }};
}

/// The state of a CG case: `niter` iterations from x0 = 0 with tol = 0 on op x = y.
std::shared_ptr<SolverState<CgResult<DistributedArray<double>>>> cg_state(
    const LinearOperator<double>& op, std::shared_ptr<DistributedArray<double>> y, int niter) {
  auto state = std::make_shared<SolverState<CgResult<DistributedArray<double>>>>();
  state->solve = [op, y](int iterations) {
    CgOptions<DistributedArray<double>> options;
    options.niter = iterations;
    options.tol = 0;
    return cg(op, *y, options);
  };
  state->niter = niter;
  return state;
}

/// The 2-d Laplacian (axes (0, 1), centered, edge off, weights 1; the sign does not change a
/// norm) of the array whose element
/// (i, j) is f(i, j), at (i, j), by its formula: second differences on interior samples, zero
/// rows at the ends of each axis.
template <class F>
double reference_laplacian(const F& f, Index nx, Index ny, Index i, Index j) {
  double sum = 0;
  if (i > 0 && i < nx - 1) sum += f(i - 1, j) - 2 * f(i, j) + f(i + 1, j);
  if (j > 0 && j < ny - 1) sum += f(i, j - 1) - 2 * f(i, j) + f(i, j + 1);
  return sum;
}

// laplacian-cg: CG on the 2-d Laplacian (weights -1, see below) of an (nx, ny) model split
// over axis 0, x_true key 21 (strong scaling). The operator is singular: only the timing compares
// with other frameworks. Per iteration: 11 nx ny words.
Case laplacian_cg_case() {
  return {"laplacian-cg", "CG, 100 iterations, on the 2-d Laplacian of an (nx, ny) model",
          [](const Communicator& comm, const Parameters& p) {
            const Index nx = p.integer("nx", 2048), ny = p.integer("ny", 2048);
            const int niter = static_cast<int>(p.integer("niter", 100));
            const double max_error = p.real("max_model_error", 1.0);
            const Layout layout(comm, {nx, ny});
            // Weights (-1, -1): the Laplacian is negative semi-definite, and CG stops at the
            // first negative curvature c^H A c < 0 (PyLops' CG takes |c^H A c| and goes on).
            // -L costs the same per apply and keeps CG going for its niter iterations.
            const LinearOperator<double> op =
                Laplacian<double>(layout, {.axes = {0, 1}, .weights = {-1.0, -1.0}});
            auto x_true = std::make_shared<DistributedArray<double>>(layout);
            fill_random(*x_true, 21);
            auto y = std::make_shared<DistributedArray<double>>(op.apply(*x_true));
            auto state = cg_state(op, y, niter);
            auto reference = [=] {
              const auto x = [ny](Index i, Index j) {
                return signed_uniform_value(21, std::uint64_t(i * ny + j));
              };
              const Index first = layout.offset(comm.rank());
              const Index rows = layout.local_shape()[0];
              double sum = 0;
              for (Index i = first; i < first + rows; ++i) {
                for (Index j = 0; j < ny; ++j) {
                  const double v = reference_laplacian(x, nx, ny, i, j);
                  sum += v * v;
                }
              }
              return std::sqrt(comm.allreduce(sum, ReduceOp::sum));
            };
            // CG's residual is not monotone; from x0 = 0 its error ||x_k - x_true|| is
            // (Hestenes and Stiefel), which the model-error bound tests.
            return solver_run(state, x_true, 11.0 * word * double(nx * ny), reference, max_error,
                              false);
          }};
}

// laplacian3d-cg: CG on -L, L the 7-point 3-d Laplacian of an (nx, ny, nz) model (default
// 256^3), x_true key 23, over slabs (axis 0 cut), pencils (axes 0 and 1 cut by default_grid) or
// boxes (all three axes cut by default_grid). Per iteration: 11 nx ny nz words, as laplacian-cg;
// the check value ghost_bytes is what the apply's ghost exchange brings to all ranks together
// (its plan's face blocks), once per iteration.
Case laplacian3d_cg_case() {
  return {"laplacian3d-cg", "CG, 50 iterations, on the 3-d Laplacian of an (nx, ny, nz) model",
          [](const Communicator& comm, const Parameters& p) {
            const Index n = p.integer("n", 256);
            const Index nx = p.integer("nx", n), ny = p.integer("ny", n), nz = p.integer("nz", n);
            const int niter = static_cast<int>(p.integer("niter", 50));
            const double max_error = p.real("max_model_error", 1.0);
            const std::string cut = p.text("grid", "box");
            const Shape shape{nx, ny, nz};
            std::vector<int> axes{0};
            if (cut == "pencil") axes = {0, 1};
            if (cut == "box") axes = {0, 1, 2};
            const Layout layout(comm, shape,
                                LayoutOptions{.grid = default_grid(shape, comm.size(), axes)});
            const LinearOperator<double> op = Laplacian<double>(
                layout, {.axes = {0, 1, 2}, .weights = {-1.0, -1.0, -1.0}, .sampling = {1, 1, 1}});
            // The ghost cells one apply receives, over all ranks; a rank that owns nothing
            // receives none (its plan still describes the faces of its empty block).
            const GhostExchange faces(layout, std::vector<GhostWidths>(3, {1, 1}), GhostReach::any);
            const double received =
                layout.local_size() > 0 ? double(faces.faces_size()) * word : 0.0;
            const double ghost_bytes = comm.allreduce(received, ReduceOp::sum);
            auto x_true = std::make_shared<DistributedArray<double>>(layout);
            fill_random(*x_true, 23);
            auto y = std::make_shared<DistributedArray<double>>(op.apply(*x_true));
            auto state = cg_state(op, y, niter);
            auto reference = [=] {
              const auto x = [=](Index i, Index j, Index k) {
                return signed_uniform_value(23, std::uint64_t((i * ny + j) * nz + k));
              };
              const ArrayBox own = layout.box();
              double sum = 0;
              for (Index i = own.lower[0]; i < own.upper[0]; ++i) {
                for (Index j = own.lower[1]; j < own.upper[1]; ++j) {
                  for (Index k = own.lower[2]; k < own.upper[2]; ++k) {
                    double v = 0;
                    if (i > 0 && i < nx - 1) v += x(i - 1, j, k) - 2 * x(i, j, k) + x(i + 1, j, k);
                    if (j > 0 && j < ny - 1) v += x(i, j - 1, k) - 2 * x(i, j, k) + x(i, j + 1, k);
                    if (k > 0 && k < nz - 1) v += x(i, j, k - 1) - 2 * x(i, j, k) + x(i, j, k + 1);
                    sum += v * v;
                  }
                }
              }
              return std::sqrt(comm.allreduce(sum, ReduceOp::sum));
            };
            Run run = solver_run(state, x_true, 11.0 * word * double(nx * ny * nz), reference,
                                 max_error, false);
            run.checks = [checks = run.checks, ghost_bytes] {
              std::vector<Check> values = checks();
              values.push_back({"ghost_bytes", ghost_bytes});
              return values;
            };
            return run;
          }};
}

}  // namespace

std::vector<Case> solver_cases() {
  return {blockdiag_cgls_case("blockdiag-cgls",
                              "CGLS, 50 iterations, on BlockDiag of one n x n dense block per rank",
                              2000, 50, 1000, 11, 3),
          laplacian_cg_case(), laplacian3d_cg_case(), stack_cgls_case(true), stack_cgls_case(false),
          // 50 iterations: with tol = 0, CGLS on the 10 x 10 blocks drives its recursive
          // residual to exactly zero after about 100 iterations (102 at 1 rank, 179 at 2) and
          // stops; past the rounding floor the iterates carry no information, and on other
          // blocks they overflow. 50 iterations stay well clear of both, so every repeat does
          // all of them and the time per iteration is taken over the same work at every rank
          // count. 40 repeats keep the timed total (about 20 us each) above the clock's noise.
          blockdiag_cgls_case("tiny-cgls",
                              "CGLS, 50 iterations, on BlockDiag of one 10 x 10 block per rank", 10,
                              50, 7000, 71, 40),
          // tiny-cgls through an operator of the user's: the cost of agreeing on its failures.
          blockdiag_cgls_case(
              "user-cgls", "CGLS, 50 iterations, on tiny-cgls's BlockDiag inside a user operator",
              10, 50, 7000, 71, 40, true)};
}

}  // namespace distlops::bench
