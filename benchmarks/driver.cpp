// SPDX-License-Identifier: BSD-3-Clause
// Copyright (c) 2026 The distlops authors
// distlops_bench: runs the benchmark cases under MPI and reports, for each, the median wall
// time of the slowest rank, the time per iteration or apply, the bytes the case must move and
// the bandwidth that implies, as a fraction of the machine's triad bandwidth measured by the
// same ranks (after the cases), the peak memory of every rank and check values.
//
//   mpiexec -n 2 distlops_bench [--cases a,b] [--repeats N] [--warmup N] [--rounds N]
//                               [--set key=value]... [--json file] [--triad-elements N]
//                               [--no-triad] [--list] [--check] [--space host|cuda]
//                               [--copy-elements N] [--sweep] [--stores auto|cached|streaming]
//                               [--no-communication] [--help]
//
// Options are parsed by CLI11 on every rank (examples/support/command_line.hpp): a bad option
// gives the same message (printed once by rank 0) and the same exit status on every rank. --rounds
// N runs the selected cases N times in turn (each round sets every case up again) and reports the
// median and the least of the per-round medians, so that a load that comes and goes shows as a gap
// between the two rather than moving one figure. --sweep runs laplacian-cg and
// firstderivative at 256^2 .. 4096^2 and blockdiag-cgls at n = 500 .. 4000 and adds a table of
// the time per unknown and the fraction of the triad at each size (plot_sweep.py draws it).
//
// After its timed repeats every case runs once more, untimed, with the event log recording
// (core/log_view.hpp): the messages and bytes each rank sends per unit and the collectives it
// calls go into a second table and the JSON lines' "communication" (--no-communication skips
// that repeat), so that performance models and simulations read the code's own counts.
//
// --check compares every case's check values with independent expectations (see each case)
// and exits with status 1 when one fails: the ctests run it on small sizes.
//
// Nothing is lost to a mistake: every --set is checked against the keys the selected cases
// read (case_keys.cpp) and the --json file and the directories of --set are checked before any
// case runs; each case's JSON line is written as its round ends (report_file.hpp). The exit
// statuses are those of the examples (examples/support/exit_statuses.txt, printed by --help).
// With --space cuda the cases that have a device variant (device_cases.cpp) run on device
// arrays; their bandwidth is the device's, and the reference they are compared with is the
// device-to-device copy bandwidth measured by the same ranks after the cases (--copy-elements
// doubles per rank and array, default 2^25; --no-triad skips it too) instead of the host triad.
#include <algorithm>
#include <iostream>
#include <limits>
#include <set>

#include "cases.hpp"
#include "device_cases.hpp"
#include "report_file.hpp"
#include "support/command_line.hpp"
#include "support/outputs.hpp"

using namespace distlops;
using namespace distlops::bench;

