// SPDX-License-Identifier: BSD-3-Clause
// Copyright (c) 2026 The distlops authors
// What every solver shares: the callback (agreed over the ranks), the progress table printed
// by rank 0, checkpoints (a run stopped and resumed reaches the uninterrupted run's iterate bit
// for bit; mismatched or corrupt checkpoints fail on every rank) and work vectors allocated
// once whatever the number of iterations.
#include <cstring>
#include <fstream>
#include <sstream>

#include "distlops/operators/stack/block_diag.hpp"
#include "distlops/operators/stack/stacked.hpp"
#include "distlops/operators/stack/vstack.hpp"
#include "expect_everywhere.hpp"
#include "solver_test_support.hpp"

using namespace distlops;
using namespace distlops::testing;

namespace {

/// A well-conditioned square and a tall dense problem of the given size.
template <class T>
struct Problem {
  explicit Problem(Index n, const Communicator& comm = world())
      : square_layout(comm, {n}),
        tall_layout(comm, {n + n / 2}),
        hpd(dense_operator<Array<T>>(hpd_matrix<T>(n, 1), square_layout, square_layout)),
        tall(dense_operator<Array<T>>(well_conditioned<T>(n + n / 2, n, 2), square_layout,
                                      tall_layout)),
        y_square(square_layout),
        y_tall(tall_layout) {
    fill_random(y_square, 3);
    fill_random(y_tall, 4);
  }
  Layout square_layout, tall_layout;
  LinearOperator<T> hpd, tall;
  Array<T> y_square, y_tall;
};

bool bitwise_equal(const std::vector<double>& a, const std::vector<double>& b) {
  return a.size() == b.size() && std::memcmp(a.data(), b.data(), a.size() * sizeof(double)) == 0;
}

/// Runs `solve` uninterrupted to n iterations, then stopped by the callback at k (with
/// checkpoints every 3 iterations) and resumed to n, and compares the results bit for bit.
template <class Options, class Solve>
void check_bitwise_resume(const Options& base, Solve&& solve, const std::string& directory) {
  using Result = decltype(solve(base));
  using V = std::decay_t<decltype(std::declval<Result>().x)>;
  using T = typename V::value_type;
  const int k = 6, n = 15;
  Options full = base;
  full.niter = n;
  const Result uninterrupted = solve(full);
  REQUIRE(uninterrupted.iterations == n);

  Options first = full;
  first.checkpoint.directory = directory;
  first.checkpoint.every = 3;
  first.callback = [k](int iteration, const V&, double, double) {
    return iteration == k ? CallbackAction::stop : CallbackAction::proceed;
  };
  const Result stopped = solve(first);
  CHECK(stopped.reason == StopReason::callback);
  CHECK(stopped.iterations == k);

  Options second = full;
  second.checkpoint.directory = directory;
  second.checkpoint.resume = true;
  const Result resumed = solve(second);
  CHECK(resumed.resumed_from == k);
  CHECK(resumed.iterations == n);
  CHECK(resumed.reason == uninterrupted.reason);
  const DenseVector<T> x_resumed = global_vector(resumed.x);
  const DenseVector<T> x_uninterrupted = global_vector(uninterrupted.x);
  REQUIRE(x_resumed.size() == x_uninterrupted.size());
  CHECK(std::memcmp(x_resumed.data(), x_uninterrupted.data(),
                    std::size_t(x_resumed.size()) * sizeof(T)) == 0);
  CHECK(bitwise_equal(resumed.residual_norms, uninterrupted.residual_norms));
  CHECK(bitwise_equal(resumed.costs, uninterrupted.costs));
}

}  // namespace

