#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-3-Clause
# Copyright (c) 2026 The distlops authors
# shellcheck disable=SC2317  # functions run through phase() and bounded()
# Validates the CUDA backend on a machine with an NVIDIA GPU, in one call that fits a short
# lease (about 25 minutes on 16 cores):
#
#   bash scripts/gpu_test.sh [--deps DIR] [--out DIR] [--build-only] [--phases LIST]
#
#   --deps DIR     the folder of scripts/gpu_bundle.sh (Eigen, Catch2, FFTW, zlib, pkg-config,
#                  Open MPI) for a machine that lacks them: its env.sh is sourced first
#   --out DIR      where the summary and every log go (default: build-gpu/summary)
#   --build-only   configure and build, then stop (no device needed)
#   --phases LIST  which of tests,sanitizers,bench run after the build (default: all three);
#                  a lease whose calls are shorter than the whole script splits it this way,
#                  the build (a no-op once done) starting every call
#
# 1. configures build-gpu (Release, CUDA on, NCCL required, warnings not fatal, the CUDA
#    architecture of the present device) and builds only the library, the test programs that
#    have GPU runs and the benchmark driver, with all cores;
# 2. runs the GPU tests (ctest -L gpu): at 1 rank (device collectives over NCCL), then at 2-4
#    ranks, which share the device (the library picks their collectives);
# 3. runs every GPU test program once at 1 rank under each of compute-sanitizer's memcheck,
#    racecheck and initcheck, several at a time;
# 4. runs the --space cuda benchmarks, whose driver also measures the device's copy bandwidth;
# 5. writes OUT/summary.md: each phase, pass/fail per test and rank count, the sanitizer
#    findings, each benchmark case's time and its % of the copy bandwidth.
# Every ctest, mpiexec and sanitizer run has a time limit, and the phases share a deadline, so
# the script never hangs. It exits non-zero when anything failed.
#
# Environment knobs:
#   DISTLOPS_GPU_BUILD_DIR        build directory (default: build-gpu)
#   DISTLOPS_BUILD_JOBS           parallel compile jobs (default: nproc)
#   DISTLOPS_CUDA_ARCHS           CMAKE_CUDA_ARCHITECTURES (default: the devices' compute
#                                 capabilities from nvidia-smi, else native; 90 with
#                                 --build-only on a machine without a device)
#   DISTLOPS_GPU_NCCL             DISTLOPS_ENABLE_NCCL (default: ON, so that a missing NCCL
#                                 stops the configure step instead of skipping every NCCL line)
#   DISTLOPS_GPU_DEADLINE         seconds the whole script may take (default: 1500)
#   DISTLOPS_TEST_TIMEOUT         seconds one test run (mpiexec) may take (default: 280, under
#                                 ctest's 300)
#   DISTLOPS_SANITIZER_TIMEOUT    seconds one sanitizer run may take (default: 300)
#   DISTLOPS_SANITIZER_JOBS       sanitizer runs at once (default: 8)
#   DISTLOPS_SANITIZER_TOOLS      tools to run (default: "memcheck racecheck initcheck")
#   DISTLOPS_GPU_BENCH_RANKS      ranks of the benchmark runs (default: the number of GPUs)
#   DISTLOPS_GPU_BENCH_ARGS       extra arguments of distlops_bench, split on spaces
set -uo pipefail

usage() {
  sed -n '\|^#   bash scripts/gpu_test.sh|,\|^#                  the build (a no-op|p' "${BASH_SOURCE[0]}" | sed 's/^# \{0,1\}//'
}

