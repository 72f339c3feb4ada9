#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-3-Clause
# Copyright (c) 2026 The distlops authors
# Builds distlops and runs its test suite: the command of the README and of .ci/run.
#
#   bash scripts/test.sh
#
# 1. scripts/setup.sh installs the missing build and test dependencies.
# 2. Main pass: configures a Release build (CUDA backend when nvcc is found) in build/,
#    builds everything with all cores and runs every test with ctest.
# 3. Sanitizer pass, which is also the MPICH and static-library pass: configures a Debug build
#    with AddressSanitizer and UndefinedBehaviorSanitizer in build-asan/ (host backend only, no
#    examples or benchmarks) against MPICH (mpicxx.mpich, mpiexec.mpich; the main pass uses the
#    default MPI, Open MPI on Debian) and a static libdistlops, builds a subset of the test
#    programs (the core ones among them) and runs them at 1 and 2 ranks (see
#    DISTLOPS_SANITIZE_PROGRAMS), and builds and runs the consumer project against the static
#    library installed, through CMake and through pkg-config --static. One second build proves
#    the second MPI, the static package and the sanitizers at once.
#
# Both passes always run (a failure in the first does not hide the second); the script prints
# the wall time and outcome of every phase and exits non-zero when any phase failed.
#
# Environment knobs:
#   DISTLOPS_BUILD_DIR        build directory of the main pass (default: build)
#   DISTLOPS_ASAN_BUILD_DIR   build directory of the sanitizer pass (default: build-asan)
#   DISTLOPS_BUILD_JOBS       parallel compile jobs (default: the number of cores, nproc)
#   DISTLOPS_CTEST_JOBS       tests run at once by ctest (default: 2)
#   DISTLOPS_TEST_SANITIZE    0 skips the sanitizer pass (default: 1)
#   DISTLOPS_SANITIZE_PROGRAMS  the test programs the sanitizer pass builds and runs, separated
#                             by spaces (default: the list below; 'all' builds every test)
#   DISTLOPS_SANITIZE_RANKS   ctest -R regular expression on the rank suffix of the sanitizer
#                             pass (default: 'np[12]', 1 and 2 ranks)
#   DISTLOPS_SANITIZE_MPI     the MPI of the sanitizer pass: mpich (default: mpicxx.mpich and
#                             mpiexec.mpich, which scripts/setup.sh installs) or default (the
#                             MPI that CMake finds first, as in the main pass)
#   DISTLOPS_SETUP            0 skips scripts/setup.sh (default: 1)
#   DISTLOPS_SCALE_TESTS      the many-rank tier of the main pass (label scale): np8 (default:
#                             every distributed test program also at 8 ranks), all (8 and 16
#                             ranks, and 5, 7 and 9 for the programs that factorise the rank
#                             count) or off
#   DISTLOPS_CMAKE_ARGS       extra arguments for both configure steps, split on spaces
#                             (e.g. "-DDISTLOPS_TEST_RANKS=1;2;3"); cache variables set this
#                             way stay in the build directories' caches for later runs
set -uo pipefail

root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$root" || exit 1

