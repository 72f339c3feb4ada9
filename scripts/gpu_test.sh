#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-3-Clause
# Copyright (c) 2026 The distlops authors
# shellcheck disable=SC2317  # phase functions run through run_phase
# Validates the CUDA backend on a lent GPU machine in one command that ends before its deadline
# (docs/gpu.md gives the call and the plan of a 15-minute lease):
#
#   bash scripts/gpu_test.sh --out DIR [--deps DIR] [--deadline SECONDS] [--phases LIST]
#                            [--dry-run] [--build-only]
#
#   --out DIR         the folder whose files come back from the machine: the summary and the
#                     records, rewritten as each phase ends, and the logs packed (5 files)
#   --deps DIR        the folder of scripts/gpu_bundle.sh (Open MPI and the build's libraries,
#                     NCCL cut to the GPU, the PyLops-MPI wheels): its env.sh is sourced first
#   --deadline S      seconds the whole command may take (default 510, for a call of 540)
#   --phases LIST     the phases to run, comma-separated (default: all, in the order below)
#   --dry-run         run nothing: every phase is reported skipped, with the plan it would follow
#   --build-only      configure and build, nothing else (no device needed)
#
# The phases, in order of value; each starts only when the time left before the deadline is at
# least its minimum, and is otherwise recorded as skipped with the reason:
#
#   probe           the machine, the driver, the NCCL versions present (the carried NCCL sums
#                   over two ranks on one GPU before it is chosen), compute-sanitizer, CuPy
#   build           configure and build the library, the GPU test programs, distlops_bench
#                   and the demo program with all cores
#   tests-np1       every GPU test program at 1 rank, and the demo's problem (--space cuda)
#   bench           distlops_bench --space cuda at 1 rank, with the device copy bandwidth
#   tests-np2       the distributed GPU tests at 2 ranks sharing the device: over NCCL's
#                   multi-rank mode (NCCL_MULTI_RANK_GPU_ENABLE=1) where the NCCL built against
#                   is 2.30 or newer, where the tests run both paths of device collectives (NCCL
#                   and staged through host memory), else staged only; small-allreduce over
#                   the 2 ranks both ways
#   peer            firstderivative, laplacian-cg and blockdiag-cgls through distlops and
#                   through PyLops-MPI on CuPy, interleaved (benchmarks/compare_pylops_mpi.py)
#   sanitizer       compute-sanitizer (memcheck, then initcheck, then racecheck) on the programs
#                   in order of value, several at once, as long as time is left
#   tests-np34      the distributed GPU tests at 3 and 4 ranks, as the library decides without
#                   the multi-rank mode (staged: its fallback for ranks that share a GPU)
#
# Everything that matters lands in --out as soon as it is known: results.tsv (one record per
# phase, test run, sanitizer run and measurement), bench.json (the benchmark and peer
# records), summary.md (the run in the form committed under docs/gpu-runs/, rewritten after
# every phase), logs.tar.gz (every log, repacked after every phase) and progress.log. A call
# stopped at any point returns all that was done before. Exit status: 0 when nothing that ran
# failed, 77 when no GPU is visible (every phase skipped), 1 otherwise.
#
# Environment knobs:
#   DISTLOPS_GPU_BUILD_DIR      build directory (default: build-gpu); logs in <it>/validation
#   DISTLOPS_BUILD_JOBS         parallel compile jobs (default: nproc)
#   DISTLOPS_CUDA_ARCHS         CMAKE_CUDA_ARCHITECTURES (default: the device's, else 90)
#   DISTLOPS_GPU_NCCL_JOBS      processors ctest may use in tests-np2 over NCCL (default: 8;
#                               the ranks of a communicator take turns on the GPU)
#   DISTLOPS_SANITIZER_TIMEOUT  seconds one sanitizer run may take (default: 150)
#   DISTLOPS_SANITIZER_JOBS     sanitizer runs at once (default: 8)
set -uo pipefail

usage() {
  sed -n '\|^#   bash scripts/gpu_test.sh|,\|^#   --build-only|p' "${BASH_SOURCE[0]}" | sed 's/^# \{0,1\}//'
}

root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
all_phases=(probe build tests-np1 bench tests-np2 peer sanitizer tests-np34)
out=""
deps=""
deadline_seconds=510
wanted_phases=""
dry_run=0
build_only=0
while [ $# -gt 0 ]; do
  case "$1" in
    --out | --deps | --deadline | --phases)
      [ $# -ge 2 ] || { echo "gpu_test.sh: $1 needs a value" >&2; exit 2; }
      case "$1" in
        --out) out="$2" ;;
        --deps) deps="$2" ;;
        --deadline) deadline_seconds="$2" ;;
        --phases) wanted_phases="$2" ;;
      esac
      shift 2
      ;;
    --dry-run) dry_run=1; shift ;;
    --build-only) build_only=1; shift ;;
    -h | --help) usage; exit 0 ;;
    *) echo "gpu_test.sh: unknown argument '$1'" >&2; usage >&2; exit 2 ;;
  esac
