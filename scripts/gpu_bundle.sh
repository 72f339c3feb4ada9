#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-3-Clause
# Copyright (c) 2026 The distlops authors
# Gathers into one folder what a bare GPU machine lacks for scripts/gpu_test.sh, packed to travel
# with the working tree (64 MiB in all, docs/gpu.md):
#
# - to build distlops' library, GPU tests and benchmark driver: Eigen, Catch2 v2, FFTW, OpenBLAS,
#   zlib, xxHash's header, nlohmann-json, CLI11, pkg-config and Open MPI (headers, libraries,
#   mpiexec, the wrappers and their run-time libraries), from Debian: downloaded (apt-get
#   download) and unpacked (dpkg -x), nothing installed; runs on a Debian machine with the
#   package registry (as root, or with sudo for apt-get update);
# - NCCL 2.30 or newer, whose multi-rank mode lets ranks that share the one GPU form a
#   communicator: the nvidia-nccl-cu13 wheel (pip download), its library cut to the code of the
#   GPU's architecture (scripts/gpu_cut_nccl.py: 190 MiB of code for eight architectures become
#   about 24 MiB packed for one);
# - the PyLops-MPI peer of the benchmarks: the wheels of pylops, pylops-mpi, pyproximal (pure
#   Python) and mpi4py for the GPU machine's Python (CuPy is on its image);
# - the identity of the sources: the commit and a digest of the tracked files, so that a run's
#   summary names its commit where the tree travels without its history.
#
# The CUDA libraries are not gathered: the build on the GPU machine uses that machine's toolkit,
# links its cudart, and records where its cuBLAS and cuFFT are, which the library opens on first
# use (by SONAME, else by that path; docs/gpu.md).
#
#   bash scripts/gpu_bundle.sh OUTDIR        # e.g. gpu-deps (ignored by git)
#
# OUTDIR then holds usr.tar.xz (the Debian files: the first source of env.sh unpacks them into
# usr/), nccl.tar.xz (unpacked into nccl/ alike), wheels/, bin/ (mpiexec, mpicxx, pkg-config),
# env.sh (source it: PATH, LD_LIBRARY_PATH, CMAKE_PREFIX_PATH, PKG_CONFIG_*, OPAL_PREFIX ...,
# DISTLOPS_DEPS_NCCL and DISTLOPS_DEPS_WHEELS), SOURCES (the tracked files) and MANIFEST (package
# versions, sizes, the newest glibc the files need, the commit and the digest of SOURCES). The
# folder is relocatable: copy it anywhere (scripts/gpu_test.sh --deps OUTDIR sources its env.sh).
#
# Environment knobs:
#   DISTLOPS_BUNDLE_NCCL     nvidia-nccl-cu13 version (default: 2.32.6), or none
#   DISTLOPS_BUNDLE_ARCH     GPU architecture NCCL is cut to (default: 90, the H100 and H200)
#   DISTLOPS_BUNDLE_PYTHON   Python version of the GPU machine's interpreter (default: 3.12)
#
# Open MPI rather than MPICH: Debian's Open MPI relocates with OPAL_PREFIX and its core needs
# only hwloc, libevent, PMIx and zlib; components whose libraries are not in the folder
# (InfiniBand, UCX, libfabric, PSM, OpenSHMEM) are removed, as the machine has one node.
set -euo pipefail

