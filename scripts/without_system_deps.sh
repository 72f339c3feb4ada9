#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-3-Clause
# Copyright (c) 2026 The distlops authors
# Runs a command where this machine's copies of the dependencies that scripts/gpu_bundle.sh
# gathers (Eigen, Catch2, FFTW, OpenBLAS, zlib and xxHash headers, nlohmann-json, CLI11,
# pkg-config, Open MPI and its libraries, ssh) are
# hidden, as on a bare GPU machine: in a private mount namespace, overlays with whiteouts cover
# them. Nothing is uninstalled and nothing changes outside the command. Needs root (unshare,
# mount, mknod).
#
#   bash scripts/without_system_deps.sh bash scripts/gpu_test.sh --deps gpu-deps --build-only
set -euo pipefail

if [ $# -eq 0 ]; then
  echo "usage: bash scripts/without_system_deps.sh COMMAND [ARGUMENTS...]" >&2
  exit 2
fi
if [ "${DISTLOPS_IN_HIDDEN_NAMESPACE:-0}" != "1" ]; then
  if [ "$(id -u)" -ne 0 ]; then
    echo "without_system_deps.sh: needs root (mount namespaces and overlays)" >&2
    exit 1
  fi
  exec env DISTLOPS_IN_HIDDEN_NAMESPACE=1 unshare --mount --propagation private \
    bash "${BASH_SOURCE[0]}" "$@"
fi

triplet="$(gcc -dumpmachine 2>/dev/null || echo x86_64-linux-gnu)"
layers="$(mktemp -d)"
# hide <folder> <glob patterns relative to it...>: an overlay on the folder whose upper layer
# holds a whiteout (character device 0/0) for every existing match.
hide() {
  local folder="$1"
  shift
  [ -d "$folder" ] || return 0
  local layer
  layer="$layers/$(echo "$folder" | tr / _)"
  mkdir -p "$layer/upper" "$layer/work"
  local pattern path hidden=0
  for pattern in "$@"; do
    for path in "$folder"/$pattern; do
      [ -e "$path" ] || [ -L "$path" ] || continue
      local relative="${path#"$folder"/}"
      [ -e "$layer/upper/$relative" ] && continue
      mkdir -p "$layer/upper/$(dirname "$relative")"
      mknod "$layer/upper/$relative" c 0 0
      hidden=$((hidden + 1))
    done
  done
  [ "$hidden" -gt 0 ] || return 0
  mount -t overlay overlay -o "lowerdir=$folder,upperdir=$layer/upper,workdir=$layer/work" "$folder"
  echo "without_system_deps.sh: hid $hidden entries of $folder"
}

hide /usr/include eigen3 catch2 'fftw3*' zlib.h zconf.h hwloc hwloc.h event.h event2 \
  "$triplet/mpi" "$triplet/openmpi" "$triplet/openblas*" 'xxh*' nlohmann CLI
hide "/usr/lib/$triplet" openmpi 'libmpi*' 'libopen-*' 'libfftw3*' libz.so libz.a 'libpmix*' pmix2 \
  'libhwloc*' hwloc 'libevent*' 'libmunge*' 'libpkgconf*' 'libmca_common*' 'libompitrace*' \
  'liboshmem*' 'openblas*' 'libopenblas*' 'libblas*' 'liblapack*' 'libxxhash*' cmake/openblas \
  'pkgconfig/fftw3*' 'pkgconfig/mpi*' 'pkgconfig/ompi*' pkgconfig/orte.pc pkgconfig/pmix.pc \
  pkgconfig/zlib.pc pkgconfig/hwloc.pc 'pkgconfig/libevent*' 'pkgconfig/openblas*' \
  'pkgconfig/blas*' 'pkgconfig/lapack*' pkgconfig/libxxhash.pc
hide /usr/lib/cmake Catch2
hide /usr/share eigen3 openmpi Catch2 pkgconfig/eigen3.pc pkgconfig/catch2.pc \
  cmake/nlohmann_json cmake/CLI11 pkgconfig/nlohmann_json.pc pkgconfig/CLI11.pc
hide /usr/bin 'mpi*' 'orte*' orted 'ompi*' 'opal*' 'osh*' pkg-config pkgconf '*-pkg-config' \
  '*-pkgconf' ssh
hide /etc openmpi 'alternatives/mpi*' 'alternatives/libmpi*' 'alternatives/*openblas*' \
  'alternatives/libblas*' 'alternatives/liblapack*'

exec "$@"