done
[[ "$deadline_seconds" =~ ^[0-9]+$ ]] || { echo "gpu_test.sh: --deadline takes seconds" >&2; exit 2; }
for wanted in ${wanted_phases//,/ }; do
  [[ " ${all_phases[*]} " == *" $wanted "* ]] ||
    { echo "gpu_test.sh: unknown phase '$wanted' (${all_phases[*]})" >&2; exit 2; }
done
[ "$build_only" -eq 1 ] && wanted_phases="probe,build"

cd "$root" || exit 1
start_time=$SECONDS
deadline_at=$((start_time + deadline_seconds))
reserve=8  # seconds kept for the last summary and the logs' archive
build_dir="${DISTLOPS_GPU_BUILD_DIR:-build-gpu}"
out="${out:-$build_dir/summary}"
mkdir -p "$out" "$build_dir/validation/logs" || exit 1
out="$(cd "$out" && pwd)"
work="$(cd "$build_dir/validation" && pwd)"
logs="$work/logs"
rm -f "$out"/{summary.md,results.tsv,bench.json,logs.tar.gz,progress.log} "$logs"/*.log \
  "$logs"/*.json
exec > >(tee -a "$out/progress.log") 2>&1
report() { python3 "$root/scripts/gpu_report.py" "$@"; }

# ---- records --------------------------------------------------------------------------------------
# record <kind> <phase> <name> <ranks> <outcome> <seconds> <detail>: one line of results.tsv.
record() {
  local fields=() value
  for value in "$@"; do fields+=("$(printf '%s' "$value" | tr '\t\n' '  ')"); done
  (IFS=$'\t'; printf '%s\n' "${fields[*]}") >>"$out/results.tsv"
}
fact() { record fact "" "$1" "" "" "" "$2"; }
note() { echo "gpu_test.sh [$((SECONDS - start_time)) s]: $*"; }
remaining() { echo $((deadline_at - SECONDS - reserve)); }
publish() {
  report render "$out" || note "the summary could not be written"
  tar -czf "$out/.logs.tar.gz.partial" -C "$work" logs 2>/dev/null &&
    mv -f "$out/.logs.tar.gz.partial" "$out/logs.tar.gz"
}
# bounded <seconds> <command...>: the command, ended after that many seconds or at the deadline,
# whichever comes first (and killed 10 s later if it lingers).
bounded() {
  local limit="$1" left
  shift
  left=$(remaining)
  [ "$left" -lt "$limit" ] && limit="$left"
  if [ "$limit" -le 5 ]; then
    echo "no time left before the deadline"
    return 124
  fi
  timeout --kill-after=10 "$limit" "$@"
}

# ---- the scheduler ----------------------------------------------------------------------------------
# Seconds a phase takes on one H100 with 16 cores (the runs of 2026-11-24 in docs/gpu.md, until a
# summary in docs/gpu-runs/ gives better), and the least time in which it still does something
# useful (a ctest phase cut by the deadline reports the tests it could not start as not run).
declare -A estimate=([probe]=20 [build]=150 [tests-np1]=90 [bench]=40 [tests-np2]=120 [peer]=60
  [sanitizer]=120 [tests-np34]=200)
declare -A minimum=([probe]=10 [build]=120 [tests-np1]=45 [bench]=25 [tests-np2]=40 [peer]=30
  [sanitizer]=45 [tests-np34]=40)
failed=0
planned_at=0  # the dry run's clock
phase_note=""
wants() { [ -z "$wanted_phases" ] || [[ ",$wanted_phases," == *",$1,"* ]]; }

# run_phase <name>: runs phase_<name> (with - as _) within the time left, or records why not.
run_phase() {
  local name="$1" left blocker
  left=$(remaining)
  if ! wants "$name"; then
    if [ "$name" = probe ] && [ -f "$work/probe-facts.tsv" ] && [ "$dry_run" -eq 0 ]; then
      cat "$work/probe-facts.tsv" >>"$out/results.tsv"
      record phase probe probe "" skipped "" "not in --phases: the facts of the probe of an earlier call"
    else
      record phase "$name" "$name" "" skipped "" "not in --phases"
    fi
    return
  fi
  if [ "$dry_run" -eq 1 ]; then
    local at=$planned_at
    if [ $((deadline_seconds - reserve - at)) -ge "${minimum[$name]}" ]; then
      planned_at=$((at + estimate[$name]))
      record phase "$name" "$name" "" skipped "" "dry run: would start at about $at s and take \
about ${estimate[$name]} s (at least ${minimum[$name]} s)"
    else
      record phase "$name" "$name" "" skipped "" "dry run: would not start: about \
$((deadline_seconds - reserve - at)) s left at that point, it needs ${minimum[$name]} s"
    fi
    return
  fi
  blocker="$(blocker_of "$name")"
  if [ -n "$blocker" ]; then
    record phase "$name" "$name" "" skipped "" "$blocker"
    note "$name: skipped ($blocker)"
    return
  fi
  if [ "$left" -lt "${minimum[$name]}" ]; then
    record phase "$name" "$name" "" skipped "" \
      "needs at least ${minimum[$name]} s, $left s left before the deadline"
    note "$name: skipped, $left s left"
    return
  fi
  local started=$SECONDS status=0
  phase_note=""
  nccl_env=()
  [ -n "$nccl_root" ] && nccl_env=("LD_LIBRARY_PATH=$nccl_root/lib${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}")
  record phase "$name" "$name" "" running "" "started at $((started - start_time)) s"
  publish
  note "== $name (budget $left s)"
  "phase_${name//-/_}" || status=$?
  local outcome=passed
  case "$status" in
    0) ;;
    3) outcome=partial ;;  # stopped by the deadline, nothing failed
    77) outcome=skipped ;;
    *) outcome=failed; failed=1 ;;
  esac
  record phase "$name" "$name" "" "$outcome" "$((SECONDS - started))" "$phase_note"
  note "== $name: $outcome in $((SECONDS - started)) s${phase_note:+ ($phase_note)}"
  publish
}

# Why a phase cannot run at all (empty: it can).
blocker_of() {
  case "$1" in
    probe) return ;;
  esac
  if [ "$gpus" -eq 0 ] && [ "$build_only" -eq 0 ]; then
    echo "no GPU visible ($gpu_absence)"
    return
  fi
  case "$1" in
    build) [ -n "$environment_problem" ] && echo "$environment_problem" ;;
    *)
      if [ "$build_ok" -ne 1 ]; then
        echo "nothing built to run (the build phase did not succeed in this call or before)"
      elif [ "$1" = peer ] && [ -n "$peer_problem" ]; then
        echo "$peer_problem"
      elif [ "$1" = sanitizer ] && [ -z "$sanitizer" ]; then
        echo "compute-sanitizer not found beside nvcc"
      fi
      ;;
  esac
}

# ---- the environment ----------------------------------------------------------------------------
environment_problem=""
if [ -n "$deps" ] && [ "$dry_run" -eq 0 ]; then
  if [ ! -f "$deps/env.sh" ]; then
    environment_problem="--deps $deps: no env.sh there (make the folder with scripts/gpu_bundle.sh)"
  else
    deps="$(cd "$deps" && pwd)"
    glibc_needed="$(sed -n 's/^glibc_needed: //p' "$deps/MANIFEST" 2>/dev/null)"
    glibc_here="$(getconf GNU_LIBC_VERSION 2>/dev/null | awk '{print $2}')"
    if [ -n "$glibc_needed" ] && [ -n "$glibc_here" ] &&
      [ "$(printf '%s\n%s\n' "$glibc_needed" "$glibc_here" | sort -V | head -n 1)" != "$glibc_needed" ]; then
      environment_problem="the bundle needs glibc $glibc_needed, this machine has $glibc_here"
    else
      # shellcheck source=/dev/null
      . "$deps/env.sh"
    fi
  fi
fi
if ! command -v nvcc >/dev/null 2>&1 && [ -x /usr/local/cuda/bin/nvcc ]; then
  export PATH="/usr/local/cuda/bin:$PATH"
fi
# The toolkit's libraries (cuBLAS and cuFFT, opened on first use by their SONAME).
for folder in /usr/local/cuda/lib64 /usr/local/cuda/lib; do
  [ -d "$folder" ] && export LD_LIBRARY_PATH="${LD_LIBRARY_PATH:+$LD_LIBRARY_PATH:}$folder"
done
for tool in nvcc cmake mpiexec; do
  if [ -z "$environment_problem" ] && ! command -v "$tool" >/dev/null 2>&1; then
    environment_problem="$tool not found (give --deps DIR for MPI, put the CUDA toolkit on PATH)"
  fi
done
mpiexec_flags=()
if mpiexec --version 2>&1 | grep -qi "open mpi\|openrte\|open-rte"; then
  mpiexec_flags=(--oversubscribe --bind-to none --mca btl_vader_single_copy_mechanism none)
  if [ "$(id -u)" -eq 0 ]; then mpiexec_flags+=(--allow-run-as-root); fi
fi
gpus=0
gpu_absence="nvidia-smi not found"
if command -v nvidia-smi >/dev/null 2>&1; then
  gpus="$(timeout 20 nvidia-smi --list-gpus 2>/dev/null | grep -c '^GPU' || true)"
  gpu_absence="nvidia-smi lists none"
fi
sanitizer="$(command -v compute-sanitizer || true)"
if [ -z "$sanitizer" ] && command -v nvcc >/dev/null 2>&1 &&
  [ -x "$(dirname "$(command -v nvcc)")/compute-sanitizer" ]; then
  sanitizer="$(dirname "$(command -v nvcc)")/compute-sanitizer"
fi
# What a probe of an earlier call on this machine chose (the phases may be split over calls).
build_ok=0
[ -f "$work/built" ] && [ -f "$build_dir/CMakeCache.txt" ] && build_ok=1
nccl_root=""
nccl_multi_rank=0
nccl_multi_rank_reason="no NCCL probed yet (the probe phase chooses the NCCL)"
# shellcheck source=/dev/null
[ -f "$work/nccl.env" ] && . "$work/nccl.env"
peer_problem=""
nccl_env=()

# ---- the run's identity ---------------------------------------------------------------------------
# The commit: from git where the tree came with its history, else the bundle's stamp, checked
# against the files here (scripts/gpu_bundle.sh lists them and their digest).
commit_of_tree() {
  if git -C "$root" rev-parse --short HEAD >/dev/null 2>&1; then
    local id
    id="$(git -C "$root" rev-parse --short HEAD)"
    if git -C "$root" diff --quiet HEAD 2>/dev/null; then echo "$id"; else echo "$id with local changes"; fi
  elif [ -n "$deps" ] && [ -f "$deps/SOURCES" ]; then
    local stamped digest
    stamped="$(sed -n 's/^commit: //p' "$deps/MANIFEST")"
    digest="$(cd "$root" && tr '\n' '\0' <"$deps/SOURCES" | xargs -0 sha256sum 2>/dev/null | sha256sum | cut -c1-16)"
    if [ "$digest" = "$(sed -n 's/^sources: //p' "$deps/MANIFEST" | cut -c1-16)" ]; then
      echo "$stamped (no history here: the bundle's commit, whose files match these)"
    else
      echo "$stamped with changes since (no history here; the files differ from the bundle's commit)"
    fi
  else
    echo "unknown (no history here, no bundle stamp)"
  fi
}
run_date="$(date -u '+%Y-%m-%d %H:%M UTC')"
commit="$(commit_of_tree)"
gpu_name=""
[ "$gpus" -gt 0 ] && gpu_name="$(timeout 20 nvidia-smi --query-gpu=name --format=csv,noheader | head -n 1)"
short_gpu="$(echo "${gpu_name:-no-gpu}" | sed -E 's/NVIDIA //; s/ .*//' | tr '[:upper:]' '[:lower:]')"
fact date "$run_date"
fact file "$(date -u +%Y-%m-%d)-${short_gpu}-${commit%% *}.md"
fact commit "$commit"
fact host "$(nproc) cores, $(sed -n 's/^PRETTY_NAME="\(.*\)"/\1/p' /etc/os-release 2>/dev/null), glibc $(getconf GNU_LIBC_VERSION 2>/dev/null | awk '{print $2}')"
fact gpu "${gpu_name:-none visible ($gpu_absence)}"
if [ "$dry_run" -eq 1 ]; then
  fact call "dry run: nothing runs; deadline $deadline_seconds s"
fi

# ---- probe ----------------------------------------------------------------------------------------
phase_probe() {
  local log="$logs/probe.log"
  {
    timeout 20 nvidia-smi || true
    timeout 20 nvidia-smi -q | sed -n '1,40p' || true
    nvcc --version || true
    [ -n "$sanitizer" ] && "$sanitizer" --version
    mpiexec --version
    command -v nvidia-cuda-mps-control || echo "no nvidia-cuda-mps-control"
  } >"$log" 2>&1
  if [ "$gpus" -gt 0 ]; then
    fact gpu "$(timeout 20 nvidia-smi --query-gpu=name,memory.total,compute_cap --format=csv,noheader | head -n 1 | sed 's/, / /g;s/ \([0-9.]*\)$/, compute capability \1/') ($gpus visible)"
    fact driver "$(timeout 20 nvidia-smi --query-gpu=driver_version --format=csv,noheader | head -n 1), CUDA $(timeout 20 nvidia-smi | sed -n 's/.*CUDA Version: \([0-9.]*\).*/\1/p' | head -n 1)"
  fi
  fact cuda "$(nvcc --version 2>/dev/null | sed -n 's/.*release \([0-9.]*\), V\([0-9.]*\).*/\2/p')"
  fact mpi "$(mpiexec --version 2>&1 | head -n 1)${deps:+ (from $(basename "$deps"))}"
  fact sanitizer "${sanitizer:+$("$sanitizer" --version 2>/dev/null | tail -n 1)}${sanitizer:-not found}"
  fact python "$(timeout 60 python3 - 2>>"$log" <<'EOF' || echo "python3 failed"
import importlib.metadata as metadata
import importlib.util
import sys


def version(module, distribution):
    if importlib.util.find_spec(module) is None:
        return "absent"
    try:
        return metadata.version(distribution)
    except metadata.PackageNotFoundError:
        return "present"


print(f"Python {sys.version.split()[0]}, CuPy {version('cupy', 'cupy-cuda13x')}, "
      f"mpi4py {version('mpi4py', 'mpi4py')} (the image's)")
EOF
)"

  # NCCL: the carried one (2.30 or newer, cut to the GPU) is chosen when it sums over two ranks
  # on the device; else the image's (its nvidia-nccl wheel). Without a GPU (--build-only) the
  # first that loads.
  local image_lib carried_lib="" candidate label lib check version code
  image_lib="$(timeout 60 python3 -c 'import nvidia.nccl as m, os; print(os.path.join(list(m.__path__)[0], "lib", "libnccl.so.2"))' 2>/dev/null)"
  [ -n "${DISTLOPS_DEPS_NCCL:-}" ] && carried_lib="$DISTLOPS_DEPS_NCCL/lib/libnccl.so.2"
  nccl_root=""
  nccl_multi_rank=0
  nccl_multi_rank_reason="no usable NCCL (probe.log)"
  for candidate in "carried:$carried_lib" "image:$image_lib"; do
    label="${candidate%%:*}"
    lib="${candidate#*:}"
    if [ -z "$lib" ] || [ ! -f "$lib" ]; then
      fact "nccl-$label" "none"
      continue
    fi
    check="$(timeout 60 python3 "$root/scripts/gpu_nccl_check.py" "$lib" 2>>"$log")"
    version="$(echo "$check" | sed -n 's/^version [0-9]* //p')"
    code="$(echo "$check" | sed -n 's/^version \([0-9]*\) .*/\1/p')"
    # The sum over two ranks on the GPU, where the version has the multi-rank mode.
    if [ "$gpus" -gt 0 ] && [ -n "$code" ] && [ "$code" -ge 23000 ]; then
      check="$(timeout 90 python3 "$root/scripts/gpu_nccl_check.py" "$lib" --two-ranks-on-one-gpu 2>>"$log")"
      [ $? -eq 124 ] && check="$check"$'\n'"sum failed: no answer within 90 s"
    fi
    echo "$label NCCL $lib: $check" >>"$log"
    fact "nccl-$label" "${version:-unloadable}, $lib; $(echo "$check" | tail -n 1)"
    if [ -z "$code" ] || [ -n "$nccl_root" ]; then
      continue
    elif [ "$gpus" -eq 0 ]; then
      nccl_root="$(dirname "$(dirname "$lib")")"
      nccl_multi_rank_reason="no GPU to try NCCL $version on"
    elif [ "$code" -ge 23000 ] && echo "$check" | grep -q "^sum ok"; then
      nccl_root="$(dirname "$(dirname "$lib")")"
      nccl_multi_rank=1
      nccl_multi_rank_reason=""
    elif [ "$code" -lt 23000 ]; then
      nccl_root="$(dirname "$(dirname "$lib")")"
      nccl_multi_rank_reason="NCCL $version ($label) is older than 2.30: ranks that share the GPU stage through host memory"
    elif [ "$label" = image ]; then
      nccl_root="$(dirname "$(dirname "$lib")")"
      nccl_multi_rank_reason="NCCL $version ($label) failed the sum over two ranks on one GPU: $(echo "$check" | tail -n 1)"
    fi
  done
  {
    printf 'nccl_root=%q\n' "$nccl_root"
    printf 'nccl_multi_rank=%q\n' "$nccl_multi_rank"
    printf 'nccl_multi_rank_reason=%q\n' "$nccl_multi_rank_reason"
  } >"$work/nccl.env"
  fact nccl "chosen: ${nccl_root:-none}"
  fact nccl-multi-rank "$([ "$nccl_multi_rank" -eq 1 ] && echo "possible: NCCL_MULTI_RANK_GPU_ENABLE=1 in tests-np2" || echo "$nccl_multi_rank_reason")"
  # For a later call on this machine that leaves the probe out.
  awk -F'\t' '$1 == "fact" && $3 !~ /^(date|file|commit|call)$/' "$out/results.tsv" >"$work/probe-facts.tsv"
  if [ "$gpus" -eq 0 ]; then
    phase_note="no GPU visible ($gpu_absence): facts gathered, nothing else"
    return 77
  fi
}

