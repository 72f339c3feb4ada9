#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-3-Clause
# Copyright (c) 2026 The distlops authors
# The scaling figures of docs/benchmarks.md ("Scaling beyond this machine"), from scratch:
# builds the driver for SimGrid's SMPI (scripts/smpi_build.sh), measures this machine
# (benchmarks/scaling.py calibrate: triad, ping-pong), runs every study at 1 to 4 ranks here
# (measure) and at 1 to 1,024 simulated ranks (simulate, communication and online), and draws
# the figure (report). Needs the main build's driver (build/benchmarks/distlops_bench),
# libsimgrid-dev and Debian's python3-matplotlib. Hours of one core on a 2-core machine: the
# simulations execute every rank's computation here.
#
#   scripts/simulate_cluster.sh [OUT]        (default out/scaling)
#
# SCALING_SLOWDOWN=x fixes the simulated cores' slowdown against this machine's (default 1:
# see docs/benchmarks.md for why the triad ratio of a shared machine is not used).
set -euo pipefail

root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
out="${1:-$root/out/scaling}"
cd "$root"
bash scripts/smpi_build.sh
python=/usr/bin/python3
$python benchmarks/scaling.py calibrate --bench build/benchmarks/distlops_bench --out "$out" \
  --tries 5 --slowdown "${SCALING_SLOWDOWN:-1}"
$python benchmarks/scaling.py measure --bench build/benchmarks/distlops_bench --out "$out"
for mode in communication online; do
  $python benchmarks/scaling.py simulate --mode "$mode" --bench build-smpi/benchmarks/distlops_bench \
    --out "$out"
done
$python benchmarks/scaling.py report --out "$out" --figure docs/images/scaling.png \
  --studies laplacian-cg fft2d blockdiag-cgls tiny-cgls
# Slabs against boxes and pencils: laplacian3d-cg and fft3d.
$python benchmarks/scaling.py report --out "$out" --figure docs/images/scaling_box.png \
  --studies laplacian3d-cg fft3d --summary summary-box.json \
  --title "indicative where times matter: computation timed on a shared, loaded 2-core machine"
