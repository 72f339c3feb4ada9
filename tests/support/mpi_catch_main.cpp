// Catch2 main for MPI test programs: every rank runs the tests; rank 0 reports to the
// terminal, other ranks report to a file that is printed only if that rank saw a failure; all
// ranks exit with the same status (failure anywhere fails everywhere).
#define CATCH_CONFIG_RUNNER
#include <mpi.h>
#include <catch2/catch.hpp>

#include <unistd.h>

#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <iostream>
#include <string>

#include "distlops/core/environment.hpp"

int main(int argc, char** argv) {
  distlops::Environment environment(argc, argv);
  int rank = 0;
  int size = 1;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);

  Catch::Session session;
  if (const int code = session.applyCommandLine(argc, argv); code != 0) return code;
  std::string report_file;
  if (rank != 0) {
    char name[] = "/tmp/distlops-test-XXXXXX";
    const int fd = mkstemp(name);
    if (fd >= 0) close(fd);
    report_file = name;
    session.configData().outputFilename = report_file;
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