TEST_CASE("a run stopped and resumed from its checkpoint equals the uninterrupted run bit for bit",
          "[solvers][checkpoint]") {
  const ScratchDirectory scratch;
  const Problem<double> p(40);
  SECTION("cg") {
    check_bitwise_resume(
        CgOptions<Array<double>>{}, [&](const auto& o) { return cg(p.hpd, p.y_square, o); },
        scratch.sub("cg"));
  }
  SECTION("preconditioned cg, complex float") {
    const Problem<std::complex<float>> c(30);
    using C = std::complex<float>;
    CgOptions<Array<C>> options;
    options.preconditioner =
        dense_operator<Array<C>>(hpd_matrix<C>(30, 9), c.square_layout, c.square_layout);
    check_bitwise_resume(
        options, [&](const auto& o) { return cg(c.hpd, c.y_square, o); }, scratch.sub("pcg"));
  }
  SECTION("cgls with x0 and damping") {
    CglsOptions<Array<double>> options;
    options.damp = 0.2;
    check_bitwise_resume(
        options, [&](const auto& o) { return cgls(p.tall, p.y_tall, p.y_square, o); },
        scratch.sub("cgls"));
  }
  SECTION("cgls on a stacked operator") {
    const auto stacked = StackedVStack({p.tall, p.hpd});
    StackedDistributedArray<double> y(stacked.range());
    fill_random(y, 5);
    check_bitwise_resume(
        CglsOptions<Array<double>>{}, [&](const auto& o) { return cgls(stacked, y, o); },
        scratch.sub("stacked"));
  }
  SECTION("lsqr") {
    LsqrOptions<Array<double>> options;
    options.atol = options.btol = options.conlim = 0;
    check_bitwise_resume(
        options, [&](const auto& o) { return lsqr(p.tall, p.y_tall, o); }, scratch.sub("lsqr"));
  }
  SECTION("ista and fista") {
    IstaOptions<Array<double>> options;
    options.tol = 0;
    options.eps = 0.2;
    options.threshold = ThresholdKind::half;
    check_bitwise_resume(
        options, [&](const auto& o) { return ista(p.tall, p.y_tall, o); }, scratch.sub("ista"));
    check_bitwise_resume(
        options, [&](const auto& o) { return fista(p.tall, p.y_tall, o); }, scratch.sub("fista"));
  }
}