# ---- build ----------------------------------------------------------------------------------------
phase_build() {
  local archs generator=() nccl_args=() targets
  if [ -n "${DISTLOPS_CUDA_ARCHS:-}" ]; then
    archs="$DISTLOPS_CUDA_ARCHS"
  elif [ "$gpus" -gt 0 ]; then
    archs="$(nvidia-smi --query-gpu=compute_cap --format=csv,noheader 2>/dev/null | tr -d ' .' | sort -u | paste -sd';')"
    [[ "$archs" =~ ^[0-9]+[a-z]?(\;[0-9]+[a-z]?)*$ ]] || archs=native
  else
    archs=90
  fi
  command -v ninja >/dev/null 2>&1 && generator=(-G Ninja)
  if [ -n "$nccl_root" ]; then
    nccl_args=(-DDISTLOPS_NCCL_INCLUDE_DIR="$nccl_root/include"
      -DDISTLOPS_NCCL_LIBRARY="$nccl_root/lib/libnccl.so.2")
  fi
  rm -f "$work/built"
  build_ok=0
  if ! bounded 120 cmake -S . -B "$build_dir" "${generator[@]}" -DCMAKE_BUILD_TYPE=Release \
    -DDISTLOPS_ENABLE_CUDA=ON -DDISTLOPS_ENABLE_NCCL=ON "${nccl_args[@]}" \
    -DDISTLOPS_TEST_CUDA_INSTANCES=ON \
    -DCMAKE_CUDA_ARCHITECTURES="$archs" -DDISTLOPS_WARNINGS_AS_ERRORS=OFF \
    -DDISTLOPS_ENABLE_TESTS=ON -DDISTLOPS_ENABLE_BENCHMARKS=ON -DDISTLOPS_ENABLE_EXAMPLES=ON \
    -DDISTLOPS_TEST_INSTALL=OFF -DDISTLOPS_ENABLE_FUZZING=OFF >"$logs/configure.log" 2>&1; then
    phase_note="the configure step failed (configure.log)"
    return 1
  fi
  fact cuda "$(sed -n 's/^-- distlops: CUDA backend \(.*\)/\1/p' "$logs/configure.log" | head -n 1)"
  fact nccl "$(sed -n 's/^-- distlops: \(NCCL .*\)/\1/p' "$logs/configure.log" | head -n 1)"
  # The programs of the GPU runs, the benchmark driver, the device gate and the demo.
  mapfile -t targets < <(report tests "$build_dir" '\.cuda\.np[0-9]+$' | cut -f2 | xargs -n 1 basename | sort -u)
  if [ "${#targets[@]}" -eq 0 ]; then
    phase_note="no GPU tests registered (is the CUDA backend on? configure.log)"
    return 1
  fi
  if ! bounded "$(remaining)" cmake --build "$build_dir" -j "${DISTLOPS_BUILD_JOBS:-$(nproc)}" \
    --target distlops distlops_bench distlops_device_gate "${targets[@]}" >"$logs/build.log" 2>&1; then
    phase_note="the build failed or ran out of time (build.log)"
    return 1
  fi
  touch "$work/built"
  build_ok=1
  phase_note="${#targets[@]} programs, CMAKE_CUDA_ARCHITECTURES=$archs"
}

