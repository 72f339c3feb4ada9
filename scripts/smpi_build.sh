#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-3-Clause
# Copyright (c) 2026 The distlops authors
# Builds the benchmark driver against SimGrid's SMPI (Debian's libsimgrid-dev), for the
# simulated cluster of docs/benchmarks.md ("Scaling beyond this machine"):
#
#   scripts/smpi_build.sh [BUILD_DIR]        (default build-smpi)
#
# Host only (no CUDA, no HDF5: parallel HDF5 is built against a real MPI), libdistlops static
# and linked into the driver, which is linked as a shared object: smpirun loads one copy of it
# per simulated rank (smpi/privatization:dlopen), so that every rank has its own globals and
# thread-locals. SMPI's mpi.h comes first on the include path. smpicxx itself is not the
# compiler: it force-includes smpi_helpers.h, whose function-like macros (exit, free, malloc,
# sleep, ...) rename members of that name in C++ headers (CLI11's App::exit); the driver times
# with MPI_Wtime, the one clock SMPI needs to simulate, so it needs none of them.
set -euo pipefail

root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
build="${1:-$root/build-smpi}"
if [ ! -f /usr/include/smpi/mpi.h ] || [ ! -e /usr/lib/x86_64-linux-gnu/libsimgrid.so ]; then
  echo "smpi_build: SimGrid's SMPI not found (apt-get install libsimgrid-dev)" >&2
  exit 1
fi
launcher=()
if command -v ccache >/dev/null 2>&1; then
  launcher=(-DCMAKE_CXX_COMPILER_LAUNCHER=ccache)
fi
linker=""
if command -v ld.lld >/dev/null 2>&1; then
  linker="-fuse-ld=lld"
fi
generator=()
if [ ! -f "$build/CMakeCache.txt" ] && command -v ninja >/dev/null 2>&1; then
  generator=(-G Ninja)
fi
# FindMPI cannot interrogate SMPI's wrapper without its macros: MPI_CXX_WORKS tells it the
# compiler works, and the include path and library come through the global flags. Every object
# is compiled -fPIC (the program is a shared object) and without precompiled headers (the
# examples' one would be built for a library and reused by a program).
cmake -S "$root" -B "$build" "${generator[@]}" -DCMAKE_BUILD_TYPE=Release \
  -DCMAKE_CXX_COMPILER=c++ -DMPI_CXX_COMPILER=c++ -DMPI_CXX_WORKS=ON -DMPI_CXX_VERSION=3.1 \
  "-DCMAKE_CXX_FLAGS=-I/usr/include/smpi -fPIC" -DCMAKE_CXX_STANDARD_LIBRARIES=-lsimgrid \
  "-DCMAKE_EXE_LINKER_FLAGS=-shared -Wl,-z,now $linker" \
  -DCMAKE_DISABLE_PRECOMPILE_HEADERS=ON \
  -DBUILD_SHARED_LIBS=OFF -DDISTLOPS_ENABLE_CUDA=OFF -DDISTLOPS_ENABLE_HDF5=OFF \
  -DDISTLOPS_ENABLE_SEGYIO=OFF -DDISTLOPS_ENABLE_TESTS=OFF -DDISTLOPS_ENABLE_EXAMPLES=OFF \
  -DDISTLOPS_ENABLE_BENCHMARKS=ON "${launcher[@]}"
cmake --build "$build" --target distlops_bench -j "${DISTLOPS_BUILD_JOBS:-2}"
echo "smpi_build: $build/benchmarks/distlops_bench"
