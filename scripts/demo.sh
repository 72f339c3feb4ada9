#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-3-Clause
# Copyright (c) 2026 The distlops authors
# Builds and runs the demo program on 2 ranks and draws its pictures: the README's demo command.
#
#   bash scripts/demo.sh [--help]
#
# Installs the missing dependencies of the demo (scripts/setup.sh --demo: not those of the
# tests), checks that the output directory can be written, configures a Release build in build/
# (the directory scripts/test.sh uses), builds only the demo program and what it links, runs it
# with mpiexec, and draws the pictures from its arrays with examples/poststack/plot_poststack.py
# (matplotlib).
#
# A fresh build directory is configured with the CUDA backend only where a GPU is visible
# (nvidia-smi lists one) or DISTLOPS_DEMO_SPACE=cuda asks for it, for that GPU's architecture
# alone, and without the tests and benchmarks (scripts/test.sh turns them on when it reuses the
# directory); an existing one keeps its settings, so that a build already made is reused.
#
# Environment knobs:
#   DISTLOPS_BUILD_DIR    build directory (default: build)
#   DISTLOPS_DEMO_RANKS   number of MPI ranks (default: 2)
#   DISTLOPS_DEMO_SPACE   where the inversion runs: host (default) or cuda (one GPU per rank)
#   DISTLOPS_SETUP        0 skips scripts/setup.sh (default: 1)
#   DISTLOPS_DEMO_OUTPUT  directory of the pictures and arrays (default: poststack-output)
#   DISTLOPS_DEMO_TV      1 also runs the TV-regularised inversion of the same data
#                         (--regularisation tv, PrimalDual) into DISTLOPS_DEMO_OUTPUT-tv and
#                         draws it beside the least-squares one (comparison.png; default: 0)
#   DISTLOPS_PYTHON       interpreter of the plotting script (default: /usr/bin/python3, the
#                         Debian interpreter that python3-matplotlib belongs to, else python3)
#
# The exit statuses are the demo program's (examples/support/exit_statuses.txt, printed by
# --help); a failed setup, configuration or build exits with 1.
set -euo pipefail

root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$root"

exit_statuses="examples/support/exit_statuses.txt"
if [ $# -gt 0 ]; then
  if [ "$1" = "--help" ] || [ "$1" = "-h" ]; then
    sed -n '/^# Builds/,/^set -euo/{/^set -euo/d;s/^# \{0,1\}//;p}' "${BASH_SOURCE[0]}"
    echo
    cat "$exit_statuses"
    exit 0
  fi
  echo "demo.sh: unknown argument '$1' (the demo takes its settings from the environment; see --help)" >&2
  exit 2
fi

# The program the demo runs: a target of examples/CMakeLists.txt, and its arguments.
demo_target="poststack_inversion"
output="${DISTLOPS_DEMO_OUTPUT:-poststack-output}"
demo_args=(--nx 256 --nz 256 --noise 0.3 --eps 1 --niter 100 --output "$output"
           --space "${DISTLOPS_DEMO_SPACE:-host}")
tv_args=(--nx 256 --nz 256 --noise 0.3 --regularisation tv --weight 0.02 --niter 100
         --output "$output-tv" --space "${DISTLOPS_DEMO_SPACE:-host}")
plot_script="examples/poststack/plot_poststack.py"

build_dir="${DISTLOPS_BUILD_DIR:-build}"
ranks="${DISTLOPS_DEMO_RANKS:-2}"
space="${DISTLOPS_DEMO_SPACE:-host}"
case "$space" in
  host | cuda) ;;
  *)
    echo "demo.sh: DISTLOPS_DEMO_SPACE must be host or cuda, got '$space'" >&2
    exit 2
    ;;
esac

# The outputs before the work (the program checks them again on every rank): a build of
# minutes must not end in a directory that cannot be written.
check_output_directory() {
  local directory="$1" probe
  if ! mkdir -p "$directory" 2>/dev/null; then
    echo "demo.sh: output directory $directory: cannot create it" >&2
    exit 4
  fi
  probe="$directory/.distlops-write-probe.$$"
  if ! (: >"$probe") 2>/dev/null; then
    echo "demo.sh: output directory $directory: cannot write in it" >&2
    exit 4
  fi
  rm -f "$probe"
}
check_output_directory "$output"
if [ "${DISTLOPS_DEMO_TV:-0}" = "1" ]; then
  check_output_directory "$output-tv"