root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
deps=""
out=""
build_only=0
phases="tests,sanitizers,bench"
while [ $# -gt 0 ]; do
  case "$1" in
    --deps)
      [ $# -ge 2 ] || { echo "gpu_test.sh: --deps needs a folder" >&2; exit 2; }
      deps="$2"
      shift 2
      ;;
    --out)
      [ $# -ge 2 ] || { echo "gpu_test.sh: --out needs a folder" >&2; exit 2; }
      out="$2"
      shift 2
      ;;
    --build-only)
      build_only=1
      shift
      ;;
    --phases)
      [ $# -ge 2 ] || { echo "gpu_test.sh: --phases needs a list" >&2; exit 2; }
      phases="$2"
      for wanted in ${phases//,/ }; do
        case "$wanted" in
          tests | sanitizers | bench) ;;
          *) echo "gpu_test.sh: unknown phase '$wanted' (tests, sanitizers, bench)" >&2; exit 2 ;;
        esac
      done
      shift 2
      ;;
    -h | --help)
      usage
      exit 0
      ;;
    *)
      echo "gpu_test.sh: unknown argument '$1'" >&2
      usage >&2
      exit 2
      ;;
  esac
done

wants() { [[ ",$phases," == *",$1,"* ]]; }
cd "$root" || exit 1
start_time=$SECONDS
deadline=$((start_time + ${DISTLOPS_GPU_DEADLINE:-1500}))
build_dir="${DISTLOPS_GPU_BUILD_DIR:-build-gpu}"
build_jobs="${DISTLOPS_BUILD_JOBS:-$(nproc)}"
test_timeout="${DISTLOPS_TEST_TIMEOUT:-280}"
sanitizer_timeout="${DISTLOPS_SANITIZER_TIMEOUT:-300}"
sanitizer_jobs="${DISTLOPS_SANITIZER_JOBS:-8}"
read -r -a sanitizer_tools <<<"${DISTLOPS_SANITIZER_TOOLS:-memcheck racecheck initcheck}"
out="${out:-$build_dir/summary}"
mkdir -p "$out" || exit 1
out="$(cd "$out" && pwd)"
summary="$out/summary.md"
rm -f "$out"/*.log "$out"/*.tsv "$out"/*.json "$summary"
mkdir -p "$out/sanitizer" && rm -f "$out"/sanitizer/*.log

# ---- bookkeeping -------------------------------------------------------------------------------
failed=0
phase_rows=()
note() { echo "gpu_test.sh: $*"; }
fail_early() {
  note "$*" >&2
  printf '# distlops GPU validation\n\nFAILED before the build: %s\n' "$*" >"$summary"
  exit 1
}
remaining() { echo $((deadline - SECONDS)); }
# phase <name> <log> <command...>: runs the command with its output in <log>, records the
# outcome and the wall time.
phase() {
  local name="$1" log="$2"
  shift 2
  local start=$SECONDS status=0
  note "== $name (log: $log)"
  "$@" >"$log" 2>&1 || status=$?
  local result="ok"
  if [ "$status" -ne 0 ]; then
    result="FAILED (exit status $status)"
    failed=1
  fi
  phase_rows+=("| $name | $((SECONDS - start)) s | $result | $(basename "$log") |")
  note "== $name: $result in $((SECONDS - start)) s"
  return "$status"
}
skip_phase() {
  phase_rows+=("| $1 | - | not run: $2 | |")
}
# Limits a command to the time left before the deadline (and to $1 seconds); the whole process
# group goes when it expires.
bounded() {
  local limit="$1"
  shift
  local left
  left=$(remaining)
  [ "$left" -lt "$limit" ] && limit="$left"
  if [ "$limit" -le 10 ]; then
    echo "no time left before the deadline (DISTLOPS_GPU_DEADLINE)"
    return 124
  fi
  timeout --kill-after=20 "$limit" "$@"
}

# ---- environment ------------------------------------------------------------------------------
if [ -n "$deps" ]; then
  [ -f "$deps/env.sh" ] || fail_early "--deps $deps: no env.sh there (make the folder with scripts/gpu_bundle.sh)"
  deps="$(cd "$deps" && pwd)"
  glibc_needed="$(sed -n 's/^glibc_needed: //p' "$deps/MANIFEST" 2>/dev/null)"
  glibc_here="$(getconf GNU_LIBC_VERSION 2>/dev/null | awk '{print $2}')"
  if [ -n "$glibc_needed" ] && [ -n "$glibc_here" ] &&
    [ "$(printf '%s\n%s\n' "$glibc_needed" "$glibc_here" | sort -V | head -n 1)" != "$glibc_needed" ]; then
    fail_early "the bundle needs glibc $glibc_needed, this machine has $glibc_here (gather it on an older distribution)"
  fi
  # shellcheck source=/dev/null
  . "$deps/env.sh"
fi
if ! command -v nvcc >/dev/null 2>&1 && [ -x /usr/local/cuda/bin/nvcc ]; then
  export PATH="/usr/local/cuda/bin:$PATH"
fi
for tool in nvcc cmake mpiexec; do
  command -v "$tool" >/dev/null 2>&1 || fail_early "$tool not found (give --deps DIR for MPI, put the CUDA toolkit on PATH)"
done
generator=()
if command -v ninja >/dev/null 2>&1; then generator=(-G Ninja); fi

gpus=0
gpu_names=""
if command -v nvidia-smi >/dev/null 2>&1; then
  gpus="$(nvidia-smi --list-gpus 2>/dev/null | grep -c '^GPU' || true)"
  gpu_names="$(nvidia-smi --query-gpu=name,memory.total,driver_version --format=csv,noheader 2>/dev/null | sort | uniq -c | paste -sd';')"
fi
if [ "$gpus" -eq 0 ] && [ "$build_only" -eq 0 ]; then
  fail_early "no GPU visible to nvidia-smi: the GPU tests would only skip (use --build-only to build)"
fi
if [ -n "${DISTLOPS_CUDA_ARCHS:-}" ]; then
  archs="$DISTLOPS_CUDA_ARCHS"
elif [ "$gpus" -gt 0 ]; then
  archs="$(nvidia-smi --query-gpu=compute_cap --format=csv,noheader 2>/dev/null | tr -d ' .' | sort -u | paste -sd';')"
  [[ "$archs" =~ ^[0-9]+[a-z]?(\;[0-9]+[a-z]?)*$ ]] || archs=native
else
  archs=90
fi

mpiexec_flags=()
if mpiexec --version 2>&1 | grep -qi "open mpi\|openrte\|open-rte"; then
  mpiexec_flags=(--oversubscribe --bind-to none --mca btl_vader_single_copy_mechanism none)
  if [ "$(id -u)" -eq 0 ]; then mpiexec_flags+=(--allow-run-as-root); fi
fi
# Every mpiexec (Open MPI and MPICH alike) ends its job after this many seconds, so that a rank
# stuck in a collective cannot outlive its test; ctest's own limit of a test is 300 s.
export MPIEXEC_TIMEOUT="$test_timeout"

# ---- configure and build ------------------------------------------------------------------------
configure_args=(-S . -B "$build_dir" "${generator[@]}" -DCMAKE_BUILD_TYPE=Release
  -DDISTLOPS_ENABLE_CUDA=ON -DDISTLOPS_ENABLE_NCCL="${DISTLOPS_GPU_NCCL:-ON}"
  -DCMAKE_CUDA_ARCHITECTURES="$archs" -DDISTLOPS_WARNINGS_AS_ERRORS=OFF
  -DDISTLOPS_ENABLE_TESTS=ON -DDISTLOPS_ENABLE_BENCHMARKS=ON -DDISTLOPS_ENABLE_EXAMPLES=OFF
  -DDISTLOPS_TEST_INSTALL=OFF -DDISTLOPS_ENABLE_FUZZING=OFF)
[ -f "$build_dir/CMakeCache.txt" ] && configure_args=(-S . -B "$build_dir"
  -DDISTLOPS_ENABLE_NCCL="${DISTLOPS_GPU_NCCL:-ON}" -DCMAKE_CUDA_ARCHITECTURES="$archs"
  -DDISTLOPS_WARNINGS_AS_ERRORS=OFF)
programs=()
build_ok=0
if phase configure "$out/configure.log" cmake "${configure_args[@]}"; then
  # The test programs that have GPU runs: <program>.cuda.np<N> in ctest.
  mapfile -t programs < <(ctest --test-dir "$build_dir" -N -L gpu 2>/dev/null |
    sed -n 's/.*Test *#[0-9]*: \(.*\)\.cuda\.np[0-9]*$/\1/p' | sort -u)
  if [ "${#programs[@]}" -eq 0 ]; then
    note "no GPU tests registered (is the CUDA backend on?)" | tee -a "$out/configure.log"
    failed=1
  fi
  phase build "$out/build.log" cmake --build "$build_dir" -j "$build_jobs" \
    --target distlops distlops_bench distlops_device_gate "${programs[@]}" && build_ok=1
else
  skip_phase build "the configure step failed"
fi
nccl_line="$(grep -m1 'distlops: NCCL' "$out/configure.log" 2>/dev/null | sed 's/^-- //')"
cuda_line="$(grep -m1 'distlops: CUDA backend' "$out/configure.log" 2>/dev/null | sed 's/^-- //')"

# ---- GPU tests ---------------------------------------------------------------------------------
# run_ctest <rank counts, a regular expression> [VAR=value...]: the GPU tests at those rank
# counts. The test's own TIMEOUT (300 s) and MPIEXEC_TIMEOUT bound each run; ctest runs tests
# side by side on the device, as many ranks at once as there are cores.
run_ctest() {
  local ranks_regex="$1"
  shift
  bounded $((deadline - SECONDS)) env "$@" ctest --test-dir "$build_dir" -L gpu \
    -R "\\.cuda\\.np(${ranks_regex})\$" -j "$(nproc)" --output-on-failure --no-tests=error
}
if ! wants tests; then
  skip_phase "GPU tests" "not in --phases"
elif [ "$build_only" -eq 0 ] && [ "$build_ok" -eq 1 ]; then
  # One rank: device collectives over NCCL (the default of a build with NCCL, said explicitly).
  phase "GPU tests, 1 rank" "$out/ctest-np1.log" run_ctest 1 DISTLOPS_GPU_COLLECTIVES=nccl
  # Several ranks share the device: the library chooses how their collectives go.
  phase "GPU tests, 2-4 ranks" "$out/ctest-np234.log" run_ctest '2|3|4'
  # A visible device and a skipped GPU test: some rank did not get the device.
  if grep -q "\*\*\*Skipped" "$out"/ctest-np*.log; then
    note "GPU tests reported Skipped although a device is visible" | tee -a "$out/ctest-np1.log"
    failed=1
  fi
else
  skip_phase "GPU tests" "$([ "$build_only" -eq 1 ] && echo --build-only || echo the build failed)"
fi

# ---- compute-sanitizer -------------------------------------------------------------------------
sanitizer="$(command -v compute-sanitizer || true)"
if [ -z "$sanitizer" ] && [ -x "$(dirname "$(command -v nvcc)")/compute-sanitizer" ]; then
  sanitizer="$(dirname "$(command -v nvcc)")/compute-sanitizer"
fi
# One run: <tool> <program>; writes sanitizer/<program>.<tool>.log and a line of results.tsv.
sanitize_one() {
  local tool="$1" program="$2"
  local log="$out/sanitizer/$program.$tool.log" executable
  executable="$(find "$build_dir/tests" -type f -name "$program" -perm -u+x | head -n 1)"
  local left=$((deadline - SECONDS - 120))
  local limit="$sanitizer_timeout"
  [ "$left" -lt "$limit" ] && limit="$left"
  if [ "$limit" -le 30 ]; then
    printf '%s\t%s\tnot run (deadline)\t\n' "$program" "$tool" >>"$out/sanitizer/results.tsv"
    return 0
  fi
  local start=$SECONDS status=0
  env DISTLOPS_GPU_COLLECTIVES=nccl MPIEXEC_TIMEOUT="$limit" timeout --kill-after=20 $((limit + 30)) \
    mpiexec -n 1 "${mpiexec_flags[@]}" "$sanitizer" --tool "$tool" --error-exitcode 86 \
    --print-limit 20 "$executable" --space cuda >"$log" 2>&1 || status=$?
  local errors verdict
  errors="$(sed -n 's/.*ERROR SUMMARY: \([0-9]*\) error.*/\1/p' "$log" | tail -n 1)"
  if [ "$status" -eq 0 ]; then
    verdict="clean"
  elif [ "$status" -eq 124 ] || [ "$status" -eq 137 ] || grep -q "MPIEXEC_TIMEOUT\|timeout\|timed out" "$log"; then
    verdict="timed out after $((SECONDS - start)) s"
  elif [ -n "$errors" ] && [ "$errors" != "0" ]; then
    verdict="$errors errors"
  else
    verdict="failed (exit status $status)"
  fi
  printf '%s\t%s\t%s\t%s s\n' "$program" "$tool" "$verdict" "$((SECONDS - start))" >>"$out/sanitizer/results.tsv"
}
run_sanitizers() {
  local pids=() tool program
  : >"$out/sanitizer/results.tsv"
  for tool in "${sanitizer_tools[@]}"; do
    for program in "${programs[@]}"; do
      while [ "$(jobs -rp | wc -l)" -ge "$sanitizer_jobs" ]; do wait -n; done
      sanitize_one "$tool" "$program" &
      pids+=($!)
    done
  done
  wait "${pids[@]}"
  cat "$out/sanitizer/results.tsv"
  ! grep -qv "	clean	" "$out/sanitizer/results.tsv"
}
if ! wants sanitizers; then
  skip_phase "compute-sanitizer" "not in --phases"