build_dir="${DISTLOPS_BUILD_DIR:-build}"
asan_build_dir="${DISTLOPS_ASAN_BUILD_DIR:-build-asan}"
build_jobs="${DISTLOPS_BUILD_JOBS:-$(nproc)}"
scale_tests="${DISTLOPS_SCALE_TESTS:-np8}"
ctest_jobs="${DISTLOPS_CTEST_JOBS:-2}"
# The sanitizer pass runs every MPI test at 1 and 2 ranks. Two ranks already exercise every
# communication path of the library (collectives, neighbour exchanges, uneven splits, and
# ranks owning nothing, which the test shapes of 0 and 1 items produce); 3 and 4 ranks on a
# machine with few cores are oversubscribed and, under the sanitizers' slowdown, quadruple the
# time of the pass (about 4 minutes instead of 1 for the core tests on 2 cores) for little
# more coverage. The main pass runs every rank count.
sanitize_ranks="${DISTLOPS_SANITIZE_RANKS:-np[12]}"
# The sanitizer pass compiles its programs a second time (Debug, instrumented), which costs as
# much as the main build; it covers the programs that exercise the library's own indexing,
# buffers and messages: the core, the parallel I/O, the communicating operators (stacks,
# derivative stencils, halos, FFT transposes, SUMMA, Fredholm/MDC), the local operators that
# copy blocks around (Pad, Transpose, composition), and the solvers' checkpoints, callbacks and
# batched reductions (test_solver_runtime, test_solver_collectives; test_least_squares adds
# only the numerics against serial references, for 40 s of the pass's compile time). The other
# test programs only instantiate the same code for more cases.
default_sanitize_programs="test_layout test_distributed_array test_stacked_array test_communicator test_transport \
test_errors test_kernels test_buffer test_version test_npy test_stacks test_derivatives test_halo \
test_local_pad test_local_transpose test_local_composition test_fft_local test_fft_distributed \
test_matrix_mult test_fredholm_mdc test_solver_runtime test_solver_collectives"
read -r -a sanitize_programs <<<"${DISTLOPS_SANITIZE_PROGRAMS:-$default_sanitize_programs}"
if [ "${sanitize_programs[*]}" = "all" ]; then
  sanitize_build_targets=(all)
  sanitize_tests="\.${sanitize_ranks}\$"
else
  sanitize_build_targets=("${sanitize_programs[@]}")
  sanitize_tests="^($(IFS='|'; echo "${sanitize_programs[*]}"))\.${sanitize_ranks}\$"
fi
# The installed static package: find_package (CMake) and pkg-config --static, and the
# components' verdicts. The build-tree and examples routes run in the main pass.
sanitize_tests="${sanitize_tests}|^consumer\.(clean|install|configure|build|run|pkgconfig\..*|components\..*)\$"
sanitize_mpi="${DISTLOPS_SANITIZE_MPI:-mpich}"
sanitize_mpi_args=()
case "$sanitize_mpi" in
  mpich)
    if command -v mpicxx.mpich >/dev/null 2>&1 && command -v mpiexec.mpich >/dev/null 2>&1; then
      sanitize_mpi_args=(-DMPI_CXX_COMPILER="$(command -v mpicxx.mpich)"
        -DMPIEXEC_EXECUTABLE="$(command -v mpiexec.mpich)")
    else
      echo "test.sh: mpicxx.mpich or mpiexec.mpich not found (scripts/setup.sh installs mpich and"
      echo "  libmpich-dev); DISTLOPS_SANITIZE_MPI=default runs the sanitizer pass with the default MPI"
      sanitize_mpi_args=(-DMPI_CXX_COMPILER=mpicxx.mpich-not-found)
    fi
    ;;
  default) ;;
  *)
    echo "test.sh: DISTLOPS_SANITIZE_MPI must be mpich or default, got '$sanitize_mpi'" >&2
    exit 2
    ;;
esac
extra_cmake_args=()
if [ -n "${DISTLOPS_CMAKE_ARGS:-}" ]; then
  read -r -a extra_cmake_args <<<"$DISTLOPS_CMAKE_ARGS"
fi
# Without a visible GPU the device code is compiled to prove that it compiles and links, and its
# tests are reported Skipped: Hopper's PTX alone (90-virtual) proves that. nvcc then stops
# after generating PTX instead of also running ptxas for machine code, which halves its time
# (stencil_kernels.cu: 14.3 -> 6.6 s; the CUDA sources: about 35 of their 69 s of CPU);
# ptxas's own checks (registers, shared memory per block) run where there is a GPU, in
# scripts/gpu_test.sh's build for the devices' architectures. With a GPU the library's
# default stays, so that the tests run on it; CMAKE_CUDA_ARCHITECTURES in DISTLOPS_CMAKE_ARGS
# overrides both.
# The test programs' Cuda instances (59 of their 491 CPU-seconds of compile) are compiled only
# where a GPU can run them; elsewhere their runs report Skipped at once.
# DISTLOPS_TEST_CUDA_INSTANCES in DISTLOPS_CMAKE_ARGS overrides that.
main_cmake_args=(-DDISTLOPS_SCALE_TESTS="$scale_tests")
gpu_visible=0
if command -v nvidia-smi >/dev/null 2>&1 && nvidia-smi --list-gpus 2>/dev/null | grep -q '^GPU'; then
  gpu_visible=1