namespace {

struct Options {
  std::vector<std::string> cases;
  int repeats = -1;
  int warmup = 1;
  int rounds = 1;
  std::vector<std::string> sets;
  std::map<std::string, std::string> parameters;
  std::string json_path;
  Index triad_elements = Index(1) << 24;
  // 256 MiB per array: five times the largest L2 cache of current GPUs (H100: 50 MB).
  Index copy_elements = Index(1) << 25;
  bool no_triad = false;
  bool no_communication = false;
  bool list = false;
  bool check = false;
  bool sweep = false;
  std::string space = "host";
  std::string stores = "auto";
};

// One measured configuration: a case and the parameters it runs with.
struct Point {
  const Case* c;
  std::map<std::string, std::string> parameters;
  double unknowns = 0;  // model unknowns over all ranks (0: not reported)
};

// --sweep: the sizes at which the caches end. The stencils on n x n arrays from 256^2 (2 MiB
// per vector, inside L2 + L3) to 4096^2 (128 MiB), the dense blocks from 500^2 (2 MB, in L3) to
// 4000^2 (128 MB per rank).
std::vector<Point> sweep_points(const std::vector<Case>& cases,
                                const std::map<std::string, std::string>& given, int ranks) {
  std::vector<Point> points;
  auto find = [&](const std::string& name) -> const Case* {
    for (const Case& c : cases) {
      if (c.name == name) return &c;
    }
    return nullptr;
  };
  for (const char* name : {"laplacian-cg", "firstderivative"}) {
    const Case* c = find(name);
    if (!c) continue;
    for (Index n : {256, 512, 1024, 2048, 4096}) {
      auto parameters = given;
      parameters["nx"] = parameters["ny"] = std::to_string(n);
      points.push_back({c, parameters, double(n) * double(n)});
    }
  }
  if (const Case* c = find("blockdiag-cgls")) {
    for (Index n : {500, 1000, 2000, 3000, 4000}) {
      auto parameters = given;
      parameters["n"] = std::to_string(n);
      points.push_back({c, parameters, double(n) * ranks});
    }
  }
  return points;
}

void add_options(examples::CommandLine& line, Options& o) {
  line.option("--cases", o.cases,
              "run only these cases (comma-separated; default: all but those marked on request in "
              "--list)")
      .delimiter(',');
  line.option("--repeats", o.repeats, "timed repeats per round (default: the case's own)")
      .positive();
  line.option("--warmup", o.warmup, "untimed repeats before the timed ones").non_negative();
  line.option("--rounds", o.rounds, "run the selected cases this many times in turn").positive();
  line.option("--set", o.sets,
              "override a size or count: key=value (repeatable; --list gives each case's keys)")
      .one_value_each_time();
  line.option("--json", o.json_path,
              "also write the JSON lines to this file (its folder must exist): a line as each "
              "case ends a round, replaced by the merged lines at the end");
  line.option("--triad-elements", o.triad_elements, "triad array length per rank").positive();
  line.option("--copy-elements", o.copy_elements,
              "device copy array length per rank (--space cuda)")
      .positive();
  line.flag("--no-triad", o.no_triad, "measure no reference bandwidth");
  line.flag("--no-communication", o.no_communication,
            "skip the untimed repeat that counts each case's messages, bytes and collectives");
  line.flag("--list", o.list, "list the cases and exit");
  line.flag("--check", o.check, "verify the check values; exit 1 on a mismatch");
  line.flag("--sweep", o.sweep,
            "laplacian-cg and firstderivative at 256^2 .. 4096^2, blockdiag-cgls at n = 500 .. "
            "4000 (--cases selects among them)");
  line.option("--space", o.space, "memory space of the cases").one_of({"host", "cuda"});
  line.option("--stores", o.stores,
              "how host stencils write large outputs: auto (streaming above the threshold), "
              "cached, streaming")
      .one_of({"auto", "cached", "streaming"});
}

// key=value pairs of --set, in order (a later value of a key wins).
std::map<std::string, std::string> parse_sets(const std::vector<std::string>& sets) {
  std::map<std::string, std::string> parameters;
  for (const std::string& pair : sets) {
    const auto equals = pair.find('=');
    if (equals == std::string::npos || equals == 0) {
      throw examples::ExitError(examples::exit_status::usage,
                                "--set expects key=value, got " + pair);
    }
    parameters[pair.substr(0, equals)] = pair.substr(equals + 1);
  }
  return parameters;
}

}  // namespace