TEST_CASE("mismatched or corrupt checkpoints fail on every rank", "[solvers][checkpoint][errors]") {
  const Communicator comm = world();
  const ScratchDirectory scratch;
  const Problem<double> p(20);
  CgOptions<Array<double>> save;
  save.niter = 4;
  save.checkpoint.directory = scratch.sub("cg");
  save.checkpoint.every = 2;
  (void)cg(p.hpd, p.y_square, save);
  CgOptions<Array<double>> resume;
  resume.niter = 8;
  resume.checkpoint.directory = save.checkpoint.directory;
  resume.checkpoint.resume = true;
  CHECK(cg(p.hpd, p.y_square, resume).resumed_from == 4);

  auto message_of = [](auto&& run) -> std::string {
    try {
      run();
    } catch (const Error& error) {
      return error.what();
    }
    return "no exception";
  };
  // Another solver.
  CglsOptions<Array<double>> cgls_resume;
  cgls_resume.checkpoint = resume.checkpoint;
  CHECK_THROWS_AS(cgls(p.hpd, p.y_square, cgls_resume), InvalidArgument);
  CHECK(message_of([&] { (void)cgls(p.hpd, p.y_square, cgls_resume); }).find("solver cg") !=
        std::string::npos);
  // Other sizes.
  const Problem<double> larger(21);
  CHECK_THROWS_AS(cg(larger.hpd, larger.y_square, resume), ShapeMismatch);
  // Another scalar type.
  const Problem<float> single(20);
  CgOptions<Array<float>> float_resume;
  float_resume.checkpoint = resume.checkpoint;
  CHECK_THROWS_AS(cg(single.hpd, single.y_square, float_resume), InvalidArgument);
  // Other parameters: a checkpoint of plain CG resumed with a preconditioner.
  auto preconditioned = resume;
  preconditioned.preconditioner = 2.0 * p.hpd;
  CHECK_THROWS_AS(cg(p.hpd, p.y_square, preconditioned), InvalidArgument);
  // No checkpoint there.
  auto missing = resume;
  missing.checkpoint.directory = scratch.sub("nothing");
  CHECK_THROWS_AS(cg(p.hpd, p.y_square, missing), IoError);
  // Another rank count: the first size - 1 ranks write, all ranks resume.
  if (comm.size() > 1) {
    const bool writer = comm.rank() < comm.size() - 1;
    const Communicator part = comm.split(writer ? 0 : 1, comm.rank());
    if (writer) {
      const Problem<double> q(20, part);
      auto fewer = save;
      fewer.checkpoint.directory = scratch.sub("fewer");
      (void)cg(q.hpd, q.y_square, fewer);
    }
    comm.barrier();
    auto more = resume;
    more.checkpoint.directory = scratch.sub("fewer");
    const std::string text = message_of([&] { (void)cg(p.hpd, p.y_square, more); });
    CHECK(text.find("rank(s), this run has " + std::to_string(comm.size())) != std::string::npos);
  }
  // A corrupt file: one byte of rank 0's state flipped.
  if (comm.rank() == 0) {
    // The current generation is the one resumed above (4 iterations, two saves): g2.
    const std::string path = resume.checkpoint.directory + "/checkpoint.g2.rank0.bin";
    REQUIRE(std::filesystem::exists(path));
    std::fstream file(path, std::ios::in | std::ios::out | std::ios::binary);
    file.seekg(-20, std::ios::end);
    char byte = 0;
    file.read(&byte, 1);
    byte = static_cast<char>(byte ^ 0x10);
    file.seekp(-20, std::ios::end);
    file.write(&byte, 1);
  }
  comm.barrier();
  const std::string text = message_of([&] { (void)cg(p.hpd, p.y_square, resume); });
  CHECK(text.find("checksum") != std::string::npos);
  CHECK_THROWS_AS(cg(p.hpd, p.y_square, resume), IoError);
  // Nothing was left behind by the successful saves but the manifest and the current
  // generation's files, one per rank.
  if (comm.rank() == 0) {
    int files = 0;
    for (const auto& entry : std::filesystem::directory_iterator(save.checkpoint.directory)) {
      const std::string name = entry.path().filename().string();
      if (name == "checkpoint.current") continue;
      CHECK(name.starts_with("checkpoint.g2.rank"));
      CHECK(entry.path().extension() == ".bin");
      ++files;
    }
    CHECK(files == comm.size());
  }
}

TEST_CASE("the callback sees every iteration and its stop is agreed by all ranks",
          "[solvers][callback]") {
  const Communicator comm = world();
  const Problem<double> p(20);
  std::vector<int> seen;
  std::vector<double> residuals;
  CglsOptions<Array<double>> options;
  options.niter = 7;
  options.callback = [&](int iteration, const Array<double>&, double residual_norm, double) {
    seen.push_back(iteration);
    residuals.push_back(residual_norm);
    return CallbackAction::proceed;
  };
  const auto result = cgls(p.tall, p.y_tall, options);
  CHECK(seen == std::vector<int>{1, 2, 3, 4, 5, 6, 7});
  CHECK(bitwise_equal(residuals, std::vector<double>(result.residual_norms.begin() + 1,
                                                     result.residual_norms.end())));
  // Only the last rank asks to stop, at iteration 3: every rank stops there.
  options.callback = [&](int iteration, const Array<double>&, double, double) {
    return comm.rank() == comm.size() - 1 && iteration == 3 ? CallbackAction::stop
                                                            : CallbackAction::proceed;
  };
  const auto stopped = cgls(p.tall, p.y_tall, options);
  CHECK(stopped.reason == StopReason::callback);
  CHECK(stopped.iterations == 3);
  CHECK(stopped.costs.size() == 4);
  // A callback that throws on one rank: every rank raises its error.
  options.callback = [&](int iteration, const Array<double>&, double, double) {
    if (comm.rank() == comm.size() - 1 && iteration == 2) throw InvalidArgument("user failure");
    return CallbackAction::proceed;
  };
  // The message names the rank that raised where other ranks did not.
  const std::string where =
      comm.size() > 1 ? " (raised on rank " + std::to_string(comm.size() - 1) + ")" : "";
  CHECK_THROWS_WITH(cgls(p.tall, p.y_tall, options), "user failure" + where);
  // A callback on some ranks only is a mismatch of the options.
  if (comm.size() > 1) {
    LsqrOptions<Array<double>> partial;
    if (comm.rank() == 0) {
      partial.callback = [](int, const Array<double>&, double, double) {
        return CallbackAction::proceed;
      };
    }
    CHECK_THROWS_AS(lsqr(p.tall, p.y_tall, partial), InvalidArgument);
  }
}