fi
if [[ " ${extra_cmake_args[*]} " != *CMAKE_CUDA_ARCHITECTURES* ]] && [ "$gpu_visible" -eq 0 ]; then
  main_cmake_args+=(-DCMAKE_CUDA_ARCHITECTURES=90-virtual)
fi
if [[ " ${extra_cmake_args[*]} " != *DISTLOPS_TEST_CUDA_INSTANCES* ]]; then
  if [ "$gpu_visible" -eq 1 ]; then
    main_cmake_args+=(-DDISTLOPS_TEST_CUDA_INSTANCES=ON)
  else
    main_cmake_args+=(-DDISTLOPS_TEST_CUDA_INSTANCES=OFF)
  fi
fi

# lld where it is installed (scripts/setup.sh installs it): it links a test program, an example
# or the library in about 0.15 s of one core where GNU ld takes 0.8 (the sanitizer pass's
# programs: 0.15 against 0.6), which the 61 links of the main pass and the 25 of the sanitizer
# pass add up to about 50 s. Both passes use it; a linker named in DISTLOPS_CMAKE_ARGS wins.
linker_args=()
if command -v ld.lld >/dev/null 2>&1 &&
  echo 'int main() { return 0; }' | c++ -x c++ -fuse-ld=lld -o /dev/null - >/dev/null 2>&1; then
  linker_args=(-DCMAKE_EXE_LINKER_FLAGS=-fuse-ld=lld -DCMAKE_SHARED_LINKER_FLAGS=-fuse-ld=lld
    -DCMAKE_MODULE_LINKER_FLAGS=-fuse-ld=lld)
fi

phase_names=()
phase_seconds=()
phase_results=()
failed=0

# phase <name> <command...>: runs the command, records its wall time and outcome.
phase() {
  local name="$1"
  shift
  echo
  echo "==== ${name}: $*"
  local start end status
  start=$(date +%s.%N)
  "$@"
  status=$?
  end=$(date +%s.%N)
  local seconds
  seconds=$(awk -v s="$start" -v e="$end" 'BEGIN { printf "%.1f", e - s }')
  phase_names+=("$name")
  phase_seconds+=("$seconds")
  if [ "$status" -eq 0 ]; then
    phase_results+=("ok")
  else
    phase_results+=("FAILED (exit status $status)")
    failed=1
  fi
  echo "==== ${name}: ${phase_results[-1]} in ${seconds} s"
  return "$status"
}

skipped() {
  phase_names+=("$1")
  phase_seconds+=("-")
  phase_results+=("skipped: $2")
}

# Ninja when available, unless the directory is already configured (its generator is kept).
generator_args() {
  if [ ! -f "$1/CMakeCache.txt" ] && command -v ninja >/dev/null 2>&1; then
    echo "-G Ninja"
  fi
}

total_start=$(date +%s.%N)

if [ "${DISTLOPS_SETUP:-1}" != "0" ]; then
  phase "setup" bash scripts/setup.sh
else
  skipped "setup" "DISTLOPS_SETUP=0"
fi

# ---- sanitizer build, beside the main tests ---------------------------------------------------
# Debug: the fastest to compile and the most precise reports; the sanitizers find the same
# errors at any optimisation level. Debug information is reduced to line tables (-g1), all a
# sanitizer report needs for its file:line stack traces: full -g costs about a fifth more
# compile time for variable descriptions no report uses. The build runs in the background while
# the main pass's tests run: their ranks spend most of the time waiting on one another and leave
# about half of the cores idle, which the build takes. It runs in the idle scheduling class (chrt --idle),
# not merely niced: oversubscribed ranks that yield while they wait would otherwise hand their
# core to a compiler for a whole time slice at every message (test_npy at 3 ranks on 2 cores
# beside two compilers: 15-32 s niced, 8.5 s in the idle class, 1.8 s alone).
asan_log="${asan_build_dir}/sanitizer-build.log"
background=(nice -n 19)
if command -v chrt >/dev/null 2>&1 && chrt --idle 0 true 2>/dev/null; then
  background=(chrt --idle 0)
