// SPDX-License-Identifier: BSD-3-Clause
// Copyright (c) 2026 The distlops authors
// distlops_bench: runs the benchmark cases under MPI and reports, for each, the median wall
// time of the slowest rank, the time per iteration or apply, the bytes the case must move and
// the bandwidth that implies, as a fraction of the machine's triad bandwidth measured by the
// same ranks (after the cases), the peak memory of every rank and check values.
//
//   mpiexec -n 2 distlops_bench [--cases a,b] [--repeats N] [--warmup N] [--set key=value]...
//                               [--json file] [--triad-elements N] [--no-triad] [--list] [--check]
//                               [--space host|cuda] [--copy-elements N]
//
// --check compares every case's check values with independent expectations (see each case)
// and exits with status 1 when one fails: the ctests run it on small sizes.
// With --space cuda the cases that have a device variant (device_cases.cpp) run on device
// arrays; their bandwidth is the device's, and the reference they are compared with is the
// device-to-device copy bandwidth measured by the same ranks after the cases (--copy-elements
// doubles per rank and array, default 2^25; --no-triad skips it too) instead of the host triad.
#include <algorithm>
#include <fstream>
#include <iostream>
#include <set>
#include <sstream>

#include "cases.hpp"
#include "device_cases.hpp"

using namespace distlops;
using namespace distlops::bench;

namespace {

struct Options {
  std::set<std::string> cases;
  int repeats = -1;
  int warmup = 1;
  std::map<std::string, std::string> parameters;
  std::string json_path;
  Index triad_elements = Index(1) << 24;
  // 256 MiB per array: five times the largest L2 cache of current GPUs (H100: 50 MB).
  Index copy_elements = Index(1) << 25;
  bool triad = true;
  bool list = false;
  bool check = false;
  std::string space = "host";
};

Options parse(int argc, char** argv) {
  Options options;
  for (int i = 1; i < argc; ++i) {
    const std::string argument = argv[i];
    auto value = [&]() -> std::string {
      if (i + 1 >= argc) throw InvalidArgument("distlops_bench: " + argument + " needs a value");
      return argv[++i];
    };
    if (argument == "--cases") {
      std::stringstream list(value());
      for (std::string name; std::getline(list, name, ',');)
        options.cases.insert(name);
    } else if (argument == "--repeats") {
      options.repeats = std::stoi(value());
    } else if (argument == "--warmup") {
      options.warmup = std::stoi(value());
    } else if (argument == "--set") {
      const std::string pair = value();
      const auto equals = pair.find('=');
      if (equals == std::string::npos)
        throw InvalidArgument("distlops_bench: --set expects key=value, got " + pair);
      options.parameters[pair.substr(0, equals)] = pair.substr(equals + 1);
    } else if (argument == "--json") {
      options.json_path = value();
    } else if (argument == "--triad-elements") {
      options.triad_elements = std::stoll(value());
    } else if (argument == "--copy-elements") {
      options.copy_elements = std::stoll(value());
    } else if (argument == "--no-triad") {
      options.triad = false;
    } else if (argument == "--space") {
      options.space = value();
      if (options.space != "host" && options.space != "cuda")
        throw InvalidArgument("--space expects host or cuda, got " + options.space);
    } else if (argument == "--list") {
      options.list = true;
    } else if (argument == "--check") {
      options.check = true;
    } else {
      throw InvalidArgument("distlops_bench: unknown argument " + argument);
    }
  }
  return options;
}

}  // namespace

int main(int argc, char** argv) {
  Environment environment(argc, argv);
  const Communicator comm = Communicator::world();
  const bool root = comm.rank() == 0;
  try {
    const Options options = parse(argc, argv);
    // --space cuda: the cases with a device variant, timed until the device is idle.
    const bool device = options.space == "cuda";
    if (device && (!cuda_built() || cuda_device_count() == 0)) {
      throw InvalidArgument(cuda_built() ? "--space cuda, but no CUDA device is visible"
                                         : "--space cuda needs a build with the CUDA backend");
    }
    const std::vector<Case> cases = device ? device_cases() : all_cases();
    if (options.list) {
      if (root) {
        for (const Case& c : cases)
          std::cout << c.name << ": " << c.description << "\n";
      }
      return 0;
    }
    for (const std::string& name : options.cases) {
      if (std::none_of(cases.begin(), cases.end(), [&](const Case& c) { return c.name == name; })) {
        throw InvalidArgument("distlops_bench: unknown case " + name + " in space " +
                              options.space + " (see --list)");
      }
    }
    std::vector<Result> results;
    for (const Case& c : cases) {
      if (!options.cases.empty() && !options.cases.count(c.name)) continue;
      const Parameters parameters(options.parameters);
      Run run = c.setup(comm, parameters);
      const int repeats = options.repeats > 0 ? options.repeats : run.default_repeats;
      Result result = measure(comm, c.name, parameters, std::move(run), options.warmup, repeats,
                              0.0, options.check);
      if (root) {
        for (const std::string& failure : result.failures)
          std::cerr << "distlops_bench: check failed: " << c.name << ": " << failure << "\n";
      }
      results.push_back(std::move(result));
    }
    // The reference runs after the cases so that its arrays do not set the peak memory they
    // report. The host triad says nothing about device bandwidth: with --space cuda the
    // reference is the device's copy bandwidth.
    Reference reference;
    if (device) reference.name = "device-copy";
    if (options.triad) {
      reference.bytes_per_second = device ? device_copy_bandwidth(comm, options.copy_elements, 10)
                                          : triad_bandwidth(comm, options.triad_elements, 10);
    }
    std::ofstream json;
    if (root && !options.json_path.empty()) json.open(options.json_path);
    for (Result& result : results) {
      const double fraction =
          reference.bytes_per_second > 0 ? result.bandwidth / reference.bytes_per_second : 0;
      result.fraction_of_triad = device ? 0 : fraction;
      result.fraction_of_reference = fraction;
      if (root) {
        print_json(std::cout, result, reference);
        if (json) print_json(json, result, reference);
      }
    }
    if (root) print_table(std::cout, results, reference);
    if (options.check) {
      const bool failed = std::any_of(results.begin(), results.end(),
                                      [](const Result& r) { return !r.failures.empty(); });
      if (root) std::cout << (failed ? "checks FAILED\n" : "checks passed\n");
      if (failed) return 1;
    }
  } catch (const std::exception& error) {
    if (root) std::cerr << "distlops_bench: " << error.what() << "\n";
    return 1;
  }
  return 0;
}