int main(int argc, char** argv) {
  Environment environment(argc, argv);
  const Communicator comm = Communicator::world();
  const bool root = comm.rank() == 0;
  Options options;
  examples::CommandLine line("distlops_bench: the benchmark cases of docs/benchmarks.md under MPI");
  add_options(line, options);
  if (const auto status = line.parse(argc, argv, comm)) return *status;
  try {
    options.parameters = parse_sets(options.sets);
    // auto keeps the library's threshold; the others move it beyond or below every output.
    if (options.stores == "cached") {
      kernels::set_streaming_threshold_bytes(std::numeric_limits<std::size_t>::max());
    } else if (options.stores == "streaming") {
      kernels::set_streaming_threshold_bytes(1);
    }
    // --space cuda: the cases with a device variant, timed until the device is idle.
    const bool device = options.space == "cuda";
    if (device &&
        (!cuda_built() || comm.allreduce(cuda_device_count() == 0 ? 1 : 0, ReduceOp::max) != 0)) {
      throw examples::ExitError(examples::exit_status::unavailable,
                                cuda_built() ? "--space cuda, but a rank sees no CUDA device"
                                             : "--space cuda needs a build with the CUDA backend");
    }
    const std::vector<Case> cases = device ? device_cases() : all_cases();
    if (options.list) {
      if (root) {
        for (const Case& c : cases) {
          std::cout << c.name << ": " << c.description
                    << (c.on_request ? " (only when --cases names it)" : "")
                    << (c.min_ranks > 1 ? " (" + std::to_string(c.min_ranks) + " ranks or more)"
                                        : std::string())
                    << "\n";
          for (const Key& key : case_keys(c.name, device))
            std::cout << "    --set " << describe(key) << "\n";
        }
        std::cout << "every case: --set " << describe(label_key()) << "\n";
      }
      return 0;
    }
    for (const std::string& name : options.cases) {
      if (std::none_of(cases.begin(), cases.end(), [&](const Case& c) { return c.name == name; })) {
        throw examples::ExitError(
            examples::exit_status::usage,
            "unknown case " + name + " in space " + options.space + " (see --list)");
      }
    }
    const std::set<std::string> selected(options.cases.begin(), options.cases.end());
    for (const Case& c : cases) {
      if (selected.count(c.name) && c.min_ranks > comm.size()) {
        throw examples::ExitError(examples::exit_status::usage,
                                  c.name + " needs at least " + std::to_string(c.min_ranks) +
                                      " ranks, this run has " + std::to_string(comm.size()));
      }
    }
    std::vector<Point> chosen;
    if (options.sweep) {
      for (Point& point : sweep_points(cases, options.parameters, comm.size())) {
        if (selected.empty() || selected.count(point.c->name)) chosen.push_back(std::move(point));
      }
      if (chosen.empty()) {
        throw examples::ExitError(examples::exit_status::usage,
                                  "--sweep: none of the selected cases is swept");
      }
    } else {
      for (const Case& c : cases) {
        const bool wanted = selected.empty() ? !c.on_request : selected.count(c.name) > 0;
        if (wanted && c.min_ranks > comm.size()) {
          if (root) {
            std::cerr << "distlops_bench: " << c.name << " left out: it needs at least "
                      << c.min_ranks << " ranks\n";
          }
        } else if (wanted) {
          chosen.push_back({&c, options.parameters});
        }
      }
    }
    // Before any work: the --set keys and values, the directories they name, the --json file.
    std::vector<std::string> chosen_names;
    for (const Point& point : chosen)
      chosen_names.push_back(point.c->name);
    for (const auto& [key, directory] : check_settings(options.parameters, chosen_names, device))
      examples::prepare_output_directory("--set " + key + "=" + directory, directory, comm);
    ReportFile json(options.json_path, comm);
    // The reference is measured after the cases: partial lines name it without a figure.
    Reference reference;
    if (device) reference.name = "device-copy";
    std::vector<std::vector<Result>> rounds(chosen.size());
    for (int round = 0; round < options.rounds; ++round) {
      for (std::size_t i = 0; i < chosen.size(); ++i) {
        const Case& c = *chosen[i].c;
        const Parameters parameters(chosen[i].parameters, c.name, case_keys(c.name, device));
        Run run = c.setup(comm, parameters);
        const int repeats = options.repeats > 0 ? options.repeats : run.default_repeats;
        // The check values of the last round are verified (every round computes the same).
        const bool verify = options.check && round + 1 == options.rounds;
        Result result = measure(comm, c.name, parameters, std::move(run), options.warmup, repeats,
                                0.0, verify, !options.no_communication);
        if (root) {
          for (const std::string& failure : result.failures)
            std::cerr << "distlops_bench: check failed: " << c.name << ": " << failure << "\n";
        }
        result.unknowns = chosen[i].unknowns;
        result.round = round + 1;
        json.append(result, reference);
        result.round = 0;
        rounds[i].push_back(std::move(result));
      }
    }
    std::vector<Result> results;
    for (std::vector<Result>& case_rounds : rounds)
      results.push_back(merge_rounds(std::move(case_rounds)));
    // The reference runs after the cases so that its arrays do not set the peak memory they
    // report. The host triad says nothing about device bandwidth: with --space cuda the
    // reference is the device's copy bandwidth.
    if (!options.no_triad) {
      reference.bytes_per_second = device ? device_copy_bandwidth(comm, options.copy_elements, 10)
                                          : triad_bandwidth(comm, options.triad_elements, 10);
      if (!device) {
        reference.copy_bytes_per_second = copy_bandwidth(comm, options.triad_elements, 10, false);
        reference.copy_streaming_bytes_per_second =
            copy_bandwidth(comm, options.triad_elements, 10, true);
      }
    }
    for (Result& result : results) {
      const double fraction =
          reference.bytes_per_second > 0 ? result.bandwidth / reference.bytes_per_second : 0;
      result.fraction_of_triad = device ? 0 : fraction;
      result.fraction_of_reference = fraction;
      if (root) print_json(std::cout, result, reference);
    }
    json.finish(results, reference, comm);
    if (root) print_table(std::cout, results, reference);
    if (root) print_communication_table(std::cout, results);
    if (root && options.sweep) print_sweep_table(std::cout, results, reference);
    if (options.check) {
      const bool failed = std::any_of(results.begin(), results.end(),
                                      [](const Result& r) { return !r.failures.empty(); });
      if (root) std::cout << (failed ? "checks FAILED\n" : "checks passed\n");
      if (failed) return examples::exit_status::failure;
    }
  } catch (const examples::ExitError& error) {
    if (root) std::cerr << "distlops_bench: " << error.what() << "\n";
    return error.status();
  } catch (const std::exception& error) {
    if (root) std::cerr << "distlops_bench: " << error.what() << "\n";
    return examples::exit_status::failure;
  }
  return examples::exit_status::success;
}
