// SPDX-License-Identifier: BSD-3-Clause
// Copyright (c) 2026 The distlops authors
// The work of the several-host test (tests/hosts/several_hosts.sh): CG, CGLS on a stacked
// operator, a redistribution and a checkpoint, each reduced to a digest line of its exact
// results (a hash of the bytes of the gathered solution, the last cost as a hexadecimal float).
// The script runs it once on one host (shared memory) and once over TCP between network
// namespaces, and requires the same lines, bit for bit.
//
//   several_hosts --digest FILE [--checkpoint DIR] [--resume DIR]
//
// --checkpoint DIR: CGLS stops after `checkpoint_iteration` iterations, saving its state in DIR.
// --resume DIR: CGLS continues from the checkpoint in DIR to `stacked_iterations`, whose result
// must be that of the uninterrupted run, whatever launch and transport wrote the checkpoint.
// Each scenario also checks what it can on its own (CG and CGLS reduce their costs, the
// redistribution's round trip gives back its input, the resumed run starts where the checkpoint
// was written) and the program exits 1 on every rank when one fails. The first line names each
// rank's host (the processor name), which the script reads and leaves out of the comparison.
#include <mpi.h>

#include <complex>
#include <cstdint>
#include <cstdio>
#include <fstream>
#include <set>
#include <sstream>
#include <string>
#include <vector>

#include "distlops/distlops.hpp"

using namespace distlops;

namespace {

constexpr int cg_iterations = 30;
constexpr int stacked_iterations = 20;
constexpr int checkpoint_iteration = 8;

/// FNV-1a over the bytes of the values: equal digests mean equal bits (to the hash's odds).
template <class T>
std::string digest(const std::vector<T>& values) {
  std::uint64_t hash = 0xcbf29ce484222325ULL;
  const auto* bytes = reinterpret_cast<const unsigned char*>(values.data());
  for (std::size_t i = 0; i < values.size() * sizeof(T); ++i) {
    hash ^= bytes[i];
    hash *= 0x100000001b3ULL;
  }
  char text[32];
  std::snprintf(text, sizeof text, "%016llx", static_cast<unsigned long long>(hash));
  return text;
}

std::string hexfloat(double value) {
  char text[64];
  std::snprintf(text, sizeof text, "%a", value);
  return text;
}

/// The lines of the report and the failures of the scenarios' own checks.
struct Report {
  std::vector<std::string> lines;
  std::vector<std::string> failures;
  void require(bool ok, const std::string& what) {
    if (!ok) failures.push_back(what);
  }
};

std::string processor_names(const Communicator& comm) {
  char name[MPI_MAX_PROCESSOR_NAME] = {};
  int length = 0;
  MPI_Get_processor_name(name, &length);
  std::vector<char> mine(MPI_MAX_PROCESSOR_NAME, '\0');
  std::copy(name, name + length, mine.begin());
  std::vector<char> all(mine.size() * static_cast<std::size_t>(comm.size()));
  comm.allgather(mine.data(), Index(mine.size()), all.data());
  std::set<std::string> distinct;
  std::string names;
  for (int r = 0; r < comm.size(); ++r) {
    const std::string host(all.data() + std::size_t(r) * mine.size());
    distinct.insert(host);
    names += " " + host;
  }
  return "hosts " + std::to_string(distinct.size()) + ":" + names;
}

/// CG on -L, the 2-d Laplacian with weights -1 (positive semi-definite), of a (37, 29) model
/// split along axis 0: ghost planes between neighbours and the solver's reductions.
void cg_scenario(const Communicator& comm, Report& report) {
  const Layout layout(comm, {37, 29});
  const auto op = Laplacian<double>(layout, {.axes = {0, 1}, .weights = {-1.0, -1.0}});
  DistributedArray<double> x_true(layout);
  fill_random(x_true, 101);
  const DistributedArray<double> y = op.apply(x_true);
  CgOptions<DistributedArray<double>> options;
  options.niter = cg_iterations;
  options.tol = 0;
  const auto result = cg(op, y, options);
  report.require(result.iterations == cg_iterations, "cg stopped early");
  report.require(result.costs.back() < 1e-2 * result.costs.front(), "cg did not reduce its cost");
  report.lines.push_back("cg iterations=" + std::to_string(result.iterations) + " x=" +
                         digest(result.x.gather()) + " cost_last=" + hexfloat(result.costs.back()));
}

/// [D; 0.5 L] of a (41, 23) model split along axis 0: D the first derivative along axis 1, L
/// the 2-d Laplacian, as in the README's example.
struct StackedProblem {
  BasicLinearOperator<DistributedArray<double>, StackedDistributedArray<double>> op;
  StackedDistributedArray<double> y;
};

StackedProblem stacked_problem(const Communicator& comm) {
  const Layout layout(comm, {41, 23});
  const auto D = FirstDerivative<double>(layout, {.axis = 1});
  const auto L = Laplacian<double>(layout, {.axes = {0, 1}});
  StackedProblem problem{StackedVStack<double, Host>({D, 0.5 * L}), {}};
  DistributedArray<double> x_true(layout);
  fill_random(x_true, 103);
  problem.y = problem.op.apply(x_true);
  problem.y[1].fill(0.0);
  return problem;
}

std::string cgls_line(const std::string& name, const CglsResult<DistributedArray<double>>& result) {
  return name + " iterations=" + std::to_string(result.iterations) +
         " x=" + digest(result.x.gather()) + " cost_last=" + hexfloat(result.costs.back());
}

bool costs_decrease(const std::vector<double>& costs) {
  for (std::size_t k = 1; k < costs.size(); ++k) {
    if (costs[k] > costs[k - 1] * (1 + 1e-12)) return false;
  }
  return costs.back() < costs.front();
}

void cgls_scenario(const Communicator& comm, Report& report) {
  const StackedProblem problem = stacked_problem(comm);
  CglsOptions<DistributedArray<double>> options;
  options.niter = stacked_iterations;
  const auto result = cgls(problem.op, problem.y, options);
  report.require(result.iterations == stacked_iterations, "cgls stopped early");
  report.require(costs_decrease(result.costs), "cgls's cost did not decrease monotonically");
  report.lines.push_back(cgls_line("cgls-stacked", result));
}

/// A complex (41, 23) array with uneven rows (rank 1 owns none) to the default split along
/// axis 1 and back: the exchange's messages between every pair of ranks.
void redistribute_scenario(const Communicator& comm, Report& report) {
  const Index rows = 41;
  const int owners = comm.size() > 1 ? comm.size() - 1 : 1;
  std::vector<Shape> shapes;
  for (int r = 0, owner = 0; r < comm.size(); ++r) {
    const Index extent = r == 1 ? 0 : rows / owners + (owner++ < rows % owners ? 1 : 0);
    shapes.push_back(Shape{extent, 23});
  }
  const Layout by_rows(comm, {rows, 23}, LayoutOptions{.local_shapes = shapes});
  DistributedArray<std::complex<double>> a(by_rows);
  fill_random(a, 105);
  const DistributedArray<std::complex<double>> by_columns = a.redistribute(1);
  const DistributedArray<std::complex<double>> back = by_columns.redistribute(by_rows);
  const std::vector<std::complex<double>> original = a.gather();
  report.require(back.gather() == original, "redistribute's round trip changed the array");
  report.require(by_columns.gather() == original, "redistribute changed the global array");
  report.lines.push_back("redistribute rows=" + std::to_string(rows) +
                         " columns_local=" + std::to_string(by_columns.local_size()) +
                         " all=" + digest(by_columns.gather()));
}

/// CGLS on the stacked problem stopped at `checkpoint_iteration` with its state saved in
/// `directory`, or resumed from it to `stacked_iterations`.
void checkpoint_scenario(const Communicator& comm, const std::string& directory, bool resume,
                         Report& report) {
  const StackedProblem problem = stacked_problem(comm);
  CglsOptions<DistributedArray<double>> options;
  options.checkpoint.directory = directory;
  if (resume) {
    options.niter = stacked_iterations;
    options.checkpoint.resume = true;
  } else {
    options.niter = checkpoint_iteration;
    options.checkpoint.every = checkpoint_iteration;
  }
  const auto result = cgls(problem.op, problem.y, options);
  if (resume) {
    report.require(result.resumed_from == checkpoint_iteration,
                   "the resumed run did not start at the checkpoint's iteration");
    // The line of the uninterrupted run's name: the script compares it with cgls-stacked.
    report.lines.push_back(cgls_line("cgls-resumed", result));
  } else {
    report.lines.push_back(cgls_line("cgls-checkpointed", result));
  }
}

}  // namespace