# ---- GPU tests ------------------------------------------------------------------------------------
# run_ctest <phase> <regular expression of test names> <collectives, for the records> <jobs>
#           [VAR=value...]: the GPU tests whose names match, ended at the deadline (ctest's stop
# time; the tests it could not start are recorded as not run). Returns 0 when all passed, 3 when
# only the deadline stopped some, 1 when any failed.
run_ctest() {
  local phase="$1" regex="$2" detail="$3" jobs="$4"
  shift 4
  local log="$logs/ctest-$phase.log" names="$work/names-$phase" stop
  ctest --test-dir "$build_dir" -N -L gpu -R "$regex" 2>/dev/null |
    sed -n 's/.*Test *#[0-9]*: \(.*\)$/\1/p' >"$names"
  stop=$((SECONDS + $(remaining) - 5))
  bounded "$(remaining)" env "$@" MPIEXEC_TIMEOUT=280 ctest --test-dir "$build_dir" -L gpu \
    -R "$regex" -j "$jobs" --output-on-failure --no-tests=error \
    --stop-time "$(date -d "@$(($(date +%s) + stop - SECONDS))" +%H:%M:%S)" >"$log" 2>&1
  report ctest "$phase" "$detail" "$log" "$names" >>"$out/results.tsv"
  local outcomes
  outcomes="$(awk -F'\t' -v p="$phase" '$1 == "test" && $2 == p {print $5}' "$out/results.tsv")"
  # A visible device and a skipped GPU test: some rank did not get the device.
  if echo "$outcomes" | grep -qv '^\(passed\|not run\|deadline\)$'; then
    phase_note="$(echo "$outcomes" | sort | uniq -c | awk '{n=$1; $1=""; printf "%s%s %s", s, n, substr($0,2); s=", "}')"
    return 1
  fi
  phase_note="$(echo "$outcomes" | sort | uniq -c | awk '{n=$1; $1=""; printf "%s%s %s", s, n, substr($0,2); s=", "}')"
  echo "$outcomes" | grep -q '^\(not run\|deadline\)$' && return 3
  return 0
}

