// SPDX-License-Identifier: BSD-3-Clause
// Copyright (c) 2026 The distlops authors
// The two halves of the crash-safety test that checkpoint_crash.py drives: "[.crash-save]"
// writes a .npy file and checkpoints while DISTLOPS_CRASH_AT kills the job at one commit point;
// (or DISTLOPS_KILL_AT_ITERATION kills one rank with SIGKILL between two checkpoints, while the
// others wait in the solver's collectives); "[.crash-resume]" then proves that what the killed job
// left is usable: the .npy file holds exactly the old or the new content, and the solver resumes
// from the checkpoint the driver expects and reaches the uninterrupted run's iterate bit for bit.
#include <csignal>
#include <cstdlib>
#include <cstring>
#include <string>

#include "distlops/io/npy.hpp"
#include "solver_test_support.hpp"

using namespace distlops;
using namespace distlops::testing;

namespace {

std::string environment(const char* name) {
  const char* value = std::getenv(name);
  REQUIRE(value != nullptr);
  return value;
}

constexpr Index n = 23;  // uneven over 2, 3 and 4 ranks
constexpr int total_iterations = 15;

struct Problem {
  Problem()
      : layout(world(), {n}),
        op(dense_operator<Array<double>>(hpd_matrix<double>(n, 1), layout, layout)),
        y(layout) {
    fill_random(y, 7);
  }
  Layout layout;
  LinearOperator<double> op;
  Array<double> y;
};

/// The content of the .npy file before (seed 1) and after (seed 2) the second write.
Array<double> npy_content(const Layout& layout, unsigned seed) {
  Array<double> a(layout);
  fill_random(a, seed);
  return a;
}

std::vector<double> values_of(const Array<double>& a) {
  const DenseVector<double> global = global_vector(a);
  return std::vector<double>(global.data(), global.data() + global.size());
}

}  // namespace

TEST_CASE("a job killed while writing: the saving half", "[.crash-save]") {
  const std::string directory = environment("DISTLOPS_CRASH_DIR");
  const Problem p;
  io::write_npy(directory + "/x.npy", npy_content(p.layout, 1));
  CgOptions<Array<double>> options;
  options.niter = 9;  // saves at 3, 6 and 9
  options.checkpoint.directory = directory + "/checkpoints";
  options.checkpoint.every = 3;
  if (const char* kill_at = std::getenv("DISTLOPS_KILL_AT_ITERATION")) {
    const int iteration = std::stoi(kill_at);
    const int victim = std::stoi(environment("DISTLOPS_KILL_RANK"));
    const int rank = world().rank();
    options.callback = [=](int k, const Array<double>&, double, double) {
      if (k == iteration && rank == victim) std::raise(SIGKILL);
      return CallbackAction::proceed;
    };
  }
  (void)cg(p.op, p.y, options);
  io::write_npy(directory + "/x.npy", npy_content(p.layout, 2));
}

TEST_CASE("a job killed while writing: the resuming half", "[.crash-resume]") {
  const std::string directory = environment("DISTLOPS_CRASH_DIR");
  const int expected_iteration = std::stoi(environment("DISTLOPS_CRASH_EXPECT_ITERATION"));
  const unsigned expected_seed =
      static_cast<unsigned>(std::stoi(environment("DISTLOPS_CRASH_EXPECT_NPY_SEED")));
  const Problem p;

  const Array<double> file = io::read_npy<double>(directory + "/x.npy", p.layout);
  CHECK(values_of(file) == values_of(npy_content(p.layout, expected_seed)));

  CgOptions<Array<double>> full;
  full.niter = total_iterations;
  const auto uninterrupted = cg(p.op, p.y, full);
  CgOptions<Array<double>> resume = full;
  resume.checkpoint.directory = directory + "/checkpoints";
  resume.checkpoint.resume = true;
  const auto resumed = cg(p.op, p.y, resume);
  CHECK(resumed.resumed_from == expected_iteration);
  CHECK(resumed.iterations == total_iterations);
  CHECK(values_of(resumed.x) == values_of(uninterrupted.x));
  CHECK(resumed.residual_norms == uninterrupted.residual_norms);
}