/// A callback that throws InvalidArgument("user failure") at iteration 2 on the last rank only.
SolverCallback<Array<double>> throws_on_last_rank(const Communicator& comm) {
  return [comm](int iteration, const Array<double>&, double, double) {
    if (comm.rank() == comm.size() - 1 && iteration == 2) throw InvalidArgument("user failure");
    return CallbackAction::proceed;
  };
}

/// Runs `solve`, which must raise InvalidArgument with exactly `expected` on this rank, and
/// checks that every rank is still in step afterwards.
template <class Solve>
void expect_callback_error(const Communicator& comm, const char* solver, Solve&& solve,
                           const std::string& expected) {
  INFO(solver << " at " << comm.size() << " rank(s), rank " << comm.rank());
  bool raised = false;
  try {
    (void)solve();
  } catch (const InvalidArgument& error) {
    raised = true;
    CHECK(std::string(error.what()) == expected);
  }
  CHECK(raised);
  expect_in_step(comm);
}

TEST_CASE("a callback that throws on one rank ends every solver with its error on every rank",
          "[solvers][callback][errors]") {
  const Communicator comm = world();
  const Problem<double> p(20);
  // The message names the rank that raised where other ranks did not.
  const std::string expected =
      "user failure" +
      (comm.size() > 1 ? " (raised on rank " + std::to_string(comm.size() - 1) + ")" : "");
  CgOptions<Array<double>> cg_options;
  cg_options.niter = 5;
  cg_options.callback = throws_on_last_rank(comm);
  expect_callback_error(
      comm, "cg", [&] { return cg(p.hpd, p.y_square, cg_options); }, expected);
  CglsOptions<Array<double>> cgls_options;
  cgls_options.niter = 5;
  cgls_options.damp = 0.5;
  cgls_options.callback = throws_on_last_rank(comm);
  expect_callback_error(
      comm, "cgls", [&] { return cgls(p.tall, p.y_tall, cgls_options); }, expected);
  LsqrOptions<Array<double>> lsqr_options;
  lsqr_options.niter = 5;
  lsqr_options.callback = throws_on_last_rank(comm);
  expect_callback_error(
      comm, "lsqr", [&] { return lsqr(p.tall, p.y_tall, lsqr_options); }, expected);
  IstaOptions<Array<double>> ista_options;
  ista_options.niter = 5;
  ista_options.callback = throws_on_last_rank(comm);
  expect_callback_error(
      comm, "ista", [&] { return ista(p.tall, p.y_tall, ista_options); }, expected);
  expect_callback_error(
      comm, "fista", [&] { return fista(p.tall, p.y_tall, ista_options); }, expected);

  // Thrown on every rank, each with its own message: rank 0's, without a rank named.
  cg_options.callback = [comm](int iteration, const Array<double>&, double, double) {
    if (iteration == 3) throw InvalidArgument("failure on rank " + std::to_string(comm.rank()));
    return CallbackAction::proceed;
  };
  expect_callback_error(
      comm, "cg, every rank", [&] { return cg(p.hpd, p.y_square, cg_options); },
      "failure on rank 0");

  // Not a distlops::Error: raised as distlops::Error with the same text on every rank.
  cg_options.callback = [comm](int iteration, const Array<double>&, double, double) {
    if (comm.rank() == 0 && iteration == 1) throw std::runtime_error("plain failure");
    return CallbackAction::proceed;
  };
  const std::string plain =
      "plain failure" + std::string(comm.size() > 1 ? " (raised on rank 0)" : "");
  bool raised = false;
  try {
    (void)cg(p.hpd, p.y_square, cg_options);
  } catch (const Error& error) {
    raised = true;
    CHECK(std::string(error.what()) == plain);
  }
  CHECK(raised);
  expect_in_step(comm);
}