if [ $# -ne 1 ] || [ "${1:0:1}" = "-" ]; then
  echo "usage: bash scripts/gpu_bundle.sh OUTDIR" >&2
  exit 2
fi
for tool in apt-get dpkg readelf python3 git; do
  if ! command -v "$tool" >/dev/null 2>&1; then
    echo "gpu_bundle.sh: $tool not found (this script runs on Debian or Ubuntu)" >&2
    exit 1
  fi
done
arch_triplet="$(dpkg-architecture -qDEB_HOST_MULTIARCH 2>/dev/null || gcc -dumpmachine)"
out="$1"
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
nccl_version="${DISTLOPS_BUNDLE_NCCL:-2.32.6}"
nccl_arch="${DISTLOPS_BUNDLE_ARCH:-90}"
python_version="${DISTLOPS_BUNDLE_PYTHON:-3.12}"
if [ -e "$out" ] && [ -n "$(ls -A "$out" 2>/dev/null)" ]; then
  if [ ! -f "$out/MANIFEST" ]; then
    echo "gpu_bundle.sh: $out exists, is not empty and is not a bundle; refusing to overwrite it" >&2
    exit 1
  fi
  rm -rf "$out"
fi
mkdir -p "$out"
out="$(cd "$out" && pwd)"
size_limit_mib=64

packages=(
  libeigen3-dev catch2
  libfftw3-dev libfftw3-double3 libfftw3-single3
  libopenblas-pthread-dev libopenblas0-pthread libgfortran5 libquadmath0
  nlohmann-json3-dev libcli11-dev libxxhash-dev libxxhash0
  zlib1g zlib1g-dev
  pkgconf-bin libpkgconf3
  openmpi-bin openmpi-common libopenmpi3 libopenmpi-dev
  libpmix2 libhwloc15 libevent-core-2.1-7 libevent-pthreads-2.1-7 libmunge2 libudev1
)

work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
echo "gpu_bundle.sh: downloading ${#packages[@]} packages"
if ! (cd "$work" && apt-get download -q "${packages[@]}" >"$work/download.log" 2>&1); then
  echo "gpu_bundle.sh: apt-get download failed; refreshing the package lists"
  sudo_cmd=()
  if [ "$(id -u)" -ne 0 ]; then sudo_cmd=(sudo); fi
  "${sudo_cmd[@]}" apt-get update -qq
  (cd "$work" && apt-get download -q "${packages[@]}") || {
    echo "gpu_bundle.sh: apt-get download failed" >&2
    exit 1
  }
fi
for deb in "$work"/*.deb; do
  dpkg -x "$deb" "$out"
  dpkg-deb -f "$deb" Package Version | sed 's/^[^:]*: //' | paste -sd' ' >>"$work/versions"
done

# ---- prune what a build and a run on one node do not use ---------------------------------------
cd "$out"
rm -rf usr/share/doc usr/share/man usr/share/info usr/share/lintian usr/share/bash-completion \
  usr/share/aclocal usr/share/Catch2 usr/share/pkgconfig/personality.d
lib="usr/lib/$arch_triplet"
# Static libraries (the build links the shared ones; Catch2's package configuration names its
# main library, so it stays), Fortran, Java and OpenSHMEM parts of Open MPI, FFTW's long-double,
# quad, OpenMP and threads variants.
find . -name '*.a' ! -name 'libCatch2WithMain.a' -delete
rm -rf "$lib/fortran" "$lib"/openmpi/lib/mpi.jar "$lib"/libmpi_java* "$lib"/openmpi/lib/libmpi_java* \
  "$lib"/libmpi_mpifh* "$lib"/libmpi_usempi* "$lib"/openmpi/lib/libmpi_mpifh* \
  "$lib"/openmpi/lib/libmpi_usempi* "$lib"/liboshmem* "$lib"/openmpi/lib/liboshmem* \
  "$lib"/libfftw3l* "$lib"/libfftw3q* "$lib"/libfftw3*_omp* "$lib"/libfftw3*_threads* \
  "$lib"/pkgconfig/fftw3l.pc "$lib"/pkgconfig/fftw3q.pc
# OpenBLAS's reference-interface BLAS and LAPACK: the library calls CBLAS in libopenblas only.
rm -f "$lib"/openblas-pthread/libblas* "$lib"/openblas-pthread/liblapack* \
  "$lib"/openblas-pthread/pkgconfig/{blas,lapack}-openblas.pc
find usr/bin -name '*mpif*' -delete
find usr/bin -name '*osh*' -delete
find usr/bin -name '*java*' -delete
find usr/share/openmpi -name 'mpif*' -delete -o -name 'osh*' -delete

# /lib/<triplet> (zlib) into /usr/lib/<triplet>: one library folder.
if [ -d "lib/$arch_triplet" ]; then
  mkdir -p "$lib"
  mv "lib/$arch_triplet"/* "$lib"/
  rm -rf lib
fi

# Absolute symbolic links point at this machine's files: make them relative to the folder, or
# remove them when their target was not gathered.
while IFS= read -r link; do
  target="$(readlink "$link")"
  case "$target" in
    /lib/*) inside="usr$target" ;;
    /*) inside="${target#/}" ;;
    *) continue ;;
  esac
  if [ -e "$inside" ]; then
    ln -sfn "$(realpath -s --relative-to="$(dirname "$link")" "$inside")" "$link"
  else
    rm -f "$link"
  fi
done < <(find . -type l)
# Links whose targets were pruned.
find . -xtype l -delete

# ---- keep only the plugins whose libraries are all here ------------------------------------------
# Libraries every Linux machine with a C++ compiler has.
base_libraries=" libc.so.6 libm.so.6 libpthread.so.0 libdl.so.2 librt.so.1 libutil.so.1 \
ld-linux-x86-64.so.2 ld-linux-aarch64.so.1 libstdc++.so.6 libgcc_s.so.1 "
is_elf() { [ "$(head -c 4 "$1" 2>/dev/null | od -An -c | tr -d ' ')" = '177ELF' ]; }
needed() { readelf -d "$1" 2>/dev/null | sed -n 's/.*(NEEDED).*\[\(.*\)\]/\1/p'; }
have_library() {
  case "$base_libraries" in *" $1 "*) return 0 ;; esac
  [ -e "$lib/$1" ] || [ -e "$lib/openmpi/lib/$1" ] || [ -e "$lib/pmix2/lib/$1" ] ||
    [ -e "$lib/openblas-pthread/$1" ]
}
missing_of() {
  local library
  for library in $(needed "$1"); do
    have_library "$library" || echo "$library"
  done
}
removed=()
for plugin in "$lib"/openmpi/lib/openmpi3/*.so "$lib"/pmix2/lib/pmix/*.so "$lib"/hwloc/*.so \
  "$lib"/libmca_common_*.so.*; do
  [ -L "$plugin" ] && continue
  [ -e "$plugin" ] || continue
  if [ -n "$(missing_of "$plugin")" ]; then
    removed+=("$(basename "$plugin")")
    rm -f "$plugin" "${plugin%.so}.la"
  fi
done
# OpenSHMEM components (libraries removed above) and the common libraries nothing loads now.
rm -f "$lib"/openmpi/lib/openmpi3/mca_{atomic,memheap,scoll,spml,sshmem}_*
echo "gpu_bundle.sh: removed ${#removed[@]} plugins and libraries for other networks: ${removed[*]}"
find . -xtype l -delete

# Every remaining program and library must find all its libraries in the folder or the base set.
problems=0
while IFS= read -r file; do
  is_elf "$file" || continue
  for library in $(missing_of "$file"); do
    echo "gpu_bundle.sh: $file needs $library, which is not gathered" >&2
    problems=1
  done
done < <(find usr -type f \( -name '*.so*' -o -perm -u+x \))
[ "$problems" -eq 0 ] || exit 1

# ---- entry points and environment ----------------------------------------------------------------
mkdir -p bin
for program in mpiexec mpirun mpicc mpicxx mpic++ ompi_info; do
  for candidate in "usr/bin/$program.openmpi" "usr/bin/$program"; do
    if [ -e "$candidate" ]; then
      ln -sfn "../$candidate" "bin/$program"
      break
    fi
  done
done
ln -sfn ../usr/bin/pkgconf bin/pkg-config
for program in mpiexec mpicxx pkg-config; do
  [ -e "bin/$program" ] || {
    echo "gpu_bundle.sh: bin/$program is missing from the bundle" >&2
    exit 1
  }
done

cat >env.sh <<EOF
# Puts the bundle of scripts/gpu_bundle.sh first in the search paths: source it (bash).
# Relocatable: every path is derived from where this file lies.
DISTLOPS_DEPS="\$(cd "\$(dirname "\${BASH_SOURCE[0]}")" && pwd)"
export DISTLOPS_DEPS
# The files travel packed (usr.tar.xz): the first use unpacks them beside this file.
for _distlops_part in usr nccl; do
  if [ ! -d "\$DISTLOPS_DEPS/\$_distlops_part" ] && [ -f "\$DISTLOPS_DEPS/\$_distlops_part.tar.xz" ]; then
    tar -C "\$DISTLOPS_DEPS" -xJf "\$DISTLOPS_DEPS/\$_distlops_part.tar.xz" &&
      rm -f "\$DISTLOPS_DEPS/\$_distlops_part.tar.xz"
  fi
done
unset _distlops_part
# NCCL (2.30 or newer, cut to one GPU architecture) and the peer's wheels: scripts/gpu_test.sh
# decides whether to use them; nothing here puts them on a search path.
if [ -d "\$DISTLOPS_DEPS/nccl" ]; then export DISTLOPS_DEPS_NCCL="\$DISTLOPS_DEPS/nccl"; fi
if [ -d "\$DISTLOPS_DEPS/wheels" ]; then export DISTLOPS_DEPS_WHEELS="\$DISTLOPS_DEPS/wheels"; fi
_distlops_lib="\$DISTLOPS_DEPS/usr/lib/$arch_triplet"
export PATH="\$DISTLOPS_DEPS/bin:\$DISTLOPS_DEPS/usr/bin\${PATH:+:\$PATH}"
export LD_LIBRARY_PATH="\$_distlops_lib:\$_distlops_lib/openblas-pthread:\$_distlops_lib/openmpi/lib:\$_distlops_lib/pmix2/lib\${LD_LIBRARY_PATH:+:\$LD_LIBRARY_PATH}"
export CMAKE_PREFIX_PATH="\$DISTLOPS_DEPS/usr\${CMAKE_PREFIX_PATH:+:\$CMAKE_PREFIX_PATH}"
export MPI_HOME="\$DISTLOPS_DEPS/usr"
# The .pc files say prefix=/usr: the sysroot puts the folder in front of their paths, and only
# the folder's .pc files are read.
export PKG_CONFIG="\$DISTLOPS_DEPS/bin/pkg-config"
export PKG_CONFIG_SYSROOT_DIR="\$DISTLOPS_DEPS"
export PKG_CONFIG_LIBDIR="\$_distlops_lib/pkgconfig:\$_distlops_lib/openblas-pthread/pkgconfig:\$DISTLOPS_DEPS/usr/share/pkgconfig"
unset PKG_CONFIG_PATH
# Open MPI and PMIx were built for /usr: these variables move their prefixes here; the
# configuration files of /etc/openmpi are not read.
export OPAL_PREFIX="\$DISTLOPS_DEPS/usr"
export OPAL_LIBDIR="\$_distlops_lib/openmpi/lib"
export OPAL_SYSCONFDIR="\$DISTLOPS_DEPS/etc/openmpi"
export PMIX_INSTALL_PREFIX="\$DISTLOPS_DEPS/usr"
export PMIX_MCA_mca_base_component_path="\$_distlops_lib/pmix2/lib/pmix"
# One node: start ranks without ssh (which a bare machine may lack).
export OMPI_MCA_plm_rsh_agent=
export OMPI_MCA_btl_vader_single_copy_mechanism=none
# A PMIx of the machine's own, if any, offers its compression plugin, built for another PMIx:
# the warning that it cannot be loaded says nothing about the run.
export PMIX_MCA_pcompress_base_silence_warning=1
unset _distlops_lib
EOF

# The newest glibc symbol version any gathered file needs: the GPU machine's glibc must be at
# least this (getconf GNU_LIBC_VERSION); env.sh users can compare.
glibc_needed="$(find usr -type f \( -name '*.so*' -o -perm -u+x \) -exec sh -c \
  'for f; do readelf -V "$f" 2>/dev/null || true; done' sh {} + |
  grep -o 'GLIBC_[0-9][0-9.]*' | sed 's/GLIBC_//' | sort -uV | tail -n 1)"
size_kib="$(du -sk . | cut -f1)"
{
  echo "distlops GPU build dependencies, gathered by scripts/gpu_bundle.sh on $(date -u +%Y-%m-%d)"
  echo "from: $(sed -n 's/^PRETTY_NAME="\(.*\)"/\1/p' /etc/os-release) ($arch_triplet)"
  echo "size_kib: $size_kib (unpacked)"
  echo "glibc_needed: ${glibc_needed:-unknown}"
  echo "packages:"
  sort "$work/versions" | sed 's/^/  /'
} >MANIFEST
echo "gpu_bundle.sh: $(sed -n '3,4p' MANIFEST | paste -sd' ')"


# Smoke test: two ranks of the gathered mpiexec (a minute at most).
allow_root=()
if [ "$(id -u)" -eq 0 ]; then allow_root=(--allow-run-as-root); fi
if bash -c '. "$1/env.sh" && shift && exec timeout 60 mpiexec "$@" -n 2 hostname' \
  sh "$out" --oversubscribe "${allow_root[@]}" >"$work/smoke.log" 2>&1; then
  echo "gpu_bundle.sh: mpiexec -n 2 hostname from the bundle: ok"
else
  echo "gpu_bundle.sh: mpiexec -n 2 hostname from the bundle failed:" >&2
  cat "$work/smoke.log" >&2
  exit 1
fi
# Packed for the journey: OpenBLAS alone takes 35 MiB unpacked (one kernel set per processor).
XZ_OPT="-6 -T0" tar -C "$out" -cJf "$out/usr.tar.xz" usr
rm -rf "${out:?}/usr"

# ---- NCCL 2.30 or newer, cut to the GPU's architecture ------------------------------------------
pip_download() {
  python3 -m pip download -q --no-deps --only-binary=:all: --python-version "$python_version" \
    --implementation cp --platform manylinux_2_28_x86_64 --platform manylinux_2_27_x86_64 \
    --platform manylinux_2_17_x86_64 --platform manylinux2014_x86_64 \
    --platform manylinux_2_5_x86_64 --platform manylinux1_x86_64 "$@"
}
if [ "$nccl_version" != "none" ]; then
  echo "gpu_bundle.sh: NCCL $nccl_version (nvidia-nccl-cu13), cut to sm_$nccl_arch"
  pip_download -d "$work/nccl-wheel" "nvidia-nccl-cu13==$nccl_version"
  mkdir -p "$work/nccl-files" "$out/nccl/include" "$out/nccl/lib"
  (cd "$work/nccl-files" && python3 -m zipfile -e "$work"/nccl-wheel/*.whl .)
  cp "$work/nccl-files/nvidia/nccl/include/nccl.h" "$out/nccl/include/"
  python3 "$root/scripts/gpu_cut_nccl.py" --arch "$nccl_arch" \
    "$work/nccl-files/nvidia/nccl/lib/libnccl.so.2" "$out/nccl/lib/libnccl.so.2"
  ln -s libnccl.so.2 "$out/nccl/lib/libnccl.so"
  nccl_cuda="$(grep -a -o -m1 'NCCL version [0-9.]* compiled with CUDA [0-9.]*' \
    "$out/nccl/lib/libnccl.so.2" | sed 's/.*with //')"
  rm -rf "$work/nccl-files" "$work/nccl-wheel"
  XZ_OPT="-6 -T0" tar -C "$out" -cJf "$out/nccl.tar.xz" nccl
  rm -rf "$out/nccl"
fi

# ---- the PyLops-MPI peer's wheels (the versions of tests/porting/compare_poststack.py) -------------
peer_wheels=(pylops==2.8.0 pylops-mpi==0.8.0 pyproximal==0.13.0 mpi4py==4.1.2)
echo "gpu_bundle.sh: wheels for Python $python_version: ${peer_wheels[*]}"
pip_download -d "$out/wheels" "${peer_wheels[@]}"

# ---- the sources' identity ------------------------------------------------------------------------
# The tracked files and a digest of their contents: where the tree travels without its history,
# scripts/gpu_test.sh recomputes the digest to tell whether the commit below is what it runs.
git -C "$root" ls-files >"$out/SOURCES"
sources_digest="$(cd "$root" && tr '\n' '\0' <"$out/SOURCES" | xargs -0 sha256sum | sha256sum | cut -d' ' -f1)"
commit="$(git -C "$root" rev-parse --short HEAD)"
git -C "$root" diff --quiet HEAD || commit="$commit with local changes"
{
  [ "$nccl_version" != "none" ] &&
    echo "nccl: $nccl_version (nvidia-nccl-cu13, compiled with ${nccl_cuda:-an unknown CUDA}), cut to sm_$nccl_arch: $(du -k "$out/nccl.tar.xz" | cut -f1) KiB packed"
  echo "wheels: ${peer_wheels[*]} (Python $python_version)"
  echo "commit: $commit"
  echo "sources: $sources_digest"
} >>MANIFEST

size_kib="$(du -sk "$out" | cut -f1)"
size_mib=$(((size_kib + 1023) / 1024))
tree_kib="$(cd "$root" && git ls-files -z -co --exclude-standard | du -ck --files0-from=- 2>/dev/null | tail -n 1 | cut -f1)"
tree_mib=$(((tree_kib + 1023) / 1024))
if [ $((size_mib + tree_mib)) -gt "$size_limit_mib" ]; then
  echo "gpu_bundle.sh: the bundle ($size_mib MiB) and the working tree ($tree_mib MiB) take more than $size_limit_mib MiB" >&2
  exit 1
fi
echo "gpu_bundle.sh: $out: $size_mib MiB packed, with the working tree $((size_mib + tree_mib)) MiB of the $size_limit_mib MiB that travel"
echo "gpu_bundle.sh: use it with: bash scripts/gpu_test.sh --deps $out --out OUTDIR"