fi
asan_pid=""
start_asan_build() {
  [ "${DISTLOPS_TEST_SANITIZE:-1}" != "0" ] || return 0
  mkdir -p "$asan_build_dir"
  rm -f "${asan_log}.result"
  (
    start=$(date +%s.%N)
    status=0
    # shellcheck disable=SC2046
    cmake -S . -B "$asan_build_dir" $(generator_args "$asan_build_dir") \
      -DCMAKE_BUILD_TYPE=Debug -DCMAKE_CXX_FLAGS_DEBUG=-g1 -DDISTLOPS_SANITIZE=ON \
      -DDISTLOPS_ENABLE_CUDA=OFF \
      -DDISTLOPS_ENABLE_TESTS=ON -DDISTLOPS_ENABLE_EXAMPLES=OFF -DDISTLOPS_ENABLE_BENCHMARKS=OFF \
      -DBUILD_SHARED_LIBS=OFF "${sanitize_mpi_args[@]}" "${linker_args[@]}" \
      "${extra_cmake_args[@]}" || status=$?
    if [ "$status" -eq 0 ]; then
      # distlops itself for the consumer tests, which install it.
      "${background[@]}" cmake --build "$asan_build_dir" -j "$build_jobs" \
        --target distlops "${sanitize_build_targets[@]}" || status=$?
    fi
    echo "$status $(awk -v s="$start" -v e="$(date +%s.%N)" 'BEGIN { printf "%.1f", e - s }')" \
      >"${asan_log}.result"
  ) >"$asan_log" 2>&1 &
  asan_pid=$!
}

# ---- main pass ------------------------------------------------------------------------------
# shellcheck disable=SC2046
if phase "configure" cmake -S . -B "$build_dir" $(generator_args "$build_dir") \
  -DCMAKE_BUILD_TYPE=Release -DDISTLOPS_ENABLE_CUDA=AUTO -DDISTLOPS_ENABLE_TESTS=ON \
  -DDISTLOPS_ENABLE_EXAMPLES=ON -DDISTLOPS_ENABLE_BENCHMARKS=ON "${main_cmake_args[@]}" \
  "${linker_args[@]}" \
  "${extra_cmake_args[@]}"; then
  if phase "build" cmake --build "$build_dir" -j "$build_jobs"; then
    start_asan_build
    phase "ctest" ctest --test-dir "$build_dir" --output-on-failure --no-tests=error \
      -j "$ctest_jobs"
  else
    skipped "ctest" "the build failed"
  fi
else
  skipped "build" "the configure step failed"
  skipped "ctest" "the configure step failed"
fi

# ---- sanitizer pass -------------------------------------------------------------------------
if [ "${DISTLOPS_TEST_SANITIZE:-1}" != "0" ]; then
  [ -n "$asan_pid" ] || start_asan_build
  echo
  echo "==== asan configure + build (beside the main ctest; log: $asan_log)"
  wait "$asan_pid"
  read -r asan_status asan_seconds <"${asan_log}.result" || asan_status=1
  phase_names+=("asan build")
  phase_seconds+=("${asan_seconds:--}")
  if [ "${asan_status:-1}" -eq 0 ]; then
    phase_results+=("ok (beside ctest)")
    tail -n 3 "$asan_log"
    phase "asan ctest" ctest --test-dir "$asan_build_dir" --output-on-failure --no-tests=error \
      -j "$ctest_jobs" -R "$sanitize_tests"
  else
    phase_results+=("FAILED (exit status $asan_status)")
    failed=1
    cat "$asan_log"
    skipped "asan ctest" "the build failed"
  fi
else
  skipped "asan" "DISTLOPS_TEST_SANITIZE=0"
fi

total_end=$(date +%s.%N)
echo
echo "==== summary (wall time per phase)"
for i in "${!phase_names[@]}"; do
  printf '  %-16s %8s s  %s\n' "${phase_names[$i]}" "${phase_seconds[$i]}" "${phase_results[$i]}"
done
printf '  %-16s %8s s\n' "total" \
  "$(awk -v s="$total_start" -v e="$total_end" 'BEGIN { printf "%.1f", e - s }')"

if [ "$failed" -ne 0 ]; then
  echo "test.sh: FAILED"
  exit 1
fi
echo "test.sh: all phases passed"
