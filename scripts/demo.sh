#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-3-Clause
# Copyright (c) 2026 The distlops authors
# Builds and runs the demo program on 2 ranks and draws its pictures: the README's demo command.
#
#   bash scripts/demo.sh
#
# Installs missing dependencies (scripts/setup.sh), configures a Release build in build/ (the
# directory scripts/test.sh uses), builds only the demo program, runs it with mpiexec, and
# draws the pictures from its arrays with examples/poststack/plot_poststack.py (matplotlib).
#
# Environment knobs:
#   DISTLOPS_BUILD_DIR    build directory (default: build)
#   DISTLOPS_DEMO_RANKS   number of MPI ranks (default: 2)
#   DISTLOPS_SETUP        0 skips scripts/setup.sh (default: 1)
#   DISTLOPS_DEMO_OUTPUT  directory of the pictures and arrays (default: poststack-output)
#   DISTLOPS_DEMO_TV      1 also runs the TV-regularised inversion of the same data
#                         (--regularisation tv, PrimalDual) into DISTLOPS_DEMO_OUTPUT-tv and
#                         draws it beside the least-squares one (comparison.png; default: 0)
#   DISTLOPS_PYTHON       interpreter of the plotting script (default: /usr/bin/python3, the
#                         Debian interpreter that python3-matplotlib belongs to, else python3)
set -euo pipefail

root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$root"

# The program the demo runs: a target of examples/CMakeLists.txt, and its arguments.
demo_target="poststack_inversion"
output="${DISTLOPS_DEMO_OUTPUT:-poststack-output}"
demo_args=(--nx 256 --nz 256 --noise 0.3 --eps 1 --niter 100 --output "$output")
tv_args=(--nx 256 --nz 256 --noise 0.3 --regularisation tv --weight 0.02 --niter 100
         --output "$output-tv")
plot_script="examples/poststack/plot_poststack.py"

build_dir="${DISTLOPS_BUILD_DIR:-build}"
ranks="${DISTLOPS_DEMO_RANKS:-2}"

if [ "${DISTLOPS_SETUP:-1}" != "0" ]; then
  bash scripts/setup.sh
fi

generator=()
if [ ! -f "$build_dir/CMakeCache.txt" ] && command -v ninja >/dev/null 2>&1; then
  generator=(-G Ninja)
fi
cmake -S . -B "$build_dir" "${generator[@]}" -DCMAKE_BUILD_TYPE=Release \
  -DDISTLOPS_ENABLE_CUDA=AUTO -DDISTLOPS_ENABLE_EXAMPLES=ON >/dev/null
cmake --build "$build_dir" -j "$(nproc)" --target "$demo_target"

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