phase_tests_np1() {
  local status=0
  run_ctest tests-np1 '\.cuda\.np1$' "1 rank (no collective crosses ranks)" "$(nproc)" \
    "${nccl_env[@]}" DISTLOPS_GPU_COLLECTIVES=nccl || status=$?
  # The README demo's problem (scripts/demo.sh) on the device, at 1 rank.
  local started=$SECONDS demo_status=0
  bounded 150 env "${nccl_env[@]}" MPIEXEC_TIMEOUT=120 mpiexec -n 1 "${mpiexec_flags[@]}" \
    "$build_dir/examples/poststack_inversion" --nx 256 --nz 256 --noise 0.3 --eps 1 --niter 100 \
    --space cuda --output "$work/demo-np1" >"$logs/demo-np1.log" 2>&1 || demo_status=$?
  record run tests-np1 "demo: poststack_inversion --space cuda (the README's problem)" 1 \
    "$([ "$demo_status" -eq 0 ] && echo passed || echo "failed (exit status $demo_status)")" \
    "$((SECONDS - started))" "$(grep -E 'relative to ln\(impedance\)|total time' "$logs/demo-np1.log" | sed 's/  */ /g' | paste -sd';')"
  if [ "$demo_status" -ne 0 ]; then
    phase_note="$phase_note; the demo failed (demo-np1.log)"
    return 1
  fi
  return "$status"
}

