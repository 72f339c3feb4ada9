// SPDX-License-Identifier: BSD-3-Clause
// Copyright (c) 2026 The distlops authors
// Catch2 main for MPI test programs: every rank runs the tests; rank 0 reports to the
// terminal, other ranks report to a file that is printed only if that rank saw a failure; all
// ranks exit with the same status (failure anywhere fails everywhere).
//
// `--space host` (the default) runs the test cases of the Host space and those written for no
// space; `--space cuda` runs the Cuda instances of the space-generic cases (spaces.hpp). The
// space is added to the test filters given as one more condition (of the last alternative of a
// ','-separated list). Where any rank sees no CUDA device, a Cuda run stops before running
// anything and every rank exits with 77, which CTest reports as Skipped (SKIP_RETURN_CODE,
// cmake/DistlopsTesting.cmake).
#define CATCH_CONFIG_RUNNER
#include <mpi.h>
#include <catch2/catch.hpp>

#include <unistd.h>

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <iostream>
#include <string>
#include <vector>

#include "distlops/core/environment.hpp"
#include "distlops/core/memory_space.hpp"

#if DISTLOPS_TEST_KEEP_MODULES_LOADED
// Sanitizer builds: shared objects are never unloaded. Open MPI opens its components with
// dlopen and closes them at finalize, before LeakSanitizer looks at what is still allocated;
// the allocations the components leave behind would then show frames of no module, which no
// suppression (tests/support/lsan.supp) can name. Kept loaded, they stay attributable to their
// mca_*.so, and the cheap frame-pointer unwinder suffices (five times faster than unwinding by
// DWARF at every allocation). The program exports this definition (cmake/DistlopsTesting.cmake),
// so it takes precedence over libc's for every library of the process.
extern "C" int dlclose(void*) {
  return 0;
}
#endif

namespace {

constexpr int skipped_exit_code = 77;

// Removes `--space <name>` or `--space=<name>` from the arguments; returns the name ("host"
// without one, "" when the option has no value).
std::string take_space(std::vector<char*>& arguments) {
  std::string space = "host";
  for (std::size_t i = 1; i < arguments.size(); ++i) {
    const std::string argument = arguments[i];
    if (argument == "--space") {
      space = i + 1 < arguments.size() ? arguments[i + 1] : "";
      arguments.erase(
          arguments.begin() + static_cast<std::ptrdiff_t>(i),
          arguments.begin() + static_cast<std::ptrdiff_t>(std::min(i + 2, arguments.size())));
      --i;
    } else if (argument.rfind("--space=", 0) == 0) {
      space = argument.substr(std::strlen("--space="));
      arguments.erase(arguments.begin() + static_cast<std::ptrdiff_t>(i));
      --i;
    }
  }
  return space;
}

}  // namespace

int main(int argc, char** argv) {
  distlops::Environment environment(argc, argv);
  int rank = 0;
  int size = 1;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);

  std::vector<char*> arguments(argv, argv + argc);
  const std::string space = take_space(arguments);
  if (space != "host" && space != "cuda") {
    if (rank == 0) std::cerr << "--space must be host or cuda, got '" << space << "'\n";
    return 2;
  }
  Catch::Session session;
  if (const int code =
          session.applyCommandLine(static_cast<int>(arguments.size()), arguments.data());
      code != 0)
    return code;
  Catch::ConfigData& config = session.configData();
#if CATCH_VERSION_MAJOR < 3
  const bool listing =
      config.listTests || config.listTestNamesOnly || config.listTags || config.listReporters;
#else
  const bool listing = config.listTests || config.listTags || config.listReporters;
#endif
  if (space == "cuda" && !listing && !config.showHelp) {
    // Every rank must see a device, or no rank runs: the cases are collective.
    int devices = distlops::cuda_device_count();
    int fewest = 0;
    MPI_Allreduce(&devices, &fewest, 1, MPI_INT, MPI_MIN, MPI_COMM_WORLD);
    if (fewest == 0) {
      if (rank == 0) {
        std::cout << "Skipped: a rank sees no CUDA device"
                  << (distlops::cuda_built() ? "" : " (built without the CUDA backend)") << "\n";
      }
      return skipped_exit_code;
    }
  }
  // Separate filter arguments are conditions of one filter in Catch2: both must hold. Without
  // filters the Cuda cases are hidden anyway, and a lone exclusion would also select the other
  // hidden cases.
  if (space == "cuda") {
    config.testsOrTags.push_back("[cuda]");
    // A program registered for the Cuda space must have Cuda cases: none run is a failure
    // (Catch2 v3's default).
#if CATCH_VERSION_MAJOR < 3
    config.warnings =
        static_cast<Catch::WarnAbout::What>(config.warnings | Catch::WarnAbout::NoTests);
#endif
  } else if (!config.testsOrTags.empty()) {
    config.testsOrTags.push_back("~[cuda]");
  }
  std::string report_file;
  if (rank != 0) {
    char name[] = "/tmp/distlops-test-XXXXXX";
    const int fd = mkstemp(name);
    if (fd >= 0) close(fd);
    report_file = name;
#if CATCH_VERSION_MAJOR < 3
    config.outputFilename = report_file;
#else
    config.defaultOutputFilename = report_file;
#endif
  }
  const int failures = session.run();

  int local_failed = failures != 0 ? 1 : 0;
  int any_failed = 0;
  MPI_Allreduce(&local_failed, &any_failed, 1, MPI_INT, MPI_MAX, MPI_COMM_WORLD);
  if (rank != 0) {
    if (local_failed) {
      std::ifstream report(report_file);
      std::cerr << "---- report of rank " << rank << " of " << size << " ----\n"
                << report.rdbuf() << "---- end of report of rank " << rank << " ----\n";
    }
    std::remove(report_file.c_str());
  } else if (any_failed && !local_failed) {
    std::cerr << "Another rank saw failures (its report follows on stderr).\n";
  }
  return any_failed ? 1 : 0;
}