elif [ "$build_only" -eq 0 ] && [ "$build_ok" -eq 1 ]; then
  if [ -n "$sanitizer" ]; then
    phase "compute-sanitizer (${sanitizer_tools[*]}), 1 rank" "$out/sanitizer.log" run_sanitizers
  else
    skip_phase "compute-sanitizer" "compute-sanitizer not found beside nvcc"
    failed=1
  fi
else
  skip_phase "compute-sanitizer" "$([ "$build_only" -eq 1 ] && echo --build-only || echo the build failed)"
fi

# ---- benchmarks --------------------------------------------------------------------------------
bench_ranks="${DISTLOPS_GPU_BENCH_RANKS:-$gpus}"
bench_args=()
if [ -n "${DISTLOPS_GPU_BENCH_ARGS:-}" ]; then read -r -a bench_args <<<"$DISTLOPS_GPU_BENCH_ARGS"; fi
bench_paths=(nccl)
[ "$bench_ranks" -gt 1 ] && bench_paths=(nccl mpi)
if ! wants bench; then
  skip_phase "benchmarks" "not in --phases"
elif [ "$build_only" -eq 0 ] && [ "$build_ok" -eq 1 ]; then
  for path in "${bench_paths[@]}"; do
    phase "benchmarks --space cuda, $bench_ranks ranks, $path" "$out/bench-$path.log" \
      bounded 600 env DISTLOPS_GPU_COLLECTIVES="$path" MPIEXEC_TIMEOUT=600 mpiexec -n "$bench_ranks" "${mpiexec_flags[@]}" "$build_dir/benchmarks/distlops_bench" \
      --space cuda --json "$out/bench-$path.json" "${bench_args[@]}"
  done