fi

if [ "${DISTLOPS_SETUP:-1}" != "0" ]; then
  bash scripts/setup.sh --demo || exit 1
fi

configure_args=(-DCMAKE_BUILD_TYPE=Release -DDISTLOPS_ENABLE_EXAMPLES=ON)
if [ ! -f "$build_dir/CMakeCache.txt" ]; then
  if command -v ninja >/dev/null 2>&1; then
    configure_args+=(-G Ninja)
  fi
  # Only what the demo needs: no tests, no benchmarks, and device code only for a GPU that is
  # there or asked for (nvcc compiling every CUDA kernel for two architectures costs minutes).
  configure_args+=(-DDISTLOPS_ENABLE_TESTS=OFF -DDISTLOPS_ENABLE_BENCHMARKS=OFF)
  gpu_architecture=""
  if command -v nvidia-smi >/dev/null 2>&1; then
    gpu_architecture="$(nvidia-smi --query-gpu=compute_cap --format=csv,noheader 2>/dev/null |
      head -n 1 | tr -d ' .')"
  fi
  if [ -n "$gpu_architecture" ]; then
    configure_args+=(-DDISTLOPS_ENABLE_CUDA=AUTO -DCMAKE_CUDA_ARCHITECTURES="$gpu_architecture")
  elif [ "$space" = "cuda" ]; then
    configure_args+=(-DDISTLOPS_ENABLE_CUDA=ON)
  else
    configure_args+=(-DDISTLOPS_ENABLE_CUDA=OFF)
  fi
elif [ "$space" = "cuda" ]; then
  configure_args+=(-DDISTLOPS_ENABLE_CUDA=ON)
fi
cmake -S . -B "$build_dir" "${configure_args[@]}" >/dev/null || exit 1
cmake --build "$build_dir" -j "$(nproc)" --target "$demo_target" || exit 1

# The launcher of the MPI the demo was built with (FindMPI's, from the build's cache).
mpiexec="$(sed -n 's/^MPIEXEC_EXECUTABLE:[A-Z]*=//p' "$build_dir/CMakeCache.txt")"
mpiexec="${mpiexec:-mpiexec}"
# Open MPI flags: more ranks than cores are fine, no binding to cores, no single-copy shared
# memory (it needs ptrace rights that containers often lack); root needs explicit permission.
# Other MPIs (MPICH, Intel MPI, Cray) need none of these and reject them.
mpiexec_flags=()
if "$mpiexec" --version 2>&1 | grep -qi "open mpi\|open-rte\|openrte"; then
  mpiexec_flags=(--oversubscribe --bind-to none --mca btl_vader_single_copy_mechanism none)
  if [ "$(id -u)" -eq 0 ]; then
    mpiexec_flags+=(--allow-run-as-root)
  fi
  # Oversubscribed ranks yield the core while they wait instead of spinning.
  export OMPI_MCA_mpi_yield_when_idle=1
fi

echo "demo: $mpiexec -n ${ranks} ${mpiexec_flags[*]} ${build_dir}/examples/${demo_target} ${demo_args[*]}"
echo
"$mpiexec" -n "$ranks" "${mpiexec_flags[@]}" "$build_dir/examples/$demo_target" "${demo_args[@]}"

python="${DISTLOPS_PYTHON:-}"
if [ -z "$python" ]; then
  python=/usr/bin/python3
  [ -x "$python" ] || python=python3
fi
echo
echo "demo: $python $plot_script $output"
"$python" "$plot_script" "$output"

if [ "${DISTLOPS_DEMO_TV:-0}" = "1" ]; then
  echo
  echo "demo: $mpiexec -n ${ranks} ${mpiexec_flags[*]} ${build_dir}/examples/${demo_target} ${tv_args[*]}"
  echo
  "$mpiexec" -n "$ranks" "${mpiexec_flags[@]}" "$build_dir/examples/$demo_target" "${tv_args[@]}"
  echo
  echo "demo: $python $plot_script $output-tv --beside $output"
  "$python" "$plot_script" "$output-tv" --beside "$output"
fi
