// SPDX-License-Identifier: BSD-3-Clause
// Copyright (c) 2026 The distlops authors
// distlops_device_gate <command> [arguments...]
//
// Runs the command (the mpiexec line of a Cuda test run) only where this process sees a CUDA
// device. Without one it reports the run as skipped at once (exit 77, the runs'
// SKIP_RETURN_CODE) instead of starting every rank of the job to find out: about 0.5 s less
// per skipped run, 77 runs in a CUDA build on a machine without a GPU. The test programs still
// check every rank themselves (mpi_catch_main.cpp): a gate passed on one node proves nothing
// about the others.
#include <cuda_runtime.h>
#include <unistd.h>

#include <cstdio>
#include <iostream>

namespace {

constexpr int skipped_exit_code = 77;

int visible_devices() {
  int count = 0;
  if (cudaGetDeviceCount(&count) != cudaSuccess) return 0;  // no driver or no device
  return count;
}

}  // namespace

int main(int argc, char** argv) {
  if (argc < 2) {
    std::cerr << "usage: distlops_device_gate <command> [arguments...]\n";
    return 2;
  }
  if (visible_devices() == 0) {
    std::cout << "Skipped: this process sees no CUDA device\n";
    return skipped_exit_code;
  }
  execvp(argv[1], argv + 1);
  std::perror(argv[1]);  // only reached when the command could not be started
  return 127;
}