else
  skip_phase "benchmarks" "$([ "$build_only" -eq 1 ] && echo --build-only || echo the build failed)"
fi

# ---- summary -----------------------------------------------------------------------------------
# Test outcomes from ctest's lines "  12/36 Test  #5: test_x.cuda.np2 ....   Passed   1.2 sec",
# as a table of programs by rank counts.
test_table() {
  cat "$out"/ctest-np*.log 2>/dev/null |
    sed -En 's/.*Test +#[0-9]+: ([^ ]+)\.cuda\.np([0-9]+) [ .*]*(Passed|Failed|Skipped|Timeout|Not Run|Exception|[A-Za-z]+).*/\1 \2 \3/p' |
    sort -k1,1 -k2,2n |
    awk 'BEGIN { print "| program | np1 | np2 | np3 | np4 |"; print "|---|---|---|---|---|" }
         function flush() { if (program != "") printf "| %s | %s | %s | %s | %s |\n", program,
                              r[1] ? r[1] : "-", r[2] ? r[2] : "-", r[3] ? r[3] : "-", r[4] ? r[4] : "-" }
         $1 != program { flush(); program = $1; delete r }
         { r[$2] = ($3 == "Passed" ? "pass" : "**" tolower($3) "**") }
         END { flush() }'
}
json_field() { sed -n "s/.*\"$1\":\([^,}]*\).*/\1/p" <<<"$2" | tr -d '"'; }
bench_table() {
  local file line
  echo "| case | ranks | collectives | median | per unit | bandwidth | % of copy bandwidth |"
  echo "|---|---|---|---|---|---|---|"
  for file in "$out"/bench-*.json; do
    [ -f "$file" ] || continue
    local path
    path="$(basename "$file" .json)"
    path="${path#bench-}"
    while IFS= read -r line; do
      local name ranks median per_unit unit bandwidth fraction
      name="$(json_field case "$line")"
      ranks="$(json_field ranks "$line")"
      median="$(json_field median_seconds "$line")"
      per_unit="$(json_field seconds_per_unit "$line")"
      unit="$(json_field unit "$line")"
      bandwidth="$(json_field bandwidth_bytes_per_second "$line")"
      fraction="$(json_field fraction_of_reference "$line")"
      awk -v n="$name" -v r="$ranks" -v p="$path" -v m="$median" -v u="$per_unit" -v un="$unit" \
        -v b="$bandwidth" -v f="$fraction" 'BEGIN {
          printf "| %s | %s | %s | %.4g ms | %.4g us per %s | %.4g GB/s | %.1f%% |\n",
                 n, r, p, 1e3 * m, 1e6 * u, un, b / 1e9, 100 * f }'
    done <"$file"
    local copy
    copy="$(json_field reference_bytes_per_second "$(head -n 1 "$file")")"
    [ -n "$copy" ] && bench_copy_lines+=("- $path: device-to-device copy bandwidth $(awk -v c="$copy" 'BEGIN {printf "%.4g GB/s", c / 1e9}') (all ranks, measured in the same run)")
  done
}
{
  echo "# distlops GPU validation"
  echo
  echo "- date: $(date -u '+%Y-%m-%d %H:%M UTC'); commit: $(git -C "$root" rev-parse --short HEAD 2>/dev/null || echo unknown)$(git -C "$root" diff --quiet 2>/dev/null || echo ' (with local changes)')"
  echo "- host: $(hostname), $(nproc) cores; GPUs: ${gpu_names:-none}"
  echo "- ${cuda_line:-CUDA backend: see configure.log}; ${nccl_line:-NCCL: see configure.log}"
  echo "- dependencies: ${deps:-those of the system}; MPI: $(mpiexec --version 2>&1 | head -n 1)"
  echo "- build: $build_dir, CMAKE_CUDA_ARCHITECTURES=$archs, ${#programs[@]} GPU test programs; total time $((SECONDS - start_time)) s"
  echo
  echo "## Phases"
  echo
  echo "| phase | time | result | log |"
  echo "|---|---|---|---|"
  printf '%s\n' "${phase_rows[@]}"
  if [ -f "$out/ctest-np1.log" ]; then
    echo
    echo "## GPU tests (ctest -L gpu), per program and rank count"
    echo
    test_table
  fi
  if [ -s "$out/sanitizer/results.tsv" ]; then
    echo
    echo "## compute-sanitizer, 1 rank (logs in sanitizer/)"
    echo
    echo "| program | tool | finding | time |"
    echo "|---|---|---|---|"
    sort "$out/sanitizer/results.tsv" | awk -F'\t' '{printf "| %s | %s | %s | %s |\n", $1, $2, $3, $4}'
  fi
  bench_copy_lines=()
  if ls "$out"/bench-*.json >/dev/null 2>&1; then
    echo
    echo "## Benchmarks, --space cuda"
    echo
    bench_table
    echo
    printf '%s\n' "${bench_copy_lines[@]}"
  fi
  echo
  if [ "$failed" -eq 0 ]; then echo "Result: all phases passed."; else echo "Result: FAILED (see the phases above)."; fi
} >"$summary"
note "summary: $summary"
cat "$summary"
exit "$failed"