# bench_run <phase> <collectives> <ranks> <json> <multi-rank 0|1> [arguments...]: one
# distlops_bench --space cuda run, its records kept.
bench_run() {
  local phase="$1" detail="$2" ranks="$3" json="$4" multi_rank="$5" status=0
  shift 5
  bounded 240 env "${nccl_env[@]}" NCCL_MULTI_RANK_GPU_ENABLE="$multi_rank" MPIEXEC_TIMEOUT=200 \
    mpiexec -n "$ranks" "${mpiexec_flags[@]}" "$build_dir/benchmarks/distlops_bench" \
    --space cuda --json "$json" "$@" >"${json%.json}.log" 2>&1 || status=$?
  # The library says so when ranks that share the GPU fall back to staging.
  grep -q "are staged through host memory" "${json%.json}.log" && detail="$detail; the library staged them"
  report bench "$phase" "$detail" "$json" "$out" >>"$out/results.tsv"
  return "$status"
}

phase_bench() {
  bench_run bench "1 rank" 1 "$logs/bench-np1.json" 0 || {
    phase_note="distlops_bench failed (bench-np1.log)"
    return 1
  }
  phase_note="$(grep -c . "$logs/bench-np1.json") cases"
}

phase_peer() {
  local site="$work/peer-site" status=0
  if [ ! -d "$site/pylops_mpi" ]; then
    python3 -m pip install -q --no-index --no-deps --no-compile --no-cache-dir --upgrade \
      --target "$site" "$DISTLOPS_DEPS_WHEELS"/*.whl >"$logs/peer-install.log" 2>&1 || {
      phase_note="the wheels did not install (peer-install.log)"
      return 1
    }
  fi
  # mpi4py opens the MPI library it finds first: the bundle's Open MPI, that of its mpiexec.
  local libmpi mpi4py_env=()
  libmpi="$(find "${DISTLOPS_DEPS:-/nonexistent}/usr/lib" -name 'libmpi.so.40' 2>/dev/null | head -n 1)"
  [ -n "$libmpi" ] && mpi4py_env=(MPI4PY_MPIABI=openmpi "MPI4PY_LIBMPI=$libmpi")
  bounded "$(remaining)" env "${nccl_env[@]}" "${mpi4py_env[@]}" PYTHONUNBUFFERED=1 \
    PYTHONPATH="$site${PYTHONPATH:+:$PYTHONPATH}" \
    python3 benchmarks/compare_pylops_mpi.py --space cuda --ranks 1 \
    --cases firstderivative,laplacian-cg,blockdiag-cgls \
    --bench "$build_dir/benchmarks/distlops_bench" --json "$logs/peer.json" \
    >"$logs/peer.log" 2>&1 || status=$?
  report bench peer "1 rank" "$logs/peer.json" "$out" >>"$out/results.tsv"
  [ "$status" -eq 0 ] || { phase_note="the comparison failed (peer.log)"; return 1; }
  local measured failed_cases
  measured="$(grep '"pylops-mpi"' "$logs/peer.json" | grep -vc '"error"')"
  failed_cases="$(grep '"pylops-mpi"' "$logs/peer.json" | grep -c '"error"')"
  phase_note="$measured cases measured through PyLops-MPI, $failed_cases failed there"
  [ "$failed_cases" -eq 0 ]
}
if [ -z "${DISTLOPS_DEPS_WHEELS:-}" ] || ! ls "${DISTLOPS_DEPS_WHEELS}"/pylops_mpi-*.whl >/dev/null 2>&1; then
  peer_problem="no PyLops-MPI wheels (scripts/gpu_bundle.sh gathers them into the --deps folder)"
fi

phase_tests_np2() {
  local status=0 mode=0 detail="staged through host memory ($nccl_multi_rank_reason)"
  if [ "$nccl_multi_rank" -eq 1 ]; then
    mode=1
    detail="NCCL multi-rank mode and staged (the tests run both paths)"
  fi
  run_ctest tests-np2 '\.cuda\.np2$' "$detail" \
    "$([ "$mode" -eq 1 ] && echo "${DISTLOPS_GPU_NCCL_JOBS:-8}" || nproc)" "${nccl_env[@]}" \
    NCCL_MULTI_RANK_GPU_ENABLE="$mode" || status=$?
  local tests_note="$phase_note"
  if [ "$mode" -eq 1 ] && grep -q "are staged through host memory" "$logs/ctest-tests-np2.log"; then
    record note tests-np2 "" "" "" "" "the library fell back to staging in some runs despite the multi-rank mode"
  fi
  # small-allreduce: the sums of a solver's batch of scalars across the 2 ranks, both ways.
  local path
  for path in staged nccl; do
    [ "$path" = nccl ] && [ "$mode" -eq 0 ] && continue
    if ! bench_run tests-np2 "$([ "$path" = nccl ] && echo "NCCL multi-rank" || echo staged)" 2 \
      "$logs/bench-np2-$path.json" "$([ "$path" = nccl ] && echo 1 || echo 0)" \
      --cases small-allreduce,small-allreduce-plain; then
      status=1
      tests_note="$tests_note; small-allreduce ($path) failed (bench-np2-$path.log)"
    fi
  done
  phase_note="$tests_note"
  return "$status"
}

# ---- compute-sanitizer ----------------------------------------------------------------------------
# The programs in order of value: the kernels and memory first, then the collectives, the
# operators with their own kernels and the solvers; a sanitizer run costs 10 to 50 times a plain
# one, so each has a limit and none starts without the time for it.
sanitizer_order=(test_kernels test_buffer test_transport test_distributed_array test_derivatives
  test_halo test_cg test_least_squares test_stacks test_linear_operator test_reshape
  test_local_transpose test_local_pad test_local_convolve1d test_fft_local test_stacked_array
  test_solver_collectives test_local_diagonal test_local_identity test_local_restriction
  test_local_matrix_mult test_local_function_operator test_local_derivatives
  test_local_laplacian test_sliding test_convolve test_matrix_mult test_fredholm_mdc
  test_fft_distributed test_sparse test_proximal test_proximal_solvers test_poststack_modelling
  test_poststack)
sanitize_one() {
  local tool="$1" program="$2" limit="$3" executable arguments=() line
  line="$(grep -P "^\Q$program\E\.cuda\.np1\t" "$work/commands-np1" | head -n 1)"
  IFS=$'\t' read -r -a arguments <<<"$line"
  executable="${arguments[1]}"
  arguments=("${arguments[@]:2}")
  local log="$logs/sanitizer-$program.$tool.log" started=$SECONDS status=0
  timeout --kill-after=10 $((limit + 10)) env "${nccl_env[@]}" DISTLOPS_GPU_COLLECTIVES=nccl \
    MPIEXEC_TIMEOUT="$limit" mpiexec -n 1 "${mpiexec_flags[@]}" "$sanitizer" \
    --tool "$tool" --error-exitcode 86 --print-limit 20 "$executable" "${arguments[@]}" \
    >"$log" 2>&1 || status=$?
  local errors verdict
  errors="$(sed -n 's/.*ERROR SUMMARY: \([0-9]*\) error.*/\1/p' "$log" | tail -n 1)"
  if [ "$status" -eq 0 ]; then
    verdict=clean
  elif [ "$status" -eq 124 ] || [ "$status" -eq 137 ] || grep -q "MPIEXEC_TIMEOUT\|timed out" "$log"; then
    verdict="timed out"
  elif [ -n "$errors" ] && [ "$errors" != 0 ]; then
    verdict="$errors errors"
  else
    verdict="failed (exit status $status)"
  fi
  local first=""
  [ "$verdict" = clean ] ||
    first="$(grep -v 'ERROR SUMMARY' "$log" | grep -m1 -E '^========= (Invalid|Uninitialized|Race|Program hit|.*[Ee]rror)' | sed 's/^========= //')"
  record sanitizer sanitizer "$program" 1 "$verdict" "$((SECONDS - started))" "$tool${first:+: $first}"
}
phase_sanitizer() {
  report tests "$build_dir" '\.cuda\.np1$' >"$work/commands-np1"
  local cap="${DISTLOPS_SANITIZER_TIMEOUT:-150}" jobs="${DISTLOPS_SANITIZER_JOBS:-8}"
  local tool program started=0 skipped=0 limit pids=()
  # The runs in flight (by process id: a plain `wait` would also wait for the output's tee).
  running() {
    local pid count=0
    for pid in "${pids[@]}"; do kill -0 "$pid" 2>/dev/null && count=$((count + 1)); done
    echo "$count"
  }
  for tool in memcheck initcheck racecheck; do
    for program in "${sanitizer_order[@]}"; do
      grep -qP "^\Q$program\E\.cuda\.np1\t" "$work/commands-np1" || continue
      while [ "$(running)" -ge "$jobs" ]; do sleep 1; done
      limit=$(($(remaining) - 15))
      [ "$limit" -gt "$cap" ] && limit="$cap"
      if [ "$limit" -lt 30 ]; then
        skipped=$((skipped + 1))
        continue
      fi
      sanitize_one "$tool" "$program" "$limit" &
      pids+=("$!")
      started=$((started + 1))
    done
  done
  [ "${#pids[@]}" -eq 0 ] || wait "${pids[@]}"
  phase_note="$started runs, $skipped left for lack of time"
  awk -F'\t' '$1 == "sanitizer" && $5 != "clean" {bad = 1} END {exit bad}' "$out/results.tsv" || return 1
  [ "$skipped" -gt 0 ] && return 3
  return 0
}

phase_tests_np34() {
  # Without the multi-rank mode: the library's own decision for ranks that share a GPU.
  run_ctest tests-np34 '\.cuda\.np(3|4)$' "staged through host memory (the library's fallback)" \
    "$(nproc)" "${nccl_env[@]}" NCCL_MULTI_RANK_GPU_ENABLE=0
}

# ---- the run ----------------------------------------------------------------------------------------
note "deadline $deadline_seconds s; output in $out"
for phase in "${all_phases[@]}"; do
  run_phase "$phase"
done
fact call "$([ "$dry_run" -eq 1 ] && echo "dry run, nothing ran; ")deadline $deadline_seconds s, took $((SECONDS - start_time)) s"
publish
note "summary: $out/summary.md"
if [ "$dry_run" -eq 0 ] && [ "$gpus" -eq 0 ] && [ "$build_only" -eq 0 ]; then
  exit 77
fi
exit "$failed"