int main(int argc, char** argv) {
  Environment environment(argc, argv);
  const Communicator comm = Communicator::world();
  std::string digest_path, checkpoint_directory;
  bool resume = false;
  for (int i = 1; i + 1 < argc; i += 2) {
    const std::string option = argv[i];
    if (option == "--digest") {
      digest_path = argv[i + 1];
    } else if (option == "--checkpoint") {
      checkpoint_directory = argv[i + 1];
    } else if (option == "--resume") {
      checkpoint_directory = argv[i + 1];
      resume = true;
    }
  }
  Report report;
  try {
    report.lines.push_back(processor_names(comm));
    cg_scenario(comm, report);
    cgls_scenario(comm, report);
    redistribute_scenario(comm, report);
    if (!checkpoint_directory.empty())
      checkpoint_scenario(comm, checkpoint_directory, resume, report);
  } catch (const std::exception& error) {
    report.failures.push_back(error.what());
  }
  // Every rank reaches the same verdict: the checks above ran on values every rank holds.
  const bool failed = comm.allreduce(report.failures.empty() ? 0 : 1, ReduceOp::max) != 0;
  if (comm.rank() == 0) {
    std::ostringstream text;
    for (const std::string& line : report.lines)
      text << line << "\n";
    std::fputs(text.str().c_str(), stdout);
    for (const std::string& failure : report.failures)
      std::fprintf(stderr, "several_hosts: %s\n", failure.c_str());
    if (!digest_path.empty()) std::ofstream(digest_path) << text.str();
  }
  return failed ? 1 : 0;
}
