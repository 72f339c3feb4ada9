#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-3-Clause
# Copyright (c) 2026 The distlops authors
# Installs the build and test dependencies of distlops that are missing on this machine.
# Idempotent and non-interactive: installs nothing when everything is present.
#
#   bash scripts/setup.sh            # everything scripts/test.sh needs
#   bash scripts/setup.sh --demo     # what scripts/demo.sh needs: the library's required
#                                    # dependencies and matplotlib (about 150 MB to download
#                                    # besides the compiler, against 250 MB for everything)
#   bash scripts/setup.sh --python   # what pip install . needs: those and Python's headers and
#                                    # venv (docs/python.md)
set -euo pipefail

# The library's required dependencies, and what the demo draws its pictures with.
demo_packages=(
  build-essential cmake ninja-build pkg-config
  openmpi-bin libopenmpi-dev
  libeigen3-dev libfftw3-dev
  # OpenBLAS: the host's dense products; CLI11 and nlohmann-json: command lines and reports;
  # xxHash for the checkpoints' checksums.
  libopenblas-pthread-dev libcli11-dev nlohmann-json3-dev
  zlib1g-dev libxxhash-dev
  # matplotlib (for Debian's python3): the demo's and the benchmark sweep's pictures; NumPy for
  # the system's python3, which the NumPy exchange tests also use when the python3 on PATH has
  # none (cmake/DistlopsTesting.cmake).
  python3 python3-numpy python3-matplotlib
)
packages=(
  "${demo_packages[@]}"
  catch2
  # Parallel HDF5 for each MPI (the default build uses Open MPI's, the sanitizer pass MPICH's),
  # h5py to exchange files with Python in the tests.
  libhdf5-openmpi-dev libhdf5-mpich-dev python3-h5py
  # segyio: post-stack SEG-Y input, and its Python module to write the tests' files.
  libsegyio-dev python3-segyio
  clang-14 libclang-rt-14-dev
  # lld: scripts/test.sh links with it, in a fifth of GNU ld's time.
  lld
  # MPICH beside Open MPI (Debian's alternatives keep Open MPI the default mpicxx/mpiexec):
  # scripts/test.sh's sanitizer pass builds and runs against it with mpicxx.mpich/mpiexec.mpich.
  mpich libmpich-dev
  # Doxygen: the API reference (the docs target and its ctest entry).
  doxygen
  # ip (network namespaces, veth pairs, a bridge) and unshare: the several-host test
  # (hosts.netns.np4, scripts/netns_cluster.sh) makes its hosts with them.
  iproute2 util-linux
  # The virtual environment of the PyLops-MPI comparison and of the Python package's tests, and
  # Python's headers for building the package's extension (python/, docs/python.md).
  python3-venv python3-dev
)

case "${1:-}" in
  --demo) packages=("${demo_packages[@]}") ;;
  --python) packages=("${demo_packages[@]}" python3-venv python3-dev) ;;
  "") ;;
  *)
    echo "setup.sh: unknown argument '$1' (--demo installs only what scripts/demo.sh needs," \
      "--python what pip install . needs)" >&2
    exit 2
    ;;
esac

missing=()
for package in "${packages[@]}"; do
  if ! dpkg-query -W -f='${Status}' "$package" 2>/dev/null | grep -q "install ok installed"; then
    missing+=("$package")
  fi
done

if [ ${#missing[@]} -eq 0 ]; then
  echo "setup: all dependencies present"
  exit 0
fi

echo "setup: installing ${missing[*]}"
sudo_cmd=()
if [ "$(id -u)" -ne 0 ]; then
  sudo_cmd=(sudo)
fi
export DEBIAN_FRONTEND=noninteractive
"${sudo_cmd[@]}" apt-get update -qq
"${sudo_cmd[@]}" apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
echo "setup: done"