TEST_CASE("the progress table is printed by rank 0 only", "[solvers][progress]") {
  const Communicator comm = world();
  const Problem<double> p(20);
  std::ostringstream out;
  CgOptions<Array<double>> options;
  options.niter = 25;
  options.progress.show = true;
  options.progress.stream = &out;
  options.progress.first = 2;
  options.progress.last = 2;
  options.progress.every = 10;
  (void)cg(p.hpd, p.y_square, options);
  const std::string text = out.str();
  if (comm.rank() != 0) {
    CHECK(text.empty());
    return;
  }
  INFO(text);
  CHECK(text.rfind("CG\n", 0) == 0);
  CHECK(text.find("The operator has 20 rows and 20 cols (" + std::to_string(comm.size())) !=
        std::string::npos);
  CHECK(text.find("tol = 0.000000e+00") != std::string::npos);
  CHECK(text.find("niter = 25") != std::string::npos);
  CHECK(text.find("x[0]") != std::string::npos);
  CHECK(text.find("r2norm") != std::string::npos);
  std::vector<int> rows;
  std::istringstream lines(text);
  for (std::string line; std::getline(lines, line);) {
    int iteration = 0;
    char rest = 0;
    if (std::sscanf(line.c_str(), "%d %c", &iteration, &rest) == 2 && line.size() > 6 &&
        line[5] != ' ')
      rows.push_back(iteration);
  }
  CHECK(rows == std::vector<int>{0, 1, 2, 10, 20, 24, 25});
  CHECK(text.find("Stopped after 25 iteration(s): maximum number of iterations reached") !=
        std::string::npos);
  CHECK(text.find("Total time (s) = ") != std::string::npos);
}

TEST_CASE("work vectors are allocated once, whatever the number of iterations",
          "[solvers][allocation]") {
  const Problem<double> p(40);
  auto count = [](auto&& solve, int niter) {
    solve(niter);  // first use: operator workspaces
    const std::uint64_t before = memory::allocation_count();
    solve(niter);
    return memory::allocation_count() - before;
  };
  auto check = [&](auto&& solve) {
    const std::uint64_t few = count(solve, 3);
    const std::uint64_t many = count(solve, 30);
    CHECK(few == many);
    CHECK(few > 0);
  };
  check([&](int n) {
    CgOptions<Array<double>> o;
    o.niter = n;
    return cg(p.hpd, p.y_square, o).iterations;
  });
  check([&](int n) {
    CgOptions<Array<double>> o;
    o.niter = n;
    o.preconditioner = 0.5 * p.hpd;
    return cg(p.hpd, p.y_square, o).iterations;
  });
  check([&](int n) {
    CglsOptions<Array<double>> o;
    o.niter = n;
    o.damp = 0.1;
    return cgls(p.tall, p.y_tall, o).iterations;
  });
  check([&](int n) {
    LsqrOptions<Array<double>> o;
    o.niter = n;
    o.atol = o.btol = o.conlim = 0;
    return lsqr(p.tall, p.y_tall, o).iterations;
  });
  for (const bool accelerated : {false, true}) {
    check([&](int n) {
      IstaOptions<Array<double>> o;
      o.niter = n;
      o.tol = 0;
      o.sop = 2.0 * identity<Array<double>>(p.square_layout);
      return (accelerated ? fista(p.tall, p.y_tall, o) : ista(p.tall, p.y_tall, o)).iterations;
    });
  }
}
