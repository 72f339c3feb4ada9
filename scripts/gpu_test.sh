#!/usr/bin/env bash
# On a machine with NVIDIA GPUs: builds distlops with the CUDA backend, runs the GPU tests
# (ctest -L gpu) and the GPU benchmarks, in one go.
#
#   bash scripts/gpu_test.sh
#
# The tests of label gpu are the Cuda runs of the tests written for every memory space
# (<program>.cuda.np<N>: arrays, kernels, transports, operators and solvers against the same
# references as on the host); without a visible device they report Skipped, so this script
# refuses to run where nvidia-smi sees no GPU rather than skip them all.
#
# Environment knobs:
#   DISTLOPS_GPU_BUILD_DIR   build directory (default: build-gpu)
#   DISTLOPS_BUILD_JOBS      parallel compile jobs (default: nproc)
#   DISTLOPS_GPU_RANKS       ranks of the benchmark runs (default: the number of GPUs)
#   DISTLOPS_CUDA_ARCHS      CMAKE_CUDA_ARCHITECTURES (default: native)
set -uo pipefail

root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$root" || exit 1

build_dir="${DISTLOPS_GPU_BUILD_DIR:-build-gpu}"
build_jobs="${DISTLOPS_BUILD_JOBS:-$(nproc)}"
archs="${DISTLOPS_CUDA_ARCHS:-native}"

if ! command -v nvcc >/dev/null 2>&1; then
  echo "gpu_test.sh: nvcc not found (install the CUDA toolkit or put it on PATH)" >&2
  exit 1
fi
gpus=0
if command -v nvidia-smi >/dev/null 2>&1; then
  gpus="$(nvidia-smi --list-gpus 2>/dev/null | grep -c '^GPU' || true)"
fi
if [ "$gpus" -eq 0 ]; then
  echo "gpu_test.sh: no GPU visible to nvidia-smi; the gpu tests would only skip" >&2
  exit 1
fi
ranks="${DISTLOPS_GPU_RANKS:-$gpus}"

mpirun=(mpiexec --oversubscribe --bind-to none)
if [ "$(id -u)" -eq 0 ]; then mpirun+=(--allow-run-as-root); fi

status=0
run_phase() {
  local name="$1"
  shift
  local start=$SECONDS
  echo "== $name"
  if "$@"; then
    echo "== $name: ok ($((SECONDS - start)) s)"
  else
    echo "== $name: FAILED ($((SECONDS - start)) s)"
    status=1
  fi
}

run_phase configure cmake -S . -B "$build_dir" -DCMAKE_BUILD_TYPE=Release \
  -DDISTLOPS_ENABLE_CUDA=ON -DCMAKE_CUDA_ARCHITECTURES="$archs" \
  -DDISTLOPS_ENABLE_TESTS=ON -DDISTLOPS_ENABLE_BENCHMARKS=ON -DDISTLOPS_ENABLE_EXAMPLES=OFF
run_phase build cmake --build "$build_dir" -j "$build_jobs"
run_phase "ctest -L gpu" ctest --test-dir "$build_dir" -L gpu --output-on-failure
# Both paths of device collectives where the build has NCCL, host staging otherwise.
paths=(mpi)
if grep -q "define DISTLOPS_WITH_NCCL 1" "$build_dir/include/distlops/config.hpp" 2>/dev/null; then
  paths=(nccl mpi)
fi
for path in "${paths[@]}"; do
  run_phase "benchmarks (--space cuda, $ranks ranks, $path collectives)" \
    env DISTLOPS_GPU_COLLECTIVES="$path" \
    "${mpirun[@]}" -n "$ranks" "$build_dir/benchmarks/distlops_bench" --space cuda \
    --json "$build_dir/gpu_bench_$path.json"
done
run_phase "benchmarks (host, $ranks ranks, for comparison)" \
  "${mpirun[@]}" -n "$ranks" "$build_dir/benchmarks/distlops_bench" \
  --cases firstderivative,laplacian-apply --json "$build_dir/host_bench.json"

if [ "$status" -eq 0 ]; then echo "gpu_test.sh: all phases passed"; else echo "gpu_test.sh: some phase failed"; fi
exit "$status"
